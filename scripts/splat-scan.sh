#!/bin/sh
# Print the kernel splats found in kernel logs (the console log, the dmesg
# the guest saved), with some context, and exit 1 if there is any.  A splat
# is a WARNING, BUG, Oops, lockdep report, RCU stall, soft/hard lockup,
# general protection fault or panic.  With more than one log, each line
# found is prefixed by its file name.  A WARNING that a test announced
# with expect-warn-begin/-end lines is left out (splat-expected.py).
# Usage: splat-scan.sh LOG...
pat='WARNING:|BUG:|Oops|general protection fault|Kernel panic|kernel BUG|'
pat="${pat}"'possible recursive locking|possible circular locking|inconsistent lock state|'
pat="${pat}"'suspicious RCU usage|rcu_.*detected stall|rcu: INFO:|self-detected stall|'
pat="${pat}"'soft lockup|hard LOCKUP|hung_task|blocked for more than|UBSAN:|KASAN:|'
pat="${pat}"'Call Trace:'
# A WARNING a test announced (splat-expected.py) does not count.
found=0
for log in "$@"; do
	[ $# -gt 1 ] && H=-H || H=-h
	if python3 "$(dirname "$0")/splat-expected.py" "$log" |
		grep -E -n $H --label="$log" -A 12 "$pat"; then
		found=1
	fi
done
exit $found
