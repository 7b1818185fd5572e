#!/bin/bash
# Build kernel and modules for ARCH from SRC into OBJ (incremental, ccache).
# Usage: build.sh ARCH [SRC] [OBJ]
set -eu
. "$(dirname "$0")/lib.sh"

ARCH_NAME=${1:-x86_64}
SRC=${2:-$LINUX}
OBJ=${3:-$BUILD/obj/$ARCH_NAME}
case $ARCH_NAME in
x86_64) KARCH=x86_64; CROSS=""; IMAGE=arch/x86/boot/bzImage ;;
arm64) KARCH=arm64; CROSS=aarch64-linux-gnu-; IMAGE=arch/arm64/boot/Image ;;
*) die "unknown arch $ARCH_NAME" ;;
esac

"$TOP/scripts/config.sh" "$ARCH_NAME" "$SRC" "$OBJ"

CC="${CROSS}$KCC"
command -v ccache >/dev/null && CC="ccache $CC"
export KBUILD_BUILD_TIMESTAMP="Thu Jan  1 00:00:00 UTC 2026" KBUILD_BUILD_USER=ftrace-sdo KBUILD_BUILD_HOST=qemu

log "build $ARCH_NAME: Linux $(kversion "$SRC") in ${OBJ#$TOP/}"
start=$(date +%s)
set -o pipefail
# shellcheck disable=SC2086
if ! make -s -C "$SRC" O="$OBJ" ARCH=$KARCH CROSS_COMPILE=$CROSS CC="$CC" $LLVM_VARS \
	-j"$JOBS" all 2>&1 | tee "$OBJ/build.log" | { grep -v -E '^(  |$)' || true; }; then
	die "kernel build failed for $ARCH_NAME (log: ${OBJ#$TOP/}/build.log)"
fi
[ -f "$OBJ/$IMAGE" ] || die "no $IMAGE after the build"
log "built $ARCH_NAME in $(( $(date +%s) - start ))s"
