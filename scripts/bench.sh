#!/bin/bash
# make bench: the benchmark parts of ARCH (BENCH_PARTS of configs/arch/ARCH,
# or the BENCH_PARTS environment variable: direct, bpf, md, arm64; each
# one scripts/bench/PART.sh, writing its keys to OUT/bench-PART.keys), then
# results.py bench report, which computes every ratio, into
# build/results/ARCH/bench.txt.  Ratios measured in one boot are what
# count: absolute times under TCG mean little.
# Knobs: OBJ (the kernel to boot), BENCH_OUT (instead of
# build/results/ARCH), BENCH_PARTS, BENCH_ROUNDS (direct), BENCH_BPF_N and BENCH_BPF_ICOUNT (bpf).
set -eu
. "$(dirname "$0")/lib.sh"
want=${BENCH_PARTS:-}
arch_load "${1:-x86_64}"
OUT=${BENCH_OUT:-$BUILD/results/$ARCH_NAME}
PARTS=${want:-$BENCH_PARTS}
mkdir -p "$OUT"
keys=()
for part in $PARTS; do
	[ -x "$TOP/scripts/bench/$part.sh" ] || die "no benchmark part '$part' (scripts/bench/)"
	rm -f "$OUT/bench-$part.keys"
	log "bench: $part"
	"$TOP/scripts/bench/$part.sh" "$ARCH_NAME" "$OUT"
	keys+=("$OUT/bench-$part.keys")
done
"$TOP/scripts/results.py" bench report --out "$OUT/bench.txt" "${keys[@]}"
cat "$OUT/bench.txt"
log "written ${OUT#$TOP/}/bench.txt"
