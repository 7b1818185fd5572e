#!/bin/sh
# Fault sweep over opening and reading the series' tracefs files
# (direct_functions, direct_functions_stats, and function_metadata where
# the kernel has the metadata): each read runs with the n-th fault
# injection point of its task failing (tests/failnth), n = 1, 2, ... until
# a read injects nothing; in 4096-byte reads and in 7-byte reads (seq_file
# stops and restarts between them).  A read a fault hit fails with ENOMEM
# or gives the whole file, never other bytes, and the next read gives the
# file as it was.  Prints the faults injected per file.
T=/sys/kernel/tracing
D=/sys/kernel/debug
fail() { echo "FAIL: $*"; exit 1; }
[ -r $T/direct_functions ] || { echo "SKIP: no direct_functions"; exit 4; }
command -v failnth >/dev/null || fail "no failnth in the rootfs"
[ -w /proc/self/fail-nth ] || fail "no /proc/self/fail-nth (CONFIG_FAULT_INJECTION)"
[ -d $D/failslab ] && [ -d $D/fail_page_alloc ] || fail "no failslab or fail_page_alloc in debugfs"
# Fail GFP_KERNEL allocations and pages of any order, quietly; the knobs
# are put back at the end
. /guest/tests/faults.inc
fault_knobs_set
# Lines that do not change: the old API's multi example
modprobe ftrace-direct-multi || fail "modprobe ftrace-direct-multi"
cleanup() {
	rmmod ftrace-direct-multi 2>/dev/null
	fault_knobs_restore
}
trap cleanup EXIT
total=0
for f in direct_functions direct_functions_stats function_metadata; do
	[ -r $T/$f ] || continue
	cat $T/$f >/tmp/before || fail "$f: a read without faults failed"
	for chunk in 4096 7; do
		n=1 injected=0 enomem=0
		while :; do
			[ $n -le 5000 ] || fail "$f: still injecting at n=$n"
			failnth $n read $T/$f $chunk >/tmp/out 2>/tmp/err
			rc=$?
			r=$(grep '^failnth:' /tmp/err)
			case $r in
			*injected=0*)
				[ $rc = 0 ] || fail "$f: a read without a fault failed: $r"
				cmp -s /tmp/before /tmp/out || fail "$f: a read without a fault differs"
				break
				;;
			*"injected=1 rc=0 "*)
				cmp -s /tmp/before /tmp/out ||
					fail "$f ($chunk-byte reads, fault $n): the read succeeded with other bytes"
				;;
			*"injected=1 rc=-1 errno=12")
				enomem=$((enomem + 1))
				;;
			*)
				fail "$f ($chunk-byte reads, fault $n): $r $(grep -v '^failnth:' /tmp/err)"
				;;
			esac
			injected=$((injected + 1))
			cat $T/$f | cmp -s /tmp/before - || fail "$f changed after fault $n"
			n=$((n + 1))
		done
		[ $injected -gt 0 ] || fail "$f: no fault injected ($chunk-byte reads)"
		echo "$f, $chunk-byte reads: $injected faults injected: $enomem reads failed with ENOMEM, the others gave the whole file; the file unchanged"
		total=$((total + injected))
	done
done
echo "PASS: $total faults injected"
