// SPDX-License-Identifier: GPL-2.0
/*
 * tmulti bench's per-call programs: the same work (count this process's
 * calls) as a single fentry and fexit program, as fentry.multi and
 * fexit.multi, and as kprobe.multi, all on one function (getpid()'s
 * syscall function, set at load and at attach by tmulti.c).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

__u32 tgid;
__u64 hits;

static __always_inline void count(void)
{
	if ((bpf_get_current_pid_tgid() >> 32) == tgid)
		hits++;
}

SEC("fentry")
int call_fentry(void *ctx)
{
	count();
	return 0;
}

SEC("fexit")
int call_fexit(void *ctx)
{
	count();
	return 0;
}

SEC("fentry.multi")
int call_mentry(void *ctx)
{
	count();
	return 0;
}

SEC("fexit.multi")
int call_mexit(void *ctx)
{
	count();
	return 0;
}

SEC("kprobe.multi")
int call_kmulti(void *ctx)
{
	count();
	return 0;
}
