#!/bin/sh
# Run the project's own guest tests, /guest/tests/*.sh ("project"), or the
# tools tests, /guest/tools/*.sh ("tools": Debian's bpftrace and bpftool);
# with a second argument a.sh,b.sh only those.  A test with a
# "# ftsdo-alone: WHY" line runs only when named (its own boot).  Each one exits 0 (pass),
# 4 (skip, as in kselftest) or anything else (fail).
# Results: /results/GROUP.txt ("RC GROUP/NAME"), logs GROUP-NAME.log.
# Each test has the limit guest/limit.sh gives it (its weight, the
# calibration factor; ftsdo.test_timeout=SECONDS on the debug kernels'
# boots, where KASAN makes the fault sweeps several times slower).
# Usage: project-tests.sh project|tools [a.sh,b.sh]
R=/results
group=$1 sel=${2:-}
. /guest/limit.sh
dir=/guest/tests
[ "$group" = tools ] && dir=/guest/tools
echo "== $group tests"
: >"$R/$group.txt"
for t in "$dir"/*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t")
	if [ -n "$sel" ]; then
		case ",$sel," in *",$n,"*) ;; *) continue ;; esac
	elif grep -q '^# ftsdo-alone:' "$t"; then
		# It changes the kernel for the tests after it (kills ftrace,
		# say): only run when named, in a boot of its own
		continue
	fi
	run_limited "$(limit "$group/$n")" "$group/$n" "$R/$group-$n.log" sh "$t"
	echo "$? $group/$n" >>"$R/$group.txt"
done
cat "$R/$group.txt"
