#!/bin/sh
# make bench, in the guest: the cost of one call of a traced function that
# goes through the list function, in this boot's function metadata mode
# (ftrace_md= on the kernel command line), and of ftrace_set_filter_ip()
# growing a registered ops's filter: the callbench of the harness's test
# module ftsdo_test (tests/ftsdo-test).  On arm64 also a call of a function
# on the shared direct ops alone (direct_near_ns).  Results ("name
# nanoseconds") go to /results/bench-md.txt.
T=/sys/kernel/tracing
MOD=ftsdo_test
D=/sys/kernel/debug/$MOD
# No function_metadata file where the kernel has no metadata (arm64)
if [ -f $T/function_metadata ]; then
	cp $T/function_metadata /results/function_metadata.txt
	echo "function_metadata mode: $(sed -n 's/^mode: //p' /results/function_metadata.txt)"
fi
modprobe $MOD || { echo "no $MOD module"; exit 1; }
# Candidates for the filter part: every traceable function but the module's
# (FTSDO_MD_FILTER=0 on the kernel command line leaves the part out)
echo clear >$D/ips
[ "${FTSDO_MD_FILTER:-1}" = 0 ] ||
	awk -v mod="[$MOD]" '$3 != mod { print $1 }' $T/available_filter_functions_addrs |
	xargs -n 256 | while read -r chunk; do echo "$chunk" >$D/ips || exit 1; done
echo 1 >$D/callbench || { echo "callbench failed"; exit 1; }
cat $D/callbench >/results/bench-md.txt
sed 's/^/bench-md /' /results/bench-md.txt
rmmod $MOD
