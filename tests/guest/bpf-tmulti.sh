#!/bin/sh
# tracing_multi links (tests/bpf-multi/tmulti.c says what each case
# checks): fentry.multi and fexit.multi on bpf_fentry_test1..9 by
# pattern, by ids with cookies, sleepable; every bad input; with a single
# fentry link in every order; with a single link, the function tracer and
# a kprobe, every order; two links on every pair of subsets; link info
# and fdinfo; every system call by pattern; with livepatch-sample in
# every order; a module's functions of 0 to 12 arguments; one link on
# every attachable function; each kind of program on getpid(), counted.
# Then the kernel's log names the function it refused, and, where debugfs
# has failslab, nomem sweeps fail-nth over every allocation of an attach
# and of a release (faults.inc sets the knobs and puts them back).
# Skips where the kernel's libbpf has no tracing_multi (scripts/rootfs.sh
# builds tmulti only then).  x86_64 and arm64 (no livepatch there).
command -v tmulti >/dev/null || { echo "SKIP: no tmulti (no tracing_multi in this tree)"; exit 4; }
rc=0
tmulti basic errors mix others intersect info syscalls livepatch module all calls || rc=1
D=/sys/kernel/debug
[ -d $D/failslab ] || mount -t debugfs none $D 2>/dev/null
if [ -d $D/failslab ]; then
	. /guest/tests/faults.inc
	fault_knobs_set
	tmulti nomem || rc=1
	fault_knobs_restore
else
	echo "no failslab in debugfs: nomem not run"
fi
if ! dmesg | grep -q "tracing_multi: BTF id [0-9]* (migrate_disable) refused"; then
	echo "FAIL: no log line naming migrate_disable"
	rc=1
fi
exit $rc
