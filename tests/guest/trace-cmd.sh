#!/bin/sh
# trace-cmd record -p function with a filter records the filtered function
# and nothing else, and leaves tracing off afterwards.
# The traced command sleeps before and after its open, so that the event
# does not depend on how fast trace-cmd's per-CPU recorders start and stop
# compared with the command (a race of trace-cmd, not of the kernel).
# On failure, print what trace-cmd said and recorded, and what the kernel
# records for the same filter through tracefs alone (make check shows it).
T=/sys/kernel/tracing
show() {
	echo "-- $(trace-cmd version 2>&1 | grep -m1 -i version)"
	echo "-- trace-cmd record:"; tail -n 20 /tmp/tc-record.log
	echo "-- trace-cmd report (head):"; head -n 20 /tmp/tc-report.txt
	echo "-- current_tracer: $(cat $T/current_tracer), tracing_on: $(cat $T/tracing_on)"
	echo "-- set_ftrace_pid: $(cat $T/set_ftrace_pid | head -n 3 | tr '\n' ' ')"
	echo "-- enabled_functions (head):"; head -n 10 $T/enabled_functions
	# The same filter through tracefs alone: kernel or trace-cmd?
	echo do_sys_openat2 >$T/set_ftrace_filter
	echo function >$T/current_tracer
	echo 1 >$T/tracing_on
	cat /proc/version >/dev/null
	echo nop >$T/current_tracer
	echo "-- tracefs alone: $(grep -c do_sys_openat2 $T/trace) do_sys_openat2 events"
	echo >$T/set_ftrace_filter
	echo >$T/trace
}
fail() { echo "FAIL: $*"; show; exit 1; }
command -v trace-cmd >/dev/null || { echo "SKIP: no trace-cmd"; exit 4; }
cd /tmp || exit 1
# One record; sets $why when trace-cmd failed or recorded no event.
record() {
	why=""
	: >/tmp/tc-report.txt
	if ! trace-cmd record -q -p function -l do_sys_openat2 \
		sh -c 'sleep 1; cat /proc/version; sleep 1' \
		>/tmp/tc-record.log 2>&1; then
		why="trace-cmd record failed"
	elif ! trace-cmd report >/tmp/tc-report.txt 2>&1; then
		why="trace-cmd report failed"
	else
		n=$(grep -c 'function: *do_sys_openat2' /tmp/tc-report.txt)
		[ "$n" -gt 0 ] || why="no do_sys_openat2 event recorded"
	fi
}
# trace-cmd's own failures get a second try, with the first one shown;
# what the kernel recorded is checked on whichever run recorded events.
record
if [ -n "$why" ]; then
	echo "RETRY: $why"; show
	record
	[ -z "$why" ] || fail "$why (twice)"
fi
other=$(grep 'function:' /tmp/tc-report.txt | grep -vc do_sys_openat2)
[ "$other" = 0 ] || fail "$other events of other functions recorded"
[ "$(cat $T/current_tracer)" = nop ] || fail "tracer left on"
echo "PASS: $n do_sys_openat2 events"
