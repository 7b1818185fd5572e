#!/bin/sh
# Print the kernel splats found in kernel logs (the console log, the dmesg
# the guest saved), with some context, and exit 1 if there is any.  What a
# splat is, configs/splats says (WARNING, BUG, Oops, lockdep report, RCU
# stall, soft/hard lockup, hung task, panic, ...): a line whose message,
# after the printk timestamp, starts like one of its patterns.  What user
# space printed on the console has no timestamp and never counts.  make
# check-debug's scripts/ftsdo/splats.py reads the same file.  With more
# than one log, each line found is prefixed by its file name.  A WARNING
# that a test announced with expect-warn-begin/-end lines is left out
# (splat-expected.py).  Exit 2 if configs/splats is unusable.
# Usage: splat-scan.sh LOG...
here=$(dirname "$0")
conf=$here/../configs/splats
# PREFIX(PATTERN|PATTERN|...), as configs/splats says
prefix=$(sed -n 's/^prefix //p' "$conf" 2>/dev/null)
pats=$(grep -v -e '^#' -e '^prefix ' -e '^[[:space:]]*$' "$conf" 2>/dev/null | paste -s -d '|' -)
pat="$prefix($pats)"
# A policy that grep cannot read must fail the boot, not pass it: on
# stdout, so that it lands in the boot's splats.txt
printf '' | LC_ALL=C grep -E -e "$pat" >/dev/null 2>&1
rc=$?
if [ "$(grep -c '^prefix ' "$conf" 2>/dev/null)" != 1 ] || [ -z "$pats" ] || [ $rc -gt 1 ]; then
	echo "harness: splat-scan.sh: no usable patterns in $conf"
	exit 2
fi
found=0
for log in "$@"; do
	[ $# -gt 1 ] && H=-H || H=-h
	# A WARNING a test announced (splat-expected.py) does not count.
	if python3 "$here/splat-expected.py" "$log" |
		LC_ALL=C grep -a -E -n "$H" --label="$log" -A 12 -e "$pat"; then
		found=1
	fi
done
exit $found
