#!/bin/sh
# A module whose init fails while one of its functions is on a shared
# direct ops: its records are enabled before its init runs, and a failed
# init frees it whatever references are held.  ftsdo_test
# (tests/ftsdo-test) attaches ftsdo_wait_func() of ftsdo_wait while that
# module's init waits; the init then fails.  ftrace must drop the entry:
# the module loaded again (its function usually at the same address) is
# not attached by it, a retarget and a delete of the dropped entry return
# 0, no WARN (the harness fails the boot on one), ftrace still works, and
# the function of the module loaded again is attached and detached as
# usual afterwards.
# The variables tests/guest/mod-direct.inc reads, and its set_ip's ip
# shellcheck disable=SC2034,SC2154
MOD=ftsdo_test
TMOD=ftsdo_wait
TMODNAME=ftsdo_wait
FN=ftsdo_wait_func
CALLS=/sys/module/ftsdo_wait/parameters/calls
. /guest/tests/mod-direct.inc
modprobe $MOD || { echo "SKIP: no $MOD"; exit 4; }
modinfo $TMOD >/dev/null 2>&1 || { rmmod $MOD; echo "SKIP: no $TMOD"; exit 4; }

modprobe $TMOD wait_ms=5000 fail=1 &
wpid=$!
# Attach while the init waits: the records are enabled just before it runs
i=0
until [ "$(cat /sys/module/$TMOD/initstate 2>/dev/null)" = coming ] &&
	grep -q " $FN \[$TMOD\]" $T/available_filter_functions_addrs &&
	set_ip && echo mod_attach >$RUN 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 80 ] || fail "could not attach $FN while $TMOD was coming"
	sleep 0.05
done
old=$ip
is_direct || fail "$FN is not a direct site while $TMOD is coming"
wait $wpid && fail "the init of $TMOD did not fail"
[ -d /sys/module/$TMOD ] && fail "$TMOD is still loaded after its init failed"
grep -q "^${old}[[:space:]]" $T/direct_functions 2>/dev/null &&
	fail "the freed function's address is still in direct_functions"

modprobe $TMOD || fail "cannot load $TMOD again"
set_ip
echo "$TMOD loaded again, $FN at $ip (was $old)"
is_direct && fail "$FN of the module loaded again is attached by the dropped entry"
calls 2 0
# The owner's retarget and delete of the dropped entry: both return 0
echo "0x$old" >$P/mod_ip
run mod_retarget
run mod_detach
is_direct && fail "$FN of the module loaded again is attached after the delete"
# The function of the module loaded again, attached and detached as usual
set_ip
run mod_attach
is_direct || fail "$FN of the module loaded again is not a direct site once attached"
calls 3 3
run mod_detach
is_direct && fail "$FN is still a direct site after the detach"
echo 0 >$P/mod_ip
rmmod $TMOD || fail "cannot remove $TMOD"
rmmod $MOD
# ftrace is alive (a WARN in its code disables it)
echo schedule >$T/set_ftrace_filter &&
	echo function >$T/current_tracer &&
	echo nop >$T/current_tracer &&
	echo >$T/set_ftrace_filter || fail "ftrace does not work any more"
echo PASS
