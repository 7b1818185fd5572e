#!/bin/bash
# Build the unpatched base (tag "base" of the scratch tree) with the same
# configuration, run the same guest test suite on it and record every
# test's result in tests/baseline/ARCH.txt.  make check fails on any
# kselftest that does worse than recorded here.
set -eu
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
SRC=$BASE_SRC
OBJ=$BUILD/base/obj/$ARCH_NAME
OUT=$BUILD/results/$ARCH_NAME-base
base_worktree
BASE_BUILD=1 "$TOP/scripts/build.sh" "$ARCH_NAME" "$SRC" "$OBJ"
"$TOP/scripts/rootfs.sh" "$ARCH_NAME" "$SRC" "$OBJ"
dirs=$("$TOP/scripts/run-suite.sh" "$ARCH_NAME" "$OBJ" "$OUT") ||
	echo "warning: the base run was not clean; recording what it gave" >&2
mkdir -p "$TOP/tests/baseline"
"$TOP/scripts/results.py" record "$dirs" "$TOP/tests/baseline/$ARCH_NAME.txt"
