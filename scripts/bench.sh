#!/bin/bash
# make bench: boot once and run the direct-call benchmarks BENCH_ROUNDS times
# (default 3) in that boot.  Per key, the median and the min-max spread over
# the rounds go to build/results/ARCH/bench.txt ("name median min max
# spread"); the raw rounds stay in bench-run/bench-round<K>.txt beside it.
# Ratios measured in one boot are what count: absolute times under TCG mean
# little.  Knobs: OBJ (the kernel to boot), BENCH_OUT (instead of
# build/results/ARCH).
set -eu
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
OUT=${BENCH_OUT:-$BUILD/results/$ARCH_NAME}
ROUNDS=${BENCH_ROUNDS:-3}
EXTRA_APPEND="FTSDO_BENCH_ROUNDS=$ROUNDS ${EXTRA_APPEND:-}" \
	"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" bench "$OUT/bench-run" 3000 ||
	die "the benchmark run failed (console: ${OUT#$TOP/}/bench-run/console.log)"
"$TOP/scripts/results.py" bench "$OUT/bench-run" "$OUT/bench.txt" "$ROUNDS"
cat "$OUT/bench.txt"
log "written ${OUT#$TOP/}/bench.txt"
