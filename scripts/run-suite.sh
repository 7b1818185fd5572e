#!/bin/bash
# Run the guest test suite on the kernel in OBJ, split over SHARDS guests in
# parallel (default 2: single-threaded TCG uses one host core per guest).
# Results go to OUTDIR/run1 .. OUTDIR/runN; prints the comma-separated list
# of those directories last.  Exit status: non-zero if any guest failed.
# Usage: run-suite.sh ARCH OBJ OUTDIR
set -eu
. "$(dirname "$0")/lib.sh"
ARCH_NAME=$1 OBJ=$2 OUT=$3
SHARDS=${SHARDS:-2}
rm -rf "$OUT"/run*
mkdir -p "$OUT"
rc=0
pids=() dirs=()
for k in $(seq 1 "$SHARDS"); do
	# The project's own tests and the tools tests (with bpftrace and
	# bpftool in the initramfs) go with the first shard, the livepatch
	# tests with the last one (measured on x86_64: 572 s for the first
	# shard with the project's tests, 1,106 s for the last with the
	# livepatch and tools tests).
	parts=ftrace tools=0
	[ "$k" = 1 ] && parts=$parts,project,tools tools=1
	[ "$k" = "$SHARDS" ] && parts=$parts,livepatch
	INITRD_TOOLS=$tools OBJ=$OBJ EXTRA_APPEND="ftsdo.shard=$k/$SHARDS ftsdo.parts=$parts $(suite_append "$ARCH_NAME") ${EXTRA_APPEND:-}" \
		"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" check "$OUT/run$k" \
		"${CHECK_TIMEOUT:-3000}" >&2 &
	pids+=($!)
	dirs+=("$OUT/run$k")
done
for p in "${pids[@]}"; do
	wait "$p" || rc=$?
done
for d in "${dirs[@]}"; do
	[ -f "$d/ftracetest.ktap" ] && grep '^# Totals' "$d/ftracetest.ktap" | sed "s|^# |ftracetest ${d##*/}: |" >&2
done
(IFS=,; echo "${dirs[*]}")
exit $rc
