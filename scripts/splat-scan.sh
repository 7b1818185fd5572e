#!/bin/sh
# Print the kernel splats found in kernel logs (the console log, the dmesg
# the guest saved), with some context, and exit 1 if there is any.  A splat
# is a WARNING, BUG, Oops, lockdep report, RCU stall, soft/hard lockup,
# general protection fault or panic.  With more than one log, each line
# found is prefixed by its file name.
# Usage: splat-scan.sh LOG...
pat='WARNING:|BUG:|Oops|general protection fault|Kernel panic|kernel BUG|'
pat="${pat}"'possible recursive locking|possible circular locking|inconsistent lock state|'
pat="${pat}"'suspicious RCU usage|rcu_.*detected stall|rcu: INFO:|self-detected stall|'
pat="${pat}"'soft lockup|hard LOCKUP|hung_task|blocked for more than|UBSAN:|KASAN:|'
pat="${pat}"'Call Trace:'
if grep -E -n -A 12 "$pat" "$@"; then
	exit 1
fi
exit 0
