#!/bin/sh
# Run the project's own guest tests: /guest/tests/*.sh.  Each one exits 0
# (pass), 4 (skip, as in kselftest) or anything else (fail).
R=/results
echo "== project tests"
: >$R/project.txt
for t in /guest/tests/*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t")
	timeout 600 sh "$t" >"$R/project-$n.log" 2>&1
	echo "$? project/$n" >>$R/project.txt
done
cat $R/project.txt
