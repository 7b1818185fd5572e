#!/bin/bash
# guest/ftrace-weights.txt from the ftrace-times.txt of boots of make
# check (guest/check.sh writes them): per test the seconds of its runs in
# a boot added up (its instance run is a line of its own), the most any
# boot took.  Usage: scripts/ftrace-weights.sh RESULTSDIR... > guest/ftrace-weights.txt
set -eu
echo "# The seconds each ftracetest test took on the x86_64 test kernel, one"
echo "# guest of make check among four (guest/check.sh deals the shards by"
echo "# them; a test not listed counts 10).  scripts/ftrace-weights.sh"
for d in "$@"; do
	[ -f "$d/ftrace-times.txt" ] || continue
	awk -v b="$d" '{ s[$2] += $1 } END { for (t in s) print s[t], t, b }' "$d/ftrace-times.txt"
done | awk '$1 > m[$2] || !($2 in m) { m[$2] = $1 } END { for (t in m) print m[t], t }' |
	sort -k1,1nr -k2
