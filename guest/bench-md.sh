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
rmmod $MOD

# The function tracer's filter going from one function to none ("all")
# and back, with 200 one-function ops registered (200 instances, each
# tracing one function): the time of each write to set_ftrace_filter
# (between two trace_marker lines of an instance of its own, in ms).  It
# patches every call site, walks the records and, with metadata, updates
# the sets of every function: the metadata's part is the difference to
# the boot with ftrace_md=off.  Keys md_empty_filter_ms, md_set_filter_ms.
# FTSDO_MD_EMPTY=0 leaves the part out.
marker_ms() {
	awk -v b="ftsdo: $1 begin" -v e="ftsdo: $1 end" '
	function ts(l) {
		if (!match(l, / [0-9]+\.[0-9]+: /))
			return 0
		return substr(l, RSTART + 1, RLENGTH - 3) + 0
	}
	index($0, b) { t0 = ts($0) }
	index($0, e) { t1 = ts($0) }
	END { printf "%.3f\n", (t1 - t0) * 1000 }' $I/ftsdo_m/trace
}
I=$T/instances
if [ "${FTSDO_MD_EMPTY:-1}" != 0 ]; then
	fns=$(awk '$3 == "" && NR % 53 == 0 { print $2 }' $T/available_filter_functions_addrs |
		sort -u | head -n 201)
	mkdir $I/ftsdo_m && echo 16 >$I/ftsdo_m/buffer_size_kb || exit 1
	n=0
	first=
	for f in $fns; do
		[ -n "$first" ] || { first=$f; continue; }
		n=$((n + 1))
		mkdir $I/ftsdo_o$n && echo 4 >$I/ftsdo_o$n/buffer_size_kb &&
			echo 0 >$I/ftsdo_o$n/tracing_on &&
			echo "$f" >$I/ftsdo_o$n/set_ftrace_filter &&
			echo function >$I/ftsdo_o$n/current_tracer || { echo "instance $n ($f)"; exit 1; }
	done
	echo 0 >$T/tracing_on
	echo "$first" >$T/set_ftrace_filter
	echo function >$T/current_tracer
	echo "ftsdo: empty begin" >$I/ftsdo_m/trace_marker
	echo >$T/set_ftrace_filter
	echo "ftsdo: empty end" >$I/ftsdo_m/trace_marker
	echo "ftsdo: set begin" >$I/ftsdo_m/trace_marker
	echo "$first" >$T/set_ftrace_filter
	echo "ftsdo: set end" >$I/ftsdo_m/trace_marker
	echo nop >$T/current_tracer
	echo >$T/set_ftrace_filter
	echo 1 >$T/tracing_on
	echo "md_empty_filter_ms $(marker_ms empty)" >>/results/bench-md.txt
	echo "md_set_filter_ms $(marker_ms set)" >>/results/bench-md.txt
	echo "md_empty_filter_ops $n" >>/results/bench-md.txt
	for d in $I/ftsdo_o*; do
		echo nop >$d/current_tracer
		rmdir $d
	done
	rmdir $I/ftsdo_m
fi
sed 's/^/bench-md /' /results/bench-md.txt
