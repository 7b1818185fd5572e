# Shard k of n of an ftracetest selection (one test path a line, in the
# guest's order): the tests dealt out heaviest first, each to the shard
# with the least time so far, by the seconds the weights file wf gives
# them (10 for a test it does not list).  Every shard gets the same list
# and weights, so each test is in exactly one shard.  Ties go to the lower
# shard, tests of equal weight in list order.  Run by guest/check.sh in
# the guest and by scripts/ftsdo/suites.py on the host (make check-one).
# Usage: awk -v k=K -v n=N -v wf=WEIGHTS -f deal.awk < tests
BEGIN { while ((getline l < wf) > 0) { split(l, a, " "); if (a[2] != "") w[a[2]] = a[1] } }
$0 != "" { c++; t[c] = $0; tw[c] = ($0 in w) ? w[$0] + 0 : 10; o[c] = c }
END {
	for (i = 2; i <= c; i++)
		for (j = i; j > 1 && tw[o[j - 1]] < tw[o[j]]; j--) {
			x = o[j]; o[j] = o[j - 1]; o[j - 1] = x
		}
	for (s = 1; s <= n; s++) load[s] = 0
	for (i = 1; i <= c; i++) {
		b = 1
		for (s = 2; s <= n; s++) if (load[s] < load[b]) b = s
		load[b] += tw[o[i]]; sh[o[i]] = b
	}
	for (i = 1; i <= c; i++) if (sh[i] == k) print t[i]
}
