#!/bin/sh
# make bench, in the guest: batch attach/detach of every traceable function
# against one register_ftrace_direct() ops per function, in this one boot,
# repeated FTSDO_BENCH_ROUNDS times (default 3; kernel command line
# FTSDO_BENCH_ROUNDS=K reaches init's environment).  Each round's results go
# to /results/bench-round<K>.txt; the host reports median and spread.
T=/sys/kernel/tracing
D=/sys/kernel/debug/ftrace_direct_batch
rounds=${FTSDO_BENCH_ROUNDS:-3}
modprobe ftrace_direct_batch_test || { echo "no ftrace_direct_batch_test module"; exit 1; }
echo clear >$D/ips
# available_filter_functions_addrs: "<addr> <name> [module]"; feed the
# addresses in chunks the debugfs write takes.
cut -d' ' -f1 $T/available_filter_functions_addrs | xargs -n 256 | while read -r chunk; do
	echo "$chunk" >$D/ips || exit 1
done
k=1
while [ "$k" -le "$rounds" ]; do
	echo "== bench round $k of $rounds"
	echo "${FTSDO_BENCH_N:-0}" >$D/bench || { echo "bench failed in round $k"; exit 1; }
	# Read after each round: the file shows the last round only.
	cat $D/bench >/results/bench-round$k.txt
	sed "s/^/bench-round$k /" /results/bench-round$k.txt
	k=$((k + 1))
done
rmmod ftrace_direct_batch_test
