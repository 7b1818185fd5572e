#!/bin/sh
# ftsdo-alone: disables ftrace for the rest of the boot
# BPF trampolines on the shared direct ops once ftrace is disabled, as any
# ftrace_bug() or FTRACE_WARN_ON() does (ftrace_kill(), through the
# harness's test module ftsdo_test, tests/ftsdo-test):
#  1. ftrace is killed inside a retarget (update_ftrace_direct_mod(), an
#     fexit program added beside an fentry one), between the stub ops's
#     registration and its removal, which then fails: the functions were
#     retargeted, so the new image must stay and run, and the fexit link
#     is attached;
#  2. the links are closed: their detaches fail (ftrace is disabled) and
#     the trampoline is freed; it must not stay in trampoline_ip_table,
#     where attaching to the same function again would read it (KASAN
#     reports that in make check-debug; here the attach fails with EBUSY
#     instead of ENODEV).
# The warnings the failed updates raise are announced (expect-warn).
# Runs alone (guest/project-tests.sh leaves it out of "project"):
# make check-debug's row "killed", or make check-one.
MOD=ftsdo_test
F=ftsdo_errinj_target
D=/sys/kernel/debug/$MOD
. /guest/tests/bpf-hold.inc
b=""
fail() {
	echo "FAIL: $*"
	echo "expect-warn-end" >/dev/kmsg
	[ -z "$b" ] || { echo quit >&4; wait "$b"; }
	hold_stop
	exit 1
}
warn_begin() { echo "expect-warn-begin $1" >/dev/kmsg; }
warn_end() { echo "expect-warn-end" >/dev/kmsg; }
hold_need $MOD
# The counts of the second holder (fd 4), "fexit F hits N ret R"
b_hits() {
	n=$(grep -c '^end' /tmp/killed-b.out)
	echo counts >&4
	i=0
	while [ "$(grep -c '^end' /tmp/killed-b.out)" -le "$n" ] && [ $i -lt 300 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	sed -n "s/^fexit $F hits \([0-9]*\) ret \(-*[0-9]*\)$/\1 \2/p" /tmp/killed-b.out | tail -n 1
}

hold_start killed-a --fentry $F
errinj_call 1
[ "$(hold_hits fentry $F)" = 1 ] || fail "fentry: $(hold_hits fentry $F) hits, want 1"

# 1. The fexit program's attach retargets F; ftrace dies in the middle
echo "at direct_check_ipmodify" >$D/kill || fail "cannot arm the kill (see dmesg)"
rm -f /tmp/killed-b.in /tmp/killed-b.out
mkfifo /tmp/killed-b.in
warn_begin kernel/trace/ftrace.c
ftsdo-bpf hold --fexit $F </tmp/killed-b.in >/tmp/killed-b.out 2>&1 &
b=$!
exec 4>/tmp/killed-b.in
i=0
until grep -q '^ready' /tmp/killed-b.out; do
	if ! kill -0 "$b" 2>/dev/null; then
		cat /tmp/killed-b.out
		wait "$b"
		b=""
		fail "the fexit program did not attach: a retarget that was done reported an error"
	fi
	i=$((i + 1))
	[ $i -lt 600 ] || fail "fexit hold: not ready after 60 s"
	sleep 0.1
done
warn_end
[ "$(cat $D/kill)" = fired ] || fail "ftrace_kill() was not called inside the retarget"
echo "ftrace killed inside the retarget; the fexit link is attached"
# The new image runs both programs
errinj_call 5
a=$(hold_hits fentry $F)
[ "$a" = 2 ] || fail "fentry: $a hits after the retarget, want 2"
[ "$(b_hits)" = "1 6" ] || fail "fexit: '$(b_hits)' (hits ret) after the retarget, want '1 6'"
echo "the new image ran: fentry 2 hits, fexit 1 hit returning 6"

# 2. Close the links (F is not called again: the image still calls the
# released programs); each detach fails and warns
warn_begin kernel/bpf/syscall.c
echo quit >&4
wait "$b"
b=""
exec 4>&-
warn_end
warn_begin kernel/bpf/trampoline.c
hold_stop
warn_end
out=$(ftsdo-bpf hold --fentry $F </dev/null 2>&1)
echo "$out" | tail -n 3
case $out in
*"errno 19"*) echo "attaching F again: ENODEV, as ftrace is disabled" ;;
*"errno 16"*) fail "attaching F again: EBUSY, a freed trampoline is still in trampoline_ip_table" ;;
*) fail "attaching F again: not ENODEV" ;;
esac
echo "PASS"
