#!/bin/sh
# A caller that breaks the batch API's rule for module functions (hold
# the module while its function is attached, as the BPF trampoline and
# ftrace-direct-batch mod=1 do): ftsdo_test (tests/ftsdo-test) attaches
# ftrace_direct_batch_mod_func() of the sample module
# ftrace-direct-batch-mod without a reference, and the module is removed
# while attached.  ftrace must cope: the stale entry can still be
# deleted, attaching its old address is refused (-EINVAL), and the
# module loaded again (its function often at the same
# address) is not attached until it is attached again, then normally.
# Upstream has no such caller, so this lives in the harness, not in the
# series.
# The variables tests/guest/mod-direct.inc reads, and its set_ip's ip
# shellcheck disable=SC2034,SC2154
MOD=ftsdo_test
TMOD=ftrace-direct-batch-mod
TMODNAME=ftrace_direct_batch_mod
FN=ftrace_direct_batch_mod_func
CALLS=/sys/module/ftrace_direct_batch_mod/parameters/calls
. /guest/tests/mod-direct.inc
modprobe $MOD || { echo "SKIP: no $MOD"; exit 4; }
modprobe $TMOD || { rmmod $MOD; echo "SKIP: no $TMOD"; exit 4; }

set_ip
old=$ip
run mod_attach
is_direct || fail "$FN is not a direct site"
calls 4 4
rmmod $TMOD || fail "cannot remove $TMOD while its function is attached without a reference"
run mod_detach
# Bad input: the removed module's address is no function any more
run mod_gone
grep -q "^${old}[[:space:]]" $T/direct_functions 2>/dev/null && fail "the removed function's address is in direct_functions"
modprobe $TMOD || fail "cannot load $TMOD again"
set_ip
echo "$TMOD loaded again, $FN at $ip (was $old)"
is_direct && fail "$FN of the module loaded again is a direct site"
calls 2 0
run mod_attach
is_direct || fail "$FN of the module loaded again is not a direct site once attached"
calls 6 6
run mod_detach
is_direct && fail "$FN is still a direct site after the detach"
calls 1 0
echo 0 >$P/mod_ip
rmmod $MOD
rmmod $TMOD
echo PASS
