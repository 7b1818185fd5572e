#!/bin/sh
# The samples/ftrace direct-call modules attach, their trampolines run with
# the right arguments, and they detach without leaving a direct site.
T=/sys/kernel/tracing
fail() { echo "FAIL: $*"; exit 1; }
modinfo ftrace-direct >/dev/null 2>&1 || { echo "SKIP: no samples"; exit 4; }
echo 0 >$T/tracing_on; echo >$T/trace; echo 1 >$T/tracing_on

# ftrace-direct: one trampoline on wake_up_process, it prints the task.
modprobe ftrace-direct || fail "modprobe ftrace-direct"
# A direct site is flagged D; the next line names its trampoline.
is_direct() {
	grep -A1 "^$1 " $T/enabled_functions | grep -q "^$1 .* D .*" &&
		grep -A1 "^$1 " $T/enabled_functions | grep -q "direct-->$2"
}
is_direct wake_up_process my_tramp || fail "wake_up_process is not a direct site"
sleep 1 &
wait
grep -q 'my_direct_func: waking up ' $T/trace || fail "trampoline did not run"
rmmod ftrace-direct || fail "rmmod ftrace-direct"

# ftrace-direct-multi: one ops, two functions; both must report their ip.
modprobe ftrace-direct-multi || fail "modprobe ftrace-direct-multi"
for f in wake_up_process schedule; do
	is_direct $f my_tramp || fail "$f is not a direct site"
done
sleep 1
# The sample prints the trampoline's return address: the ftrace location
# of the function plus the call (MCOUNT_INSN_SIZE: 5 on x86_64, the BL
# on arm64: 4).
insn=5
[ "$(cat /etc/ftsdo-arch)" = arm64 ] && insn=4
for f in wake_up_process schedule; do
	ip=$(grep " $f\$" $T/available_filter_functions_addrs | cut -d' ' -f1)
	hi=${ip%????}
	lo=$((0x${ip#"$hi"} + insn))
	[ "$lo" -le 65535 ] || fail "cannot compute $ip + $insn here"
	want=$hi$(printf '%04x' "$lo")
	grep -q "my_direct_func: ip $want\$" $T/trace ||
		fail "no hit from $f (ip $want) in: $(grep -m 5 my_direct_func $T/trace)"
done
rmmod ftrace-direct-multi || fail "rmmod ftrace-direct-multi"

# Nothing is left behind.
grep -q -- 'direct-->' $T/enabled_functions &&
	fail "direct sites left: $(grep -B1 -- 'direct-->' $T/enabled_functions)"
echo 0 >$T/tracing_on; echo >$T/trace; echo 1 >$T/tracing_on
echo PASS
