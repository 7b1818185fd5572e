#!/bin/bash
# make check-lockdep: the same kernel with lockdep and RCU checking
# (configs/lockdep.config) in its own object directory, running suite
# "lockdep" of configs/suites (the direct-call ftracetest tests, livepatch,
# the project's and the tools tests).  The full suite with lockdep is
# several times too slow under TCG for make check.
set -eu
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
build_variant "$ARCH_NAME" lockdep
exec "$TOP/scripts/suite.sh" lockdep "$ARCH_NAME"
