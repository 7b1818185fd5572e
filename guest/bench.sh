#!/bin/sh
# make bench, in the guest: batch attach/detach of every traceable function
# against one register_ftrace_direct() ops per function, in this one boot.
T=/sys/kernel/tracing
D=/sys/kernel/debug/ftrace_direct_batch
modprobe ftrace_direct_batch_test || { echo "no ftrace_direct_batch_test module"; exit 1; }
echo clear >$D/ips
# available_filter_functions_addrs: "<addr> <name> [module]"; feed the
# addresses in chunks the debugfs write takes.
cut -d' ' -f1 $T/available_filter_functions_addrs | xargs -n 256 | while read -r chunk; do
	echo "$chunk" >$D/ips || exit 1
done
echo "${FTSDO_BENCH_N:-0}" >$D/bench || { echo "bench failed"; exit 1; }
cat $D/bench | tee /results/bench.txt
rmmod ftrace_direct_batch_test
