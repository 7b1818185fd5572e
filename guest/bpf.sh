#!/bin/sh
# The in-guest part of make check-bpf: the kernel's test_progs on the tests
# of /bpf/select.txt.  Its stdout (a "#N/M test/subtest:OK|FAIL|SKIP" line
# a subtest, then the error logs of failed tests) goes to
# /results/test_progs.txt and to the console.
R=/results
mkdir -p /sys/fs/bpf
mount -t bpf bpf /sys/fs/bpf
ulimit -l unlimited
ulimit -n 4096
cd /bpf || exit 1
echo "== test_progs"
start=$(date +%s)
# Streamed to the console too: if the kernel dies, the results so far and
# the test it died in are in the console log.
{ ./test_progs -a @select.txt 2>&1; echo $? >$R/test_progs.rc; } | tee $R/test_progs.txt
rc=$(cat $R/test_progs.rc 2>/dev/null || echo 2)
echo "== test_progs exited $rc after $(( $(date +%s) - start ))s"
# 0: all passed, 1: a test failed (judged on the host against the base)
[ $rc -le 1 ]
