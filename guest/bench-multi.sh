#!/bin/sh
# make bench, tracing_multi part, in the guest: on every attachable
# function (tests/bpf-multi/tmulti.c, collect_all()), one tracing_multi
# link, one kprobe_multi link, and single fentry links on 500 of them
# (tmulti bench); then the same functions as a bare batch of the shared
# ops with a returning trampoline (the test module's dfn_hold and
# dfn_release: the floor a link's attach and release build on).  "name
# value" lines go to /results/bench-multi.txt.
R=/results/bench-multi.txt
T=/sys/kernel/tracing
D=/sys/kernel/debug/ftsdo_test
: >$R
command -v tmulti >/dev/null || { echo "no tmulti"; exit 1; }
now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }
echo "== tmulti bench"
tmulti bench /tmp/tmulti-funcs >/tmp/tmulti.out 2>&1
rc=$?
cat /tmp/tmulti.out
[ $rc = 0 ] || { echo "tmulti bench failed ($rc)"; exit 1; }
grep -E '^[a-z_]+ [0-9.]+$' /tmp/tmulti.out >>$R
echo "== raw batch"
modprobe ftsdo_test || { echo "no ftsdo_test module"; exit 1; }
# The functions' ftrace addresses ("<addr> <name>", vmlinux only)
awk 'NR == FNR { want[$1] = 1; next } NF == 2 && ($2 in want) { print $1 }' \
	/tmp/tmulti-funcs $T/available_filter_functions_addrs >/tmp/tmulti-addrs
echo clear >$D/ips
xargs -n 256 </tmp/tmulti-addrs | while read -r chunk; do
	echo "$chunk" >$D/ips || exit 1
done || { echo "loading the addresses failed"; exit 1; }
t0=$(now_ms)
echo dfn_hold >$D/run || { echo "dfn_hold failed"; exit 1; }
t1=$(now_ms)
n=$(grep -vc '^#' $T/direct_functions)
t2=$(now_ms)
echo dfn_release >$D/run || { echo "dfn_release failed"; exit 1; }
t3=$(now_ms)
{
	echo "rawbatch_n $n"
	echo "rawbatch_attach_ms $((t1 - t0))"
	echo "rawbatch_detach_ms $((t3 - t2))"
} | tee -a $R
cat $R
