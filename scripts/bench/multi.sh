#!/bin/bash
# make bench, tracing_multi part: one boot of the series under -icount
# (BENCH_MULTI_ICOUNT, default shift=0,sleep=off; empty for plain TCG),
# guest/bench-multi.sh: every attachable function through a tracing_multi
# link, kprobe_multi, single fentry links (500 of them, per function) and
# a bare batch of the shared ops.  Only where the tree's libbpf has
# tracing_multi (scripts/rootfs.sh builds tmulti then).  Keys in
# OUT/bench-multi.keys.
# Usage: multi.sh ARCH OUT
set -eu
. "$(dirname "$0")/../lib.sh"
arch_load "$1"
OUT=$2
POBJ=${OBJ:-$BUILD/obj/$ARCH_NAME}
if [ ! -x "$POBJ/rootfs/usr/bin/tmulti" ]; then
	log "bench multi: no tmulti in ${POBJ#$TOP/}'s rootfs (no tracing_multi): left out"
	: >"$OUT/bench-multi.keys"
	exit 0
fi
icount=${BENCH_MULTI_ICOUNT-shift=0,sleep=off}
OBJ=$POBJ QEMU_ICOUNT=$icount BOOT_APPEND="kunit.enable=0" \
	"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" bench-multi "$OUT/bench-multi" 3000 ||
	die "the tracing_multi benchmark failed (${OUT#$TOP/}/bench-multi/console.log)"
{
	echo "# make bench, tracing_multi: one link on every attachable function"
	echo "#   (tmulti_n), kprobe_multi on the same, single fentry links on"
	echo "#   fentry_single_n of them, and the bare batch (rawbatch_*), one boot,"
	if [ -n "$icount" ]; then
		echo "#   QEMU -icount $icount"
	else
		echo "#   TCG wall clock"
	fi
	cat "$OUT/bench-multi/bench-multi.txt"
} >"$OUT/bench-multi.keys"
