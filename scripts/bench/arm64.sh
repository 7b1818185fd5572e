#!/bin/bash
# make bench, arm64 call-site ops part (run from another architecture's
# make bench): the cost of a call of a function whose only ops is the
# shared direct ops, its trampoline in BL range (the call site calls it),
# against the function untraced, in one boot of the arm64 kernel under
# QEMU -icount.  The kernel is built (incrementally) first.  The timings
# with the trampoline out of BL range needed hooks in the core that the
# series no longer has.  Without the filter part of callbench
# (FTSDO_MD_FILTER=0), which this part does not report.
# Keys (results.py bench arm64) in OUT/bench-arm64.keys.
# Usage: arm64.sh ARCH OUT
set -eu
. "$(dirname "$0")/../lib.sh"
OUT=$2
"$TOP/scripts/build.sh" arm64 >&2 && "$TOP/scripts/rootfs.sh" arm64 >&2 ||
	die "building the arm64 kernel failed"
OBJ=$BUILD/obj/arm64 QEMU_ICOUNT="shift=0,sleep=off" BOOT_APPEND="FTSDO_MD_FILTER=0" \
	"$TOP/scripts/qemu-run.sh" arm64 bench-md "$OUT/bench-arm64" 3000 ||
	die "the arm64 benchmark run failed"
"$TOP/scripts/results.py" bench arm64 "$OUT/bench-arm64" >"$OUT/bench-arm64.keys"
