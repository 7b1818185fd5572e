#!/bin/bash
# make bench, function metadata part: the cost of a call through the list
# function with 1, 8, 32 and 128 other ops registered, and of the shared
# direct ops finding a trampoline, in three boots of the same kernel:
# metadata in the padding, the hash forced, and metadata off.  Under QEMU
# -icount (1 ns per instruction), so the figures are path lengths; they
# model no caches.  Also the text size of vmlinux with and without
# FTRACE_FUNC_METADATA (a vmlinux built from the same .config with only that
# option off, in build/obj/ARCH-nomd).  Only where the kernel has the
# metadata.  Keys (results.py bench md) in OUT/bench-md.keys.
# Usage: md.sh ARCH OUT
set -eu
. "$(dirname "$0")/../lib.sh"
arch_load "$1"
OUT=$2
POBJ=${OBJ:-$BUILD/obj/$ARCH_NAME}
if ! grep -q '^CONFIG_FTRACE_FUNC_METADATA=y' "$POBJ/.config"; then
	log "bench md: no CONFIG_FTRACE_FUNC_METADATA in ${POBJ#$TOP/}: left out"
	: >"$OUT/bench-md.keys"
	exit 0
fi
NOMD=$BUILD/obj/$ARCH_NAME-nomd
mkdir -p "$NOMD"
cp "$POBJ/.config" "$NOMD/.config"
"$LINUX/scripts/config" --file "$NOMD/.config" -d FTRACE_FUNC_METADATA
{ kmake "$LINUX" "$NOMD" -s olddefconfig &&
	! grep -q '^CONFIG_FTRACE_FUNC_METADATA=' "$NOMD/.config" &&
	kmake "$LINUX" "$NOMD" -s -j"$JOBS" vmlinux; } >"$NOMD/build.log" 2>&1 ||
	die "the build without FTRACE_FUNC_METADATA failed (${NOMD#$TOP/}/build.log)"
# kunit.enable=0: the built-in KUnit suites are tests, not part of the
# measurement, and under -icount the padding boot stalled in ftrace_md's
# fmk_swap (a CPU held in the list function while another patches text).
pids=()
for mode in padding hash off; do
	OBJ=$POBJ QEMU_ICOUNT="shift=0,sleep=off" BOOT_APPEND="ftrace_md=$mode kunit.enable=0" \
		"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" bench-md "$OUT/bench-md-$mode" 3000 &
	pids+=($!)
	# Two guests at a time (one host core each)
	if [ ${#pids[@]} = 2 ]; then
		wait "${pids[0]}" || die "a metadata benchmark run failed"
		pids=("${pids[1]}")
	fi
done
for p in "${pids[@]}"; do
	wait "$p" || die "a metadata benchmark run failed"
done
text() { size "$1/vmlinux" | awk 'NR == 2 { print $1 }'; }
"$TOP/scripts/results.py" bench md "$OUT/bench-md-padding" "$OUT/bench-md-hash" \
	"$OUT/bench-md-off" --text-md "$(text "$POBJ")" --text-nomd "$(text "$NOMD")" \
	>"$OUT/bench-md.keys"
