#!/bin/sh
# The release of a BPF trampoline's last link cannot fail: close the link
# of an fentry program with the n-th allocation of the closing thread
# failing (fail-nth), for every n that injects a fault; after each, the
# link and the direct call are gone (tests/bpf/README.md).  failslab and
# fail_page_alloc inject into GFP_KERNEL allocations of any order only
# with these knobs; they are put back at the end.
command -v ftsdo-bpf >/dev/null || { echo "SKIP: no ftsdo-bpf"; exit 4; }
D=/sys/kernel/debug
[ -d $D/failslab ] || mount -t debugfs none $D 2>/dev/null
[ -d $D/failslab ] || { echo "SKIP: no failslab in debugfs"; exit 4; }
. /guest/tests/faults.inc
fault_knobs_set
ftsdo-bpf release-nomem
rc=$?
fault_knobs_restore
exit $rc
