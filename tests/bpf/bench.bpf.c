// SPDX-License-Identifier: GPL-2.0
/*
 * bench_nop: the trivial fentry program bench-attach loads once per target.
 * Its target is set at run time (bpf_program__set_attach_target()), so the
 * section has no function name.
 *
 * cc_count: the program call-cost attaches to one syscall-reachable
 * function; it counts the calls made by the task group cc_tgid, so the
 * number of calls can be checked exactly.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

__u32 cc_tgid = 0;
__u64 cc_hits = 0;

SEC("fentry")
int BPF_PROG(bench_nop)
{
	return 0;
}

SEC("fentry")
int BPF_PROG(cc_count)
{
	if ((__u32)(bpf_get_current_pid_tgid() >> 32) == cc_tgid)
		__sync_fetch_and_add(&cc_hits, 1);
	return 0;
}
