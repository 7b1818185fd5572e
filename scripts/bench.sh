#!/bin/bash
# make bench: boot once and run the direct-call benchmarks BENCH_ROUNDS times
# (default 3) in that boot, with the harness's test module ftsdo_test
# (tests/ftsdo-test): both sides, the batch API and one
# register_ftrace_direct() ops per function, on the patched kernel (the
# module needs the batch API: rootfs.sh builds it only there).  Per key,
# the median and the min-max spread over the rounds go to
# build/results/ARCH/bench.txt ("name median min max spread"); the raw
# rounds stay in bench-run/bench-round<K>.txt beside it.  Ratios measured
# in one boot are what count: absolute times under TCG mean little.
# Knobs: OBJ (the kernel to boot), BENCH_OUT (instead of
# build/results/ARCH), BENCH_DIRECT=0 (only the BPF part), BENCH_BPF,
# BENCH_BPF_N (see below), BENCH_MD=0 (no function metadata part),
# BENCH_ARM64=0 (no arm64 part).
set -eu
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
OUT=${BENCH_OUT:-$BUILD/results/$ARCH_NAME}
ROUNDS=${BENCH_ROUNDS:-3}
mkdir -p "$OUT"
if [ "${BENCH_DIRECT:-1}" != 0 ]; then
	EXTRA_APPEND="FTSDO_BENCH_ROUNDS=$ROUNDS ${EXTRA_APPEND:-}" \
		"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" bench "$OUT/bench-run" 3000 ||
		die "the benchmark run failed (console: ${OUT#$TOP/}/bench-run/console.log)"
	"$TOP/scripts/results.py" bench "$OUT/bench-run" "$OUT/bench.txt" "$ROUNDS"
	# direct_functions with every function attached, once, after the rounds
	{
		echo "# direct_functions: dfn_lines functions attached in one batch; a read"
		echo "#   of each file; alone and while a reader loops over direct_functions,"
		echo "#   one chunk of available_filter_functions (ftrace_lock; mean, max of"
		echo "#   50) and a 16-function attach + detach (mean, max of 10); ms, 10 ms steps"
		cat "$OUT/bench-run/bench-dfn.txt"
		if [ -f "$OUT/bench-run/bench-dfn-single.txt" ]; then
			echo "# direct_functions with one register_ftrace_direct() ops per"
			echo "#   function (dfn_single_ops of them): a read of each file (mean, max of 3)"
			cat "$OUT/bench-run/bench-dfn-single.txt"
		fi
	} >>"$OUT/bench.txt"
else
	: >"$OUT/bench.txt"
fi

# BPF (x86_64): attach/detach of fentry programs and their per-call cost,
# with the same ftsdo-bpf binary on the unpatched base and on the series,
# each kernel built with the same config, booted side by side (one guest a
# core).  BENCH_BPF=0 leaves it out; BENCH_BPF_N: the N to measure (comma
# separated; the last is the largest set, reported without suffix).
if [ "$ARCH_NAME" = x86_64 ] && [ "${BENCH_BPF:-1}" != 0 ]; then
	BPF_N=${BENCH_BPF_N:-100,1000,2000}
	POBJ=${OBJ:-$BUILD/obj/$ARCH_NAME}
	BOBJ=$BUILD/base/obj/$ARCH_NAME
	base_worktree
	BASE_BUILD=1 "$TOP/scripts/build.sh" "$ARCH_NAME" "$BASE_SRC" "$BOBJ"
	# The series' build of ftsdo-bpf goes into the base's rootfs too (make
	# baseline rebuilds that rootfs with the base's own build).
	FTSDO_BPF_BIN=$POBJ/bpf/ftsdo-bpf "$TOP/scripts/rootfs.sh" "$ARCH_NAME" "$BASE_SRC" "$BOBJ"
	log "bpf bench: the same ftsdo-bpf (sha256 $(sha256sum "$POBJ/bpf/ftsdo-bpf" | cut -c1-16)) on both kernels, N = $BPF_N"
	pids=()
	for side in base series; do
		o=$POBJ
		[ $side = base ] && o=$BOBJ
		INITRD_TOOLS=1 OBJ=$o EXTRA_APPEND="FTSDO_BPF_BENCH_N=$BPF_N ${EXTRA_APPEND:-}" \
			"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" bench-bpf "$OUT/bench-bpf-$side" 3000 &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p" || die "a BPF benchmark run failed (consoles: ${OUT#$TOP/}/bench-bpf-*/console.log)"
	done
	"$TOP/scripts/results.py" bench-bpf "$OUT/bench-bpf-base" "$OUT/bench-bpf-series" \
		"${BPF_N##*,}" >>"$OUT/bench.txt"
fi
# Function metadata (x86_64): the cost of a call through the list function
# with 1, 8, 32 and 128 other ops registered, and of the shared direct ops
# finding a trampoline, in three boots of the same kernel: metadata in the
# padding, the hash forced, and metadata off.  Under QEMU -icount (1 ns per
# instruction), so the figures are path lengths; they model no caches.
# Also the text size of vmlinux with and without FTRACE_FUNC_METADATA (a
# vmlinux built from the same .config with only that option off, in
# build/obj/x86_64-nomd).  BENCH_MD=0 leaves it out.
if [ "$ARCH_NAME" = x86_64 ] && [ "${BENCH_MD:-1}" != 0 ] &&
	grep -q '^CONFIG_FTRACE_FUNC_METADATA=y' "${OBJ:-$BUILD/obj/$ARCH_NAME}/.config"; then
	# text_bytes_nomd: the same .config with the option off (vmlinux only)
	NOMD=$BUILD/obj/$ARCH_NAME-nomd
	mkdir -p "$NOMD"
	cp "${OBJ:-$BUILD/obj/$ARCH_NAME}/.config" "$NOMD/.config"
	"$LINUX/scripts/config" --file "$NOMD/.config" -d FTRACE_FUNC_METADATA
	# shellcheck disable=SC2086
	{ make -s -C "$LINUX" O="$NOMD" $LLVM_VARS olddefconfig &&
		! grep -q '^CONFIG_FTRACE_FUNC_METADATA=' "$NOMD/.config" &&
		make -s -C "$LINUX" O="$NOMD" CC="$(command -v ccache >/dev/null && echo "ccache ")$KCC" \
			$LLVM_VARS -j"$JOBS" vmlinux; } >"$NOMD/build.log" 2>&1 ||
		die "the build without FTRACE_FUNC_METADATA failed (${NOMD#$TOP/}/build.log)"
	pids=()
	for mode in padding hash off; do
		QEMU_ICOUNT="shift=0,sleep=off" EXTRA_APPEND="ftrace_md=$mode ${EXTRA_APPEND:-}" \
			"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" bench-md "$OUT/bench-md-$mode" 3000 &
		pids+=($!)
		# Two guests at a time (one host core each)
		if [ ${#pids[@]} = 2 ]; then
			wait "${pids[0]}" || die "a metadata benchmark run failed"
			pids=("${pids[1]}")
		fi
	done
	for p in "${pids[@]}"; do
		wait "$p" || die "a metadata benchmark run failed"
	done
	md() { # mode name
		awk -v n="$2" '$1 == n { print $2 }' "$OUT/bench-md-$1/bench-md.txt"
	}
	{
		for k in 1 8 32 128; do
			echo "list_k${k}_ns $(md padding list_k${k}_ns)"
			echo "list_k${k}_ns_hash $(md hash list_k${k}_ns)"
			echo "list_k${k}_ns_nomd $(md off list_k${k}_ns)"
		done
		for m in padding:"" hash:_hash off:_nomd; do
			echo "list_k128_over_k1${m#*:} $(awk -v a="$(md ${m%%:*} list_k128_ns)" \
				-v b="$(md ${m%%:*} list_k1_ns)" 'BEGIN { printf "%.3f", a / b }')"
		done
		echo "direct_shared_md_ns $(md padding direct_shared_ns)"
		echo "direct_shared_mdhash_ns $(md hash direct_shared_ns)"
		echo "direct_shared_hash_ns $(md off direct_shared_ns)"
		echo "untraced_ns $(md padding untraced_ns)"
		# (md - untraced) / (other - untraced): the hash forced, and off
		for m in hash off; do
			echo "direct_shared_md_over_${m} $(awk -v a="$(md padding direct_shared_ns)" \
				-v b="$(md $m direct_shared_ns)" -v u="$(md padding untraced_ns)" \
				'BEGIN { printf "%.3f", (a - u) / (b - u) }')"
		done
		# ftrace_set_filter_ip() growing a registered ops's filter one
		# function at a time (filter_ip_n calls), ns per call
		echo "filter_ip_n $(md padding filter_ip_n)"
		echo "filter_ip_ns $(md padding filter_ip_ns)"
		echo "filter_ip_ns_hash $(md hash filter_ip_ns)"
		echo "filter_ip_ns_nomd $(md off filter_ip_ns)"
		for m in padding:"" hash:_hash; do
			echo "filter_ip_over_nomd${m#*:} $(awk -v a="$(md ${m%%:*} filter_ip_ns)" \
				-v b="$(md off filter_ip_ns)" 'BEGIN { printf "%.3f", a / b }')"
		done
		text() { size "$1/vmlinux" | awk 'NR == 2 { print $1 }'; }
		echo "text_bytes_md $(text "${OBJ:-$BUILD/obj/$ARCH_NAME}")"
		echo "text_bytes_nomd $(text "$NOMD")"
	} >>"$OUT/bench.txt"
fi
# arm64 call-site ops (from x86_64's make bench): the cost of a call of a
# function whose only ops is the shared direct ops, its trampoline in BL
# range (the call site calls it), against the function untraced, in one
# boot of the arm64 kernel under QEMU -icount.  The kernel is built
# (incrementally) first.  The timings with the trampoline out of BL range
# (with and without call-site ops, and on its own register_ftrace_direct()
# ops: arm64_direct_far_*) needed the test kit's hooks in the core; the
# out-of-tree module (tests/ftsdo-test) has none.  Without the filter part
# of callbench (FTSDO_MD_FILTER=0), which this part does not report.
# BENCH_ARM64=0 leaves it out.
if [ "$ARCH_NAME" = x86_64 ] && [ "${BENCH_ARM64:-1}" != 0 ]; then
	"$TOP/scripts/build.sh" arm64 >&2 && "$TOP/scripts/rootfs.sh" arm64 >&2 ||
		die "building the arm64 kernel failed"
	OBJ=$BUILD/obj/arm64 QEMU_ICOUNT="shift=0,sleep=off" EXTRA_APPEND="FTSDO_MD_FILTER=0" \
		"$TOP/scripts/qemu-run.sh" arm64 bench-md "$OUT/bench-arm64" 3000 ||
		die "the arm64 benchmark run failed"
	a64() { awk -v n="$1" '$1 == n { print $2 }' "$OUT/bench-arm64/bench-md.txt"; }
	{
		for k in untraced direct_near; do
			echo "arm64_${k}_ns $(a64 ${k}_ns)"
		done
	} >>"$OUT/bench.txt"
fi
cat "$OUT/bench.txt"
log "written ${OUT#$TOP/}/bench.txt"
