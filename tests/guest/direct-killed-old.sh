#!/bin/sh
# ftsdo-alone: disables ftrace for the rest of the boot
# register_ftrace_direct() (the old API) when ftrace dies while it changes
# the call sites: ftsdo_test's kill file calls ftrace_kill() from a kprobe
# on ftrace_arch_code_modify_post_process(), which ftrace_run_update_code()
# calls once arch_ftrace_update_code() changed the call sites (x86 then
# finishes the queued pokes).  ftrace_startup() answers -ENODEV with
# wake_up_process() calling the sample's trampoline; had
# register_ftrace_direct() passed that on, samples/ftrace/ftrace-direct's
# init would have failed and its module text, the trampoline, been freed
# under those calls.  The load must succeed and the trampoline run.  The
# module stays loaded: its exit could not change the call sites back.
# Runs alone (guest/project-tests.sh leaves it out of "project"): make
# check's row "killed-old", or make check-one.
MOD=ftsdo_test
D=/sys/kernel/debug/$MOD
T=/sys/kernel/tracing
fail() { echo "FAIL: $*"; exit 1; }
modinfo ftrace-direct >/dev/null 2>&1 || { echo "SKIP: no samples"; exit 4; }
modprobe $MOD || { echo "SKIP: no $MOD"; exit 4; }
# The registration below must be what reaches the kprobe: no other ops on
# a function, or loading the sample would update call sites (and call
# the kprobed function) before its init runs
n=$(grep -c . $T/enabled_functions)
[ "$n" = 0 ] || fail "$n enabled functions before the sample's load"
echo 0 >$T/tracing_on; echo >$T/trace; echo 1 >$T/tracing_on

echo "at ftrace_arch_code_modify_post_process" >$D/kill ||
	fail "cannot arm the kill (see dmesg)"
modprobe ftrace-direct || fail "modprobe ftrace-direct failed after ftrace_kill()"
[ "$(cat $D/kill)" = fired ] ||
	fail "ftrace_kill() was not called in the sample's registration"
echo "ftrace killed while register_ftrace_direct() changed the call sites; the sample is loaded"
sleep 1 &
wait
grep -q 'my_direct_func: waking up ' $T/trace ||
	fail "the trampoline did not run: the call sites do not reach it"
echo "the trampoline runs: $(grep -c 'my_direct_func: waking up ' $T/trace) lines"
echo "PASS"
