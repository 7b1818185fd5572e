#!/bin/bash
# make check for ARCH: boot the built kernel, run the guest test suite,
# write build/results/ARCH/check.tap and compare with the base's results.
set -eu -o pipefail
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
OUT=$BUILD/results/$ARCH_NAME
BASELINE=$TOP/tests/baseline/$ARCH_NAME.txt
[ -f "$BASELINE" ] || die "no recorded base results $BASELINE: run make baseline"

rc=0
"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" check "$OUT/run" "${CHECK_TIMEOUT:-3000}" || rc=$?
[ -f "$OUT/run/ftracetest.ktap" ] && grep '^# Totals' "$OUT/run/ftracetest.ktap" | sed 's/^# /ftracetest: /'
log "results: ${OUT#$TOP/}/check.tap (compared with ${BASELINE#$TOP/})"
rm -f "$OUT/summary"
"$TOP/scripts/results.py" check "$OUT/run" "$BASELINE" "$OUT/check.tap" | tee "$OUT/check.out" || rc=1
tail -n 1 "$OUT/check.out" >"$OUT/summary"
exit $rc
