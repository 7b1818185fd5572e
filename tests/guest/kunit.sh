#!/bin/sh
# The series' KUnit suites: load each one built as a module (in the
# style of lib/test_fprobe.c), which runs it, and read the reports of the
# built-in ones, which ran at boot; pass when every case of each KTAP
# report in debugfs passed.
D=/sys/kernel/debug/kunit
fail() { echo "expect-allocfail-end" >/dev/kmsg; echo "FAIL: $*"; exit 1; }
[ -d /sys/kernel/debug/tracing ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null

# The allocation failure cases inject with current->fail_nth: let them
# fail GFP_KERNEL allocations and pages of any order, quietly.
for f in failslab fail_page_alloc; do
	echo N >/sys/kernel/debug/$f/ignore-gfp-wait || fail "no $f in debugfs"
	echo 0 >/sys/kernel/debug/$f/verbose
done
echo 0 >/sys/kernel/debug/fail_page_alloc/min-order
# The allocator's reports of the failures are announced: not splats
# (scripts/ftsdo/expected.py)
echo "expect-allocfail-begin" >/dev/kmsg

# A case may skip only for a reason listed here (the metadata off, a case
# for the built-in suite, an architecture without the case): a skip for
# any other reason (no allocation failure could be injected) fails.
SKIP_OK='ftrace_md=off|built as a module|on this architecture'

# skips FILE: each skipped case of the report FILE, "CASE REASON"; a run
# through debugfs reports no reason (6.12), so a case without one takes
# the reason it gave at boot, from the kernel log
skips() {
	grep "^[[:space:]]*ok [0-9]* .*# SKIP" "$1" |
		while read -r _ _ name _ _ reason; do
			[ -n "$reason" ] || reason=$(dmesg |
				sed -n "s/.* ok [0-9]* $name # SKIP //p" | head -n 1)
			echo "$name $reason"
		done
}

# check SUITE CASES: the report in debugfs, every case passed (or skipped
# for a reason above), at least CASES of them
check() {
	r=$D/$1/results
	[ -r "$r" ] || fail "no $r"
	cat "$r"
	grep -q "not ok" "$r" && fail "$1: a case failed"
	skips "$r" | grep -Ev "$SKIP_OK" && fail "$1: a case skipped for a reason that fails it"
	ok=$(grep -c "^[[:space:]]*ok [0-9]* " "$r")
	# Its cases (and the suite's own line, where the report has it)
	[ "$ok" -ge "$2" ] || fail "$1: $ok results, $2 cases expected"
}

# The allocation failure case of SUITE tested something this time
injected() {
	grep -q "fdk_nomem: first add: [1-9][0-9]* allocations failed" "$D/$1/results" ||
		fail "$1: fdk_nomem injected no allocation failure"
}

# Suites that may be modules: load the module, which runs the suite; or,
# built in, run the suite again now that faults can be injected (at boot
# its allocation failure case skipped).
# A table, "MODULE SUITE CASES" a row; one row so far
# shellcheck disable=SC2043
for s in "ftrace_direct_kunit ftrace_direct_batch 17"; do
	set -- $s
	if find /lib/modules -name "$1.ko*" | grep -q .; then
		modprobe "$1" || fail "modprobe $1"
		check "$2" "$3"
		injected "$2"
		rmmod "$1" || fail "rmmod $1"
	else
		[ -w "$D/$2/run" ] || fail "$2: neither a module nor built in"
		echo run >"$D/$2/run" || fail "$2: run it again"
		check "$2" "$3"
		injected "$2"
	fi
done
# Built-in suites (they read ftrace's internal tables) ran at boot, where
# this kernel has them: run them again now that faults can be injected,
# unless the metadata is off (its cases skip; a run through debugfs
# reports a skip without its reason)
MDF=/sys/kernel/tracing/function_metadata
md_mode=$(sed -n 's/^mode: //p' $MDF 2>/dev/null)
# The counters of function_metadata count the functions there are: the
# made-up functions of the suite leave none of them changed
md_counts() { grep -E '^(functions|refused|hashed|failed):' $MDF | tr '\n' ' '; }
# A table, "SUITE CASES" a row; one row so far
# shellcheck disable=SC2043
for s in "ftrace_md 10"; do
	set -- $s
	[ -d "$D/$1" ] || continue
	if [ "$md_mode" != off ]; then
		before=$(md_counts)
		echo run >"$D/$1/run" || fail "$1: run it again"
		after=$(md_counts)
		[ "$before" = "$after" ] ||
			fail "$1: function_metadata was '$before', is '$after' after the suite"
	fi
	check "$1" "$2"
done
# The metadata sweep injected something, where the metadata is on
if [ -d $D/ftrace_md ] && [ "$md_mode" != off ]; then
	grep -q "fmk_nomem: register: [0-9]* runs" $D/ftrace_md/results ||
		fail "ftrace_md: fmk_nomem did not sweep"
	# and, in padding mode (the hash then small), failed an add
	[ "$md_mode" != padding ] ||
		grep -q "fmk_add_nomem: add: .* [1-9][0-9]* without an entry" $D/ftrace_md/results ||
		fail "ftrace_md: fmk_add_nomem failed no add"
fi
echo "expect-allocfail-end" >/dev/kmsg
echo "PASS"
