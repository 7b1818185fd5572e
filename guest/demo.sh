#!/bin/sh
# What `make` shows: the series at work in the booted kernel, a few lines
# per part, through the harness's test module ftsdo_test (tests/ftsdo-test:
# its ftsdo_target_NN functions, counting trampolines and run commands).
# Everything printed here also lands in /results/demo.txt.
T=/sys/kernel/tracing
MOD=ftsdo_test
D=/sys/kernel/debug/$MOD
P=/sys/module/$MOD/parameters
exec >/results/demo.txt 2>&1
ind() { sed 's/^ */   /'; }
# bench key $1 of $D/bench
bench() { awk -v k="$1" '$1 == k { printf "%.0f\n", $2 }' $D/bench; }
ms() { awk -v k="$1" '$1 == k { printf "%.1f\n", $2 / 1000 }' $D/bench; }

echo "kernel $(uname -r) ($(uname -m)), $(wc -l <$T/available_filter_functions) traceable functions"
modprobe $MOD || { echo "no $MOD module"; exit 1; }

echo "== one batch against one ftrace_ops per trampoline (this boot)"
cut -d' ' -f1 $T/available_filter_functions_addrs | head -n 2000 | xargs -n 256 |
	while read -r chunk; do echo "$chunk" >$D/ips; done
echo 50 >$P/per_ops_max
if echo 2000 >$D/bench; then
	echo "   update_ftrace_direct_add/del: $(bench n_functions) functions, attach $(bench attach_batch_ms) ms, detach $(bench detach_batch_ms) ms"
	echo "   register_ftrace_direct, one ops per function: attach $(ms attach_per_ops_us_per_func) ms, detach $(ms detach_per_ops_us_per_func) ms per function"
	echo "   the batch is $(bench attach_speedup)x faster to attach, $(bench detach_speedup)x to detach"
else
	echo "   the benchmark failed"
fi

tc=; command -v trace-cmd >/dev/null && tc=1
echo "== direct_functions: 16 functions attached${tc:+, trace-cmd recording ftsdo_target_04}"
echo dfn_attach >$D/run
cd /tmp || exit 1
step="grep -E 'ftsdo_target_0[345] ' $T/direct_functions >/tmp/dfn.txt
	cp $T/direct_functions_stats /tmp/dfs.txt
	echo dfn_call >$D/run && echo yes >/tmp/dfn.ok"
if [ -n "$tc" ]; then
	trace-cmd record -q -o /tmp/demo.dat -p function -l ftsdo_target_04 \
		sh -c "$step" >/dev/null 2>&1
else
	sh -c "$step"
fi
printf '   function\ttrampoline\towner\tpath\n'
cut -f2,3,4,6 /tmp/dfn.txt | sed "s/ \[$MOD\]//g" | ind
awk -F': ' '{ v[$1] = $2 } END { printf "   %s functions; path: %s call, %s literal, %s list; metadata: %s\n",
	v["functions"], v["path call"], v["path literal"], v["path list"], v["metadata"] }' /tmp/dfs.txt
if [ -n "$tc" ]; then
	echo "== trace-cmd report: ftsdo_target_04, traced and with a direct trampoline"
	trace-cmd report -i /tmp/demo.dat 2>/dev/null | grep -m 2 'ftsdo_target_04 ' | tr -s ' ' | ind
fi
if [ -f /tmp/dfn.ok ]; then
	echo "   the trampolines counted each of the 48 calls (16 functions x 3)"
else
	echo "   the trampolines did NOT count every call (dmesg)"
fi
echo dfn_detach >$D/run

LP=/sys/kernel/livepatch/livepatch_sample
if [ -d /sys/kernel/livepatch ] && modinfo livepatch-sample >/dev/null 2>&1; then
	echo "== livepatch next to a direct trampoline: cmdline_proc_show"
	awk '$2 == "cmdline_proc_show" { print "0x" $1; exit }' \
		$T/available_filter_functions_addrs >$P/mod_ip
	echo mod_attach >$D/run
	echo "   before:    /proc/cmdline = $(cut -c1-40 /proc/cmdline)..."
	modprobe livepatch-sample
	i=0
	while [ "$(cat $LP/transition 2>/dev/null)" != 0 ] && [ $i -lt 300 ]; do
		sleep 0.1; i=$((i + 1))
	done
	echo mod_reset >$D/run
	echo "   patched:   /proc/cmdline = $(cat /proc/cmdline)"
	cat /proc/cmdline /proc/cmdline /proc/cmdline >/dev/null
	echo 4 >$P/mod_calls
	echo mod_expect >$D/run && r="each of the 4 calls" || r="NOT every call"
	echo "   the trampoline counted $r; direct_functions (list: the"
	echo "   livepatch's ftrace_ops is on the function too):"
	awk -F'\t' '$2 == "cmdline_proc_show" { print $2 "\t" $3 "\t" $4 "\t" $6 }' \
		$T/direct_functions | sed "s/ \[$MOD\]//g" | ind
	echo 0 >$LP/enabled
	i=0
	while [ -d $LP ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	rmmod livepatch-sample
	echo mod_detach >$D/run
	echo 0 >$P/mod_ip
fi
rmmod $MOD
