#!/bin/bash
# make check for ARCH: boot the built kernel and run the guest test suite,
# split over SHARDS guests in parallel (default 2: single-threaded TCG uses
# one host core per guest), then write build/results/ARCH/check.tap and
# compare every kselftest with the base's recorded result.
set -eu -o pipefail
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
OUT=$BUILD/results/$ARCH_NAME
BASELINE=$TOP/tests/baseline/$ARCH_NAME.txt
SHARDS=${SHARDS:-2}
[ -f "$BASELINE" ] || die "no recorded base results $BASELINE: run make baseline"

rm -rf "$OUT"/run*
rm -f "$OUT/summary"
mkdir -p "$OUT"
rc=0
pids=() dirs=()
for k in $(seq 1 "$SHARDS"); do
	# The livepatch tests go with the first shard, the project's own
	# tests with the last one.
	parts=ftrace
	[ "$k" = 1 ] && parts=$parts,livepatch
	[ "$k" = "$SHARDS" ] && parts=$parts,project
	EXTRA_APPEND="ftsdo.shard=$k/$SHARDS ftsdo.parts=$parts ${EXTRA_APPEND:-}" \
		"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" check "$OUT/run$k" \
		"${CHECK_TIMEOUT:-3000}" &
	pids+=($!)
	dirs+=("$OUT/run$k")
done
for p in "${pids[@]}"; do
	wait "$p" || rc=$?
done
for d in "${dirs[@]}"; do
	[ -f "$d/ftracetest.ktap" ] && grep '^# Totals' "$d/ftracetest.ktap" | sed "s|^# |ftracetest ${d##*/}: |"
done
log "results: ${OUT#$TOP/}/check.tap (compared with ${BASELINE#$TOP/})"
"$TOP/scripts/results.py" check "$(IFS=,; echo "${dirs[*]}")" "$BASELINE" "$OUT/check.tap" |
	tee "$OUT/check.out" || rc=1
tail -n 1 "$OUT/check.out" >"$OUT/summary"
exit $rc
