#!/bin/sh
# bpftrace on every syscall entry function at once, __x64_sys_* or
# __arm64_sys_* (a kfunc probe, so a BPF trampoline, on each: over 300 in
# the test kernel, about 430 in a distribution's).  Its child makes N
# reads and N writes (busybox dd, bs=1), which ..._sys_read and
# ..._sys_write count with the few syscalls of the shell before it execs
# dd.  While attached, the child sees with bpftool one more tracing
# program and one more link per probe and, on the series, every function
# in direct_functions; after bpftrace exits, ftrace and BPF hold nothing
# more than before.
# shellcheck source=tools.inc
. /guest/tools/tools.inc
need bpftrace bpftool
N=100
S=__x64_sys_
[ "$(uname -m)" = aarch64 ] && S=__arm64_sys_
state /tmp/bt-before.txt
cat >/tmp/bt-child.sh <<EOC
. /guest/tools/tools.inc
state /tmp/bt-during.txt
grep -c '	$S' $T/direct_functions >/tmp/bt-dfn.txt 2>/dev/null
exec /bin/dd if=/dev/zero of=/dev/null bs=1 count=$N
EOC
# A program and a link, and more, per probe: over the default 1024 files
# (dash and busybox sh have ulimit -n)
# shellcheck disable=SC3045
ulimit -n 4096
bpftrace -e "kfunc:vmlinux:$S* /pid == cpid/ { @c[probe] = count(); }" \
	-c "/bin/sh /tmp/bt-child.sh" >/tmp/bt.out 2>&1 ||
	bt_fail "bpftrace exited $?"
p=$(bt_probes)
[ "${p:-0}" -ge 200 ] || bt_fail "${p:-no} probes attached, over 200 expected"
hits() { sed -n "s/^@c\[kfunc:\(vmlinux:\)\{0,1\}$1\]: \([0-9]*\)$/\2/p" /tmp/bt.out; }
for f in "${S}read" "${S}write"; do
	c=$(hits "$f")
	if [ "${c:-0}" -lt $N ] || [ "$c" -gt $((N + 20)) ]; then
		bt_fail "$f counted ${c:-nothing}, $N to $((N + 20)) expected"
	fi
done
for k in tracing_progs tracing_links; do
	d=$(($(field /tmp/bt-during.txt $k) - $(field /tmp/bt-before.txt $k)))
	[ "$d" = "$p" ] || bt_fail "bpftool: $d more $k while $p probes were attached"
done
if [ -f "$T/direct_functions" ]; then
	[ "$(cat /tmp/bt-dfn.txt)" = "$p" ] ||
		bt_fail "$(cat /tmp/bt-dfn.txt) $S* functions in direct_functions, $p probes"
fi
state /tmp/bt-after.txt
cmp -s /tmp/bt-before.txt /tmp/bt-after.txt ||
	bt_fail "left attached (before / after): $(cat /tmp/bt-before.txt /tmp/bt-after.txt | tr '\n' ' ')"
echo "PASS: $p probes; read $(hits "${S}read"), write $(hits "${S}write")"
