#!/bin/bash
# make (the default target): boot the patched kernel and show the series.
set -eu
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
OUT=$BUILD/results/$ARCH_NAME/demo
"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" demo "$OUT" 900 || {
	[ -f "$OUT/demo.txt" ] && cat "$OUT/demo.txt"
	die "the demo failed (console: ${OUT#$TOP/}/console.log)"
}
echo
cat "$OUT/demo.txt"
