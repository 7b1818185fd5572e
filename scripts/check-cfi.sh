#!/bin/bash
# make check-cfi: the series built with Debian's clang-16 and kCFI
# (configs/kcfi.config, FINEIBT and CALL_PADDING included) in its own
# object directory, booted twice, with cfi=kcfi and with cfi=fineibt, each
# running the direct-call ftracetest tests and the project's guest tests as
# make check-lockdep does.  A boot that does not report the CFI mode it was
# asked for fails (harness/cfi-mode).  Not part of make check: the clang
# build alone takes longer than the rest of the budget allows.
set -eu
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
[ "$ARCH_NAME" = x86_64 ] || die "check-cfi is x86_64 only"
export FTSDO_LLVM=${FTSDO_LLVM:--16}
command -v "clang$FTSDO_LLVM" >/dev/null || die "clang$FTSDO_LLVM missing: run scripts/deps.sh"
build_variant "$ARCH_NAME" kcfi "$TOP/configs/kcfi.config"
rc=0
dirs=""
for mode in kcfi fineibt; do
	case $mode in
	kcfi) want="Using kCFI" ;;
	fineibt) want="Using FineIBT CFI" ;;
	esac
	INITRD_TOOLS=1 OBJ=$OBJ EXTRA_APPEND="cfi=$mode ftsdo.ftrace=$DIRECT_TESTS" \
		"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" check "$OUT/$mode" 3000 || rc=$?
	echo "$(grep -q "$want" "$OUT/$mode/console.log"; echo $?) harness/cfi-mode" \
		>>"$OUT/$mode/harness.txt"
	grep -h "Using kCFI\|Using FineIBT\|Disabling CFI" "$OUT/$mode/console.log" |
		sed "s/^/== $mode boot: /" | head -n 1
	dirs="$dirs${dirs:+,}$OUT/$mode"
done
SUBSET=1 "$TOP/scripts/results.py" check "$dirs" "$TOP/tests/baseline/$ARCH_NAME.txt" \
	"$OUT/check.tap" || rc=1
exit $rc
