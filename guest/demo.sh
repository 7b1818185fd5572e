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

D=/sys/kernel/debug/ftrace_direct_batch
if modprobe ftrace_direct_batch_test 2>/dev/null; then
	echo "-- one shared direct ftrace_ops (update_ftrace_direct_add/del/mod):"
	echo "   ftrace_direct_batch_test attaches 64 functions in one batch, counts every"
	echo "   call in its trampolines, retargets half while the other CPU calls them:"
	echo basic >$D/run && r=PASS || r=FAIL
	dmesg | grep -E 'ftrace_direct_batch_test: (# retarget|ok [0-9]+ - basic: (no call lost|exact))' |
		sed 's/^\[[^]]*\] ftrace_direct_batch_test: /   /'
	echo "   basic: $r"
	echo "-- tracefs direct_functions: 16 functions attached, trace-cmd's function"
	echo "   tracer on fdbt_target_04 (function, trampoline, owner, path):"
	echo dfn_attach >$D/run
	trace-cmd start -p function -l fdbt_target_04 >/dev/null 2>&1
	grep -E 'fdbt_target_0[345] ' $T/direct_functions | cut -f2,3,4,6 |
		sed 's/ \[ftrace_direct_batch_test\]//g; s/^/   /'
	grep -E '^(functions|path call|path literal|path list|metadata):' \
		$T/direct_functions_stats | sed 's/^/   /'
	echo dfn_call >$D/run && r="every call" || r="NOT every call"
	echo "   3 calls each: the trampolines saw $r; trace-cmd show:"
	trace-cmd show 2>/dev/null | grep -m 2 fdbt_target_04 | sed 's/^ */   /'
	trace-cmd reset >/dev/null 2>&1
	echo dfn_detach >$D/run
	echo "-- batch attach of 2000 functions vs one register_ftrace_direct() ops each"
	echo "   (100 of them), in this boot:"
	cut -d' ' -f1 $T/available_filter_functions_addrs | head -n 2000 | xargs -n 256 |
		while read -r chunk; do echo "$chunk" >$D/ips; done
	echo 100 >/sys/module/ftrace_direct_batch_test/parameters/per_ops_max
	echo 2000 >$D/bench &&
		grep -E '^(n_functions|attach_batch_ms|detach_batch_ms|attach_per_ops_us_per_func|detach_per_ops_us_per_func|attach_speedup|detach_speedup) ' $D/bench |
		sed 's/^/   /'
	rmmod ftrace_direct_batch_test
fi
