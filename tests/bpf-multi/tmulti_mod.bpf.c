// SPDX-License-Identifier: GPL-2.0
/*
 * fentry.multi and fexit.multi on tmulti_mod's functions (tests/bpf-multi/
 * mod): every argument slot, the count and the return value of each call,
 * by function ip.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

struct call {
	__u64 entries, exits, nargs, ret;
	__u64 args[12];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u64);
	__type(value, struct call);
} calls SEC(".maps");

static struct call *call_of(__u64 ip)
{
	struct call zero = {}, *c = bpf_map_lookup_elem(&calls, &ip);

	if (c)
		return c;
	bpf_map_update_elem(&calls, &ip, &zero, BPF_NOEXIST);
	return bpf_map_lookup_elem(&calls, &ip);
}

SEC("fentry.multi/tmulti_mod:tmm_*")
int mod_entry(void *ctx)
{
	struct call *c = call_of(bpf_get_func_ip(ctx));
	__u64 n = bpf_get_func_arg_cnt(ctx);
	int i;

	if (!c)
		return 0;
	__sync_fetch_and_add(&c->entries, 1);
	c->nargs = n;
	for (i = 0; i < 12; i++) {
		__u64 v = 0;

		if (bpf_get_func_arg(ctx, i, &v))
			break;
		c->args[i] = v;
	}
	return 0;
}

SEC("fexit.multi/tmulti_mod:tmm_*")
int mod_exit(void *ctx)
{
	struct call *c = call_of(bpf_get_func_ip(ctx));
	__u64 r = 0;

	if (!c)
		return 0;
	bpf_get_func_ret(ctx, &r);
	c->ret = r;
	__sync_fetch_and_add(&c->exits, 1);
	return 0;
}
