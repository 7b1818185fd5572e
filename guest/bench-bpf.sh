#!/bin/sh
# make bench, BPF part, in the guest: the same ftsdo-bpf binary on the
# unpatched base and on the patched kernel.  Attach, then detach, one
# trivial fentry program on each of N functions (only the attach and the
# detach loops are timed, not the program loads), for every N of
# FTSDO_BPF_BENCH_N (kernel command line), then the added cost of an
# fentry program per call of one function.  FTSDO_BPF_BENCH_N is a comma
# separated list (default 100,1000).  Then bpftrace (below).  "name value" lines go to
# /results/bench-bpf.txt, the attach/detach ones with an _n<N> suffix.
R=/results/bench-bpf.txt
: >$R
command -v ftsdo-bpf >/dev/null || { echo "no ftsdo-bpf"; exit 1; }
for n in $(echo "${FTSDO_BPF_BENCH_N:-100,1000}" | tr ',' ' '); do
	echo "== bench-attach $n"
	ftsdo-bpf bench-attach "$n" >/tmp/bench-attach.txt 2>&1
	rc=$?
	cat /tmp/bench-attach.txt
	[ $rc = 0 ] || { echo "bench-attach $n failed ($rc)"; exit 1; }
	sed -n "s/^\(bpf_[a-z_]*\) \([0-9.]*\)\$/\1_n$n \2/p" /tmp/bench-attach.txt >>$R
done
echo "== call-cost"
ftsdo-bpf call-cost >/tmp/call-cost.txt 2>&1
rc=$?
cat /tmp/call-cost.txt
[ $rc = 0 ] || { echo "call-cost failed ($rc)"; exit 1; }
grep -E '^bpf_fentry_call_(base_|with_)?ns ' /tmp/call-cost.txt >>$R
# Debian's bpftrace (where the guest has it, INITRD_TOOLS=1): wall time of a
# run that attaches an empty kfunc program to every ksys_* function, and
# to every __x64_sys_* function, and exits after "true" ran (the median of
# three runs), and the number of probes it attached.  All of it counts:
# BTF parsing, code generation, loading, attaching and detaching, as a
# user waits for it.
# /proc/uptime in centiseconds (busybox date has no %N)
cs() {
	read -r u _ </proc/uptime
	echo "${u%.*}${u#*.}"
}
if command -v bpftrace >/dev/null; then
	# bt_probes: what bpftrace said it attached, from /tmp/bt.out
	# shellcheck source=tests/tools/tools.inc
	. /guest/tools/tools.inc
	# shellcheck disable=SC3045 # busybox sh has ulimit -n
	ulimit -n 4096	# over 1024 files for the 428 __x64_sys_* probes
	for b in ksys:ksys_ sys:__x64_sys_; do
		: >/tmp/bt-ms.txt
		for i in 1 2 3; do
			echo "== bpftrace kfunc:vmlinux:${b#*:}* (run $i)"
			t0=$(cs)
			bpftrace -e "kfunc:vmlinux:${b#*:}* { }" -c /bin/true >/tmp/bt.out 2>&1
			rc=$?
			t1=$(cs)
			cat /tmp/bt.out
			[ $rc = 0 ] || { echo "bpftrace failed ($rc)"; exit 1; }
			echo $(( (t1 - t0) * 10 )) | tee -a /tmp/bt-ms.txt
		done
		echo "bpftrace_${b%%:*}_ms $(sort -n /tmp/bt-ms.txt | sed -n 2p)" >>$R
		echo "bpftrace_${b%%:*}_probes $(bt_probes)" >>$R
	done
fi
sed 's/^/bench-bpf /' $R
