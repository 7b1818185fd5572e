#!/bin/sh
# trace-cmd (Debian's, unmodified) next to direct trampolines attached with
# the batch API: 16 functions of the harness's test module ftsdo_test
# (tests/ftsdo-test) on its counting trampolines (dfn_attach).  record -p
# function -l and -p function_graph -g on some of them record exactly their
# calls, while the trampolines still see every call (dfn_call checks the
# counts in the kernel); trace-cmd stat, list -f and reset work, and reset
# leaves the direct functions as they were.
T=/sys/kernel/tracing
MOD=ftsdo_test
RUN=/sys/kernel/debug/$MOD/run
fail() {
	echo "FAIL: $*"
	echo "-- record:"; tail -n 20 /tmp/tcd-record.log
	echo "-- report (head):"; head -n 20 /tmp/tcd-report.txt
	echo "-- direct_functions:"; cat $T/direct_functions
	echo dfn_detach >$RUN
	rmmod $MOD
	exit 1
}
command -v trace-cmd >/dev/null || { echo "SKIP: no trace-cmd"; exit 4; }
[ -f $T/direct_functions ] || { echo "SKIP: no direct_functions"; exit 4; }
modprobe $MOD || { echo "SKIP: no $MOD"; exit 4; }
cd /tmp || exit 1
echo dfn_attach >$RUN || fail "dfn_attach"
grep "\[$MOD\]" $T/direct_functions >/tmp/tcd-before.txt
[ "$(grep -c . /tmp/tcd-before.txt)" = 16 ] || fail "16 functions expected in direct_functions"

# Every call of the 16 targets, 3 each, through dfn_call, which fails if
# a trampoline missed one: the traced command leaves a mark then
CALLS="echo dfn_call >$RUN || touch /tmp/tcd-missed"
rm -f /tmp/tcd-missed

# function tracer on targets 0-7 (on A)
: >/tmp/tcd-report.txt
trace-cmd record -q -p function -l 'ftsdo_target_0*' sh -c "$CALLS" \
	>/tmp/tcd-record.log 2>&1 || fail "trace-cmd record -p function"
[ ! -e /tmp/tcd-missed ] || fail "a trampoline missed a call under -p function"
trace-cmd report >/tmp/tcd-report.txt 2>&1 || fail "trace-cmd report"
for t in 00 01 02 03 04 05 06 07; do
	n=$(grep -c "function: *ftsdo_target_$t" /tmp/tcd-report.txt)
	[ "$n" = 3 ] || fail "ftsdo_target_$t: $n events, expected 3"
done
n=$(grep -c "function: *ftsdo_target_1" /tmp/tcd-report.txt)
[ "$n" = 0 ] || fail "$n events of functions not traced"

# function_graph on target 13 (on B)
: >/tmp/tcd-report.txt
trace-cmd record -q -p function_graph -g ftsdo_target_13 sh -c "$CALLS" \
	>/tmp/tcd-record.log 2>&1 || fail "trace-cmd record -p function_graph"
[ ! -e /tmp/tcd-missed ] || fail "a trampoline missed a call under -p function_graph"
trace-cmd report >/tmp/tcd-report.txt 2>&1 || fail "trace-cmd report (graph)"
n=$(grep -c "ftsdo_target_13" /tmp/tcd-report.txt)
[ "$n" = 3 ] || fail "function_graph: $n entries of ftsdo_target_13, expected 3"

# A tracer left running (trace-cmd start): stat shows it, reset stops it
trace-cmd start -p function -l ftsdo_target_02 >/tmp/tcd-start.log 2>&1 ||
	fail "trace-cmd start"
trace-cmd stat >/tmp/tcd-stat.txt 2>&1 || fail "trace-cmd stat"
grep -q "function" /tmp/tcd-stat.txt && grep -q "ftsdo_target_02" /tmp/tcd-stat.txt ||
	fail "trace-cmd stat does not show the function tracer on ftsdo_target_02: $(cat /tmp/tcd-stat.txt)"
n=$(trace-cmd list -f 'ftsdo_target_*' 2>/dev/null | grep -c '^ftsdo_target_')
[ "$n" = 64 ] || fail "trace-cmd list -f: $n targets, expected 64"

# reset: tracing off and cleared, the direct functions untouched
trace-cmd reset >/tmp/tcd-reset.log 2>&1 || fail "trace-cmd reset"
[ "$(cat $T/current_tracer)" = nop ] || fail "trace-cmd reset left a tracer"
grep "\[$MOD\]" $T/direct_functions >/tmp/tcd-after.txt
cmp -s /tmp/tcd-before.txt /tmp/tcd-after.txt ||
	fail "direct_functions changed by trace-cmd reset: $(diff /tmp/tcd-before.txt /tmp/tcd-after.txt)"
echo dfn_call >$RUN || fail "a trampoline missed a call after trace-cmd reset"

echo dfn_detach >$RUN || fail "dfn_detach"
rmmod $MOD
echo "PASS: trace-cmd record, report, stat, list and reset next to 16 direct functions"
