#!/bin/bash
# make check-debug: the series and the unpatched base, each built with the
# test config plus configs/debug.config (KASAN, kmemleak, lockdep and RCU
# checking, debug lists and objects, fault injection) into an object
# directory of its own, both running suite "debug" of configs/suites
# (booted with kasan_multi_shot; the guest scans for leaks after the
# tests).  The series' results are judged against the base's run, and so
# are its kernel reports: a KASAN, kmemleak, lockdep, RCU or WARN report
# fails only when the base does not show it (results.py splats).
# Not part of make check: two debug kernels and their slow boots.
# DEBUG_BASE=0: keep the base's last run (its results in
# build/results/ARCH-debug-base).
set -eu
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
FRAG=$(kernel_fragments debug)
start=$(date +%s)
if [ "${DEBUG_BASE:-1}" != 0 ]; then
	base_worktree
	BASE_BUILD=1 EXTRA_CONFIG=$FRAG "$TOP/scripts/build.sh" "$ARCH_NAME" "$BASE_SRC" \
		"$BUILD/base/obj/$ARCH_NAME-debug"
	"$TOP/scripts/rootfs.sh" "$ARCH_NAME" "$BASE_SRC" "$BUILD/base/obj/$ARCH_NAME-debug"
	# The series' kernel builds while the base's guests run
	"$TOP/scripts/suite.sh" debug "$ARCH_NAME" base &
	base_pid=$!
fi
build_variant "$ARCH_NAME" debug
# The base's boots fail where it has the defects the series fixes (a
# panic, say): suite.sh then answers 1 having recorded what they gave
if [ -n "${base_pid:-}" ] && ! wait "$base_pid"; then
	[ -f "$BUILD/results/$ARCH_NAME-debug-base/baseline.txt" ] ||
		die "the base's run of suite debug recorded nothing"
	log "the base's run was not clean; the series is judged against what it recorded"
fi
rc=0
"$TOP/scripts/suite.sh" debug "$ARCH_NAME" || rc=$?
log "check-debug took $(( $(date +%s) - start ))s"
exit $rc
