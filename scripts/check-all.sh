#!/bin/bash
# make check: the host's facts; the packages, the harness's unit tests,
# the scratch tree and the kernels; then suite "check" of configs/suites
# on every architecture in CHECK_ARCHES (default "x86_64 arm64") in one
# pool of guests (scripts/suite.sh), each architecture judged against its
# own recorded base; the timing table; and one line for all of them,
# "N passed, N failed, N skipped", also in build/results/summary.
# The first architecture's kernel is built first; the others at nice 19
# from the start, beside it and then beside the guests (TCG guests leave
# a core idle whenever they sleep or wait, and at nice 19 the build takes
# little from them otherwise); their boots join the pool as soon as their
# kernel is built.
set -u
. "$(dirname "$0")/lib.sh"
read -r -a arches <<<"${CHECK_ARCHES:-x86_64 arm64}"
R=$BUILD/results
mkdir -p "$R"
rm -f "$R/summary" "$R"/*-build.rc
export TIMING=$R/timing.tsv
rm -f "$TIMING"
"$TOP/scripts/timing.sh" facts "$TOP" | tee "$R/host.txt"
steal0=$("$TOP/scripts/timing.sh" steal)
rc=0 pass=0 fail=0 skip=0

# finish: the timing table and the summary line; exit
finish() {
	echo
	"$TOP/scripts/timing.sh" table "$TIMING"
	echo "host: steal $steal0% of CPU time since the host booted, $("$TOP/scripts/timing.sh" steal)% now"
	[ "$fail" = 0 ] || rc=1
	echo "$pass passed, $fail failed, $skip skipped" | tee "$R/summary"
	exit $rc
}

timed "$TIMING" step deps "$TOP/scripts/deps.sh" || { fail=1; finish; }
timed "$TIMING" step harness-unit make -s -C "$TOP" harness-unit || { rc=1 fail=$((fail + 1)); }
timed "$TIMING" step tree "$TOP/scripts/tree.sh" || { fail=$((fail + 1)); finish; }

# build_bg ARCH: build ARCH's kernel and rootfs at nice 19 in the
# background, output in build/results/ARCH-build.log, its exit status in
# build/results/ARCH-build.rc when it is done (suite.sh waits for it)
build_bg() {
	local log=$R/$1-build.log
	(
		brc=0
		nice -n 19 bash -c '. "$1/scripts/lib.sh"
			timed "$TIMING" build "$2" "$1/scripts/build.sh" "$2" &&
			timed "$TIMING" rootfs "$2" "$1/scripts/rootfs.sh" "$2"' \
			_ "$TOP" "$1" >"$log" 2>&1 || brc=$?
		echo $brc >"$R/$1-build.rc"
	) &
}
pending=""
for a in "${arches[@]:1}"; do
	case " $pending " in *" $a "*) continue ;; esac
	pending="$pending $a"
	build_bg "$a"
done
a=${arches[0]}
if ! timed "$TIMING" build "$a" "$TOP/scripts/build.sh" "$a" ||
	! timed "$TIMING" rootfs "$a" "$TOP/scripts/rootfs.sh" "$a"; then
	echo "error: building $a failed: its tests count as one failure" >&2
	fail=$((fail + 1))
	echo 1 >"$R/$a-build.rc"
	pending="$pending $a"
fi
PENDING_BUILDS=$pending GUESTS=${GUESTS:-4} \
	"$TOP/scripts/suite.sh" check "$(printf '%s\n' "${arches[@]}" | awk '!s[$0]++' | xargs)" || rc=1
for a in $pending; do
	[ "$(cat "$R/$a-build.rc" 2>/dev/null)" = 0 ] && continue
	[ "$a" = "${arches[0]}" ] && continue
	echo "error: building $a failed (build/results/$a-build.log): its tests count as one failure" >&2
	tail -n 20 "$R/$a-build.log" | sed 's/^/    /' >&2
	fail=$((fail + 1))
done
done_arches=" "
for a in "${arches[@]}"; do
	case $done_arches in *" $a "*) continue ;; esac
	done_arches="$done_arches$a "
	[ "$(cat "$R/$a-build.rc" 2>/dev/null || echo 0)" = 0 ] || continue
	s=$(cat "$R/$a/summary" 2>/dev/null)
	if ! echo "$s" | grep -qE '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$'; then
		echo "error: no results for $a: it counts as one failure" >&2
		rc=1 fail=$((fail + 1))
		continue
	fi
	echo "$a: $s"
	set -- $s
	pass=$((pass + $1)) fail=$((fail + $3)) skip=$((skip + $5))
done
finish
