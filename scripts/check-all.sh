#!/bin/bash
# make check: the guest test suite of every architecture in CHECK_ARCHES
# (default "x86_64 arm64"), each compared with its own recorded base
# (scripts/check.sh), then one line for all of them:
# "N passed, N failed, N skipped", also in build/results/summary.
# The first architecture's kernel is built by make; the others are built
# here, after its run (two builds at once would each take twice as long).
set -u
. "$(dirname "$0")/lib.sh"
read -r -a arches <<<"${CHECK_ARCHES:-x86_64 arm64}"
rm -f "$BUILD/results/summary"
mkdir -p "$BUILD/results"
rc=0 pass=0 fail=0 skip=0
done_arches=" "
for a in "${arches[@]}"; do
	case $done_arches in *" $a "*) continue ;; esac
	done_arches="$done_arches$a "
	rm -f "$BUILD/results/$a/summary"
	if [ "$a" != "${arches[0]}" ]; then
		{ "$TOP/scripts/build.sh" "$a" && "$TOP/scripts/rootfs.sh" "$a"; } || {
			echo "error: building $a failed: its tests count as one failure" >&2
			rc=1 fail=$((fail + 1))
			continue
		}
	fi
	"$TOP/scripts/check.sh" "$a" || rc=1
	s=$(cat "$BUILD/results/$a/summary" 2>/dev/null)
	if ! echo "$s" | grep -qE '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$'; then
		echo "error: no results for $a: it counts as one failure" >&2
		rc=1 fail=$((fail + 1))
		continue
	fi
	echo "$a: $s"
	set -- $s
	pass=$((pass + $1)) fail=$((fail + $3)) skip=$((skip + $5))
done
[ "$fail" = 0 ] || rc=1
echo "$pass passed, $fail failed, $skip skipped" | tee "$BUILD/results/summary"
exit $rc
