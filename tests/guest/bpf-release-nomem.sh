#!/bin/sh
# The release of a BPF trampoline's last link cannot fail: close the link
# of an fentry program with the n-th allocation of the closing thread
# failing (fail-nth), for every n that injects a fault; after each, the
# link and the direct call are gone (tests/bpf/README.md).  failslab and
# fail_page_alloc inject into GFP_KERNEL allocations of any order only
# with these knobs; they are put back at the end.
command -v ftsdo-bpf >/dev/null || { echo "SKIP: no ftsdo-bpf"; exit 4; }
D=/sys/kernel/debug
[ -d $D/failslab ] || mount -t debugfs none $D 2>/dev/null
[ -d $D/failslab ] || { echo "SKIP: no failslab in debugfs"; exit 4; }
saved=""
knob() { # file value
	[ -w "$1" ] || return 0
	saved="$saved $1=$(cat "$1")"
	echo "$2" >"$1"
}
knob $D/failslab/ignore-gfp-wait N
knob $D/failslab/verbose 0
knob $D/fail_page_alloc/ignore-gfp-wait N
knob $D/fail_page_alloc/min-order 0
knob $D/fail_page_alloc/verbose 0
ftsdo-bpf release-nomem
rc=$?
for kv in $saved; do
	echo "${kv#*=}" >"${kv%%=*}"
done
exit $rc
