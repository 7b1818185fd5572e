#!/bin/sh
# The second sweep of fault-modload.sh (see there): ftrace-direct-batch
# mod=1 loaded beside ftrace-direct-batch-mod, with each fault in turn;
# its init attaches the target's function and its own to the shared
# direct ops in one batch.  A failed load leaves ftrace as before it; a
# load that works has the function attached, its calls reaching the
# sample's trampoline; every removal puts ftrace back.
. /guest/tests/fault-modload.inc

total=0
modprobe $TMOD || fail "modprobe $TMOD"
state >/tmp/before
sweep ftrace_direct_batch "$MOD_KO" "mod=1" mod_ok
[ "$(reached 2)" = 0 ] || fail "calls reach a trampoline after the last rmmod"
rmmod $TMOD || fail "rmmod $TMOD"
echo "PASS: $total faults injected"
