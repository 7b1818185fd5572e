#!/bin/sh
# Run the project's own guest tests, /guest/tests/*.sh, or with "tools" the
# tools tests, /guest/tools/*.sh (Debian's bpftrace and bpftool).  Each one
# exits 0 (pass), 4 (skip, as in kselftest) or anything else (fail).
# Results: /results/GROUP.txt ("RC GROUP/NAME"), logs GROUP-NAME.log.
R=/results
group=project dir=/guest/tests
# ftsdo.project=a.sh,b.sh: only these project tests
sel=$(sed -n 's/.*ftsdo\.project=\([^ ]*\).*/\1/p' /proc/cmdline)
[ "${1:-}" = tools ] && group=tools dir=/guest/tools sel=
echo "== $group tests"
: >"$R/$group.txt"
for t in "$dir"/*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t")
	if [ -n "$sel" ]; then
		case ",$sel," in *",$n,"*) ;; *) continue ;; esac
	fi
	timeout 600 sh "$t" >"$R/$group-$n.log" 2>&1
	echo "$? $group/$n" >>"$R/$group.txt"
done
cat "$R/$group.txt"
