#!/bin/sh
# The in-guest part of `make check`: the kernel's ftrace selftests, the
# livepatch selftests and the project's own guest tests.  Raw results go to
# /results; the host turns them into TAP and compares them with the base.
#
# Kernel command line knobs (for the harness self-test and for iterating):
#   ftsdo.ftrace=dir/a.tc,dir/b.tc   run only these ftracetest tests
#   ftsdo.only=ftrace                skip the livepatch and project tests
R=/results
arg() { sed -n "s/.*ftsdo\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
sel=$(arg ftrace | tr ',' ' ')
only=$(arg only)

echo "== ftracetest"
mkdir -p $R/ftrace-logs
tests=""
for t in $sel; do tests="$tests test.d/$t"; done
# shellcheck disable=SC2086
(cd /selftests/ftrace && ./ftracetest -K -k -l $R/ftrace-logs $tests) >$R/ftracetest.ktap 2>&1
grep -E '^# Totals' $R/ftracetest.ktap
[ "$only" = ftrace ] && exit 0

echo "== livepatch selftests"
: >$R/livepatch.txt
for t in /selftests/livepatch/test-*.sh; do
	n=$(basename "$t")
	(cd /selftests/livepatch && timeout 600 bash "./$n") >"$R/livepatch-$n.log" 2>&1
	echo "$? livepatch/$n" >>$R/livepatch.txt
done
cat $R/livepatch.txt

sh /guest/project-tests.sh
