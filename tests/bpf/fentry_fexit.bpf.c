// SPDX-License-Identifier: GPL-2.0
/*
 * fentry + fexit programs on bpf_fentry_test1..8 (net/bpf/test_run.c).
 *
 * bpf_prog_test_run_tracing() calls, once per BPF_PROG_TEST_RUN:
 *   bpf_fentry_test1(1)                              == 2
 *   bpf_fentry_test2(2, 3)                           == 5
 *   bpf_fentry_test3(4, 5, 6)                        == 15
 *   bpf_fentry_test4((void *)7, 8, 9, 10)            == 34
 *   bpf_fentry_test5(11, (void *)12, 13, 14, 15)     == 65
 *   bpf_fentry_test6(16, (void *)17, 18, 19, (void *)20, 21) == 111
 *   bpf_fentry_test7((struct bpf_fentry_test_t *)0)  == 0
 *   bpf_fentry_test8(&arg) with arg.a == NULL        == 0
 *
 * Every program records, per call: the hit count, a count of calls whose
 * arguments (and, for fexit, return value) matched the values above, and the
 * raw values of the last call.  Userspace checks all three, so a wrong
 * argument, a missing or an extra call each make the test fail.
 * Only calls from the task group in filter_tgid are counted (0: all).
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "ftsdo_bpf.h"

char _license[] SEC("license") = "GPL";

__u32 filter_tgid = 0;
struct ftsdo_rec ent[FTSDO_NFUNCS] = {};
struct ftsdo_rec ext[FTSDO_NFUNCS] = {};

static __always_inline bool mine(void)
{
	return !filter_tgid ||
	       (__u32)(bpf_get_current_pid_tgid() >> 32) == filter_tgid;
}

static __always_inline void rec(struct ftsdo_rec *r, bool ok, __u64 a0,
				__u64 a1, __u64 a2, __u64 a3, __u64 a4,
				__u64 a5, __s64 ret)
{
	__sync_fetch_and_add(&r->hits, 1);
	if (ok)
		__sync_fetch_and_add(&r->good, 1);
	r->arg[0] = a0;
	r->arg[1] = a1;
	r->arg[2] = a2;
	r->arg[3] = a3;
	r->arg[4] = a4;
	r->arg[5] = a5;
	r->ret = ret;
}

#define U(x) ((__u64)(x))

/* ---- fentry ---- */

SEC("fentry/bpf_fentry_test1")
int BPF_PROG(fentry1, int a)
{
	if (mine())
		rec(&ent[0], a == 1, U((long)a), 0, 0, 0, 0, 0, 0);
	return 0;
}

SEC("fentry/bpf_fentry_test2")
int BPF_PROG(fentry2, int a, __u64 b)
{
	if (mine())
		rec(&ent[1], a == 2 && b == 3, U((long)a), b, 0, 0, 0, 0, 0);
	return 0;
}

SEC("fentry/bpf_fentry_test3")
int BPF_PROG(fentry3, char a, int b, __u64 c)
{
	if (mine())
		rec(&ent[2], a == 4 && b == 5 && c == 6,
		    U((long)a), U((long)b), c, 0, 0, 0, 0);
	return 0;
}

SEC("fentry/bpf_fentry_test4")
int BPF_PROG(fentry4, void *a, char b, int c, __u64 d)
{
	if (mine())
		rec(&ent[3], a == (void *)7 && b == 8 && c == 9 && d == 10,
		    U(a), U((long)b), U((long)c), d, 0, 0, 0);
	return 0;
}

SEC("fentry/bpf_fentry_test5")
int BPF_PROG(fentry5, __u64 a, void *b, short c, int d, __u64 e)
{
	if (mine())
		rec(&ent[4], a == 11 && b == (void *)12 && c == 13 && d == 14 &&
			     e == 15,
		    a, U(b), U((long)c), U((long)d), e, 0, 0);
	return 0;
}

SEC("fentry/bpf_fentry_test6")
int BPF_PROG(fentry6, __u64 a, void *b, short c, int d, void *e, __u64 f)
{
	if (mine())
		rec(&ent[5], a == 16 && b == (void *)17 && c == 18 && d == 19 &&
			     e == (void *)20 && f == 21,
		    a, U(b), U((long)c), U((long)d), U(e), f, 0);
	return 0;
}

SEC("fentry/bpf_fentry_test7")
int BPF_PROG(fentry7, struct bpf_fentry_test_t *arg)
{
	if (mine())
		rec(&ent[6], !arg, U(arg), 0, 0, 0, 0, 0, 0);
	return 0;
}

SEC("fentry/bpf_fentry_test8")
int BPF_PROG(fentry8, struct bpf_fentry_test_t *arg)
{
	/* arg is a PTR_TO_BTF_ID: the load of arg->a is a checked probe read */
	__u64 inner = U(arg->a);

	if (mine())
		rec(&ent[7], arg && !inner, U(arg), inner, 0, 0, 0, 0, 0);
	return 0;
}

/* ---- fexit ---- */

SEC("fexit/bpf_fentry_test1")
int BPF_PROG(fexit1, int a, int ret)
{
	if (mine())
		rec(&ext[0], a == 1 && ret == 2, U((long)a), 0, 0, 0, 0, 0, ret);
	return 0;
}

SEC("fexit/bpf_fentry_test2")
int BPF_PROG(fexit2, int a, __u64 b, int ret)
{
	if (mine())
		rec(&ext[1], a == 2 && b == 3 && ret == 5,
		    U((long)a), b, 0, 0, 0, 0, ret);
	return 0;
}

SEC("fexit/bpf_fentry_test3")
int BPF_PROG(fexit3, char a, int b, __u64 c, int ret)
{
	if (mine())
		rec(&ext[2], a == 4 && b == 5 && c == 6 && ret == 15,
		    U((long)a), U((long)b), c, 0, 0, 0, ret);
	return 0;
}

SEC("fexit/bpf_fentry_test4")
int BPF_PROG(fexit4, void *a, char b, int c, __u64 d, int ret)
{
	if (mine())
		rec(&ext[3], a == (void *)7 && b == 8 && c == 9 && d == 10 &&
			     ret == 34,
		    U(a), U((long)b), U((long)c), d, 0, 0, ret);
	return 0;
}

SEC("fexit/bpf_fentry_test5")
int BPF_PROG(fexit5, __u64 a, void *b, short c, int d, __u64 e, int ret)
{
	if (mine())
		rec(&ext[4], a == 11 && b == (void *)12 && c == 13 && d == 14 &&
			     e == 15 && ret == 65,
		    a, U(b), U((long)c), U((long)d), e, 0, ret);
	return 0;
}

SEC("fexit/bpf_fentry_test6")
int BPF_PROG(fexit6, __u64 a, void *b, short c, int d, void *e, __u64 f,
	     int ret)
{
	if (mine())
		rec(&ext[5], a == 16 && b == (void *)17 && c == 18 && d == 19 &&
			     e == (void *)20 && f == 21 && ret == 111,
		    a, U(b), U((long)c), U((long)d), U(e), f, ret);
	return 0;
}

SEC("fexit/bpf_fentry_test7")
int BPF_PROG(fexit7, struct bpf_fentry_test_t *arg, int ret)
{
	if (mine())
		rec(&ext[6], !arg && ret == 0, U(arg), 0, 0, 0, 0, 0, ret);
	return 0;
}

SEC("fexit/bpf_fentry_test8")
int BPF_PROG(fexit8, struct bpf_fentry_test_t *arg, int ret)
{
	__u64 inner = U(arg->a);

	if (mine())
		rec(&ext[7], arg && !inner && ret == 0, U(arg), inner, 0, 0, 0,
		    0, ret);
	return 0;
}
