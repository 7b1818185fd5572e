#!/bin/sh
# trace-cmd record -p function with a filter records the filtered function
# and nothing else, and leaves tracing off afterwards.
fail() { echo "FAIL: $*"; exit 1; }
command -v trace-cmd >/dev/null || { echo "SKIP: no trace-cmd"; exit 4; }
cd /tmp || exit 1
trace-cmd record -q -p function -l do_sys_openat2 cat /proc/version >/dev/null 2>&1 ||
	fail "trace-cmd record"
n=$(trace-cmd report 2>/dev/null | grep -c 'function: *do_sys_openat2')
[ "$n" -gt 0 ] || fail "no do_sys_openat2 event recorded"
other=$(trace-cmd report 2>/dev/null | grep 'function:' | grep -vc do_sys_openat2)
[ "$other" = 0 ] || fail "$other events of other functions recorded"
[ "$(cat /sys/kernel/tracing/current_tracer)" = nop ] || fail "tracer left on"
echo "PASS: $n do_sys_openat2 events"
