#!/bin/bash
# make check-lockdep: the same kernel with lockdep and RCU checking
# (configs/lockdep.config) in its own object directory, running the
# direct-call ftracetest tests, the project's guest tests and the tools
# tests (bpftrace and bpftool, tests/tools).  The full
# suite with lockdep is several times too slow under TCG for make check.
set -eu
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
build_variant "$ARCH_NAME" lockdep "$TOP/configs/lockdep.config"
rc=0
INITRD_TOOLS=1 OBJ=$OBJ EXTRA_APPEND="ftsdo.ftrace=$DIRECT_TESTS" \
	"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" check "$OUT/run" 3000 || rc=$?
SUBSET=1 "$TOP/scripts/results.py" check "$OUT/run" "$TOP/tests/baseline/$ARCH_NAME.txt" \
	"$OUT/check.tap" || rc=1
exit $rc
