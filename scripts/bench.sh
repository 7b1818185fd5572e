#!/bin/bash
# make bench: boot once and run the direct-call benchmarks; the results are
# "name value" lines in build/results/ARCH/bench.txt.  Ratios measured in
# one boot are what count: absolute times under TCG mean little.
set -eu
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
OUT=$BUILD/results/$ARCH_NAME
"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" bench "$OUT/bench-run" 3000 ||
	die "the benchmark run failed (console: ${OUT#$TOP/}/bench-run/console.log)"
cp "$OUT/bench-run/bench.txt" "$OUT/bench.txt"
cat "$OUT/bench.txt"
log "written ${OUT#$TOP/}/bench.txt"
