#!/bin/sh
# bpftrace counts the read() calls of its child on ksys_read with a kfunc
# (fentry) probe, exactly: busybox dd with bs=1 makes one read per byte
# and nothing else in its process reads (static, no loader).  After
# bpftrace exits, ftrace and BPF hold nothing more than before.
# shellcheck source=tools.inc
. /guest/tools/tools.inc
need bpftrace bpftool
N=200
state /tmp/bt-before.txt
bpftrace -e 'kfunc:vmlinux:ksys_read /pid == cpid/ { @n = count(); }' \
	-c "/bin/dd if=/dev/zero of=/dev/null bs=1 count=$N" >/tmp/bt.out 2>&1 ||
	bt_fail "bpftrace exited $?"
[ "$(bt_probes)" = 1 ] || bt_fail "not 1 probe attached"
n=$(sed -n 's/^@n: \([0-9]*\)$/\1/p' /tmp/bt.out)
[ "$n" = $N ] || bt_fail "ksys_read counted ${n:-nothing}, $N expected"
state /tmp/bt-after.txt
cmp -s /tmp/bt-before.txt /tmp/bt-after.txt ||
	bt_fail "left attached (before / after): $(cat /tmp/bt-before.txt /tmp/bt-after.txt | tr '\n' ' ')"
echo "PASS: $n reads counted on ksys_read"
