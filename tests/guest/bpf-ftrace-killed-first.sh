#!/bin/sh
# ftsdo-alone: disables ftrace for the rest of the boot
# The first BPF trampoline attached through the shared direct ops when
# ftrace dies while its call sites are being changed: ftsdo_test's kill
# file calls ftrace_kill() from a kprobe on
# ftrace_arch_code_modify_post_process(), which ftrace_run_update_code()
# calls once arch_ftrace_update_code() changed the call sites (x86 then
# finishes the queued pokes).  ftrace_startup() then answers -ENODEV with
# the sites calling the new BPF image; had update_ftrace_direct_add()
# passed that on, BPF would have freed the image those sites call.  The
# attach must succeed and the program run; closing the link then fails
# as every update does with ftrace disabled (a warning, announced), and
# a new attach answers ENODEV.
# Runs alone (guest/project-tests.sh leaves it out of "project"): make
# check's row "killed-first", make check-debug's, or make check-one.
MOD=ftsdo_test
F=ftsdo_errinj_target
D=/sys/kernel/debug/$MOD
T=/sys/kernel/tracing
. /guest/tests/bpf-hold.inc
fail() {
	echo "FAIL: $*"
	echo "expect-warn-end" >/dev/kmsg
	hold_stop
	exit 1
}
hold_need $MOD
# The attach below must be the shared ops's first add
n=$(grep -vc '^#' $T/direct_functions)
[ "$n" = 0 ] || fail "$n direct functions before the first attach"

echo "at ftrace_arch_code_modify_post_process" >$D/kill ||
	fail "cannot arm the kill (see dmesg)"
hold_start killed-first --fentry $F
[ "$(cat $D/kill)" = fired ] || fail "ftrace_kill() was not called in the attach"
echo "ftrace killed while the first attach changed the call sites; the link is attached"
errinj_call 1
h=$(hold_hits fentry $F)
[ "$h" = 1 ] || fail "fentry: $h hits, want 1: the call sites do not reach the image"
echo "the image runs: fentry 1 hit"

# Closing the link: the detach fails, and the trampoline and the link's
# release warn
echo "expect-warn-begin kernel/bpf/trampoline.c,kernel/bpf/syscall.c" >/dev/kmsg
hold_stop
echo "expect-warn-end" >/dev/kmsg
out=$(ftsdo-bpf hold --fentry $F </dev/null 2>&1)
echo "$out" | tail -n 3
case $out in
*"errno 19"*) echo "attaching F again: ENODEV, as ftrace is disabled" ;;
*) fail "attaching F again: not ENODEV" ;;
esac
echo "PASS"
