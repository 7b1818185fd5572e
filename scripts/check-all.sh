#!/bin/bash
# make check: suite "check" of configs/suites on every architecture in
# CHECK_ARCHES (default "x86_64 arm64"), each compared with its own
# recorded base (scripts/suite.sh), then one line for all of them:
# "N passed, N failed, N skipped", also in build/results/summary.
# The first architecture's kernel is built by make; the others are built
# here, at nice 19 beside the first one's guests: TCG guests leave a core
# idle whenever they sleep or wait, and at nice 19 the build takes little
# from them otherwise (two builds at once would each take twice as long).
set -u
. "$(dirname "$0")/lib.sh"
read -r -a arches <<<"${CHECK_ARCHES:-x86_64 arm64}"
rm -f "$BUILD/results/summary"
mkdir -p "$BUILD/results"
rc=0 pass=0 fail=0 skip=0
done_arches=" "
# build_bg ARCH: build ARCH's kernel and rootfs in the background, output
# in build/results/ARCH-build.log; its pid in bg_ARCH.
build_bg() {
	local log=$BUILD/results/$1-build.log
	nice -n 19 bash -c '"$1/scripts/build.sh" "$2" && "$1/scripts/rootfs.sh" "$2"' \
		_ "$TOP" "$1" >"$log" 2>&1 &
	eval "bg_${1}=\$!"
}
started=" ${arches[0]} "
for a in "${arches[@]:1}"; do
	case $started in *" $a "*) continue ;; esac
	started="$started$a "
	build_bg "$a"
done
for a in "${arches[@]}"; do
	case $done_arches in *" $a "*) continue ;; esac
	done_arches="$done_arches$a "
	rm -f "$BUILD/results/$a/summary"
	if [ "$a" != "${arches[0]}" ]; then
		pid=$(eval echo "\${bg_${a}:-}")
		brc=0
		wait "$pid" || brc=$?
		cat "$BUILD/results/$a-build.log"
		[ "$brc" = 0 ] || {
			echo "error: building $a failed: its tests count as one failure" >&2
			rc=1 fail=$((fail + 1))
			continue
		}
	fi
	"$TOP/scripts/suite.sh" check "$a" || rc=1
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
