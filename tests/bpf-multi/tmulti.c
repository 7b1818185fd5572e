// SPDX-License-Identifier: GPL-2.0
/*
 * tmulti: a tracing_multi link of fentry.multi and fexit.multi programs on
 * bpf_fentry_test1..9, attached by pattern (the sections) and by BTF ids
 * with cookies; each function must be seen once per test run, with its
 * argument count, first argument, return value and cookie.  Built against
 * the libbpf of the series (tools/lib/bpf).  Prints PASS or FAIL lines,
 * exits 0 when all passed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "tmulti.skel.h"

struct seen {
	__u64 entries, exits, nargs, arg0, ret, cookie;
};

/* bpf_fentry_testN as net/bpf/test_run.c calls them: args, first, return */
static const struct {
	int nargs;
	long long arg0;		/* -1: a pointer, not checked */
	long long ret;
} want[10] = {
	[1] = { 1, 1, 2 }, [2] = { 2, 2, 5 }, [3] = { 3, 4, 15 },
	[4] = { 4, 7, 34 }, [5] = { 5, 11, 65 }, [6] = { 6, 16, 111 },
	[7] = { 1, 0, 0 }, [8] = { 1, -1, 0 }, [9] = { 1, -1, 0 },
};

static int failed;

#define check(cond, ...) do {						\
	if (!(cond)) {							\
		printf("FAIL: " __VA_ARGS__);				\
		printf("\n");						\
		failed++;						\
	}								\
} while (0)

static unsigned long ksym(const char *name)
{
	char line[256], sym[128], t;
	unsigned long addr, found = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %c %127s", &addr, &t, sym) == 3 &&
		    !strcmp(sym, name)) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}

static void run(struct tmulti_bpf *skel)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	int err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.multi_entry), &topts);

	check(!err && !topts.retval, "test run: %d, retval %u", err, topts.retval);
}

/* Each function seen @calls times more than in @base, as it must */
static void verify(struct tmulti_bpf *skel, const char *how, __u64 calls,
		   const __u64 *cookies)
{
	int fd = bpf_map__fd(skel->maps.seen), i;

	for (i = 1; i <= 9; i++) {
		char name[32];
		struct seen s = {};
		__u64 ip;

		snprintf(name, sizeof(name), "bpf_fentry_test%d", i);
		ip = ksym(name);
		check(ip, "%s: no address in /proc/kallsyms", name);
		if (!ip || bpf_map_lookup_elem(fd, &ip, &s)) {
			check(0, "%s %s: never seen (bpf_get_func_ip)", how, name);
			continue;
		}
		check(s.entries == calls && s.exits == calls,
		      "%s %s: %llu entries, %llu exits, want %llu", how, name,
		      s.entries, s.exits, calls);
		check(s.nargs == (__u64)want[i].nargs, "%s %s: %llu arguments, want %d",
		      how, name, s.nargs, want[i].nargs);
		check(want[i].arg0 < 0 || s.arg0 == (__u64)want[i].arg0,
		      "%s %s: first argument %llu, want %lld", how, name, s.arg0,
		      want[i].arg0);
		check(s.ret == (__u64)want[i].ret, "%s %s: returned %llu, want %lld",
		      how, name, s.ret, want[i].ret);
		check(s.cookie == (cookies ? cookies[i] : 0),
		      "%s %s: cookie %llu, want %llu", how, name, s.cookie,
		      cookies ? cookies[i] : 0);
	}
}

int main(void)
{
	struct bpf_link *entry = NULL, *exit_ = NULL;
	__u32 ids[9];
	__u64 cookies[10], ordered[9];
	struct tmulti_bpf *skel;
	struct btf *btf;
	int i, err;

	skel = tmulti_bpf__open_and_load();
	if (!skel) {
		printf("FAIL: open and load: %s\n", strerror(errno));
		return 1;
	}

	/* By pattern: the skeleton attaches both sections */
	err = tmulti_bpf__attach(skel);
	check(!err, "attach by pattern: %d", err);
	if (!err) {
		run(skel);
		verify(skel, "pattern", 1, NULL);
		tmulti_bpf__detach(skel);
		run(skel);
		verify(skel, "detached", 1, NULL);
	}

	/* By ids, with cookies, in an order of their own */
	btf = btf__load_vmlinux_btf();
	check(btf, "vmlinux BTF: %s", strerror(errno));
	for (i = 1; btf && i <= 9; i++) {
		char name[32];
		int id;

		snprintf(name, sizeof(name), "bpf_fentry_test%d", i);
		id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
		check(id > 0, "%s: no BTF id", name);
		ids[9 - i] = id;
		cookies[i] = 1000 + i;
		ordered[9 - i] = cookies[i];
	}
	if (btf && !failed) {
		LIBBPF_OPTS(bpf_tracing_multi_opts, opts, .ids = ids,
			    .cookies = ordered, .cnt = 9);
		struct bpf_map *m = skel->maps.seen;
		__u64 key, next;

		/* Forget what the pattern links saw */
		while (!bpf_map_get_next_key(bpf_map__fd(m), NULL, &next)) {
			key = next;
			bpf_map_delete_elem(bpf_map__fd(m), &key);
		}
		entry = bpf_program__attach_tracing_multi(skel->progs.multi_entry,
							  NULL, &opts);
		exit_ = bpf_program__attach_tracing_multi(skel->progs.multi_exit,
							  NULL, &opts);
		check(entry && exit_, "attach by ids: %s", strerror(errno));
		if (entry && exit_) {
			run(skel);
			run(skel);
			verify(skel, "ids", 2, cookies);
		}
		bpf_link__destroy(entry);
		bpf_link__destroy(exit_);
	}

	/* Bad input: the errno, nothing attached */
	if (btf) {
		LIBBPF_OPTS(bpf_tracing_multi_opts, dup, .ids = ids, .cnt = 2);
		struct bpf_link *l;

		ids[1] = ids[0];
		l = bpf_program__attach_tracing_multi(skel->progs.multi_entry, NULL, &dup);
		check(!l && errno == EINVAL, "a duplicate id: %s, want EINVAL",
		      l ? "attached" : strerror(errno));
		bpf_link__destroy(l);
		l = bpf_program__attach_tracing_multi(skel->progs.multi_entry,
						      "no_such_function_*", NULL);
		check(!l && errno == EINVAL, "a pattern matching nothing: %s, want EINVAL",
		      l ? "attached" : strerror(errno));
		bpf_link__destroy(l);
		l = bpf_program__attach_tracing_multi(skel->progs.multi_entry, NULL, NULL);
		check(!l && errno == EINVAL, "no pattern, no ids: %s, want EINVAL",
		      l ? "attached" : strerror(errno));
		bpf_link__destroy(l);
	}
	btf__free(btf);
	tmulti_bpf__destroy(skel);
	printf("%s: %d failed\n", failed ? "FAIL" : "PASS", failed);
	return failed ? 1 : 0;
}
