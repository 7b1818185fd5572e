#!/bin/sh
# The in-guest part of make check-bpf: the kernel's test_progs on the tests
# of /bpf/select.txt.  Its stdout (a "#N/M test/subtest:OK|FAIL|SKIP" line
# a subtest, then the error logs of failed tests) goes to
# /results/test_progs.txt and to the console.  As ftracetest's failures in
# guest/check.sh, up to three failed tests are run once more, each alone
# (test_progs -t TEST[/SUBTEST]), into /results/test_progs-retry.txt: one
# that passes then is flaky (scripts/ftsdo/guest.py), more than three
# failures are not a matter of timing.
R=/results
mkdir -p /sys/fs/bpf
mount -t bpf bpf /sys/fs/bpf
# not POSIX, but busybox ash and dash have both
# shellcheck disable=SC3045
ulimit -l unlimited
# shellcheck disable=SC3045
ulimit -n 4096
cd /bpf || exit 1
echo "== test_progs"
start=$(date +%s)
# Streamed to the console too: if the kernel dies, the results so far and
# the test it died in are in the console log.
{ ./test_progs -a @select.txt 2>&1; echo $? >$R/test_progs.rc; } | tee $R/test_progs.txt
rc=$(cat $R/test_progs.rc 2>/dev/null || echo 2)
echo "== test_progs exited $rc after $(( $(date +%s) - start ))s"
# The failed subtests, and the failed tests that have none failed
sed -n '/^All error logs:/q; s/^#[0-9]*\/[0-9]*[[:space:]]*\([^ ]*\):FAIL$/\1/p' $R/test_progs.txt >/tmp/failed
sed -n '/^All error logs:/q; s/^#[0-9]*[[:space:]]*\([^ /]*\):FAIL$/\1/p' $R/test_progs.txt |
	while read -r t; do grep -q "^$t/" /tmp/failed || echo "$t"; done >>/tmp/failed
n=$(wc -l </tmp/failed)
if [ "$rc" = 1 ] && [ "$n" -ge 1 ] && [ "$n" -le 3 ]; then
	# the names on one line: split on purpose
	# shellcheck disable=SC2046
	echo "== test_progs: retry of $(echo $(cat /tmp/failed))"
	for t in $(cat /tmp/failed); do
		./test_progs -t "$t" 2>&1
	done | tee $R/test_progs-retry.txt | grep -E '^#[0-9]+(/[0-9]+)? ' | sed 's/^/retry: /'
fi
# 0: all passed, 1: a test failed (judged on the host against the base)
[ $rc -le 1 ]
