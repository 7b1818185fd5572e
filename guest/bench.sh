#!/bin/sh
# make bench, in the guest: batch attach/detach of every traceable function
# against one register_ftrace_direct() ops per function, in this one boot,
# repeated FTSDO_BENCH_ROUNDS times (default 3; kernel command line
# FTSDO_BENCH_ROUNDS=K reaches init's environment), with the harness's
# test module ftsdo_test (tests/ftsdo-test).  Each round's results go to
# /results/bench-round<K>.txt; the host reports median and spread.
T=/sys/kernel/tracing
MOD=ftsdo_test
D=/sys/kernel/debug/$MOD
rounds=${FTSDO_BENCH_ROUNDS:-3}
modprobe $MOD || { echo "no $MOD module"; exit 1; }
# The addresses of available_filter_functions_addrs ("<addr> <name>
# [module]"), without the functions of module $1 if given, and without
# those that have a direct trampoline already (direct_functions:
# "<addr>\t<name>..."): the module cannot tell those apart.
free_addrs() {
	{ grep -v '^#' $T/direct_functions 2>/dev/null | cut -f1 | sed 's/^/- /'
	  cat $T/available_filter_functions_addrs; } |
		awk -v mod="[${1:-}]" '$1 == "-" { skip[$2] = 1; next }
			!($1 in skip) && $3 != mod { print $1 }'
}
# Feed them to the module's ips file in chunks the debugfs write takes.
load_ips() {
	echo clear >$D/ips
	free_addrs "$@" | xargs -n 256 | while read -r chunk; do
		echo "$chunk" >$D/ips || exit 1
	done
}
load_ips
k=1
while [ "$k" -le "$rounds" ]; do
	echo "== bench round $k of $rounds"
	echo "${FTSDO_BENCH_N:-0}" >$D/bench || { echo "bench failed in round $k"; exit 1; }
	# Read after each round: the file shows the last round only.
	cat $D/bench >/results/bench-round$k.txt
	sed "s/^/bench-round$k /" /results/bench-round$k.txt
	k=$((k + 1))
done

# direct_functions with every traceable function attached in one batch
# (dfn_hold; the module's own functions are left to dfn_attach): how long
# a read of each file takes; then, alone and while a reader loops over
# direct_functions, a read of one chunk of available_filter_functions
# (ftrace_lock) and a batch of 16 functions attached and detached
# (direct_mutex, ftrace_lock, RCU grace periods).  /proc/uptime counts in
# 10 ms.
now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }
# mean and max (ms) of $1 runs of the command that follows
mean_max_ms() {
	n=$1
	shift
	sum=0 max=0 i=0
	while [ $i -lt $n ]; do
		t0=$(now_ms)
		"$@" || exit 1
		t=$(($(now_ms) - t0))
		sum=$((sum + t))
		[ $t -gt $max ] && max=$t
		i=$((i + 1))
	done
	echo "$((sum / n)) $max"
}
# One chunk of available_filter_functions: ftrace_lock, as each chunk of
# direct_functions takes it
probe() { dd if=$T/available_filter_functions of=/dev/null bs=4096 count=1 2>/dev/null; }
batch16() { echo dfn_attach >$D/run && echo dfn_detach >$D/run; }
readf() { cat "$1" >/dev/null; }
# "<key>_ms <mean>" and "<key>_max_ms <max>" of mean_max_ms $2...
emit() {
	k=$1
	shift
	# two numbers: split on purpose
	# shellcheck disable=SC2046
	set -- $(mean_max_ms "$@")
	echo "${k}_ms $1"
	echo "${k}_max_ms $2"
}
echo "== direct_functions with every function attached"
load_ips $MOD
{
	t0=$(now_ms)
	echo dfn_hold >$D/run || exit 1
	echo "dfn_hold_ms $(($(now_ms) - t0))"
	echo "dfn_lines $(grep -vc '^#' $T/direct_functions)"
	emit dfn_read 5 readf $T/direct_functions
	emit dfn_stats_read 5 readf $T/direct_functions_stats
	emit dfn_lock_probe 50 probe
	emit dfn_batch16 10 batch16
	(while :; do cat $T/direct_functions >/dev/null; done) &
	rp=$!
	emit dfn_lock_probe_reading 50 probe
	emit dfn_batch16_reading 10 batch16
	kill $rp
	wait $rp 2>/dev/null
	sleep 2
	echo dfn_release >$D/run || exit 1
} >/results/bench-dfn.txt || { echo "the direct_functions part failed"; exit 1; }
cat /results/bench-dfn.txt

# The same files with one register_ftrace_direct() ops per function
# (dfn_hold_single, at most 20,000), as old API users and BPF without the
# shared ops attach: a read must not grow with functions x ops.  Last, and
# the ops stay: unregistering them takes one RCU tasks grace period each
# (about 40 minutes under TCG); the guest powers off instead.
# FTSDO_DFN_SINGLE=0 leaves it out.
if [ "${FTSDO_DFN_SINGLE:-1}" != 0 ]; then
	echo "== direct_functions with one old API ops per function"
	{
		t0=$(now_ms)
		echo dfn_hold_single >$D/run || exit 1
		echo "dfn_single_hold_ms $(($(now_ms) - t0))"
		echo "dfn_single_lines $(grep -vc '^#' $T/direct_functions)"
		echo "dfn_single_ops $(grep -c '^ops .* single ' $T/direct_functions_stats)"
		emit dfn_single_read 3 readf $T/direct_functions
		emit dfn_single_stats_read 3 readf $T/direct_functions_stats
	} >/results/bench-dfn-single.txt || { echo "the old API part failed"; exit 1; }
	cat /results/bench-dfn-single.txt
else
	rmmod $MOD
fi
