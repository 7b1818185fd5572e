#!/bin/bash
# Build kernel and modules for ARCH from SRC into OBJ (incremental, ccache).
# Usage: build.sh ARCH [SRC] [OBJ]
set -eu
. "$(dirname "$0")/lib.sh"

arch_load "${1:-x86_64}"
SRC=${2:-$LINUX}
OBJ=${3:-$BUILD/obj/$ARCH_NAME}

"$TOP/scripts/config.sh" "$ARCH_NAME" "$SRC" "$OBJ"

log "build $ARCH_NAME: Linux $(kversion "$SRC") in ${OBJ#$TOP/}"
start=$(date +%s)
set -o pipefail
if ! kmake "$SRC" "$OBJ" -s -j"$JOBS" all 2>&1 | tee "$OBJ/build.log" |
	{ grep -v -E '^(  |$)' || true; }; then
	die "kernel build failed for $ARCH_NAME (log: ${OBJ#$TOP/}/build.log)"
fi
[ -f "$OBJ/$IMAGE" ] || die "no $IMAGE after the build"
log "built $ARCH_NAME in $(( $(date +%s) - start ))s"
