// SPDX-License-Identifier: GPL-2.0
/*
 * Generic programs for `ftsdo-bpf hold`: one skeleton instance is opened
 * per request, only the program of the requested kind is loaded, and its
 * target is set at run time (bpf_program__set_attach_target()), so the
 * sections have no function name.  Every instance has its own maps, hence
 * its own counters.
 *
 * All tasks are counted (no pid filter).
 *
 * hold_fexit records the raw 64-bit return register through
 * bpf_get_func_ret() (fexit/fmod_ret only, any number of arguments);
 * userspace narrows it to the BTF return type of the target.
 *
 * hold_fmod_ret makes the target return fmr_retval (fixed at load time);
 * 0 means "do not modify": the original function runs.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char _license[] SEC("license") = "GPL";

const volatile __s64 fmr_retval = 0;
__u64 hits = 0;
__u64 last_ret = 0;

SEC("fentry")
int BPF_PROG(hold_fentry)
{
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

SEC("fexit")
int BPF_PROG(hold_fexit)
{
	__u64 ret = 0;

	bpf_get_func_ret(ctx, &ret);
	last_ret = ret;
	__sync_fetch_and_add(&hits, 1);
	return 0;
}

/* Not BPF_PROG(): that returns int, the full 64-bit value is wanted. */
SEC("fmod_ret")
__s64 hold_fmod_ret(unsigned long long *ctx)
{
	__sync_fetch_and_add(&hits, 1);
	return fmr_retval;
}
