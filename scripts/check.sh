#!/bin/bash
# make check for ARCH: run the guest test suite on the built kernel
# (run-suite.sh: SHARDS guests in parallel), write
# build/results/ARCH/check.tap and compare every kselftest with the base's
# recorded result.
set -eu -o pipefail
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
OUT=$BUILD/results/$ARCH_NAME
BASELINE=$TOP/tests/baseline/$ARCH_NAME.txt
[ -f "$BASELINE" ] || die "no recorded base results $BASELINE: run make baseline"

rm -f "$OUT/summary"
rc=0
dirs=$("$TOP/scripts/run-suite.sh" "$ARCH_NAME" "$BUILD/obj/$ARCH_NAME" "$OUT") || rc=$?
log "results: ${OUT#$TOP/}/check.tap (compared with ${BASELINE#$TOP/})"
"$TOP/scripts/results.py" check "$dirs" "$BASELINE" "$OUT/check.tap" |
	tee "$OUT/check.out" || rc=1
tail -n 1 "$OUT/check.out" >"$OUT/summary"
exit $rc
