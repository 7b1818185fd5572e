#!/bin/sh
# make bench, in the guest: the cost of one call of a traced function that
# goes through the list function, in this boot's function metadata mode
# (ftrace_md= on the kernel command line), and of ftrace_set_filter_ip()
# growing a registered ops's filter: ftrace_direct_batch_test's callbench.
# Results ("name nanoseconds") go to /results/bench-md.txt.
D=/sys/kernel/debug/ftrace_direct_batch
cp /sys/kernel/tracing/function_metadata /results/function_metadata.txt
echo "function_metadata mode: $(sed -n 's/^mode: //p' /results/function_metadata.txt)"
modprobe ftrace_direct_batch_test || { echo "no ftrace_direct_batch_test module"; exit 1; }
# Candidates for the filter part: every traceable function but the module's
# (FTSDO_MD_FILTER=0 on the kernel command line leaves the part out)
T=/sys/kernel/tracing
echo clear >$D/ips
[ "${FTSDO_MD_FILTER:-1}" = 0 ] ||
	grep -v '\[ftrace_direct_batch_test\]' $T/available_filter_functions_addrs | cut -d' ' -f1 |
	xargs -n 256 | while read -r chunk; do echo "$chunk" >$D/ips || exit 1; done
echo 1 >$D/callbench || { echo "callbench failed"; exit 1; }
cat $D/callbench >/results/bench-md.txt
sed 's/^/bench-md /' /results/bench-md.txt
rmmod ftrace_direct_batch_test
