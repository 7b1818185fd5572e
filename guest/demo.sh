#!/bin/sh
# What `make` shows: the series at work in the booted kernel.
# Everything printed here also lands in /results/demo.txt.
T=/sys/kernel/tracing
exec >/results/demo.txt 2>&1

echo "kernel: $(uname -r), $(wc -l <$T/available_filter_functions) traceable functions"

echo "-- direct calls: samples/ftrace/ftrace-direct-multi attaches one trampoline"
echo "   to wake_up_process and schedule; enabled_functions shows the direct sites:"
modprobe ftrace-direct-multi
grep -A1 -E '^(wake_up_process|schedule) ' $T/enabled_functions | sed 's/^\t*/   /'
sleep 1
echo "   the trampoline's own trace_printk output:"
grep -m 3 'my_direct_func' $T/trace | sed 's/^ */   /'
rmmod ftrace-direct-multi
echo 0 >$T/tracing_on; echo >$T/trace; echo 1 >$T/tracing_on

echo "-- trace-cmd record -p function -l do_sys_openat2 -- cat /proc/version:"
cd /tmp
trace-cmd record -q -p function -l do_sys_openat2 cat /proc/version >/dev/null 2>&1
trace-cmd report 2>/dev/null | grep -m 3 do_sys_openat2 | sed 's/^ */   /'
