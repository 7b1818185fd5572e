#!/bin/sh
# The in-guest part of `make check`: the kernel's ftrace selftests, the
# livepatch selftests, the project's own guest tests and the tools tests
# (Debian's bpftrace and bpftool, where the guest has them).  Raw results go to
# /results; the host turns them into TAP and compares them with the base.
#
# What runs: FTSDO_TESTS (guest/init, from ftsdo.tests= on the kernel
# command line), comma-separated selectors:
#   ftrace                 every ftracetest test (but guest/skip.txt's)
#   ftrace/dir/a.tc        one test; ftrace/dir/ the tests of a directory
#   ...@K/N                (after an ftrace selector) shard K of N: the
#                          selected tests dealt out heaviest first, each
#                          to the shard with the least time so far, by
#                          the seconds guest/ftrace-weights.txt gives
#                          them (10 for a test it does not list)
#   livepatch, tools       the livepatch selftests, the tools tests
#   project, project/a.sh  the project's tests, or one of them
# Default: ftrace,livepatch,project,tools.
R=/results
. /guest/limit.sh
parts="" sel="" projsel="" shard=""
for s in $(echo "${FTSDO_TESTS:-ftrace,livepatch,project,tools}" | tr ',' ' '); do
	case $s in *@*) shard=${s#*@} s=${s%@*} ;; esac
	p=${s%%/*}
	parts="$parts,$p"
	case $s in
	ftrace) sel="$sel ./" ;;
	ftrace/*) sel="$sel ${s#ftrace/}" ;;
	project/*) projsel="$projsel,${s#project/}" ;;
	esac
done
part() { case "$parts," in *",$1,"*) return 0 ;; esac; return 1; }

part ftrace && {
echo "== ftracetest"
mkdir -p $R/ftrace-logs
cd /selftests/ftrace || exit 1
# All selected tests but those of /guest/skip.txt (tests that crash the
# base); a directory (dir/) stands for its tests.  A test named that this
# kernel does not have (the series' own, on the base) is left out.
sel=$(for s in $sel; do
	case $s in
	*/) (cd test.d && find "$s" -name '*.tc' | sed 's|^\./||' | sort) ;;
	*) if [ -f "test.d/$s" ]; then echo "$s"; else echo "== $s: not in this kernel's ftracetest" >&2; fi ;;
	esac
done)
all=$(for t in $sel; do
	grep -q "^$t " /guest/skip.txt 2>/dev/null || echo "$t"
done)
# Every guest deals the same list with the same weights (guest/deal.awk,
# which make check-one runs on the host too): each test is in exactly one
# shard, and the shards take about as long.
[ -z "$shard" ] || all=$(echo "$all" | awk -v k="${shard%/*}" -v n="${shard#*/}" \
	-v wf=/guest/ftrace-weights.txt -f /guest/deal.awk)
# 6.12's ringbuffer_subbuf_size.tc leaves the main buffer one sub-buffer
# larger than its recorded size; a latency tracer then sizes the max
# buffer from the recorded size, every swap of one CPU's buffer fails
# (a WARN in update_max_tr_single()) and irqsoff_tracer.tc finds no trace.
# The base does the same; in its one run snapshot.tc comes between and
# heals it (docs/judging.md).  A shard need not hold snapshot.tc: run the
# test last in its shard, where it changes nothing a later test reads.
late="00basic/ringbuffer_subbuf_size.tc"
all=$(for t in $all; do case " $late " in *" $t "*) ;; *) echo "$t" ;; esac; done
	for t in $all; do case " $late " in *" $t "*) echo "$t" ;; esac; done)
tests=""
for t in $all; do tests="$tests test.d/$t"; done
# ftracetest numbers the cases in this order, then runs the tests flagged
# "instance" again in an instance.  Print that map for the host.
n=0
for t in $tests; do n=$((n + 1)); echo "FTSDO-CASE $n ${t#test.d/}"; done >$R/ftrace-cases.txt
for t in $tests; do
	grep -q '^#[ 	]*flags:.*instance' "$t" || continue
	n=$((n + 1)); echo "FTSDO-CASE $n ${t#test.d/} (instance)"
done >>$R/ftrace-cases.txt
cat $R/ftrace-cases.txt
# The KTAP stream also goes to the console: if the kernel dies, the log
# says in which test, and the results so far are not lost.  A shard with
# no test runs nothing (ftracetest without a test runs all of them, those
# of skip.txt too).
if [ -n "$tests" ]; then
	start=$(date +%s)
	# Each case has its limit (guest/limit.sh): 6.12's ftracetest has no
	# timeout of its own, so a watchdog ends a case that overruns it.
	ftrace_watchdog /tmp/ftracetest.pid $R/ftrace-logs $R/ftrace-cases.txt FTSDO-CASE &
	wd=$!
	# shellcheck disable=SC2086,SC2016
	sh -c 'echo $$ >/tmp/ftracetest.pid; exec ./ftracetest "$@"' ftracetest \
		-K -v -k -l $R/ftrace-logs $tests 2>&1 | tee $R/ftracetest.ktap
	kill $wd 2>/dev/null
	rm -f /tmp/ftracetest.pid
	# The seconds each test took, from the last write of its log (-k keeps
	# them all) after the one before: ftrace-times.txt, what
	# guest/ftrace-weights.txt is made of (the instance runs of a test
	# are lines of their own).
	prev=$start
	while read -r _ n name _; do
		for f in "$R/ftrace-logs/$n"-*-log.*; do
			[ -f "$f" ] || continue
			t=$(stat -c %Y "$f")
			echo "$((t - prev)) $name"
			prev=$t
		done
	done <$R/ftrace-cases.txt >$R/ftrace-times.txt
else
	echo "== ftracetest: no test in this shard"
	: >$R/ftracetest.ktap
fi
# A few of 6.12's own tests depend on timing (pings, sleeps, wakeups)
# and, under TCG, fail now and then on any kernel.  A failed test outside
# direct/ (the tests of this series and of the direct calls, which get no
# second chance) runs once more here; results.py counts it as passed only
# when it passes then, and marks it "flaky".  More than three failures are
# not a matter of timing: no retry.
failed=$(sed -n 's/^not ok \([0-9]*\) .*/\1/p' $R/ftracetest.ktap |
	while read -r n; do
		sed -n "s/^FTSDO-CASE $n \([^ ]*\).*/\1/p" $R/ftrace-cases.txt
	done | grep -v '^direct/' | sort -u |
	while read -r t; do
		# a test that ran out of time is not a matter of timing either
		grep -q " ftrace/$t\( (instance)\)\{0,1\}\$" $R/timeouts.txt 2>/dev/null || echo "$t"
	done)
if [ -n "$failed" ] && [ "$(echo "$failed" | wc -l)" -le 3 ]; then
	echo "== ftracetest: retry of $(echo $failed)"
	# After ringbuffer_subbuf_size.tc (see above): give each CPU's buffer
	# the size it is recorded to have, which is what snapshot.tc's
	# swap does in the base's run.
	for f in /sys/kernel/tracing/per_cpu/cpu*/buffer_size_kb; do
		read -r kb rest <"$f" || continue
		[ -z "$rest" ] && [ "$kb" -gt 0 ] 2>/dev/null && echo "$kb" >"$f"
	done
	n=0
	for t in $failed; do n=$((n + 1)); echo "FTSDO-RETRY $n $t"; done >$R/ftrace-retry-cases.txt
	for t in $failed; do
		grep -q '^#[ 	]*flags:.*instance' "test.d/$t" || continue
		n=$((n + 1)); echo "FTSDO-RETRY $n $t (instance)"
	done >>$R/ftrace-retry-cases.txt
	mkdir -p $R/ftrace-retry-logs
	# Not on the console as it is, where results.py would read it for
	# the first run's KTAP if the guest died.
	ftrace_watchdog /tmp/ftracetest.pid $R/ftrace-retry-logs $R/ftrace-retry-cases.txt FTSDO-RETRY &
	wd=$!
	# shellcheck disable=SC2046,SC2016
	sh -c 'echo $$ >/tmp/ftracetest.pid; exec ./ftracetest "$@"' ftracetest \
		-K -v -l $R/ftrace-retry-logs $(for t in $failed; do echo "test.d/$t"; done) \
		>$R/ftracetest-retry.ktap 2>&1
	kill $wd 2>/dev/null
	rm -f /tmp/ftracetest.pid
	sed -n 's/^\(not \)\{0,1\}ok .*/retry: &/p' $R/ftracetest-retry.ktap
fi
cd /
}

# No livepatch selftests where the kernel has no livepatch (arm64).
[ -d /selftests/livepatch ] || parts=$(echo "$parts," | sed 's/,livepatch,/,/g')
part livepatch && {
echo "== livepatch selftests"
: >$R/livepatch.txt
for t in /selftests/livepatch/test-*.sh; do
	n=$(basename "$t")
	(cd /selftests/livepatch &&
		run_limited "$(limit "livepatch/$n")" "livepatch/$n" "$R/livepatch-$n.log" bash "./$n")
	echo "$? livepatch/$n" >>$R/livepatch.txt
done
cat $R/livepatch.txt
}

# The tools tests before the project's: on the unpatched base some of the
# project's tests end in an oops (make baseline still records what ran).
part tools && sh /guest/project-tests.sh tools
part project && sh /guest/project-tests.sh project "${projsel#,}"

# A kernel with kmemleak (make check-debug): scan twice, with a pause
# (it reports only objects older than 5 s, and an object once), and keep
# its report for the host, which compares it with the base's.
K=/sys/kernel/debug/kmemleak
if [ -w $K ]; then
	echo "== kmemleak"
	echo scan >$K
	sleep 6
	echo scan >$K
	cat $K >$R/kmemleak.txt
	echo "kmemleak: $(grep -c '^unreferenced object' $R/kmemleak.txt) objects reported"
fi
exit 0
