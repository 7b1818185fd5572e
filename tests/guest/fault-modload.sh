#!/bin/sh
# Fault sweep over loading modules (tests/failnth "modload": finit_module()
# with the n-th fault injection point of the loading task failing, n = 1,
# 2, ... until a load injects nothing):
#   1. ftrace-direct-batch-mod, whose function gets ftrace records and,
#      where the kernel has them, metadata entries at load;
#   2. ftrace-direct-batch mod=1 beside it, whose init attaches that
#      function and the sample's own to the shared direct ops in one batch.
# A load a fault hit either fails, leaving ftrace as before the load
# (direct_functions, enabled_functions, the metadata's counts, no record
# of the module), or succeeds, and then the module works: its function is
# traced and attached (the target module may load without ftrace records
# at all, as on the base: ftrace_module_init() cannot fail the load).  Removing a module never fails, and leaves ftrace
# as before the load.  Prints the faults injected per module.
T=/sys/kernel/tracing
D=/sys/kernel/debug
MOD=ftrace-direct-batch
TMOD=ftrace-direct-batch-mod
CALLS=/sys/module/ftrace_direct_batch_mod/parameters/calls
fail() { echo "FAIL: $*"; exit 1; }
[ -r $T/direct_functions ] || { echo "SKIP: no direct_functions"; exit 4; }
command -v failnth >/dev/null || fail "no failnth in the rootfs"
[ -w /proc/self/fail-nth ] || fail "no /proc/self/fail-nth (CONFIG_FAULT_INJECTION)"
[ -d $D/failslab ] && [ -d $D/fail_page_alloc ] || fail "no failslab or fail_page_alloc in debugfs"
ko() { find /lib/modules/"$(uname -r)" -name "$1.ko*" | head -n 1; }
MOD_KO=$(ko $MOD) TMOD_KO=$(ko $TMOD)
[ -n "$MOD_KO" ] && [ -n "$TMOD_KO" ] || { echo "SKIP: no $MOD samples (CONFIG_SAMPLE_FTRACE_DIRECT_BATCH=m)"; exit 4; }
. /guest/tests/faults.inc
fault_knobs_set
cleanup() {
	rmmod $MOD 2>/dev/null
	rmmod $TMOD 2>/dev/null
	fault_knobs_restore
}
trap cleanup EXIT
rmmod $MOD 2>/dev/null
rmmod $TMOD 2>/dev/null

# What a module load changes and its removal must put back: the direct
# calls, the functions ops are on, the metadata's counts (not "failed"
# and "indices", which only grow), and the records of the modules
state() {
	cat $T/direct_functions $T/enabled_functions
	[ -r $T/function_metadata ] &&
		grep -E '^(functions|hashed|sets|set_bytes|legacy):' $T/function_metadata
	grep -c '\[ftrace_direct_batch' $T/available_filter_functions
}

loaded() { grep -q "^$1 " /proc/modules; }

# Calls of the module function that reached a trampoline of the sample
reached() {
	echo >$T/trace
	echo "$1" >$CALLS
	grep -c 'tramp[12] ftrace_direct_batch_mod_func \[ftrace_direct_batch_mod\]' $T/trace
}

# sweep NAME KO ARGS CHECK: load KO with each fault in turn; after a
# failed load the state is $before; after a successful one CHECK passes
# and the removal puts the state back
sweep() {
	name=$1 file=$2 args=$3 check=$4
	n=1 injected=0 failed=0
	while :; do
		[ $n -le 20000 ] || fail "$name: still injecting at n=$n"
		failnth $n modload "$file" "$args" 2>/tmp/err
		rc=$?
		r=$(grep '^failnth:' /tmp/err)
		case $r in
		*injected=0*|*injected=1*) ;;
		*) fail "$name, fault $n: $(cat /tmp/err)" ;;
		esac
		if [ $rc = 0 ]; then
			loaded $name || fail "$name, fault $n: loaded, not in /proc/modules"
			$check || fail "$name, fault $n: loaded, but $check failed"
			rmmod $name || fail "$name, fault $n: rmmod failed"
		else
			failed=$((failed + 1))
			loaded $name && fail "$name, fault $n: the load failed, the module is there"
		fi
		state >/tmp/after
		cmp -s /tmp/before /tmp/after ||
			fail "$name, fault $n ($r): ftrace changed: $(diff /tmp/before /tmp/after | head -n 20)"
		case $r in *injected=0*) break ;; esac
		injected=$((injected + 1))
		n=$((n + 1))
	done
	[ $rc = 0 ] || fail "$name: the load without a fault failed: $r"
	[ $injected -gt 0 ] || fail "$name: no fault injected"
	echo "$name: $injected faults injected, $failed loads failed, the others loaded and worked ($untraced without ftrace records); ftrace as before each time"
	untraced=0
	total=$((total + injected))
}

# The target module alone: its function is in available_filter_functions,
# or, where the fault hit the allocation of its ftrace records
# (ftrace_module_init() goes on without them, as on the base), none of
# its functions is: untraceable, but consistent
untraced=0
tmod_ok() {
	grep -q '^ftrace_direct_batch_mod_func \[ftrace_direct_batch_mod\]' $T/available_filter_functions && return 0
	grep -q '\[ftrace_direct_batch_mod\]' $T/available_filter_functions && return 1
	untraced=$((untraced + 1))
}

# The sample beside it: the module function attached, its calls reach
# the sample's trampoline
mod_ok() {
	grep -A1 '^ftrace_direct_batch_mod_func \[ftrace_direct_batch_mod\]' $T/enabled_functions |
		grep -q 'direct-->my_tramp[12]' && [ "$(reached 3)" = 3 ]
}

total=0
state >/tmp/before
sweep ftrace_direct_batch_mod "$TMOD_KO" "" tmod_ok
modprobe $TMOD || fail "modprobe $TMOD"
state >/tmp/before
sweep ftrace_direct_batch "$MOD_KO" "mod=1" mod_ok
[ "$(reached 2)" = 0 ] || fail "calls reach a trampoline after the last rmmod"
rmmod $TMOD || fail "rmmod $TMOD"
echo "PASS: $total faults injected"
