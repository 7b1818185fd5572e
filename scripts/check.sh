#!/bin/bash
# make check for ARCH: run the guest test suite on the built kernel
# (run-suite.sh: SHARDS guests in parallel), write
# build/results/ARCH/check.tap and compare every kselftest with the base's
# recorded result.
set -eu -o pipefail
. "$(dirname "$0")/lib.sh"
ARCH_NAME=${1:-x86_64}
OUT=$BUILD/results/$ARCH_NAME
BASELINE=$TOP/tests/baseline/$ARCH_NAME.txt
[ -f "$BASELINE" ] || die "no recorded base results $BASELINE: run make baseline"

rm -f "$OUT/summary"
rc=0
dirs=$("$TOP/scripts/run-suite.sh" "$ARCH_NAME" "$BUILD/obj/$ARCH_NAME" "$OUT") || rc=$?
# The per-function metadata has two ways to find an entry; the suite above
# runs the default (the index in the function padding where the kernel has
# a free slot).  Four more boots, in parallel: the whole ftracetest suite
# with the hash forced (in two shards), and the direct-call tests with
# metadata off and in the padding with call depth tracking active (its
# thunks share the padding).  Their results are named "<test> [<variant>]"
# (results.py, the variant file) and judged against the base's result for
# <test>.
if grep -q '^CONFIG_FTRACE_FUNC_METADATA=y' "$BUILD/obj/$ARCH_NAME/.config"; then
	md=ftsdo.ftrace=direct/ftrace-direct-batch-md.tc,direct/ftrace-direct-batch-md-ops.tc,direct/ftrace-direct-batch-sample.tc,direct/ftrace-direct-batch-sample-module.tc,direct/ftrace-direct-functions.tc
	# dir:command line:variant name:what to run (parts, a shard of the
	# suite or a list)
	# The metadata's KUnit suite runs at boot; kunit.sh reads its report
	kunit="ftsdo.parts=ftrace,project ftsdo.project=kunit.sh"
	variants=("md-hash1:ftrace_md=hash:ftrace_md=hash:$kunit ftsdo.shard=1/2"
		  "md-hash2:ftrace_md=hash:ftrace_md=hash:ftsdo.parts=ftrace ftsdo.shard=2/2"
		  "md-off:ftrace_md=off:ftrace_md=off:$kunit $md"
		  "md-calldepth:retbleed=force,stuff spectre_v2=retpoline:retbleed=stuff:$kunit $md")
	pids=()
	for v in "${variants[@]}"; do
		IFS=: read -r dir append label tests <<<"$v"
		EXTRA_APPEND="$append $tests" \
			"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" check "$OUT/$dir" \
			"${CHECK_TIMEOUT:-3000}" >&2 &
		pids+=($!)
	done
	for p in "${pids[@]}"; do
		wait "$p" || rc=$?
	done
	for v in "${variants[@]}"; do
		IFS=: read -r dir append label tests <<<"$v"
		echo "$label" >"$OUT/$dir/variant"
		dirs="$dirs,$OUT/$dir"
	done
fi
log "results: ${OUT#$TOP/}/check.tap (compared with ${BASELINE#$TOP/})"
"$TOP/scripts/results.py" check "$dirs" "$BASELINE" "$OUT/check.tap" |
	tee "$OUT/check.out" || rc=1
tail -n 1 "$OUT/check.out" >"$OUT/summary"
exit $rc
