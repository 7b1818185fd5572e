#!/bin/sh
# The series' KUnit suites: load each one built as a module (in the
# style of lib/test_fprobe.c), which runs it, and read the reports of the
# built-in ones, which ran at boot; pass when every case of each KTAP
# report in debugfs passed.
D=/sys/kernel/debug/kunit
fail() { echo "FAIL: $*"; exit 1; }
[ -d /sys/kernel/debug/tracing ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null

# The allocation failure cases inject with current->fail_nth: let them
# fail GFP_KERNEL allocations and pages of any order, quietly.
for f in failslab fail_page_alloc; do
	echo N >/sys/kernel/debug/$f/ignore-gfp-wait || fail "no $f in debugfs"
	echo 0 >/sys/kernel/debug/$f/verbose
done
echo 0 >/sys/kernel/debug/fail_page_alloc/min-order

# module suite cases
for s in "ftrace_direct_kunit ftrace_direct_batch 10"; do
	set -- $s
	modprobe "$1" || fail "modprobe $1"
	[ -r "$D/$2/results" ] || fail "no $D/$2/results"
	cat "$D/$2/results"
	ok=$(grep -c "^[[:space:]]*ok [0-9]* " "$D/$2/results")
	grep -q "not ok" "$D/$2/results" && fail "$2: a case failed"
	# Its cases (and the suite's own line, where the report has it)
	[ "$ok" -ge "$3" ] || fail "$2: $ok results, $3 cases expected"
	rmmod "$1" || fail "rmmod $1"
done
# Built-in suites (they read ftrace's internal tables) ran at boot:
# check their reports where this kernel has them
for s in "ftrace_md 4"; do
	set -- $s
	[ -d "$D/$1" ] || continue
	cat "$D/$1/results"
	ok=$(grep -c "^[[:space:]]*ok [0-9]* " "$D/$1/results")
	grep -q "not ok" "$D/$1/results" && fail "$1: a case failed"
	[ "$ok" -ge "$2" ] || fail "$1: $ok results, $2 cases expected"
done
echo "PASS"
