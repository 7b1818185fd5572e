#!/bin/sh
# Churn (a stress test, for make check-debug): the KUnit case fdk_churn of
# ftrace_direct_batch for ftsdo.churn=SECONDS (kernel command line; no
# knob: skip).  In the kernel, two threads attach, detach and retarget
# random sets of functions on the shared direct ops while the old
# interface, a tracer, a kprobe and an fprobe come and go on them and
# another CPU calls them, each call checked against the state it ran in.
# From here, meanwhile: the function tracer and function_graph on the
# same functions, and BPF fentry/fexit links on bpf_fentry_test1..8
# (ftsdo-bpf cycles: the same shared ops) come and go.  At the end the
# case has detached everything; kunit.sh's ftrace_md suite then checks
# every metadata entry against the ops list.
T=/sys/kernel/tracing
D=/sys/kernel/debug/kunit
G=/sys/module/kunit/parameters/filter_glob
MOD=ftrace_direct_kunit
fail() { echo "FAIL: $*"; cleanup; exit 1; }
cleanup() {
	echo nop >$T/current_tracer
	echo >$T/set_ftrace_filter
	# printf: a charp parameter keeps the newline echo would write
	[ -w $G ] && printf '*.*' >$G
}
secs=$(sed -n 's/.*ftsdo\.churn=\([0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$secs" ] || { echo "SKIP: no ftsdo.churn=SECONDS on the command line"; exit 4; }
[ -d $D ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null

# tracers SECONDS: the function tracer and function_graph in turn on the
# case's functions, and BPF links, until the churn is over
tracers() {
	end=$(($(date +%s) + $1))
	n=0
	while [ "$(date +%s)" -lt $end ] && [ ! -e /tmp/churn.done ]; do
		echo 'fdk_target*' >$T/set_ftrace_filter 2>/dev/null
		echo function >$T/current_tracer
		command -v ftsdo-bpf >/dev/null && ftsdo-bpf cycles 1 >/dev/null
		echo function_graph >$T/current_tracer
		sleep 1
		echo nop >$T/current_tracer
		n=$((n + 1))
	done
	echo "$n rounds of tracers and BPF links"
}

rm -f /tmp/churn.done
if find /lib/modules -name "$MOD.ko*" | grep -q .; then
	# Only the churn case runs: the others count calls exactly and
	# would see the tracers
	[ -w $G ] || fail "no $G"
	printf 'ftrace_direct_batch.fdk_churn' >$G
	(modprobe $MOD churn_ms=$((secs * 1000)); echo $? >/tmp/churn.rc;
	 touch /tmp/churn.done) &
	sleep 2
	tracers $((secs + 60))
	wait
	[ "$(cat /tmp/churn.rc)" = 0 ] || fail "modprobe $MOD"
	r=$D/ftrace_direct_batch/results
	cat $r
	grep -q "^[[:space:]]*ok [0-9]* fdk_churn" $r || fail "fdk_churn did not pass"
	grep "fdk_churn: " $r
	rmmod $MOD || fail "rmmod $MOD"
else
	# Built in: run again through debugfs, all its cases (no tracers)
	P=/sys/module/$MOD/parameters/churn_ms
	[ -w $P ] || fail "$MOD: neither a module nor built in with $P"
	echo $((secs * 1000)) >$P
	echo run >$D/ftrace_direct_batch/run
	echo 2000 >$P
	r=$D/ftrace_direct_batch/results
	cat $r
	grep -q "^[[:space:]]*ok [0-9]* fdk_churn" $r || fail "fdk_churn did not pass"
	grep "fdk_churn: " $r
fi
cleanup
echo PASS
