#!/bin/bash
# make check-cfi: the series built with Debian's clang-16 and kCFI
# (configs/kcfi.config, FINEIBT and CALL_PADDING included) in its own
# object directory, running suite "cfi" of configs/suites: booted with
# cfi=kcfi and with cfi=fineibt, each running the tests make check-lockdep
# runs; a boot that does not report the CFI mode it was asked for fails.
# Not part of make check: the clang build alone takes longer than the rest
# of the budget allows.
set -eu
. "$(dirname "$0")/lib.sh"
"$TOP/scripts/deps.sh" cfi
ARCH_NAME=${1:-x86_64}
export FTSDO_LLVM=${FTSDO_LLVM:--16}
command -v "clang$FTSDO_LLVM" >/dev/null || die "clang$FTSDO_LLVM missing: run scripts/deps.sh cfi"
build_variant "$ARCH_NAME" kcfi
exec "$TOP/scripts/suite.sh" cfi "$ARCH_NAME"
