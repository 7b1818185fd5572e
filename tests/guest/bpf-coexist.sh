#!/bin/sh
# A BPF fentry program, the function tracer and a kprobe on one function at
# once: each of them sees every call.  With the series the fentry
# trampoline is on the shared direct ops, and the three ops on the site
# send it through the ftrace list function, where call_direct_funcs_hash()
# finds the trampoline.
# The function is cmdline_proc_show(), called once per read of
# /proc/cmdline.
T=/sys/kernel/tracing
F=cmdline_proc_show
K=50
. /guest/tests/bpf-hold.inc
fail() { echo "FAIL: $*"; cleanup; exit 1; }
cleanup() {
	echo 0 >$T/tracing_on
	echo nop >$T/current_tracer
	echo >$T/set_ftrace_filter
	[ -d $T/events/ftsdo_coexist ] && echo 0 >$T/events/ftsdo_coexist/enable
	echo >$T/kprobe_events
	hold_stop
	echo 1 >$T/tracing_on
}
command -v ftsdo-bpf >/dev/null || { echo "SKIP: no ftsdo-bpf"; exit 4; }

hold_start coexist --fentry $F
echo 0 >$T/tracing_on
echo >$T/trace
echo $F >$T/set_ftrace_filter || fail "set_ftrace_filter $F"
echo function >$T/current_tracer || fail "function tracer"
echo "p:ftsdo_coexist/hit $F" >>$T/kprobe_events || fail "kprobe on $F"
echo 1 >$T/events/ftsdo_coexist/hit/enable || fail "enable the kprobe"
grep "^$F " $T/enabled_functions
n0=$(hold_hits fentry $F)
echo 1 >$T/tracing_on
i=0
while [ $i -lt $K ]; do
	cat /proc/cmdline >/dev/null || fail "read /proc/cmdline"
	i=$((i + 1))
done
echo 0 >$T/tracing_on

nf=$(grep -c " $F <-" $T/trace)
nk=$(grep -c " hit: ($F+" $T/trace)
nb=$(($(hold_hits fentry $F) - n0))
echo "calls $K: function tracer $nf, kprobe $nk, fentry ${nb:-none}"
[ "$nf" = $K ] || fail "function tracer saw $nf calls, want $K"
[ "$nk" = $K ] || fail "kprobe saw $nk calls, want $K"
[ "$nb" = $K ] || fail "fentry program saw ${nb:-no} calls, want $K"
cleanup
grep -q "^$F " $T/enabled_functions && fail "$F still in enabled_functions"
echo "PASS: function tracer, kprobe and fentry each saw all $K calls"
