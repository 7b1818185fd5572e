#!/bin/bash
# make check-one T=<test> [BOOT=<row>]: one test, judged as make check
# judges it.  The test's row of make check for ARCH (scripts/suites.py
# find: the first unlabelled row whose selection holds it, the
# ftracetest shards dealt on the host by guest/deal.awk as the guest deals
# them; or BOOT's row) boots once with that row's kernel, options and
# command line, running only the test (a KUnit case: the project test
# kunit.sh; a livepatch or tools test: its group); results.py judges only
# that test and the harness's checks of the boot, against the base.
# Results in build/results/one/ARCH/<boot>.
# T: ftrace/<path under test.d> (or the path alone), project/<name>.sh,
# kunit/<suite>/<case>, livepatch/<name>.sh, tools/<name>.sh.
# Usage: check-one.sh ARCH TEST [BOOT]
set -eu
. "$(dirname "$0")/lib.sh"
arch=$1 t=$2 boot=${3:-}
case $t in
ftrace/* | project/* | kunit/* | livepatch/* | tools/*) ;;
*.tc) t=ftrace/$t ;;
*) die "check-one: T=$t: a test is ftrace/<path>.tc, project/<name>.sh, kunit/<suite>/<case>, livepatch/<name>.sh or tools/<name>.sh" ;;
esac
# shellcheck disable=SC2086
row=$("$TOP/scripts/suites.py" find "$t" "$arch" $boot) || exit 1
IFS=$'\t' read -r _ _ b _ _ tests opts append <<<"$row"
log "check-one: $t runs in boot '$b' of make check on $arch; booting it with ftsdo.tests=$tests, options ${opts}, command line: ${append}"
export TIMING=$BUILD/results/one/timing.tsv
rm -rf "$BUILD/results/one/$arch" "$TIMING"
rc=0
RESULTS=$BUILD/results/one SUITE_ROWS=$row JUDGE_ONLY=$t \
	"$TOP/scripts/suite.sh" check "$arch" || rc=$?
"$TOP/scripts/timing.sh" table "$TIMING"
exit $rc
