#!/bin/sh
# Fault sweep over loading modules (tests/failnth "modload": finit_module()
# with the n-th fault injection point of the loading task failing, n = 1,
# 2, ... until a load injects nothing):
#   1. ftrace-direct-batch-mod, whose function gets ftrace records and,
#      where the kernel has them, metadata entries at load;
#   2. ftrace-direct-batch mod=1 beside it, whose init attaches that
#      function and the sample's own to the shared direct ops in one batch
#      (fault-modload-attach.sh: a test of its own, so that each sweep
#      gets the per-test time limit, 2,400 s on the debug kernel).
# A load a fault hit either fails, leaving ftrace as before the load
# (direct_functions, enabled_functions, the metadata's counts, no record
# of the module), or succeeds, and then the module works: its function is
# traced and attached (the target module may load without ftrace records
# at all, as on the base: ftrace_module_init() cannot fail the load).  Removing a module never fails, and leaves ftrace
# as before the load.  Prints the faults injected per module.
. /guest/tests/fault-modload.inc

total=0
state >/tmp/before
sweep ftrace_direct_batch_mod "$TMOD_KO" "" tmod_ok
echo "PASS: $total faults injected"
