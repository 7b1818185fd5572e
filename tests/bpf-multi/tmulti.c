// SPDX-License-Identifier: GPL-2.0
/*
 * tmulti: tracing_multi links of fentry.multi and fexit.multi programs,
 * built against the libbpf of the series (tools/lib/bpf).
 *
 *   tmulti [basic|errors|mix|others|intersect|info|syscalls|livepatch|
 *	     module|nomem|all|calls|bench [/F]]...
 *				(no argument: the cases up to module)
 *
 * basic:     bpf_fentry_test1..9 by pattern (the skeleton's sections) and
 *            by BTF ids with cookies: each function seen once per test
 *            run, with its argument count, first argument, return value
 *            and cookie; a sleepable link where the function allows it
 * errors:    every bad input gets its errno and attaches nothing
 * mix:       a multi link and a single fentry link on one function,
 *            attached and released in every order
 * others:    a multi link, a single fentry link, the function tracer and
 *            a kprobe on bpf_fentry_test1 (and more), attached and
 *            released in every order (24 x 2, then 24 releases)
 * intersect: two multi links on every pair of subsets of four functions
 * info:      bpf_link_info.tracing_multi, fdinfo and bpftool link show
 *            (plain and JSON): ids sorted, each with its address and
 *            cookie
 * syscalls:  one program on every system call by pattern (__x64_sys_*,
 *            __arm64_sys_*)
 * livepatch: a link and livepatch-sample on one function, every order
 * module:    a link on tmulti_mod's functions (mod/): 0 to 12 arguments, a
 *            16-byte struct, a pointer; the module held while linked; on
 *            arm64 the link by pattern fails (more than 8 argument
 *            registers), the one by ids without tmm_args9..12 works
 * nomem:     each allocation of the attach, then of the release, failing
 *            in turn (fail-nth; the caller sets the fault knobs)
 * all:       one link on every attachable function, a workload, release
 * own, shared: the cases after "own" run with every function on an
 *            image of its own (the debugfs switch of
 *            CONFIG_BPF_TRACING_MULTI_PEER), after "shared" on the shared
 *            images again
 * bench [/F]: make bench's figures on those functions ("key value"
 *            lines), their names to /F (default /tmp/tmulti-funcs), and
 *            the calls figures
 * calls:     the cost of one call of getpid()'s function under each kind
 *            of program doing the same work (tcall.bpf.c)
 *
 * A function with only multi programs (none sleepable) calls a shared
 * image, "bpf_trampoline_multi_N" in direct_functions, unless the kernel
 * has no metadata (ftrace_md=off) or "own" came before; basic and mix
 * check which image each function calls.  After each case
 * enabled_functions and direct_functions are as before it.  Prints PASS or FAIL lines, exits 0 when all passed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <sys/syscall.h>
#include "tcall.skel.h"
#include "tmulti.skel.h"
#include "tmulti_mod.skel.h"

/*
 * getpid()'s function with BTF (on x86_64 __x64_sys_getpid is an alias),
 * the system calls' prefix, and the argument registers a trampoline can
 * pass: 6.12's arm64 JIT has no stack arguments (more than 8 registers:
 * the kernel refuses the function), x86_64's takes up to 12 registers.
 */
#if defined(__x86_64__)
#define GETPID_FN	"__do_sys_getpid"
#define SYSCALLS	"__x64_sys_*"
#define MAX_ARG_REGS	12
#elif defined(__aarch64__)
#define GETPID_FN	"__arm64_sys_getpid"
#define SYSCALLS	"__arm64_sys_*"
#define MAX_ARG_REGS	8
#endif

#define NFUNC	9	/* bpf_fentry_test1..9, [0] unused */

struct seen {
	__u64 entries, exits, nargs, arg0, ret, cookie;
};

/* bpf_fentry_testN as net/bpf/test_run.c calls them: args, first, return */
static const struct {
	int nargs;
	long long arg0;		/* -1: a pointer, not checked */
	long long ret;
} want[NFUNC + 1] = {
	[1] = { 1, 1, 2 }, [2] = { 2, 2, 5 }, [3] = { 3, 4, 15 },
	[4] = { 4, 7, 34 }, [5] = { 5, 11, 65 }, [6] = { 6, 16, 111 },
	[7] = { 1, 0, 0 }, [8] = { 1, -1, 0 }, [9] = { 1, -1, 0 },
};

static struct tmulti_bpf *skel;
static struct btf *vmlinux;
static __u32 fn_id[NFUNC + 1];
static __u64 fn_ip[NFUNC + 1];
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

static char *slurp(const char *path)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	FILE *f = fopen(path, "r");

	if (!f)
		return strdup("");
	for (;;) {
		size_t n;

		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				exit(2);
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		if (!n)
			break;
		len += n;
	}
	fclose(f);
	buf[len] = 0;
	return buf;
}

/* What ftrace has attached: enabled_functions and direct_functions */
struct snap {
	char *enabled, *direct;
};

static struct snap take_snap(void)
{
	struct snap s = {
		slurp("/sys/kernel/tracing/enabled_functions"),
		slurp("/sys/kernel/tracing/direct_functions"),
	};
	return s;
}

static void check_snap(struct snap *before, const char *how)
{
	struct snap now = take_snap();

	check(!strcmp(before->enabled, now.enabled),
	      "%s: enabled_functions not as before:\n%s\n(before:)\n%s", how,
	      now.enabled, before->enabled);
	check(!strcmp(before->direct, now.direct),
	      "%s: direct_functions not as before:\n%s\n(before:)\n%s", how,
	      now.direct, before->direct);
	free(now.enabled);
	free(now.direct);
}

static void free_snap(struct snap *s)
{
	free(s->enabled);
	free(s->direct);
}

static void clear_map(struct bpf_map *m)
{
	__u64 key;

	while (!bpf_map_get_next_key(bpf_map__fd(m), NULL, &key))
		bpf_map_delete_elem(bpf_map__fd(m), &key);
}

static void run(void)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	int err = bpf_prog_test_run_opts(bpf_program__fd(skel->progs.multi_entry), &topts);

	check(!err && !topts.retval, "test run: %d, retval %u", err, topts.retval);
}

static struct seen seen_of(int i)
{
	struct seen s = {};

	bpf_map_lookup_elem(bpf_map__fd(skel->maps.seen), &fn_ip[i], &s);
	return s;
}

static __u64 seen2_of(int i)
{
	__u64 n = 0;

	bpf_map_lookup_elem(bpf_map__fd(skel->maps.seen2), &fn_ip[i], &n);
	return n;
}

/* Each function in @mask seen @calls times, with what it was called with */
static void verify(const char *how, unsigned int mask, __u64 calls,
		   const __u64 *cookies, bool exits)
{
	int i;

	for (i = 1; i <= NFUNC; i++) {
		struct seen s = seen_of(i);
		__u64 n = mask & (1U << i) ? calls : 0;

		check(s.entries == n && s.exits == (exits ? n : 0),
		      "%s bpf_fentry_test%d: %llu entries, %llu exits, want %llu",
		      how, i, s.entries, s.exits, n);
		if (!n)
			continue;
		check(s.nargs == (__u64)want[i].nargs,
		      "%s bpf_fentry_test%d: %llu arguments, want %d",
		      how, i, s.nargs, want[i].nargs);
		check(want[i].arg0 < 0 || s.arg0 == (__u64)want[i].arg0,
		      "%s bpf_fentry_test%d: first argument %llu, want %lld",
		      how, i, s.arg0, want[i].arg0);
		check(!exits || s.ret == (__u64)want[i].ret,
		      "%s bpf_fentry_test%d: returned %llu, want %lld",
		      how, i, s.ret, want[i].ret);
		check(s.cookie == (cookies ? cookies[i] : 0),
		      "%s bpf_fentry_test%d: cookie %llu, want %llu", how, i,
		      s.cookie, cookies ? cookies[i] : 0);
	}
}

/* A link of @prog on the functions of @mask, by ids, cookies optional */
static struct bpf_link *link_mask(struct bpf_program *prog, unsigned int mask,
				  const __u64 *cookies)
{
	__u32 ids[NFUNC];
	__u64 c[NFUNC];
	int i, n = 0;

	/* From the last to the first: the kernel sorts them */
	for (i = NFUNC; i >= 1; i--) {
		if (!(mask & (1U << i)))
			continue;
		ids[n] = fn_id[i];
		c[n++] = cookies ? cookies[i] : 0;
	}
	LIBBPF_OPTS(bpf_tracing_multi_opts, opts, .ids = ids,
		    .cookies = cookies ? c : NULL, .cnt = n);
	return bpf_program__attach_tracing_multi(prog, NULL, &opts);
}

#define ALL_FUNCS	(((1U << NFUNC) - 1) << 1)

#define OWN_IMAGES	"/sys/kernel/debug/bpf_tracing_multi_own_images"

/* Functions with only multi programs call a shared image */
static bool expect_shared;

static void images_init(void)
{
	char *md = slurp("/sys/kernel/tracing/function_metadata");
	char *own = slurp(OWN_IMAGES);

	expect_shared = *md && !strstr(md, "mode: off") && own[0] != 'Y';
	free(md);
	free(own);
}

/* Give the functions attached from now on images of their own, or not */
static void images_own(bool own)
{
	FILE *f = fopen(OWN_IMAGES, "w");

	check(f && fputs(own ? "Y" : "N", f) >= 0 && !fclose(f),
	      "%s: %s", OWN_IMAGES, strerror(errno));
	images_init();
}

/* @what: the image direct_functions names for @func is shared or not */
static void check_image(const char *what, const char *func, bool shared)
{
	char *df = slurp("/sys/kernel/tracing/direct_functions");
	char *line, *save = NULL, img[128] = "";

	for (line = strtok_r(df, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[128];

		if (sscanf(line, "%*s %127s %127s", name, img) == 2 &&
		    !strcmp(name, func))
			break;
		img[0] = 0;
	}
	free(df);
	shared = shared && expect_shared;
	check(!strncmp(img, "bpf_trampoline_multi_", 21) == shared,
	      "%s: %s calls %s, want %s", what, func, *img ? img : "nothing",
	      shared ? "a shared image" : "an image of its own");
}

static void test_basic(void)
{
	struct bpf_link *entry, *exit_, *l;
	__u64 cookies[NFUNC + 1];
	struct snap before = take_snap();
	int i;

	/* By pattern: the skeleton attaches both sections */
	clear_map(skel->maps.seen);
	check(!tmulti_bpf__attach(skel), "attach by pattern: %s", strerror(errno));
	run();
	verify("pattern", ALL_FUNCS, 1, NULL, true);
	for (i = 1; i <= NFUNC; i++) {
		char name[32];

		snprintf(name, sizeof(name), "bpf_fentry_test%d", i);
		check_image("pattern", name, true);
	}
	tmulti_bpf__detach(skel);
	run();
	verify("pattern, detached", ALL_FUNCS, 1, NULL, true);
	check_snap(&before, "pattern");

	/* By ids, with cookies, in an order of their own */
	clear_map(skel->maps.seen);
	for (i = 1; i <= NFUNC; i++)
		cookies[i] = 1000 + i;
	entry = link_mask(skel->progs.multi_entry, ALL_FUNCS, cookies);
	exit_ = link_mask(skel->progs.multi_exit, ALL_FUNCS, cookies);
	check(entry && exit_, "attach by ids: %s", strerror(errno));
	run();
	run();
	verify("ids", ALL_FUNCS, 2, cookies, true);
	bpf_link__destroy(entry);
	bpf_link__destroy(exit_);
	check_snap(&before, "ids");

	/* Sleepable where the function allows it (bpf_fentry_test1) */
	skel->bss->sleepable_hits = 0;
	l = link_mask(skel->progs.multi_sleepable, 1U << 1, NULL);
	check(l, "sleepable on bpf_fentry_test1: %s", strerror(errno));
	check_image("sleepable", "bpf_fentry_test1", false);
	run();
	check(skel->bss->sleepable_hits == 1, "sleepable: %llu calls, want 1",
	      (unsigned long long)skel->bss->sleepable_hits);
	bpf_link__destroy(l);
	check_snap(&before, "sleepable");
	free_snap(&before);
}

/* BPF_LINK_CREATE as a user could call it: an fd or -errno */
static int raw_link(int prog_fd, int target_fd, __u32 flags, const __u32 *ids,
		    const __u64 *cookies, __u32 cnt)
{
	LIBBPF_OPTS(bpf_link_create_opts, o, .flags = flags);
	int fd;

	o.tracing_multi.ids = ids;
	o.tracing_multi.cookies = cookies;
	o.tracing_multi.cnt = cnt;
	fd = bpf_link_create(prog_fd, target_fd, BPF_TRACE_FENTRY_MULTI, &o);
	return fd < 0 ? -errno : fd;
}

static void expect_err(int got, int err, const char *what)
{
	check(got == -err, "%s: %s, want %s", what,
	      got >= 0 ? "attached" : strerror(-got), strerror(err));
	if (got >= 0)
		close(got);
}

/* A fentry program doing nothing, on BTF function @id */
static int filler_prog(__u32 id, enum bpf_attach_type type)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = type,
		    .attach_btf_id = id);
	int fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "filler", "GPL", insns, 2, &o);

	return fd < 0 ? -errno : fd;
}

static void test_errors(void)
{
	int fd = bpf_program__fd(skel->progs.multi_entry);
	__u32 ids[NFUNC + 1], bad[2];
	struct snap before = take_snap();
	int fillers[64], nfill = 0, i, id, err;
	struct bpf_link *l;

	for (i = 1; i <= NFUNC; i++)
		ids[i - 1] = fn_id[i];
	clear_map(skel->maps.seen);

	/* libbpf's own checks */
	l = bpf_program__attach_tracing_multi(skel->progs.multi_entry, NULL, NULL);
	check(!l && errno == EINVAL, "no pattern, no ids: %s", l ? "attached" : strerror(errno));
	{
		LIBBPF_OPTS(bpf_tracing_multi_opts, o, .ids = ids, .cnt = 1);

		l = bpf_program__attach_tracing_multi(skel->progs.multi_entry,
						      "bpf_fentry_test*", &o);
		check(!l && errno == EINVAL, "a pattern and ids: %s",
		      l ? "attached" : strerror(errno));
	}
	l = bpf_program__attach_tracing_multi(skel->progs.multi_entry,
					      "no_such_function_*", NULL);
	check(!l && errno == EINVAL, "a pattern matching nothing: %s",
	      l ? "attached" : strerror(errno));

	/* The kernel's */
	expect_err(raw_link(fd, 0, 0, ids, NULL, 0), EINVAL, "cnt 0");
	expect_err(raw_link(fd, 0, 0, NULL, NULL, 1), EINVAL, "no ids");
	expect_err(raw_link(fd, 0, 1, ids, NULL, 1), EINVAL, "flags 1");
	expect_err(raw_link(fd, fd, 0, ids, NULL, 1), EINVAL, "a target_fd");
	expect_err(raw_link(fd, 0, 0, ids, NULL, (1U << 20) + 1), E2BIG, "cnt 2^20 + 1");
	bad[0] = ids[0];
	bad[1] = ids[0];
	expect_err(raw_link(fd, 0, 0, bad, NULL, 2), EINVAL, "a duplicate id");
	id = btf__find_by_name_kind(vmlinux, "task_struct", BTF_KIND_STRUCT);
	bad[1] = id;
	expect_err(raw_link(fd, 0, 0, bad, NULL, 2), EINVAL, "a struct's id");
	/* On the verifier's deny list: refused after eight good ones */
	id = btf__find_by_name_kind(vmlinux, "migrate_disable", BTF_KIND_FUNC);
	if (id > 0) {
		ids[NFUNC] = id;
		expect_err(raw_link(fd, 0, 0, ids + 1, NULL, NFUNC), EINVAL,
			   "migrate_disable (denied) last");
	} else {
		printf("SKIP: no migrate_disable in BTF\n");
	}
	/* Sleepable where the function does not allow it */
	l = link_mask(skel->progs.multi_sleepable, 1U << 2, NULL);
	check(!l && errno == EINVAL, "sleepable on bpf_fentry_test2: %s",
	      l ? "attached" : strerror(errno));
	/* The reserved attach types load nothing */
	for (i = 0; i < 3; i++) {
		static const int type[] = { 57, 58, 61 };

		err = filler_prog(fn_id[1], type[i]);
		check(err < 0, "a program of attach type %d loaded", type[i]);
		if (err >= 0)
			close(err);
	}

	/*
	 * bpf_fentry_test9's trampoline full of single links: the multi link
	 * fails whole, after its other eight functions got new trampolines
	 */
	for (nfill = 0; nfill < 64; nfill++) {
		int pfd = filler_prog(fn_id[9], BPF_TRACE_FENTRY), lfd;

		if (pfd < 0)
			break;
		lfd = bpf_link_create(pfd, 0, BPF_TRACE_FENTRY, NULL);
		close(pfd);
		if (lfd < 0)
			break;
		fillers[nfill] = lfd;
	}
	check(nfill == 38, "%d single links on bpf_fentry_test9, want 38 (%s)",
	      nfill, strerror(errno));
	expect_err(raw_link(fd, 0, 0, ids, NULL, NFUNC), E2BIG,
		   "bpf_fentry_test9's trampoline full");
	while (nfill)
		close(fillers[--nfill]);

	run();
	verify("after the errors", 0, 0, NULL, false);
	check_snap(&before, "errors");
	free_snap(&before);
}

/*
 * A multi link (entry and exit, bpf_fentry_test1..9) and a single fentry
 * link on bpf_fentry_test1, in every order of attach and release
 */
static void test_mix(void)
{
	static const char *const order[] = { "MSms", "MSsm", "SMsm", "SMms" };
	struct snap before = take_snap();
	int o;

	bpf_program__set_autoattach(skel->progs.single_entry, false);
	for (o = 0; o < 4; o++) {
		struct bpf_link *m[2] = {}, *s = NULL;
		const char *step;
		char how[32];

		for (step = order[o]; *step; step++) {
			switch (*step) {
			case 'M':
				m[0] = link_mask(skel->progs.multi_entry, ALL_FUNCS, NULL);
				m[1] = link_mask(skel->progs.multi_exit, ALL_FUNCS, NULL);
				check(m[0] && m[1], "%s: multi attach: %s", order[o],
				      strerror(errno));
				break;
			case 'S':
				s = bpf_program__attach(skel->progs.single_entry);
				check(s, "%s: single attach: %s", order[o], strerror(errno));
				break;
			case 'm':
				bpf_link__destroy(m[0]);
				bpf_link__destroy(m[1]);
				m[0] = m[1] = NULL;
				break;
			case 's':
				bpf_link__destroy(s);
				s = NULL;
				break;
			}
			clear_map(skel->maps.seen);
			skel->bss->single_hits = 0;
			run();
			snprintf(how, sizeof(how), "%s after %c", order[o], *step);
			verify(how, m[0] ? ALL_FUNCS : 0, 1, NULL, true);
			check(skel->bss->single_hits == (s ? 1 : 0),
			      "%s: single program %llu calls, want %d", how,
			      (unsigned long long)skel->bss->single_hits, s ? 1 : 0);
			if (m[0]) {
				check_image(how, "bpf_fentry_test1", !s);
				check_image(how, "bpf_fentry_test2", true);
			}
		}
		check_snap(&before, order[o]);
	}
	free_snap(&before);
}

/* The function tracer of a tracefs instance, and a kprobe event */
#define TR		"/sys/kernel/tracing"
#define TR_INST		TR "/instances/tmulti"
#define KP_GROUP	"tmulti"

/*
 * Write @text to @path, truncating it or (@append) not: with write(), as
 * stdio's append mode seeks to the end, which kprobe_events refuses; in
 * a loop, as a filter file takes one word per write()
 */
static bool put(const char *path, const char *text, bool append)
{
	int fd = open(path, O_WRONLY | (append ? O_APPEND : O_TRUNC));
	size_t len = strlen(text), done = 0;
	ssize_t n = 0;

	while (fd >= 0 && done < len && (n = write(fd, text + done, len - done)) > 0)
		done += n;
	if (fd >= 0)
		close(fd);
	return fd >= 0 && done == len;
}

/* Calls of bpf_fentry_test@i the instance's function tracer saw */
static int traced_calls(const char *trace, int i)
{
	char pat[40];
	const char *p = trace;
	int n = 0;

	snprintf(pat, sizeof(pat), ": bpf_fentry_test%d <-", i);
	while ((p = strstr(p, pat))) {
		n++;
		p++;
	}
	return n;
}

/* The kprobe event's hits (kprobe_profile names it without its group) */
static long kprobe_hits(void)
{
	char *t = slurp(TR "/kprobe_profile"), *p = strstr(t, " tmulti_k1 ");
	long n = p ? strtol(p + strlen(" tmulti_k1 "), NULL, 10) : -1;

	free(t);
	return n;
}

/* Attach (upper case) or release (lower case) one of the four */
static bool others_step(char c, struct bpf_link **m, struct bpf_link **s)
{
	switch (c) {
	case 'M':
		*m = link_mask(skel->progs.multi_entry, ALL_FUNCS, NULL);
		return *m;
	case 'm':
		bpf_link__destroy(*m);
		*m = NULL;
		return true;
	case 'S':
		*s = bpf_program__attach(skel->progs.single_entry);
		return *s;
	case 's':
		bpf_link__destroy(*s);
		*s = NULL;
		return true;
	case 'F':
		return put(TR_INST "/current_tracer", "function", false);
	case 'f':
		return put(TR_INST "/current_tracer", "nop", false);
	case 'K':
		return put(TR "/events/" KP_GROUP "/tmulti_k1/enable", "1", false);
	case 'k':
		return put(TR "/events/" KP_GROUP "/tmulti_k1/enable", "0", false);
	}
	return false;
}

/* One test run: everything attached (in @on) sees each of its calls */
static void others_verify(const char *how, const char *on)
{
	bool F = strchr(on, 'F'), K = strchr(on, 'K');
	long k0 = kprobe_hits(), k;
	char *trace;
	int i;

	clear_map(skel->maps.seen);
	skel->bss->single_hits = 0;
	put(TR_INST "/trace", "", false);
	run();
	verify(how, strchr(on, 'M') ? ALL_FUNCS : 0, 1, NULL, false);
	check(skel->bss->single_hits == (strchr(on, 'S') ? 1 : 0),
	      "%s: the single link saw %llu calls", how,
	      (unsigned long long)skel->bss->single_hits);
	trace = slurp(TR_INST "/trace");
	for (i = 1; i <= 3; i++) {
		int n = traced_calls(trace, i), want = F && i <= 2;

		check(n == want, "%s: the function tracer saw bpf_fentry_test%d %d times, want %d",
		      how, i, n, want);
	}
	free(trace);
	k = kprobe_hits() - k0;
	check(k == K, "%s: the kprobe hit %ld times, want %d", how, k, K);
}

/* Attach the four in the order of @up, release them in the order of @down */
static void others_order(const char *up, const char *down, struct snap *before)
{
	struct bpf_link *m = NULL, *s = NULL;
	char on[5] = "", how[48];
	const char *p;
	int n = 0;

	for (p = up; *p; p++) {
		snprintf(how, sizeof(how), "others %s %s: %c", up, down, *p);
		check(others_step(*p, &m, &s), "%s: %s", how, strerror(errno));
		on[n++] = *p;
		on[n] = 0;
		others_verify(how, on);
	}
	for (p = down; *p; p++) {
		char *q = strchr(on, *p - 'a' + 'A');

		snprintf(how, sizeof(how), "others %s %s: %c", up, down, *p);
		check(others_step(*p, &m, &s), "%s: %s", how, strerror(errno));
		if (q)
			memmove(q, q + 1, strlen(q));
		others_verify(how, on);
	}
	snprintf(how, sizeof(how), "others %s %s", up, down);
	check_snap(before, how);
}

/* The permutations of @v (length @n), in place, lexicographic */
static bool next_perm(char *v, int n)
{
	int i = n - 2, j = n - 1;
	char t;

	while (i >= 0 && v[i] >= v[i + 1])
		i--;
	if (i < 0)
		return false;
	while (v[j] <= v[i])
		j--;
	t = v[i];
	v[i] = v[j];
	v[j] = t;
	for (i++, j = n - 1; i < j; i++, j--) {
		t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
	return true;
}

/*
 * A multi link on bpf_fentry_test1..9, a single fentry link on
 * bpf_fentry_test1, the function tracer of a tracefs instance on
 * bpf_fentry_test1 and 2, and a kprobe event on bpf_fentry_test1: each
 * sees every call of its functions, after every step, attached in every
 * order and released in the same and the reverse order; one attach
 * order released in every order.
 */
static void test_others(void)
{
	struct snap before = take_snap();
	char up[] = "FKMS", down[5];
	int i;

	mkdir(TR_INST, 0755);
	if (!put(TR_INST "/set_ftrace_filter", "bpf_fentry_test1 bpf_fentry_test2", false)) {
		check(0, "others: the instance's filter: %s", strerror(errno));
		goto out;
	}
	if (!put(TR "/kprobe_events", "p:" KP_GROUP "/tmulti_k1 bpf_fentry_test1\n", true)) {
		check(0, "others: the kprobe event: %s", strerror(errno));
		goto out;
	}
	free_snap(&before);
	before = take_snap();
	do {
		for (i = 0; i < 4; i++)
			down[i] = up[i] - 'A' + 'a';
		down[4] = 0;
		others_order(up, down, &before);
		for (i = 0; i < 4; i++)
			down[i] = up[3 - i] - 'A' + 'a';
		others_order(up, down, &before);
	} while (!failed && next_perm(up, 4));
	strcpy(down, "fkms");
	while (!failed && next_perm(down, 4))
		others_order("MSFK", down, &before);
out:
	put(TR "/kprobe_events", "-:" KP_GROUP "/tmulti_k1\n", true);
	rmdir(TR_INST);
	free_snap(&before);
}

/* Two multi links on every pair of subsets of bpf_fentry_test1..4 */
static void test_intersect(void)
{
	struct snap before = take_snap();
	unsigned int a, b;
	int i;

	for (a = 1; a < 16; a++) {
		for (b = 1; b < 16; b++) {
			struct bpf_link *la, *lb;

			clear_map(skel->maps.seen);
			clear_map(skel->maps.seen2);
			la = link_mask(skel->progs.multi_entry, a << 1, NULL);
			lb = link_mask(skel->progs.multi_entry2, b << 1, NULL);
			check(la && lb, "intersect %x %x: attach: %s", a, b, strerror(errno));
			run();
			for (i = 1; i <= NFUNC; i++) {
				__u64 na = seen_of(i).entries, nb = seen2_of(i);
				__u64 wa = (a << 1) >> i & 1, wb = (b << 1) >> i & 1;

				check(na == wa && nb == wb,
				      "intersect %x %x: bpf_fentry_test%d seen %llu and %llu times, want %llu and %llu",
				      a, b, i, na, nb, wa, wb);
			}
			/* Release in both orders */
			if ((a + b) & 1) {
				bpf_link__destroy(la);
				bpf_link__destroy(lb);
			} else {
				bpf_link__destroy(lb);
				bpf_link__destroy(la);
			}
		}
	}
	check_snap(&before, "intersect");
	free_snap(&before);
}

/* What the link tells: bpf_link_info.tracing_multi and fdinfo */
/* What @cmd prints on its standard output */
static char *cmd_out(const char *cmd)
{
	size_t len = 0, n;
	char *buf = malloc(1 << 16);
	FILE *f = popen(cmd, "r");

	if (!buf)
		exit(2);
	while (f && len < (1 << 16) - 1 &&
	       (n = fread(buf + len, 1, (1 << 16) - 1 - len, f)))
		len += n;
	buf[len] = 0;
	if (f)
		pclose(f);
	return buf;
}

/* bpftool (the tree's, tools/bpf/bpftool) shows link @id and its functions */
static void info_bpftool(__u32 id, const __u64 *cookies)
{
	char cmd[64], want[128], *out;
	int k;

	snprintf(cmd, sizeof(cmd), "bpftool link show id %u", id);
	out = cmd_out(cmd);
	check(strstr(out, " tracing_multi  prog ") &&
	      strstr(out, "attach_type trace_fentry_multi  btf_obj_id ") &&
	      strstr(out, "  count 9"), "info: %s:\n%s", cmd, out);
	for (k = 1; k <= NFUNC; k++) {
		snprintf(want, sizeof(want), "\t%-8u %016llx %-16llu bpf_fentry_test%d\n",
			 fn_id[k], (unsigned long long)fn_ip[k],
			 (unsigned long long)cookies[k], k);
		check(strstr(out, want), "info: %s: no line '%s' in:\n%s", cmd, want, out);
	}
	printf("info: %s:\n%s", cmd, out);
	free(out);
	snprintf(cmd, sizeof(cmd), "bpftool -j link show id %u", id);
	out = cmd_out(cmd);
	snprintf(want, sizeof(want), "{\"btf_id\":%u,\"addr\":%llu,\"func\":\"bpf_fentry_test3\","
		 "\"module\":null,\"cookie\":503}", fn_id[3], (unsigned long long)fn_ip[3]);
	check(strstr(out, "\"attach_type\":\"trace_fentry_multi\"") &&
	      strstr(out, "\"func_cnt\":9,") && strstr(out, want),
	      "info: %s: no '%s' in:\n%s", cmd, want, out);
	free(out);
}

static void test_info(void)
{
	__u64 cookies[NFUNC + 1], addrs[NFUNC], lc[NFUNC];
	struct bpf_link_info info = {};
	__u32 len = sizeof(info), ids[NFUNC];
	struct bpf_link *l;
	char path[64], *fdinfo;
	int i, fd;

	for (i = 1; i <= NFUNC; i++)
		cookies[i] = 500 + i;
	l = link_mask(skel->progs.multi_entry, ALL_FUNCS, cookies);
	check(l, "info: attach: %s", strerror(errno));
	if (!l)
		return;
	fd = bpf_link__fd(l);
	check(!bpf_link_get_info_by_fd(fd, &info, &len), "info: no link info: %s",
	      strerror(errno));
	check(info.type == BPF_LINK_TYPE_TRACING_MULTI &&
	      info.tracing_multi.attach_type == BPF_TRACE_FENTRY_MULTI &&
	      info.tracing_multi.count == NFUNC && info.tracing_multi.btf_obj_id,
	      "info: type %u, attach type %u, count %u, btf_obj_id %u", info.type,
	      info.tracing_multi.attach_type, info.tracing_multi.count,
	      info.tracing_multi.btf_obj_id);
	/* Too small an array: -ENOSPC (nothing copied back, as kprobe_multi) */
	memset(&info, 0, sizeof(info));
	info.tracing_multi.ids = (unsigned long)ids;
	info.tracing_multi.count = 2;
	check(bpf_link_get_info_by_fd(fd, &info, &len) && errno == ENOSPC,
	      "info: 2 of %d ids: %s", NFUNC, strerror(errno));
	memset(&info, 0, sizeof(info));
	info.tracing_multi.ids = (unsigned long)ids;
	info.tracing_multi.addrs = (unsigned long)addrs;
	info.tracing_multi.cookies = (unsigned long)lc;
	info.tracing_multi.count = NFUNC;
	check(!bpf_link_get_info_by_fd(fd, &info, &len), "info: arrays: %s", strerror(errno));
	/* Sorted by id, each with its address and cookie */
	for (i = 0; i < NFUNC; i++) {
		int f, k = 0;

		for (f = 1; f <= NFUNC; f++)
			if (fn_id[f] == ids[i])
				k = f;
		check(k && (!i || ids[i] > ids[i - 1]), "info: id %u (%d) out of order", ids[i], i);
		if (!k)
			continue;
		check(addrs[i] == fn_ip[k] && lc[i] == cookies[k],
		      "info: bpf_fentry_test%d: address %llx cookie %llu, want %llx %llu",
		      k, (unsigned long long)addrs[i], (unsigned long long)lc[i],
		      (unsigned long long)fn_ip[k], (unsigned long long)cookies[k]);
	}
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	fdinfo = slurp(path);
	check(strstr(fdinfo, "link_type:\ttracing_multi") && strstr(fdinfo, "cnt:\t9\n") &&
	      strstr(fdinfo, "\t 503\t bpf_fentry_test3\n"),
	      "info: fdinfo:\n%s", fdinfo);
	free(fdinfo);
	info_bpftool(info.id, cookies);
	bpf_link__destroy(l);
}

/* The README's example: one program on every system call, by pattern */
static void test_syscalls(void)
{
	struct bpf_link_info info = {};
	__u32 len = sizeof(info);
	struct snap before = take_snap();
	struct bpf_link *l;
	int i;

	skel->bss->mass_hits = 0;
	l = bpf_program__attach_tracing_multi(skel->progs.multi_mass, SYSCALLS, NULL);
	check(l, "syscalls: attach %s: %s", SYSCALLS, strerror(errno));
	if (!l)
		return;
	/* dup and close are in BTF (the SYSCALL_DEFINE0 ones are not) */
	for (i = 0; i < 100; i++)
		close(dup(0));
	bpf_link_get_info_by_fd(bpf_link__fd(l), &info, &len);
	printf("syscalls: %u functions, %llu calls\n", info.tracing_multi.count,
	       (unsigned long long)skel->bss->mass_hits);
	check(info.tracing_multi.count > 100 && skel->bss->mass_hits >= 200,
	      "syscalls: %u functions, %llu calls", info.tracing_multi.count,
	      (unsigned long long)skel->bss->mass_hits);
	bpf_link__destroy(l);
	check_snap(&before, "syscalls");
	free_snap(&before);
}

/* livepatch-sample, which replaces cmdline_proc_show() */
#define LP	"/sys/kernel/livepatch/livepatch_sample"
#define LP_TEXT	"this has been live patched"

static bool lp_settled(void)
{
	int i;

	for (i = 0; i < 600; i++) {
		char *t = slurp(LP "/transition");
		bool busy = t[0] == '1';

		free(t);
		if (!busy)
			return true;
		usleep(100000);
	}
	return false;
}

static bool lp_on(void)
{
	return !system("modprobe livepatch-sample") && lp_settled();
}

static bool lp_off(void)
{
	FILE *f = fopen(LP "/enabled", "w");
	int i;

	if (!f)
		return false;
	fputs("0", f);
	fclose(f);
	if (!lp_settled())
		return false;
	for (i = 0; i < 300 && !access(LP, F_OK); i++)
		usleep(100000);
	return !system("rmmod livepatch-sample");
}

#define LP_READS	20

/* Read /proc/cmdline LP_READS times: the livepatch's text or not */
static void lp_reads(const char *how, bool patched)
{
	int i;

	for (i = 0; i < LP_READS; i++) {
		char *t = slurp("/proc/cmdline");
		bool is = !strncmp(t, LP_TEXT, strlen(LP_TEXT));

		check(is == patched, "%s: /proc/cmdline is '%.40s', want %s", how, t,
		      patched ? "the livepatch's" : "the original");
		free(t);
	}
}

/*
 * A multi link (fentry and fexit) on cmdline_proc_show() and
 * bpf_fentry_test1, and livepatch-sample on cmdline_proc_show(), in every
 * order of attach and release: the livepatch takes effect and the
 * programs see every read (6.12 shares the site through
 * BPF_TRAMP_F_SHARE_IPMODIFY; the link attached after the livepatch takes
 * the batch's -EAGAIN retry).
 */
static void test_livepatch(void)
{
	/* M: link, m: release; L: livepatch on, l: off */
	static const char *const order[] = { "MLlm", "MLml", "LMml", "LMlm" };
	__u32 id = btf__find_by_name_kind(vmlinux, "cmdline_proc_show", BTF_KIND_FUNC);
	__u64 ip = ksym("cmdline_proc_show");
	struct snap before;
	int o;

	if (access("/sys/kernel/livepatch", F_OK) || system("modinfo livepatch-sample >/dev/null 2>&1")) {
		printf("SKIP: livepatch: no livepatch-sample\n");
		return;
	}
	check((int)id > 0 && ip, "livepatch: cmdline_proc_show: no BTF id or address");
	if (failed)
		return;
	before = take_snap();
	for (o = 0; o < 4; o++) {
		struct bpf_link *m[2] = {};
		bool lp = false;
		const char *step;
		char how[32];

		for (step = order[o]; *step; step++) {
			__u32 ids[2] = { id, fn_id[1] };
			LIBBPF_OPTS(bpf_tracing_multi_opts, opts, .ids = ids, .cnt = 2);
			struct seen sn = {};

			snprintf(how, sizeof(how), "livepatch %s after %c", order[o], *step);
			switch (*step) {
			case 'M':
				m[0] = bpf_program__attach_tracing_multi(skel->progs.multi_entry, NULL, &opts);
				m[1] = bpf_program__attach_tracing_multi(skel->progs.multi_exit, NULL, &opts);
				check(m[0] && m[1], "%s: attach: %s", how, strerror(errno));
				break;
			case 'm':
				bpf_link__destroy(m[0]);
				bpf_link__destroy(m[1]);
				m[0] = m[1] = NULL;
				break;
			case 'L':
				lp = lp_on();
				check(lp, "%s: livepatch-sample did not load", how);
				break;
			case 'l':
				check(lp_off(), "%s: livepatch-sample did not go away", how);
				lp = false;
				break;
			}
			clear_map(skel->maps.seen);
			lp_reads(how, lp);
			bpf_map_lookup_elem(bpf_map__fd(skel->maps.seen), &ip, &sn);
			check(sn.entries == (m[0] ? LP_READS : 0) && sn.exits == sn.entries,
			      "%s: %llu entries, %llu exits of cmdline_proc_show, want %d", how,
			      sn.entries, sn.exits, m[0] ? LP_READS : 0);
			run();
			verify(how, m[0] ? 1U << 1 : 0, 1, NULL, true);
			if (failed)
				break;
		}
		if (lp)
			lp_off();
		bpf_link__destroy(m[0]);
		bpf_link__destroy(m[1]);
		check_snap(&before, order[o]);
		if (failed)
			break;
	}
	free_snap(&before);
}

struct mod_call {
	__u64 entries, exits, nargs, ret;
	__u64 args[12];
};

static struct mod_call mod_call_of(struct tmulti_mod_bpf *m, const char *name)
{
	struct mod_call c = {};
	__u64 ip = ksym(name);

	check(ip, "module: %s: no address", name);
	if (ip && bpf_map_lookup_elem(bpf_map__fd(m->maps.calls), &ip, &c))
		check(0, "module: %s never seen", name);
	return c;
}

static void mod_expect(struct tmulti_mod_bpf *m, const char *name, int nargs,
		       const __u64 *args, __u64 ret)
{
	struct mod_call c = mod_call_of(m, name);
	int i;

	check(c.entries == 1 && c.exits == 1, "module: %s: %llu entries, %llu exits, want 1",
	      name, c.entries, c.exits);
	check(c.nargs == (__u64)nargs, "module: %s: %llu arguments, want %d", name,
	      c.nargs, nargs);
	for (i = 0; i < nargs && i < 12; i++)
		check(c.args[i] == args[i], "module: %s: argument %d is %llx, want %llx",
		      name, i, c.args[i], args[i]);
	check(c.ret == ret, "module: %s: returned %llx, want %llx", name, c.ret, ret);
}

static bool mod_run(void)
{
	FILE *f = fopen("/sys/kernel/debug/tmulti_mod/run", "w");
	bool ok = f && fputs("1", f) >= 0;

	if (f && fclose(f))
		ok = false;
	return ok;
}

/*
 * The module's functions whose arguments fit in MAX_ARG_REGS registers,
 * by their BTF ids (the pattern takes them all)
 */
static int mod_attach_ids(struct tmulti_mod_bpf *m)
{
	static const char *const more[] = { "tmm_struct", "tmm_ptr" };
	struct btf *b = btf__load_module_btf("tmulti_mod", vmlinux);
	__u32 ids[MAX_ARG_REGS + 3];
	char name[16];
	int i, id, n = 0, err;

	if (!b)
		return -errno;
	for (i = 0; i <= MAX_ARG_REGS + 2; i++) {
		if (i <= MAX_ARG_REGS)
			snprintf(name, sizeof(name), "tmm_args%d", i);
		else
			snprintf(name, sizeof(name), "%s", more[i - MAX_ARG_REGS - 1]);
		id = btf__find_by_name_kind(b, name, BTF_KIND_FUNC);
		if (id > 0)
			ids[n++] = id;
	}
	btf__free(b);
	{
		LIBBPF_OPTS(bpf_tracing_multi_opts, o, .ids = ids, .cnt = n);

		m->links.mod_entry = bpf_program__attach_tracing_multi(m->progs.mod_entry,
								       NULL, &o);
		err = -errno;
		if (m->links.mod_entry) {
			m->links.mod_exit = bpf_program__attach_tracing_multi(m->progs.mod_exit,
									      NULL, &o);
			err = m->links.mod_exit ? 0 : -errno;
		}
	}
	return n == MAX_ARG_REGS + 3 ? err : -ENOENT;
}

/*
 * A link on a module's functions (tests/bpf-multi/mod): 0 to 12 arguments,
 * a 16-byte struct between scalars, a pointer; every argument, the count
 * and the return value of each call.  The module cannot go while the link
 * holds it.
 */
static void test_module(void)
{
	static const __u64 s16[] = { 0x10, 0x1111, 0x2222, 0x20 };
	struct tmulti_mod_bpf *m;
	struct snap before;
	int n, i;

	if (system("modprobe tmulti_mod")) {
		check(0, "module: modprobe tmulti_mod failed");
		return;
	}
	before = take_snap();
	m = tmulti_mod_bpf__open_and_load();
	check(m, "module: open and load: %s", strerror(errno));
	if (!m)
		goto out;
	if (MAX_ARG_REGS < 12) {
		/* tmm_args9..12 need the stack: the link by pattern fails */
		errno = 0;
		check(tmulti_mod_bpf__attach(m) && errno == EINVAL,
		      "module: attach by pattern: %s, want EINVAL (tmm_args%d)",
		      strerror(errno), MAX_ARG_REGS + 1);
		tmulti_mod_bpf__detach(m);
		check_snap(&before, "module: the refused pattern");
		check(!system("dmesg | grep -q 'tracing_multi: tmm_args.*trampoline'"),
		      "module: no log line names the refused function");
		check(!mod_attach_ids(m), "module: attach by ids: %s", strerror(errno));
	} else {
		check(!tmulti_mod_bpf__attach(m), "module: attach by pattern: %s",
		      strerror(errno));
	}
	check(mod_run(), "module: run: %s", strerror(errno));
	for (n = 0; n <= 12; n++) {
		__u64 args[12], sum = n, ip;
		struct mod_call c;
		char name[16];

		if (n > MAX_ARG_REGS) {
			snprintf(name, sizeof(name), "tmm_args%d", n);
			ip = ksym(name);
			check(ip && bpf_map_lookup_elem(bpf_map__fd(m->maps.calls), &ip, &c),
			      "module: %s seen, not attachable here", name);
			continue;
		}
		for (i = 0; i < n; i++) {
			args[i] = (__u64)n * 16 + i + 1;
			sum += args[i];
		}
		snprintf(name, sizeof(name), "tmm_args%d", n);
		mod_expect(m, name, n, args, sum);
	}
	mod_expect(m, "tmm_struct", 4, s16, 0x10 + 0x1111 + 0x2222 + 0x20);
	{
		struct mod_call c = mod_call_of(m, "tmm_ptr");

		check(c.entries == 1 && c.nargs == 1 && c.ret == 0x3333,
		      "module: tmm_ptr: %llu entries, %llu arguments, returned %llx",
		      c.entries, c.nargs, c.ret);
	}
	check(system("rmmod tmulti_mod 2>/dev/null"), "module: rmmod while the link holds it");
	tmulti_mod_bpf__destroy(m);
	check_snap(&before, "module");
out:
	/*
	 * The link puts the module when it is freed, after an RCU grace
	 * period (as a single program puts its target's module when the
	 * program is freed): give it 5 s.
	 */
	for (i = 0; i < 50 && system("rmmod tmulti_mod 2>/dev/null"); i++)
		usleep(100000);
	check(i < 50, "module: rmmod after the link went");
	free_snap(&before);
}

#define FAIL_NTH	"/proc/thread-self/fail-nth"

/* Opened once: an open() after a close would meet the count left */
static int fail_nth_fd = -1;

static int fail_nth_write(int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%d", n);

	return pwrite(fail_nth_fd, buf, len, 0) == len ? 0 : -errno;
}

/* What is left of the count written; 0 once a fault was injected */
static int fail_nth_read(void)
{
	char buf[16] = "";

	return pread(fail_nth_fd, buf, sizeof(buf) - 1, 0) > 0 ? atoi(buf) : -EIO;
}

/* No line of enabled_functions or direct_functions names bpf_fentry_test2..9 */
static void gone_2_9(const char *how)
{
	struct snap now = take_snap();
	char name[32];
	int i;

	for (i = 2; i <= NFUNC; i++) {
		snprintf(name, sizeof(name), "bpf_fentry_test%d", i);
		check(!strstr(now.enabled, name) && !strstr(now.direct, name),
		      "%s: %s still attached", how, name);
	}
	free_snap(&now);
}

/*
 * The mirror of test_nomem()'s release sweep: the single link's release
 * beside the multi link on bpf_fentry_test1..9, with the n-th allocation
 * failing.  bpf_fentry_test1 is left with the multi program only and
 * moves to the shared image of its layout, which the release allocates.
 * The release works, or (a fault) bpf_fentry_test1's image keeps
 * calling the single program until its next update; syscall.c warns
 * then, announced.  The multi link sees every call throughout.
 */
static void nomem_single_release(const __u32 *ids)
{
	static const char begin[] = "expect-warn-begin kernel/bpf/syscall.c";
	static const char end[] = "expect-warn-end";
	int sfd = bpf_program__fd(skel->progs.single_entry);
	int mfd = bpf_program__fd(skel->progs.multi_entry);
	int n, left, lfd, slfd, kmsg, releases = 0, faults = 0;
	struct snap before = take_snap();

	kmsg = open("/dev/kmsg", O_WRONLY);
	check(kmsg >= 0, "nomem: single release: /dev/kmsg: %s", strerror(errno));
	lfd = raw_link(mfd, 0, 0, ids, NULL, NFUNC);
	check(lfd >= 0, "nomem: single release: multi link: %s", strerror(-lfd));
	for (n = 1, left = 0; kmsg >= 0 && lfd >= 0 && n < 10000 && !left &&
	     !failed; n++) {
		char how[48];

		snprintf(how, sizeof(how), "nomem: single release %d", n);
		slfd = bpf_link_create(sfd, 0, BPF_TRACE_FENTRY, NULL);
		check(slfd >= 0, "%s: attach: %s", how, strerror(errno));
		if (slfd < 0)
			break;
		if (write(kmsg, begin, strlen(begin)) < 0 || fail_nth_write(n)) {
			check(0, "%s: kmsg or %s: %s", how, FAIL_NTH, strerror(errno));
			close(slfd);
			break;
		}
		/* The close is the only system call until the read */
		close(slfd);
		left = fail_nth_read();
		fail_nth_write(0);
		check(write(kmsg, end, strlen(end)) > 0, "%s: kmsg", how);
		releases++;
		faults += !left;
		clear_map(skel->maps.seen);
		skel->bss->single_hits = 0;
		run();
		verify(how, ALL_FUNCS, 1, NULL, false);
		check(skel->bss->single_hits <= !left,
		      "%s: the released single link saw %llu calls", how,
		      (unsigned long long)skel->bss->single_hits);
		if (left)
			check_image(how, "bpf_fentry_test1", true);
	}
	printf("nomem: %d single releases (%d faults)\n", releases, faults);
	check(faults > 0, "nomem: single release: no fault injected");
	if (lfd >= 0)
		close(lfd);
	if (kmsg >= 0)
		close(kmsg);
	gone_2_9("nomem: single release");
	check_snap(&before, "nomem: single release");
	free_snap(&before);
}

/*
 * The n-th allocation of the link's attach failing, for every n that
 * injects a fault, then the same for its release: a multi link on
 * bpf_fentry_test1..9, of which bpf_fentry_test1 has a single fentry link
 * already (its trampoline gets a new image: the mod batch; the others
 * their first: the add batch).  An attach fails with ENOMEM and changes
 * nothing, or works; a release always works: the link, its program's
 * calls and its sites are gone, the single link still sees its calls.
 */
static void test_nomem(void)
{
	int fd = bpf_program__fd(skel->progs.multi_entry);
	int n, left, lfd, attaches = 0, afaults = 0, releases = 0, rfaults = 0;
	struct bpf_link *single;
	struct snap start, before;
	__u32 ids[NFUNC];
	int i;

	fail_nth_fd = open(FAIL_NTH, O_RDWR);
	if (fail_nth_fd < 0) {
		printf("SKIP: nomem: no %s (CONFIG_FAULT_INJECTION)\n", FAIL_NTH);
		return;
	}
	for (i = 1; i <= NFUNC; i++)
		ids[i - 1] = fn_id[i];
	start = take_snap();
	single = bpf_program__attach(skel->progs.single_entry);
	check(single, "nomem: single fentry link: %s", strerror(errno));
	if (!single)
		return;
	before = take_snap();
	for (n = 1, left = 0; n < 10000 && !left && !failed; n++) {
		char how[32];

		snprintf(how, sizeof(how), "nomem: attach %d", n);
		if (fail_nth_write(n)) {
			check(0, "%s: %s: %s", how, FAIL_NTH, strerror(errno));
			break;
		}
		/* The link's creation is the only system call until the read */
		lfd = raw_link(fd, 0, 0, ids, NULL, NFUNC);
		left = fail_nth_read();
		fail_nth_write(0);
		attaches++;
		afaults += !left;
		clear_map(skel->maps.seen);
		skel->bss->single_hits = 0;
		run();
		check(skel->bss->single_hits == 1, "%s: the single link saw %llu calls",
		      how, (unsigned long long)skel->bss->single_hits);
		if (lfd < 0) {
			check(lfd == -ENOMEM, "%s: %s, want ENOMEM", how, strerror(-lfd));
			verify(how, 0, 0, NULL, false);
			check_snap(&before, how);
			continue;
		}
		verify(how, ALL_FUNCS, 1, NULL, false);
		close(lfd);
		check_snap(&before, how);
	}
	check(left, "nomem: attach: no end to the faults after %d", n);
	for (n = 1, left = 0; n < 10000 && !left && !failed; n++) {
		char how[32];

		snprintf(how, sizeof(how), "nomem: release %d", n);
		lfd = raw_link(fd, 0, 0, ids, NULL, NFUNC);
		check(lfd >= 0, "%s: attach: %s", how, strerror(-lfd));
		if (lfd < 0)
			break;
		if (fail_nth_write(n)) {
			check(0, "%s: %s: %s", how, FAIL_NTH, strerror(errno));
			close(lfd);
			break;
		}
		/* The close is the only system call until the read */
		close(lfd);
		left = fail_nth_read();
		fail_nth_write(0);
		releases++;
		rfaults += !left;
		clear_map(skel->maps.seen);
		skel->bss->single_hits = 0;
		run();
		check(skel->bss->single_hits == 1, "%s: the single link saw %llu calls",
		      how, (unsigned long long)skel->bss->single_hits);
		if (left) {
			verify(how, 0, 0, NULL, false);
			check_snap(&before, how);
			continue;
		}
		/*
		 * bpf_fentry_test1's new image (without the program) may have
		 * been the allocation that failed: the image it has keeps the
		 * program (and calls it) until its next update.  Every other
		 * function is gone.
		 */
		check(seen_of(1).entries <= 1, "%s: bpf_fentry_test1: %llu calls", how,
		      seen_of(1).entries);
		for (i = 2; i <= NFUNC; i++)
			check(!seen_of(i).entries, "%s: bpf_fentry_test%d: %llu calls", how, i,
			      seen_of(i).entries);
		gone_2_9(how);
	}
	printf("nomem: %d attaches (%d faults injected), %d releases (%d faults)\n",
	       attaches, afaults, releases, rfaults);
	check(afaults > 0 && rfaults > 0, "nomem: no fault injected");
	bpf_link__destroy(single);
	nomem_single_release(ids);
	check_snap(&start, "nomem: at the end");
	free_snap(&start);
	free_snap(&before);
	close(fail_nth_fd);
}

/* ------------------------------------------------------------------ */
/* Every attachable function                                          */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Word @col of each line of a file, sorted, duplicates kept or not */
static char **words(const char *path, int col, size_t *pn, bool keep_dups)
{
	char line[512], *w[4];
	size_t n = 0, cap = 0;
	char **v = NULL;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		int k = 0;
		char *save = NULL, *t = strtok_r(line, " \t\n", &save);

		while (t && k < 4) {
			w[k++] = t;
			t = strtok_r(NULL, " \t\n", &save);
		}
		/* no module's functions ("name [mod]") */
		if (k <= col || (k > col + 1 && w[col + 1][0] == '['))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			v = realloc(v, cap * sizeof(*v));
		}
		v[n++] = strdup(w[col]);
	}
	fclose(f);
	qsort(v, n, sizeof(*v), cmp_str);
	if (!keep_dups) {
		size_t i, j = 0;

		for (i = 0; i < n; i++)
			if (!j || strcmp(v[j - 1], v[i]))
				v[j++] = v[i];
		n = j;
	}
	*pn = n;
	return v;
}

static bool in(char **v, size_t n, const char *s)
{
	return bsearch(&s, v, n, sizeof(*v), cmp_str);
}

/* Named once in @v (sorted, duplicates kept) */
static bool unique(char **v, size_t n, const char *s)
{
	char **p = bsearch(&s, v, n, sizeof(*v), cmp_str);

	return p && (p == v || strcmp(p[-1], s)) && (p + 1 == v + n || strcmp(p[1], s));
}

/* An argument's or the return's size as btf_distill_func_proto() takes it */
static int type_size(__u32 id, bool *is_struct)
{
	const struct btf_type *t = btf__type_by_id(vmlinux, id);

	*is_struct = false;
	if (!id)
		return 0;
	while (t && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(vmlinux, t->type);
	if (!t)
		return -1;
	if (btf_is_ptr(t))
		return 8;
	*is_struct = btf_is_struct(t);
	if (btf_is_int(t) || btf_is_any_enum(t) || *is_struct)
		return t->size;
	return -1;
}

/* The first time @s is asked of @v (sorted, duplicates kept) */
static bool first_time(char **v, bool *taken, size_t n, const char *s)
{
	char **p = bsearch(&s, v, n, sizeof(*v), cmp_str);

	if (!p)
		return false;
	while (p > v && !strcmp(p[-1], s))
		p--;
	if (taken[p - v])
		return false;
	taken[p - v] = true;
	return true;
}

/* What a trampoline can take: the kernel's btf_distill_func_proto() */
static bool traceable(const struct btf_type *t)
{
	const struct btf_param *p;
	int i, n, size, regs;
	bool st;

	t = btf__type_by_id(vmlinux, t->type);
	if (!t || !btf_is_func_proto(t))
		return false;
	if (type_size(t->type, &st) < 0 || st)
		return false;
	n = btf_vlen(t);
	if (n > 12)
		return false;
	for (i = 0, regs = 0, p = btf_params(t); i < n; i++, p++) {
		size = type_size(p->type, &st);
		if (size <= 0 || size > 16)
			return false;
		regs += (size + 7) / 8;
	}
	return regs <= MAX_ARG_REGS;
}

/*
 * Not attached by the benchmark and the test: what the kernel refuses
 * (its deny list) and what would trace the idle loop with RCU not
 * watching (the kprobe_multi selftest's list).
 */
static bool skipped(const char *name)
{
	static const char *const deny[] = {
		"migrate_disable", "migrate_enable", "rcu_read_unlock_strict",
		"preempt_count_add", "preempt_count_sub", "__rcu_read_lock",
		"__rcu_read_unlock", "arch_cpu_idle", "default_idle",
		"bpf_dispatcher_xdp_func", "bpf_multi_func",
	};
	size_t i;

	if (!strncmp(name, "rcu_", 4) || !strncmp(name, "__ftrace_invalid_address__", 26))
		return true;
	for (i = 0; i < sizeof(deny) / sizeof(deny[0]); i++)
		if (!strcmp(name, deny[i]))
			return true;
	return false;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * Every attachable function: in available_filter_functions and BTF, named
 * once in kallsyms, traceable, not skipped; one BTF id per name.  Their ids
 * and names; the count.
 */
static size_t collect_all(__u32 **pids, const char ***pnames)
{
	size_t nav, nks, nbn = 0, n = 0, cap = 0;
	char **avail = words("/sys/kernel/tracing/available_filter_functions", 0, &nav, false);
	char **ks = words("/proc/kallsyms", 2, &nks, true);
	__u32 *ids = NULL, cnt = btf__type_cnt(vmlinux), id;
	char **bn = calloc(cnt, sizeof(*bn));
	bool *taken = calloc(cnt, sizeof(*taken));
	const char **names = NULL;

	check(avail && ks && bn && taken, "available_filter_functions or kallsyms: %s",
	      strerror(errno));
	if (!avail || !ks || !bn || !taken)
		return 0;
	/* Two BTF ids of one name are one function: attach the first */
	for (id = 1; id < cnt; id++) {
		const struct btf_type *t = btf__type_by_id(vmlinux, id);

		if (btf_is_func(t))
			bn[nbn++] = (char *)btf__name_by_offset(vmlinux, t->name_off);
	}
	qsort(bn, nbn, sizeof(*bn), cmp_str);
	for (id = 1; id < cnt; id++) {
		const struct btf_type *t = btf__type_by_id(vmlinux, id);
		const char *name;

		if (!btf_is_func(t))
			continue;
		name = btf__name_by_offset(vmlinux, t->name_off);
		if (!in(avail, nav, name) || !unique(ks, nks, name) ||
		    !first_time(bn, taken, nbn, name) ||
		    !traceable(t) || skipped(name))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			ids = realloc(ids, cap * sizeof(*ids));
			names = realloc(names, cap * sizeof(*names));
		}
		names[n] = name;
		ids[n++] = id;
	}
	printf("all: %zu functions (%zu in available_filter_functions)\n", n, nav);
	free(bn);
	free(taken);
	*pids = ids;
	*pnames = names;
	return n;
}

static void test_all(void)
{
	struct snap before = take_snap();
	const char **names;
	struct bpf_link *l;
	double t0, t1, t2;
	__u32 *ids;
	size_t i, n = collect_all(&ids, &names);

	if (!n)
		return;
	skel->bss->mass_hits = 0;
	t0 = now_ms();
	{
		LIBBPF_OPTS(bpf_tracing_multi_opts, o, .ids = ids, .cnt = n);

		l = bpf_program__attach_tracing_multi(skel->progs.multi_mass, NULL, &o);
	}
	t1 = now_ms();
	check(l, "all: attach %zu functions: %s", n, strerror(errno));
	/* A workload: the test run's functions, some syscalls */
	for (i = 0; l && i < 100; i++) {
		free(slurp("/proc/self/status"));
		run();
	}
	t2 = now_ms();
	bpf_link__destroy(l);
	printf("all: attach %.0f ms, detach %.0f ms, %llu calls\n", t1 - t0,
	       now_ms() - t2, (unsigned long long)skel->bss->mass_hits);
	check(!l || skel->bss->mass_hits > 100 * NFUNC, "all: %llu calls seen",
	      (unsigned long long)skel->bss->mass_hits);
	check_snap(&before, "all");
	free_snap(&before);
	free(ids);
	free(names);
}

static long mem_available_kb(void)
{
	char *m = slurp("/proc/meminfo"), *p = strstr(m, "MemAvailable:");
	long kb = p ? strtol(p + 13, NULL, 10) : 0;

	free(m);
	return kb;
}

#define BENCH_SINGLE	500

#define BENCH_CALLS	20000
#define BENCH_ROUNDS	5

/* ns per getpid(), over BENCH_CALLS calls: the best of BENCH_ROUNDS */
static double getpid_ns(void)
{
	double best = 0;
	int r;

	for (r = 0; r < BENCH_ROUNDS; r++) {
		double t0 = now_ms(), t;
		long i;

		for (i = 0; i < BENCH_CALLS; i++)
			syscall(SYS_getpid);
		t = (now_ms() - t0) * 1e6 / BENCH_CALLS;
		if (!r || t < best)
			best = t;
	}
	return best;
}

/* ns per getpid() with @l attached, whose program must see every call */
static double bench_call(struct tcall_bpf *s, struct bpf_link *l, const char *what)
{
	__u64 h0 = s->bss->hits, want = (__u64)BENCH_CALLS * BENCH_ROUNDS;
	double ns;

	check(l, "bench: %s: attach: %s", what, strerror(errno));
	if (!l)
		return 0;
	ns = getpid_ns();
	check(s->bss->hits - h0 == want, "bench: %s: %llu calls seen, want %llu", what,
	      (unsigned long long)(s->bss->hits - h0), (unsigned long long)want);
	bpf_link__destroy(l);
	return ns;
}

/*
 * The cost of one call of GETPID_FN under each kind of program, doing
 * the same work: "KEY ns" over the untraced call, which is measured
 * before and after (the best of both).  Return: the untraced ns.
 */
/* fentry.multi and fexit.multi on getpid()'s function: @ns[0] and [1] */
static void bench_multi_calls(struct tcall_bpf *s, double *ns, const char *how)
{
	char what[64];

	snprintf(what, sizeof(what), "fentry.multi%s", how);
	ns[0] = bench_call(s, bpf_program__attach_tracing_multi(s->progs.call_mentry,
								GETPID_FN, NULL), what);
	snprintf(what, sizeof(what), "fexit.multi%s", how);
	ns[1] = bench_call(s, bpf_program__attach_tracing_multi(s->progs.call_mexit,
								GETPID_FN, NULL), what);
}

static double bench_calls(void)
{
	static const char *const keys[] = {
		"fentry_call_ns", "fexit_call_ns", "tmulti_call_ns",
		"tmulti_fexit_call_ns", "kmulti_call_ns",
		"tmulti_perfunc_call_ns", "tmulti_perfunc_fexit_call_ns",
	};
	double ns[7] = {}, untraced, after;
	struct tcall_bpf *s = tcall_bpf__open();
	int i, err = -errno;

	if (s) {
		err = bpf_program__set_attach_target(s->progs.call_fentry, 0, GETPID_FN);
		if (!err)
			err = bpf_program__set_attach_target(s->progs.call_fexit, 0,
							     GETPID_FN);
		if (!err)
			err = tcall_bpf__load(s);
	}
	check(!err, "bench: tcall: open and load: %s", strerror(-err));
	if (err) {
		tcall_bpf__destroy(s);
		return 0;
	}
	s->bss->tgid = getpid();
	getpid_ns();	/* warm up */
	untraced = getpid_ns();
	ns[0] = bench_call(s, bpf_program__attach(s->progs.call_fentry), "fentry");
	ns[1] = bench_call(s, bpf_program__attach(s->progs.call_fexit), "fexit");
	bench_multi_calls(s, &ns[2], "");
	{
		/* None on arm64's 6.12 (FPROBE needs DYNAMIC_FTRACE_WITH_REGS) */
		struct bpf_link *k = bpf_program__attach_kprobe_multi_opts(s->progs.call_kmulti,
									   GETPID_FN, NULL);

		if (k || errno != EOPNOTSUPP)
			ns[4] = bench_call(s, k, "kprobe.multi");
		else
			printf("# kprobe.multi: %s\n", strerror(errno));
	}
	if (access(OWN_IMAGES, F_OK) == 0) {
		/* The peer: getpid()'s function on an image of its own */
		images_own(true);
		bench_multi_calls(s, &ns[5], ", own image");
		images_own(false);
	}
	after = getpid_ns();
	if (after < untraced)
		untraced = after;
	printf("call_fn %s\n", GETPID_FN);
	printf("untraced_call_ns %.1f\n", untraced);
	for (i = 0; i < 7; i++)
		if (ns[i])
			printf("%s %.1f\n", keys[i], ns[i] - untraced);
	tcall_bpf__destroy(s);
	return untraced;
}

/*
 * With @l on every function: ns per traced call of the functions a
 * getpid() runs through (@hits counts their program's runs), over the
 * untraced getpid().
 */
static void bench_all_call(const char *key, __u64 *hits, double untraced)
{
	__u64 h0 = *hits;
	double ns = getpid_ns(), per;

	per = (double)(*hits - h0) / (BENCH_CALLS * BENCH_ROUNDS);
	check(per >= 1, "bench: %s: %.2f traced calls per getpid()", key, per);
	if (per < 1 || !untraced)
		return;
	printf("%s_funcs_per_getpid %.1f\n", key, per);
	printf("%s_call_ns %.1f\n", key, (ns - untraced) / per);
}

/* One multi link on the @n functions @ids: the "@key_*" figures */
static void bench_link(const char *key, __u32 *ids, size_t n, double untraced)
{
	LIBBPF_OPTS(bpf_tracing_multi_opts, o, .ids = ids, .cnt = n);
	struct bpf_link *l;
	char all[64];
	double t0, t1;
	long kb0, kb1;

	kb0 = mem_available_kb();
	t0 = now_ms();
	l = bpf_program__attach_tracing_multi(skel->progs.multi_mass, NULL, &o);
	t1 = now_ms();
	kb1 = mem_available_kb();
	check(l, "bench: %s on %zu functions: %s", key, n, strerror(errno));
	printf("%s_attach_ms %.1f\n", key, t1 - t0);
	printf("%s_bytes_per_func %.0f\n", key, (kb0 - kb1) * 1024.0 / n);
	snprintf(all, sizeof(all), "%s_all", key);
	if (l)
		bench_all_call(all, &skel->bss->mass_hits, untraced);
	t0 = now_ms();
	bpf_link__destroy(l);
	printf("%s_detach_ms %.1f\n", key, now_ms() - t0);
}

/*
 * make bench: the same functions (collect_all()) through a tracing_multi
 * link, kprobe_multi, and single fentry links on BENCH_SINGLE of them;
 * "key value" lines.  The names go to @names_file, for the raw batch
 * the guest times with the test module.
 */
static void bench(const char *names_file)
{
	static int fds[BENCH_SINGLE];
	const char **names;
	struct bpf_link *l;
	double t0, t1;
	__u32 *ids;
	size_t i, n = collect_all(&ids, &names), ns;
	double untraced = bench_calls();
	FILE *f;

	if (!n)
		return;
	f = fopen(names_file, "w");
	for (i = 0; f && i < n; i++)
		fprintf(f, "%s\n", names[i]);
	if (f)
		fclose(f);
	printf("tmulti_n %zu\n", n);

	bench_link("tmulti", ids, n, untraced);
	if (access(OWN_IMAGES, F_OK) == 0) {
		/* The peer: every function on an image of its own */
		images_own(true);
		bench_link("tmulti_perfunc", ids, n, untraced);
		images_own(false);
	}

	{
		LIBBPF_OPTS(bpf_kprobe_multi_opts, o, .syms = names, .cnt = n);

		t0 = now_ms();
		l = bpf_program__attach_kprobe_multi_opts(skel->progs.kmulti_mass, NULL, &o);
		t1 = now_ms();
	}
	if (l) {
		printf("kmulti_attach_ms %.1f\n", t1 - t0);
		bench_all_call("kmulti_all", &skel->bss->mass_hits, untraced);
		t0 = now_ms();
		bpf_link__destroy(l);
		printf("kmulti_detach_ms %.1f\n", now_ms() - t0);
	} else {
		printf("# kprobe_multi: %s\n", strerror(errno));
	}

	/* One fentry link each, the programs loaded first (not timed) */
	ns = n < BENCH_SINGLE ? n : BENCH_SINGLE;
	for (i = 0; i < ns; i++) {
		fds[i] = filler_prog(ids[i * (n / ns)], BPF_TRACE_FENTRY);
		check(fds[i] >= 0, "bench: fentry program for %s: %s",
		      names[i * (n / ns)], strerror(-fds[i]));
		if (fds[i] < 0)
			goto out;
	}
	t0 = now_ms();
	for (i = 0; i < ns; i++) {
		int lfd = bpf_link_create(fds[i], 0, BPF_TRACE_FENTRY, NULL);

		check(lfd >= 0, "bench: fentry link on %s: %s", names[i * (n / ns)],
		      strerror(errno));
		close(fds[i]);
		fds[i] = lfd;
	}
	t1 = now_ms();
	printf("fentry_single_attach_ms_per_func %.2f\n", (t1 - t0) / ns);
	t0 = now_ms();
	for (i = 0; i < ns; i++)
		close(fds[i]);
	printf("fentry_single_detach_ms_per_func %.2f\n", (now_ms() - t0) / ns);
	printf("fentry_single_n %zu\n", ns);
out:
	free(ids);
	free(names);
}

int main(int argc, char **argv)
{
	static const char *const dflt[] = {
		"basic", "errors", "mix", "others", "intersect", "info", "syscalls",
		"livepatch", "module",
	};
	int i, ncase = argc > 1 ? argc - 1 : 9;

	setvbuf(stdout, NULL, _IOLBF, 0);
	skel = tmulti_bpf__open_and_load();
	vmlinux = btf__load_vmlinux_btf();
	if (!skel || !vmlinux) {
		printf("FAIL: open and load: %s\n", strerror(errno));
		return 1;
	}
	bpf_program__set_autoattach(skel->progs.single_entry, false);
	images_init();
	for (i = 1; i <= NFUNC; i++) {
		char name[32];
		int id;

		snprintf(name, sizeof(name), "bpf_fentry_test%d", i);
		id = btf__find_by_name_kind(vmlinux, name, BTF_KIND_FUNC);
		fn_ip[i] = ksym(name);
		check(id > 0 && fn_ip[i], "%s: no BTF id or no address", name);
		fn_id[i] = id;
	}
	for (i = 0; !failed && i < ncase; i++) {
		const char *c = argc > 1 ? argv[i + 1] : dflt[i];
		int before = failed;

		if (!strcmp(c, "basic"))
			test_basic();
		else if (!strcmp(c, "errors"))
			test_errors();
		else if (!strcmp(c, "mix"))
			test_mix();
		else if (!strcmp(c, "others"))
			test_others();
		else if (!strcmp(c, "intersect"))
			test_intersect();
		else if (!strcmp(c, "info"))
			test_info();
		else if (!strcmp(c, "syscalls"))
			test_syscalls();
		else if (!strcmp(c, "livepatch"))
			test_livepatch();
		else if (!strcmp(c, "module"))
			test_module();
		else if (!strcmp(c, "nomem"))
			test_nomem();
		else if (!strcmp(c, "all"))
			test_all();
		else if (!strcmp(c, "calls"))
			bench_calls();
		else if (!strcmp(c, "own") || !strcmp(c, "shared"))
			images_own(c[0] == 'o');
		else if (!strcmp(c, "bench")) {
			const char *f = "/tmp/tmulti-funcs";

			if (i + 2 < argc && argv[i + 2][0] == '/')
				f = argv[++i + 1];
			bench(f);
		}
		else
			check(0, "no case %s", c);
		printf("%s: %s\n", failed > before ? "FAIL" : "PASS", c);
	}
	if (access(OWN_IMAGES, F_OK) == 0)
		images_own(false);
	btf__free(vmlinux);
	tmulti_bpf__destroy(skel);
	printf("%s: %d failed\n", failed ? "FAIL" : "PASS", failed);
	return failed ? 1 : 0;
}
