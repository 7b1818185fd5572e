#!/bin/bash
# make bench, BPF part: attach/detach of fentry programs and their
# per-call cost, with the same ftsdo-bpf binary on the unpatched base and
# on the series, each kernel built with the same config, booted side by
# side (one guest a core).  BENCH_BPF_N: the N to measure (comma
# separated; the last is the largest set, reported without suffix).
# Under -icount (BENCH_BPF_ICOUNT, default shift=0,sleep=off; empty for
# plain TCG): the guest's clock then counts its instructions, the work an
# attach does.  TCG's wall clock also depends on where the code lies: the
# same instructions at other addresses took 1.5 times as long
# (docs/benchmarks.md).  kunit.enable=0: the boot-time suites are not
# what is measured.
# Keys (results.py bench bpf) in OUT/bench-bpf.keys.
# Usage: bpf.sh ARCH OUT
set -eu
. "$(dirname "$0")/../lib.sh"
ARCH_NAME=$1 OUT=$2
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
	INITRD_TOOLS=1 OBJ=$o QEMU_ICOUNT=${BENCH_BPF_ICOUNT-shift=0,sleep=off} \
		BOOT_APPEND="FTSDO_BPF_BENCH_N=$BPF_N kunit.enable=0" \
		"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" bench-bpf "$OUT/bench-bpf-$side" 3000 &
	pids+=($!)
done
for p in "${pids[@]}"; do
	wait "$p" || die "a BPF benchmark run failed (consoles: ${OUT#$TOP/}/bench-bpf-*/console.log)"
done
"$TOP/scripts/results.py" bench bpf "$OUT/bench-bpf-base" "$OUT/bench-bpf-series" \
	--largest "${BPF_N##*,}" >"$OUT/bench-bpf.keys"
