#!/bin/bash
# make bench: boot once and run the direct-call benchmarks BENCH_ROUNDS times
# (default 3) in that boot.  Per key, the median and the min-max spread over
# the rounds go to build/results/ARCH/bench.txt ("name median min max
# spread"); the raw rounds stay in bench-run/bench-round<K>.txt beside it.
# Ratios measured in one boot are what count: absolute times under TCG mean
# little.  Knobs: OBJ (the kernel to boot), BENCH_OUT (instead of
# build/results/ARCH), BENCH_DIRECT=0 (only the BPF part), BENCH_BPF,
# BENCH_BPF_N (see below).
set -eu
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
OUT=${BENCH_OUT:-$BUILD/results/$ARCH_NAME}
ROUNDS=${BENCH_ROUNDS:-3}
if [ "${BENCH_DIRECT:-1}" != 0 ]; then
	EXTRA_APPEND="FTSDO_BENCH_ROUNDS=$ROUNDS ${EXTRA_APPEND:-}" \
		"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" bench "$OUT/bench-run" 3000 ||
		die "the benchmark run failed (console: ${OUT#$TOP/}/bench-run/console.log)"
	"$TOP/scripts/results.py" bench "$OUT/bench-run" "$OUT/bench.txt" "$ROUNDS"
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
		OBJ=$o EXTRA_APPEND="FTSDO_BPF_BENCH_N=$BPF_N ${EXTRA_APPEND:-}" \
			"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" bench-bpf "$OUT/bench-bpf-$side" 3000 &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p" || die "a BPF benchmark run failed (consoles: ${OUT#$TOP/}/bench-bpf-*/console.log)"
	done
	"$TOP/scripts/results.py" bench-bpf "$OUT/bench-bpf-base" "$OUT/bench-bpf-series" \
		"${BPF_N##*,}" >>"$OUT/bench.txt"
fi
cat "$OUT/bench.txt"
log "written ${OUT#$TOP/}/bench.txt"
