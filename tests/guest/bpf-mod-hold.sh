#!/bin/sh
# A module whose function a BPF link is attached to cannot be unloaded:
# the batch API leaves module references to its callers, and the BPF
# trampoline (on the shared direct ops with the series) must keep taking
# one.  fentry and fexit programs on ftsdo_errinj_target() of the
# harness's test module ftsdo_test (tests/ftsdo-test) stay attached with
# "ftsdo-bpf hold"; while they are, rmmod must fail and change nothing:
# the module is live, its function still a direct site, and every call
# still reaches both programs.  Once the programs are gone the module
# unloads, and nothing of it is left in enabled_functions.
T=/sys/kernel/tracing
MOD=ftsdo_test
F=ftsdo_errinj_target
. /guest/tests/bpf-hold.inc
fail() {
	echo "FAIL: $*"
	hold_stop
	rmmod $MOD 2>/dev/null
	exit 1
}
hold_need $MOD
call() { errinj_call "$1"; }
# Both programs saw N calls
hits() {
	a=$(hold_hits fentry $F)
	b=$(hold_hits fexit $F)
	echo "fentry $a, fexit $b hits"
	[ "$a" = "$1" ] && [ "$b" = "$1" ] || fail "fentry $a, fexit $b hits, want $1"
}
listed() { grep -q "^$F \[$MOD\]" $T/enabled_functions; }

hold_start modhold --fentry $F --fexit $F
listed || fail "$F is not in enabled_functions while attached"
grep "^$F \[$MOD\]" -A1 $T/enabled_functions
call 41
call 7
call -3
hits 3

refs=$(cat /sys/module/$MOD/refcnt)
if rmmod $MOD 2>/dev/null; then
	# bpf-hold.inc's hold_stop reads it (fail calls it): empty, no wait
	# shellcheck disable=SC2034
	hold=""
	fail "rmmod $MOD succeeded while a BPF link is attached to $F"
fi
echo "rmmod refused, as it must (refcnt $refs)"
[ "$(cat /sys/module/$MOD/initstate)" = live ] || fail "$MOD is not live after the refused rmmod"
[ "$(cat /sys/module/$MOD/refcnt)" = "$refs" ] || fail "$MOD's refcnt changed: $(cat /sys/module/$MOD/refcnt), was $refs"
listed || fail "$F left enabled_functions after the refused rmmod"
call 100
hits 4
hold_stop

# The programs' module references go with the programs, freed after an
# RCU grace period: wait for them.
i=0
until rmmod $MOD 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "$MOD cannot be removed after the programs are gone (refcnt $(cat /sys/module/$MOD/refcnt))"
	sleep 0.1
done
[ -d /sys/module/$MOD ] && fail "$MOD is still loaded"
grep -q "\[$MOD\]" $T/enabled_functions && fail "enabled_functions still names $MOD"
echo "PASS: $MOD held while linked, removed after ($i retries)"
