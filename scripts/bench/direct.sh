#!/bin/bash
# make bench, direct part: one boot running the direct-call benchmarks
# BENCH_ROUNDS times (default 3) with the harness's test module ftsdo_test
# (tests/ftsdo-test): the batch API against one register_ftrace_direct()
# ops per function, on the patched kernel (rootfs.sh builds the module only
# where the kernel has the batch API).  Then direct_functions with every
# function attached, once.  Keys: median, min, max and spread over the
# rounds (results.py bench direct), in OUT/bench-direct.keys.
# Usage: direct.sh ARCH OUT
set -eu
. "$(dirname "$0")/../lib.sh"
ARCH_NAME=$1 OUT=$2
ROUNDS=${BENCH_ROUNDS:-3}
BOOT_APPEND="FTSDO_BENCH_ROUNDS=$ROUNDS" \
	"$TOP/scripts/qemu-run.sh" "$ARCH_NAME" bench "$OUT/bench-run" 3000 ||
	die "the benchmark run failed (console: ${OUT#$TOP/}/bench-run/console.log)"
{
	"$TOP/scripts/results.py" bench direct "$OUT/bench-run" --rounds "$ROUNDS"
	echo "# direct_functions: dfn_lines functions attached in one batch; a read"
	echo "#   of each file; alone and while a reader loops over direct_functions,"
	echo "#   one chunk of available_filter_functions (ftrace_lock; mean, max of"
	echo "#   50) and a 16-function attach + detach (mean, max of 10); ms, 10 ms steps"
	cat "$OUT/bench-run/bench-dfn.txt"
	if [ -f "$OUT/bench-run/bench-dfn-single.txt" ]; then
		echo "# direct_functions with one register_ftrace_direct() ops per"
		echo "#   function (dfn_single_ops of them): a read of each file (mean, max of 3)"
		cat "$OUT/bench-run/bench-dfn-single.txt"
	fi
} >"$OUT/bench-direct.keys"
