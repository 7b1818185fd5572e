#!/bin/sh
# A BPF fexit program and a livepatch on one function, in both orders: the
# livepatch takes effect (/proc/cmdline shows the patched text) and the
# fexit program sees every call, as on the base (6.12 shares such a site
# through BPF_TRAMP_F_SHARE_IPMODIFY).  With the series the fexit
# trampoline is on the shared direct ops, and ftrace asks the BPF
# trampoline code about the function by its ip.
# livepatch-sample replaces cmdline_proc_show().
F=cmdline_proc_show
LP=/sys/kernel/livepatch/livepatch_sample
PATCHED="this has been live patched"
K=20
. /guest/tests/bpf-hold.inc
fail() { echo "FAIL: $*"; hold_stop; lp_off; exit 1; }
wait_transition() {
	i=0
	while [ -d $LP ] && [ "$(cat $LP/transition 2>/dev/null)" = 1 ]; do
		i=$((i + 1)); [ $i -lt 600 ] || return 1
		sleep 0.1
	done
}
lp_on() {
	modprobe livepatch-sample || return 1
	wait_transition
}
lp_off() {
	[ -d $LP ] || return 0
	echo 0 >$LP/enabled
	wait_transition
	i=0
	while [ -d $LP ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	rmmod livepatch-sample
}
# Read /proc/cmdline K times; every read must show the patched text ($1 =
# patched) or not ($1 = orig).
reads() {
	j=0
	while [ $j -lt $K ]; do
		out=$(cat /proc/cmdline)
		case $1 in
		patched) [ "$out" = "$PATCHED" ] || fail "read $j: '$out', want the livepatch's text" ;;
		orig) [ "$out" != "$PATCHED" ] || fail "read $j: the livepatch's text, want the original" ;;
		esac
		j=$((j + 1))
	done
}
command -v ftsdo-bpf >/dev/null || { echo "SKIP: no ftsdo-bpf"; exit 4; }
# busybox's modinfo (arm64 guest) succeeds for a module it cannot find
{ [ -d /sys/kernel/livepatch ] && modinfo livepatch-sample >/dev/null 2>&1; } ||
	{ echo "SKIP: no livepatch-sample"; exit 4; }

# modprobe reads /proc/cmdline too: count only the calls of reads().
counted_reads() {
	n0=$(hold_hits fexit $F)
	reads "$1"
	n1=$(hold_hits fexit $F)
	[ "$((n1 - n0))" = $K ] || fail "fexit saw $((n1 - n0)) of $K calls ($1; hits $n0 -> $n1)"
}

echo "== fexit first, then the livepatch"
hold_start lp --fexit $F
counted_reads orig
lp_on || fail "livepatch-sample did not load next to the fexit program"
counted_reads patched
hold_stop
reads patched
lp_off || fail "livepatch-sample did not go away"
reads orig

echo "== the livepatch first, then fexit"
lp_on || fail "livepatch-sample did not load"
hold_start lp --fexit $F
counted_reads patched
hold_stop
lp_off || fail "livepatch-sample did not go away"
reads orig
grep -q "^$F" /sys/kernel/tracing/enabled_functions && fail "$F still in enabled_functions"
echo "PASS: fexit and livepatch-sample on $F, both orders, $K calls each"
