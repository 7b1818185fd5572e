#!/bin/bash
# Build the unpatched base (tag "base" of the scratch tree) with the same
# configuration, run suite "check" of configs/suites on it (the rows its
# kernel can run: not those that need the series' options) and record
# every test's result in tests/baseline/ARCH.txt.  make check fails on any
# kselftest that does worse than recorded here.
set -eu
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
OBJ=$BUILD/base/obj/$ARCH_NAME
base_worktree
BASE_BUILD=1 "$TOP/scripts/build.sh" "$ARCH_NAME" "$BASE_SRC" "$OBJ"
"$TOP/scripts/rootfs.sh" "$ARCH_NAME" "$BASE_SRC" "$OBJ"
exec "$TOP/scripts/suite.sh" check "$ARCH_NAME" base
