#!/bin/sh
# Run the project's own guest tests, /guest/tests/*.sh ("project"), or the
# tools tests, /guest/tools/*.sh ("tools": Debian's bpftrace and bpftool);
# with a second argument a.sh,b.sh only those.  Each one exits 0 (pass),
# 4 (skip, as in kselftest) or anything else (fail).
# Results: /results/GROUP.txt ("RC GROUP/NAME"), logs GROUP-NAME.log.
# Each test has 600 s, or ftsdo.test_timeout=SECONDS (the debug kernels'
# boots: KASAN makes the fault sweeps several times slower).
# Usage: project-tests.sh project|tools [a.sh,b.sh]
R=/results
group=$1 sel=${2:-}
tmo=$(sed -n 's/.*ftsdo\.test_timeout=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
dir=/guest/tests
[ "$group" = tools ] && dir=/guest/tools
echo "== $group tests"
: >"$R/$group.txt"
for t in "$dir"/*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t")
	if [ -n "$sel" ]; then
		case ",$sel," in *",$n,"*) ;; *) continue ;; esac
	fi
	timeout "${tmo:-600}" sh "$t" >"$R/$group-$n.log" 2>&1
	echo "$? $group/$n" >>"$R/$group.txt"
done
cat "$R/$group.txt"
