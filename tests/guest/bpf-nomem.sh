#!/bin/sh
# A BPF link's attach and release under allocation failures
# (tests/bpf/README.md): attach-nomem creates the link of an fentry
# program (the trampoline's first, then a second beside it) with the n-th
# allocation of the attaching thread failing, for every n that injects a
# fault: it fails with ENOMEM and changes nothing, or works; release-nomem
# closes a trampoline's last link the same way: the link and the direct
# call are gone every time.  failslab and fail_page_alloc inject into
# GFP_KERNEL allocations of any order only with these knobs; they are put
# back at the end.
command -v ftsdo-bpf >/dev/null || { echo "SKIP: no ftsdo-bpf"; exit 4; }
D=/sys/kernel/debug
[ -d $D/failslab ] || mount -t debugfs none $D 2>/dev/null
[ -d $D/failslab ] || { echo "SKIP: no failslab in debugfs"; exit 4; }
. /guest/tests/faults.inc
fault_knobs_set
rc=0
for cmd in attach-nomem release-nomem; do
	ftsdo-bpf $cmd
	r=$?
	# 4: not supported here; any failure wins over it
	[ $r = 0 ] || { [ $rc != 0 ] && [ $rc != 4 ]; } || rc=$r
done
fault_knobs_restore
exit $rc
