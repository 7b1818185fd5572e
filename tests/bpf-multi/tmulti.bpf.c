// SPDX-License-Identifier: GPL-2.0
/*
 * fentry.multi and fexit.multi on bpf_fentry_test1..9 (net/bpf/test_run.c):
 * per function, what each program saw on its calls.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

struct seen {
	__u64 entries;
	__u64 exits;
	__u64 nargs;
	__u64 arg0;
	__u64 ret;
	__u64 cookie;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u64);
	__type(value, struct seen);
} seen SEC(".maps");

static struct seen *seen_of(__u64 ip)
{
	struct seen zero = {}, *s;

	s = bpf_map_lookup_elem(&seen, &ip);
	if (s)
		return s;
	bpf_map_update_elem(&seen, &ip, &zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(&seen, &ip);
}

SEC("fentry.multi/bpf_fentry_test*")
int multi_entry(void *ctx)
{
	struct seen *s = seen_of(bpf_get_func_ip(ctx));
	__u64 a0 = 0;

	if (!s)
		return 0;
	__sync_fetch_and_add(&s->entries, 1);
	s->nargs = bpf_get_func_arg_cnt(ctx);
	bpf_get_func_arg(ctx, 0, &a0);
	s->arg0 = a0;
	s->cookie = bpf_get_attach_cookie(ctx);
	return 0;
}

SEC("fexit.multi/bpf_fentry_test*")
int multi_exit(void *ctx)
{
	struct seen *s = seen_of(bpf_get_func_ip(ctx));
	__u64 r = 0;

	if (!s)
		return 0;
	bpf_get_func_ret(ctx, &r);
	s->ret = r;
	__sync_fetch_and_add(&s->exits, 1);
	return 0;
}

/* A second program, attached by ids only: the intersect cases */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u64);
	__type(value, __u64);
} seen2 SEC(".maps");

SEC("fentry.multi")
int multi_entry2(void *ctx)
{
	__u64 ip = bpf_get_func_ip(ctx), one = 1, *n;

	n = bpf_map_lookup_elem(&seen2, &ip);
	if (n)
		__sync_fetch_and_add(n, 1);
	else
		bpf_map_update_elem(&seen2, &ip, &one, BPF_NOEXIST);
	return 0;
}

/* A single fentry program on one of the multi link's functions */
__u64 single_hits;

SEC("fentry/bpf_fentry_test1")
int BPF_PROG(single_entry, int a)
{
	if (a == 1)
		__sync_fetch_and_add(&single_hits, 1);
	return 0;
}

/* Sleepable: bpf_fentry_test1 allows it, bpf_fentry_test2 does not */
__u64 sleepable_hits;

SEC("fentry.multi.s")
int multi_sleepable(void *ctx)
{
	__sync_fetch_and_add(&sleepable_hits, 1);
	return 0;
}

/* Every attachable function */
__u64 mass_hits;

SEC("fentry.multi")
int multi_mass(void *ctx)
{
	__sync_fetch_and_add(&mass_hits, 1);
	return 0;
}

/* kprobe_multi on the same functions: make bench's comparison */
SEC("kprobe.multi")
int kmulti_mass(void *ctx)
{
	__sync_fetch_and_add(&mass_hits, 1);
	return 0;
}
