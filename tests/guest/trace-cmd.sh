#!/bin/sh
# trace-cmd record -p function with a filter records the filtered function
# and nothing else, and leaves tracing off afterwards.
# On failure, print what trace-cmd said and recorded (make check shows it).
show() {
	echo "-- trace-cmd record:"; tail -n 20 /tmp/tc-record.log
	echo "-- trace-cmd report (head):"; head -n 20 /tmp/tc-report.txt
	echo "-- current_tracer: $(cat /sys/kernel/tracing/current_tracer)"
	echo "-- enabled_functions (head):"; head -n 10 /sys/kernel/tracing/enabled_functions
}
fail() { echo "FAIL: $*"; show; exit 1; }
command -v trace-cmd >/dev/null || { echo "SKIP: no trace-cmd"; exit 4; }
cd /tmp || exit 1
# One record; sets $why when trace-cmd failed or recorded no event.
record() {
	why=""
	: >/tmp/tc-report.txt
	if ! trace-cmd record -q -p function -l do_sys_openat2 cat /proc/version \
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
[ "$(cat /sys/kernel/tracing/current_tracer)" = nop ] || fail "tracer left on"
echo "PASS: $n do_sys_openat2 events"
