// SPDX-License-Identifier: GPL-2.0
/*
 * ftsdo-bpf: BPF trampoline tests and benchmarks for the ftrace-sdo series.
 *
 * Runs as root inside the test guest.  Built statically against libbpf
 * (see Makefile); the BPF objects are embedded through bpftool skeletons.
 *
 * Exit status: 0 all checks passed, 1 a check failed, 4 unsupported here,
 * 2 usage error.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "ftsdo_bpf.h"
#include "fentry_fexit.skel.h"
#include "fmod_ret.skel.h"
#include "bench.skel.h"
#include "hold.skel.h"

#define EXIT_PASS	0
#define EXIT_FAIL	1
#define EXIT_USAGE	2
#define EXIT_UNSUPP	4

#ifndef ENOTSUPP
#define ENOTSUPP	524	/* kernel-internal, leaks out of bpf() */
#endif

static bool verbose;
static int n_fail;
static int n_pass;
static bool print_pass = true;

static int libbpf_print(enum libbpf_print_level level, const char *fmt,
			va_list ap)
{
	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static bool expect(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One assertion: FAIL lines always, PASS lines unless print_pass is off. */
static bool expect(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		n_pass++;
	else
		n_fail++;
	if (ok && !print_pass)
		return ok;
	va_start(ap, fmt);
	printf("%s: ", ok ? "PASS" : "FAIL");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fflush(stdout);
	return ok;
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("# ");
	vprintf(fmt, ap);
	printf("\n");
	va_end(ap);
	fflush(stdout);
}

static int finish(const char *what)
{
	printf("%s: %s (%d checks passed, %d failed)\n",
	       n_fail ? "FAIL" : "PASS", what, n_pass, n_fail);
	return n_fail ? EXIT_FAIL : EXIT_PASS;
}

static int unsupported(const char *what, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int unsupported(const char *what, const char *fmt, ...)
{
	va_list ap;

	printf("SKIP: %s: unsupported: ", what);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	return EXIT_UNSUPP;
}

/* bpf() errors that mean "this kernel cannot do it" rather than "broken". */
static bool err_is_unsupported(int err)
{
	err = err < 0 ? -err : err;
	return err == ENOSYS || err == EOPNOTSUPP || err == ENOTSUPP;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void bump_rlimits(void)
{
	struct rlimit rl = { RLIM_INFINITY, RLIM_INFINITY };
	unsigned long nr_open = 1048576;
	FILE *f;

	setrlimit(RLIMIT_MEMLOCK, &rl);	/* only matters before memcg accounting */

	f = fopen("/proc/sys/fs/nr_open", "r");
	if (f) {
		if (fscanf(f, "%lu", &nr_open) != 1)
			nr_open = 1048576;
		fclose(f);
	}
	rl.rlim_cur = rl.rlim_max = nr_open;
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		getrlimit(RLIMIT_NOFILE, &rl);
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* ------------------------------------------------------------------ */
/* tracefs                                                              */

static const char *tracefs;

static const char *find_tracefs(void)
{
	static const char *const dirs[] = {
		"/sys/kernel/tracing", "/sys/kernel/debug/tracing",
	};
	char p[256];
	int i;

	if (tracefs)
		return tracefs;
	for (i = 0; i < 2; i++) {
		snprintf(p, sizeof(p), "%s/available_filter_functions", dirs[i]);
		if (!access(p, R_OK))
			return tracefs = dirs[i];
	}
	return NULL;
}

static FILE *tracefs_open(const char *file)
{
	char p[256];

	if (!find_tracefs())
		return NULL;
	snprintf(p, sizeof(p), "%s/%s", tracefs, file);
	return fopen(p, "r");
}

/* First whitespace-separated token of a tracefs line, in place. */
static char *first_token(char *line)
{
	char *s = line, *e;

	while (*s && isspace((unsigned char)*s))
		s++;
	e = s;
	while (*e && !isspace((unsigned char)*e))
		e++;
	*e = 0;
	return s;
}

/*
 * Lines of enabled_functions whose function name equals one of names[]
 * (exact) or, if prefix != NULL, starts with prefix.  found[i] is set for
 * each names[i] seen.  Returns the number of matching lines, -1 if the file
 * cannot be read.
 */
static int enabled_functions_scan(const char *const *names, int n,
				  bool *found, const char *prefix)
{
	char line[1024];
	FILE *f;
	int hits = 0, i;

	f = tracefs_open("enabled_functions");
	if (!f)
		return -1;
	if (found)
		memset(found, 0, n * sizeof(*found));
	while (fgets(line, sizeof(line), f)) {
		char *tok = first_token(line);
		bool match = false;

		if (prefix && !strncmp(tok, prefix, strlen(prefix)))
			match = true;
		for (i = 0; i < n; i++) {
			if (!strcmp(tok, names[i])) {
				if (found)
					found[i] = true;
				match = true;
			}
		}
		if (match) {
			hits++;
			if (verbose)
				fprintf(stderr, "enabled_functions: %s\n", tok);
		}
	}
	fclose(f);
	return hits;
}

/*
 * Lines of tracefs @file that have @name as one of their whitespace
 * separated fields; -1 if the file cannot be read.
 */
static int tracefs_lines_naming(const char *file, const char *name)
{
	char line[1024], *tok, *save;
	int hits = 0;
	FILE *f;

	f = tracefs_open(file);
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		for (tok = strtok_r(line, " \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save)) {
			if (!strcmp(tok, name)) {
				hits++;
				break;
			}
		}
	}
	fclose(f);
	return hits;
}

/* ------------------------------------------------------------------ */
/* sorted string sets (available_filter_functions, BTF names)           */

struct name_ent {
	const char *name;
	int count;	/* occurrences */
	int id;		/* BTF type id (btf set); -1 if duplicated */
	bool used;	/* bench-attach: already a target */
};

struct name_set {
	struct name_ent *v;
	size_t n, cap;
};

static void set_add(struct name_set *s, const char *name, int id)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 4096;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v) {
			perror("realloc");
			exit(EXIT_FAIL);
		}
	}
	s->v[s->n].name = name;
	s->v[s->n].count = 1;
	s->v[s->n].id = id;
	s->v[s->n].used = false;
	s->n++;
}

static int ent_cmp(const void *a, const void *b)
{
	return strcmp(((const struct name_ent *)a)->name,
		      ((const struct name_ent *)b)->name);
}

/* Sort and fold duplicates: count = occurrences, id = -1 if >1. */
static void set_finish(struct name_set *s)
{
	size_t i, j = 0;

	if (!s->n)
		return;
	qsort(s->v, s->n, sizeof(*s->v), ent_cmp);
	for (i = 1; i < s->n; i++) {
		if (!strcmp(s->v[i].name, s->v[j].name)) {
			s->v[j].count++;
			s->v[j].id = -1;
		} else {
			s->v[++j] = s->v[i];
		}
	}
	s->n = j + 1;
}

static struct name_ent *set_find(const struct name_set *s, const char *name)
{
	struct name_ent key = { .name = name };

	if (!s->n)
		return NULL;
	return bsearch(&key, s->v, s->n, sizeof(*s->v), ent_cmp);
}

struct aff_stats {
	long lines, module, dotted, dup_names;
};

/*
 * available_filter_functions: names without '.', not from modules.  All
 * occurrences of a base name count (module entries included), so a name
 * listed more than once has count > 1.
 */
static const char *aff_path;	/* bench-attach --aff FILE (offline --list) */

static int load_aff(struct name_set *aff, struct aff_stats *st)
{
	char line[512];
	FILE *f;
	size_t i;

	memset(st, 0, sizeof(*st));
	f = aff_path ? fopen(aff_path, "r")
		     : tracefs_open("available_filter_functions");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		bool module = strchr(line, '[') != NULL;
		char *tok = first_token(line);

		if (!*tok)
			continue;
		st->lines++;
		if (module)
			st->module++;
		if (strchr(tok, '.')) {
			st->dotted++;
			continue;
		}
		/* module entries are added too, marked by id 0 */
		set_add(aff, strdup(tok), module ? 0 : 1);
	}
	fclose(f);
	set_finish(aff);
	for (i = 0; i < aff->n; i++)
		if (aff->v[i].count > 1)
			st->dup_names++;
	return 0;
}

/* Traceable by name: listed exactly once, and not as a module function. */
static bool aff_unique(const struct name_set *aff, const char *name)
{
	struct name_ent *e = set_find(aff, name);

	return e && e->count == 1 && e->id == 1;
}

/* FUNC entries of vmlinux BTF; id = -1 for names present more than once. */
static void load_btf_funcs(const struct btf *btf, struct name_set *s)
{
	__u32 id, n = btf__type_cnt(btf);

	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!btf_is_func(t))
			continue;
		set_add(s, btf__name_by_offset(btf, t->name_off), id);
	}
	set_finish(s);
}

/* ------------------------------------------------------------------ */
/* fentry-fexit / cycles                                                */

struct expected_call {
	const char *func;
	int nargs;
	__u64 arg[6];
	__s64 ret;
};

/* What bpf_prog_test_run_tracing() passes (net/bpf/test_run.c, 6.12). */
static const struct expected_call exp_calls[FTSDO_NFUNCS] = {
	{ "bpf_fentry_test1", 1, { 1 }, 2 },
	{ "bpf_fentry_test2", 2, { 2, 3 }, 5 },
	{ "bpf_fentry_test3", 3, { 4, 5, 6 }, 15 },
	{ "bpf_fentry_test4", 4, { 7, 8, 9, 10 }, 34 },
	{ "bpf_fentry_test5", 5, { 11, 12, 13, 14, 15 }, 65 },
	{ "bpf_fentry_test6", 6, { 16, 17, 18, 19, 20, 21 }, 111 },
	{ "bpf_fentry_test7", 1, { 0 }, 0 },
	/* arg[0]: &arg on the caller's stack (non-NULL), arg[1]: arg->a */
	{ "bpf_fentry_test8", 2, { 1, 0 }, 0 },
};

static const char *const fentry_names[FTSDO_NFUNCS] = {
	"bpf_fentry_test1", "bpf_fentry_test2", "bpf_fentry_test3",
	"bpf_fentry_test4", "bpf_fentry_test5", "bpf_fentry_test6",
	"bpf_fentry_test7", "bpf_fentry_test8",
};

/* Argument check for one record; describes the first mismatch in why. */
static bool args_match(const struct ftsdo_rec *r, int f, bool is_exit,
		       char *why, size_t len)
{
	const struct expected_call *e = &exp_calls[f];
	int a;

	for (a = 0; a < 6; a++) {
		__u64 want = a < e->nargs ? e->arg[a] : 0;
		__u64 got = r->arg[a];

		if (f == 7 && a == 0) {	/* a stack pointer: only non-NULL */
			if (!got) {
				snprintf(why, len, "arg0 is NULL");
				return false;
			}
			continue;
		}
		/* char/short/int arguments were sign-extended to 64 bits */
		if (got != want) {
			snprintf(why, len, "arg%d = %llu (0x%llx), expected %llu",
				 a, (unsigned long long)got,
				 (unsigned long long)got,
				 (unsigned long long)want);
			return false;
		}
	}
	if (is_exit && r->ret != e->ret) {
		snprintf(why, len, "ret = %lld, expected %lld",
			 (long long)r->ret, (long long)e->ret);
		return false;
	}
	if (!is_exit && r->ret != 0) {
		snprintf(why, len, "fentry ret slot = %lld", (long long)r->ret);
		return false;
	}
	return true;
}

/*
 * Checks all 16 records against `want` hits; with want == 0 the records
 * must be untouched.  tag prefixes the messages.
 */
static void check_records(struct fentry_fexit *s, __u64 want, const char *tag)
{
	int f, x;

	for (x = 0; x < 2; x++) {
		for (f = 0; f < FTSDO_NFUNCS; f++) {
			const struct ftsdo_rec *r = x ? &s->bss->ext[f]
						      : &s->bss->ent[f];
			const char *kind = x ? "fexit" : "fentry";
			char why[160] = "";

			expect(r->hits == want,
			       "%s: %s/%s hits %llu, expected %llu", tag, kind,
			       exp_calls[f].func, (unsigned long long)r->hits,
			       (unsigned long long)want);
			expect(r->good == want,
			       "%s: %s/%s calls with the expected args%s %llu, expected %llu",
			       tag, kind, exp_calls[f].func,
			       x ? " and ret" : "",
			       (unsigned long long)r->good,
			       (unsigned long long)want);
			if (!want)
				continue;
			expect(args_match(r, f, x, why, sizeof(why)),
			       "%s: %s/%s last call args%s %s", tag, kind,
			       exp_calls[f].func, x ? "/ret" : "",
			       why[0] ? why : "as expected");
		}
	}
	if (want) {
		/* same call seen by fentry and fexit: same &arg */
		expect(s->bss->ent[7].arg[0] == s->bss->ext[7].arg[0],
		       "%s: bpf_fentry_test8 arg seen by fentry (0x%llx) == by fexit (0x%llx)",
		       tag, (unsigned long long)s->bss->ent[7].arg[0],
		       (unsigned long long)s->bss->ext[7].arg[0]);
	}
}

/* One BPF_PROG_TEST_RUN of a tracing program: calls bpf_fentry_test1..9. */
static bool trigger(struct fentry_fexit *s, const char *tag)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	int err;

	err = bpf_prog_test_run_opts(bpf_program__fd(s->progs.fentry1), &topts);
	if (err || topts.retval) {
		expect(false, "%s: BPF_PROG_TEST_RUN err %d (errno %d) retval %u",
		       tag, err, errno, topts.retval);
		return false;
	}
	return true;
}

static struct fentry_fexit *ff_load(const char *what, int *rc)
{
	struct fentry_fexit *s;
	int err;

	s = fentry_fexit__open();
	if (!s) {
		*rc = unsupported(what, "fentry_fexit__open: %s", strerror(errno));
		return NULL;
	}
	s->bss->filter_tgid = getpid();
	err = fentry_fexit__load(s);
	if (err) {
		if (err_is_unsupported(err))
			*rc = unsupported(what, "loading fentry/fexit programs: %s",
					  strerror(-err));
		else {
			expect(false, "%s: load fentry/fexit programs: %d (%s)",
			       what, err, strerror(-err));
			*rc = finish(what);
		}
		fentry_fexit__destroy(s);
		return NULL;
	}
	return s;
}

static int ff_attach(struct fentry_fexit *s, const char *tag)
{
	int err = fentry_fexit__attach(s);

	if (err)
		expect(false, "%s: attach fentry/fexit: %d (%s)", tag, err,
		       strerror(-err));
	return err;
}

static void ff_reset(struct fentry_fexit *s)
{
	memset(s->bss->ent, 0, sizeof(s->bss->ent));
	memset(s->bss->ext, 0, sizeof(s->bss->ext));
}

/* enabled_functions must list exactly bpf_fentry_test1..8 while attached. */
static void check_enabled_attached(const char *tag)
{
	bool found[FTSDO_NFUNCS];
	int i, n, missing = 0;

	n = enabled_functions_scan(fentry_names, FTSDO_NFUNCS, found, NULL);
	if (n < 0) {
		expect(false, "%s: cannot read enabled_functions", tag);
		return;
	}
	for (i = 0; i < FTSDO_NFUNCS; i++) {
		if (!found[i]) {
			missing++;
			printf("# %s: %s missing from enabled_functions\n", tag,
			       fentry_names[i]);
		}
	}
	expect(!missing && n == FTSDO_NFUNCS,
	       "%s: enabled_functions lists %d lines for bpf_fentry_test1..8 (%d missing), expected 8",
	       tag, n, missing);
}

static void check_enabled_detached(const char *tag)
{
	int n = enabled_functions_scan(NULL, 0, NULL, "bpf_fentry_test");

	if (n < 0) {
		expect(false, "%s: cannot read enabled_functions", tag);
		return;
	}
	expect(n == 0, "%s: enabled_functions has %d lines for bpf_fentry_test*, expected 0",
	       tag, n);
}

static int cmd_fentry_fexit(int argc, char **argv)
{
	const char *what = "fentry-fexit";
	struct fentry_fexit *s;
	int k = 5, i, rc = EXIT_FAIL, opt;
	bool have_tracefs;

	while ((opt = getopt(argc, argv, "k:v")) != -1) {
		switch (opt) {
		case 'k': k = atoi(optarg); break;
		case 'v': verbose = true; break;
		default: return EXIT_USAGE;
		}
	}
	if (k < 1)
		return EXIT_USAGE;
	have_tracefs = find_tracefs() != NULL;

	s = ff_load(what, &rc);
	if (!s)
		return rc;
	expect(true, "%s: loaded 8 fentry + 8 fexit programs", what);

	if (ff_attach(s, what))
		goto out;
	expect(true, "%s: attached 16 programs", what);
	if (have_tracefs)
		check_enabled_attached(what);
	else
		note("tracefs not available: enabled_functions not checked");

	for (i = 0; i < k; i++)
		if (!trigger(s, what))
			break;
	expect(i == k, "%s: %d BPF_PROG_TEST_RUN triggers returned 0", what, i);
	check_records(s, k, what);

	fentry_fexit__detach(s);
	if (have_tracefs)
		check_enabled_detached("fentry-fexit after detach");
	trigger(s, what);
	/* nothing attached: the records keep the counts of the k triggers */
	check_records(s, k, "fentry-fexit after detach + 1 trigger");

	fentry_fexit__destroy(s);
	return finish(what);
out:
	fentry_fexit__destroy(s);
	return finish(what);
}

static int cmd_cycles(int argc, char **argv)
{
	const char *what = "cycles";
	struct fentry_fexit *s;
	int n = 10, k = 2, c, i, rc = EXIT_FAIL, opt, fail_before;
	double t0;
	char tag[64];

	while ((opt = getopt(argc, argv, "k:v")) != -1) {
		switch (opt) {
		case 'k': k = atoi(optarg); break;
		case 'v': verbose = true; break;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		n = atoi(argv[optind]);
	if (n < 1 || k < 1)
		return EXIT_USAGE;
	if (!find_tracefs())
		return unsupported(what, "tracefs not available");
	check_enabled_detached("cycles before start");

	s = ff_load(what, &rc);
	if (!s)
		return rc;

	print_pass = verbose;
	t0 = now_ms();
	for (c = 1; c <= n; c++) {
		fail_before = n_fail;
		snprintf(tag, sizeof(tag), "cycle %d", c);
		ff_reset(s);
		if (ff_attach(s, tag))
			break;
		check_enabled_attached(tag);
		for (i = 0; i < k; i++)
			if (!trigger(s, tag))
				break;
		check_records(s, k, tag);
		fentry_fexit__detach(s);
		trigger(s, tag);
		snprintf(tag, sizeof(tag), "cycle %d after detach", c);
		check_records(s, k, tag);
		if (n_fail != fail_before) {
			printf("FAIL: cycle %d\n", c);
			break;
		}
		if (verbose || c == 1 || c == n || c % 100 == 0)
			printf("PASS: cycle %d: attach 16, %d triggers, exact counts/args, detach, no hits after detach\n",
			       c, k);
	}
	print_pass = true;
	note("%d cycles in %.1f ms", c - 1, now_ms() - t0);
	expect(c == n + 1, "%s: %d of %d cycles completed", what, c - 1, n);
	fentry_fexit__destroy(s);
	check_enabled_detached("cycles at the end");
	return finish(what);
}

/* ------------------------------------------------------------------ */
/* release-nomem                                                        */

#define FAIL_NTH	"/proc/thread-self/fail-nth"

/*
 * fail-nth is opened once: an open() after the close would itself meet
 * the count the close left, and fail or consume it.
 */
static int fail_nth_fd = -1;

static int fail_nth_write(int n)
{
	char buf[16];
	int len;

	len = snprintf(buf, sizeof(buf), "%d", n);
	return pwrite(fail_nth_fd, buf, len, 0) == len ? 0 : -errno;
}

/* What is left of the count written to fail-nth; 0 once a fault was injected */
static int fail_nth_read(void)
{
	char buf[16] = "";
	ssize_t len;

	len = pread(fail_nth_fd, buf, sizeof(buf) - 1, 0);
	return len > 0 ? atoi(buf) : -EIO;
}

/*
 * The setup of the fault sweeps: fail-nth opened, the programs loaded,
 * whether direct_functions exists (*have_dfn), PASS lines quiet.  NULL
 * with *rc set when the sweep cannot run.
 */
static struct fentry_fexit *nomem_load(const char *what, const char *fn,
				       bool *have_dfn, int *rc)
{
	struct fentry_fexit *s;

	fail_nth_fd = open(FAIL_NTH, O_RDWR);
	if (fail_nth_fd < 0) {
		*rc = unsupported(what, "no %s (CONFIG_FAULT_INJECTION)", FAIL_NTH);
		return NULL;
	}
	if (!find_tracefs()) {
		*rc = unsupported(what, "tracefs not available");
		return NULL;
	}
	*have_dfn = tracefs_lines_naming("direct_functions", fn) >= 0;
	s = ff_load(what, rc);
	if (s)
		print_pass = verbose;
	return s;
}

/*
 * The n-th allocation failing in the release of a link that is not its
 * trampoline's last: the new trampoline image (fentry1 alone) cannot be
 * built, the release fails (the kernel WARNs once: announced) and the
 * current image still calls the released program.  That program's only
 * reference was its link: it must stay alive as long as the image can
 * call it.  The program is a copy of fexit1 loaded with its final
 * instructions (same maps), its fd closed once the link holds it.  After
 * each close: the link is gone, fentry1 sees every call; if the copy saw
 * the call too (the release failed), its ID still resolves and a call
 * one second later (a grace period after the last put, when the program
 * would have been freed) works.  fentry1 stays attached for the sweep,
 * each attach of a copy replaces the image; at the end fentry1's close
 * (the last link) takes the function away.
 */
static void release_beside_sweep(struct fentry_fexit *s, int kmsg,
				 int *closes, int *faulted, int *held)
{
	const char *what = "release-nomem: fexit beside fentry1";
	const char *fn = "bpf_fentry_test1";
	struct bpf_prog_info pinfo;
	struct bpf_link_info info;
	__u32 plen = sizeof(pinfo), len = sizeof(info);
	struct bpf_link *link;
	int n, left = 0, pfd, lfd, fd, fail_before;
	__u64 ent, ext;
	char tag[96];
	static const char begin[] = "expect-warn-begin kernel/bpf/syscall.c";
	static const char end[] = "expect-warn-end";

	memset(&pinfo, 0, sizeof(pinfo));
	if (!expect(!bpf_obj_get_info_by_fd(bpf_program__fd(s->progs.fexit1),
					     &pinfo, &plen),
		    "%s: fexit1 info: %s", what, strerror(errno)))
		return;
	link = bpf_program__attach(s->progs.fentry1);
	if (!expect(link, "%s: attach fentry1: %s", what, strerror(errno)))
		return;
	for (n = 1; n < 10000 && !left; n++) {
		LIBBPF_OPTS(bpf_prog_load_opts, lo,
			    .expected_attach_type = BPF_TRACE_FEXIT,
			    .attach_btf_id = pinfo.attach_btf_id);

		fail_before = n_fail;
		snprintf(tag, sizeof(tag), "%s: close %d", what, n);
		pfd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "fexit1_copy", "GPL",
				    bpf_program__insns(s->progs.fexit1),
				    bpf_program__insn_cnt(s->progs.fexit1), &lo);
		if (!expect(pfd >= 0, "%s: load a copy of fexit1: %s", tag,
			    strerror(errno)))
			break;
		lfd = bpf_link_create(pfd, 0, BPF_TRACE_FEXIT, NULL);
		close(pfd);
		if (!expect(lfd >= 0, "%s: attach the copy: %s", tag, strerror(errno)))
			break;
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		if (!expect(!bpf_obj_get_info_by_fd(lfd, &info, &len),
			    "%s: link info: %s", tag, strerror(errno))) {
			close(lfd);
			break;
		}
		if (write(kmsg, begin, strlen(begin)) < 0 || fail_nth_write(n)) {
			expect(false, "%s: write kmsg or %s: %s", tag, FAIL_NTH,
			       strerror(errno));
			close(lfd);
			break;
		}
		/* The close is the only system call until fail-nth is read */
		close(lfd);
		left = fail_nth_read();
		fail_nth_write(0);
		if (write(kmsg, end, strlen(end)) < 0)
			note("%s: cannot write to /dev/kmsg", tag);
		(*closes)++;
		*faulted += !left;

		fd = bpf_link_get_fd_by_id(info.id);
		expect(fd < 0 && errno == ENOENT, "%s: link %u gone (fd %d, %s)",
		       tag, info.id, fd, fd < 0 ? strerror(errno) : "open");
		if (fd >= 0)
			close(fd);
		ff_reset(s);
		trigger(s, tag);
		ent = s->bss->ent[0].hits;
		ext = s->bss->ext[0].hits;
		expect(ent == 1 && ext <= 1,
		       "%s: fentry1 and the copy saw %llu and %llu calls, expected 1 and 0 or 1",
		       tag, (unsigned long long)ent, (unsigned long long)ext);
		if (ext == 1) {
			/* The release failed: the image still calls the copy */
			(*held)++;
			sleep(1);
			fd = bpf_prog_get_fd_by_id(info.prog_id);
			expect(fd >= 0, "%s: the copy (prog %u) is alive while the image calls it: %s",
			       tag, info.prog_id, fd < 0 ? strerror(errno) : "yes");
			if (fd >= 0)
				close(fd);
			ff_reset(s);
			trigger(s, tag);
			expect(s->bss->ent[0].hits == 1 && s->bss->ext[0].hits == 1,
			       "%s: a second later fentry1 and the copy saw %llu and %llu calls, expected 1 and 1",
			       tag, (unsigned long long)s->bss->ent[0].hits,
			       (unsigned long long)s->bss->ext[0].hits);
		}
		if (n_fail != fail_before)
			break;
	}
	bpf_link__destroy(link);
	ff_reset(s);
	trigger(s, what);
	expect(!s->bss->ent[0].hits && !s->bss->ext[0].hits,
	       "%s: no call seen once fentry1's link is closed too (%llu, %llu)",
	       what, (unsigned long long)s->bss->ent[0].hits,
	       (unsigned long long)s->bss->ext[0].hits);
	expect(tracefs_lines_naming("enabled_functions", fn) == 0,
	       "%s: %s not in enabled_functions at the end", what, fn);
}

/*
 * The release of a trampoline's last link must not fail: close the link
 * of fentry1 (bpf_fentry_test1) with the n-th fault injectable allocation
 * of this thread failing, n = 1, 2, ... until a close injects nothing, and
 * attach it again before each.  After each close: the link is gone, the
 * function is in neither enabled_functions nor direct_functions, and the
 * program sees no call.  The close itself cannot report an error: a failed
 * detach would WARN, and the harness fails the run on any WARN.  The
 * failslab and fail_page_alloc knobs are set by the caller
 * (tests/guest/bpf-release-nomem.sh).
 */
static int cmd_release_nomem(int argc, char **argv)
{
	const char *what = "release-nomem", *fn = "bpf_fentry_test1";
	struct bpf_link_info info;
	__u32 len = sizeof(info);
	struct fentry_fexit *s;
	struct bpf_link *link;
	int n, rc = EXIT_FAIL, left = 0, fd, fail_before, closes = 0, faulted = 0;
	int kmsg, closes2 = 0, faulted2 = 0, held = 0;
	bool have_dfn;
	char tag[64];

	s = nomem_load(what, fn, &have_dfn, &rc);
	if (!s)
		return rc;
	for (n = 1; n < 10000 && !left; n++) {
		fail_before = n_fail;
		snprintf(tag, sizeof(tag), "%s: close %d", what, n);
		link = bpf_program__attach(s->progs.fentry1);
		if (!link) {
			expect(false, "%s: attach fentry1: %s", tag, strerror(errno));
			break;
		}
		ff_reset(s);
		trigger(s, tag);
		expect(s->bss->ent[0].hits == 1, "%s: attached, 1 hit (%llu)", tag,
		       (unsigned long long)s->bss->ent[0].hits);
		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(bpf_link__fd(link), &info, &len)) {
			expect(false, "%s: link info: %s", tag, strerror(errno));
			bpf_link__destroy(link);
			break;
		}
		if (fail_nth_write(n)) {
			expect(false, "%s: write %s: %s", tag, FAIL_NTH, strerror(errno));
			bpf_link__destroy(link);
			break;
		}
		/* The close is the only system call until fail-nth is read */
		bpf_link__destroy(link);
		left = fail_nth_read();
		fail_nth_write(0);
		closes++;
		faulted += !left;

		fd = bpf_link_get_fd_by_id(info.id);
		expect(fd < 0 && errno == ENOENT, "%s: link %u gone (fd %d, %s)",
		       tag, info.id, fd, fd < 0 ? strerror(errno) : "open");
		if (fd >= 0)
			close(fd);
		expect(tracefs_lines_naming("enabled_functions", fn) == 0,
		       "%s: %s not in enabled_functions", tag, fn);
		if (have_dfn)
			expect(tracefs_lines_naming("direct_functions", fn) == 0,
			       "%s: %s not in direct_functions", tag, fn);
		ff_reset(s);
		trigger(s, tag);
		expect(!s->bss->ent[0].hits, "%s: no hit after the close (%llu)", tag,
		       (unsigned long long)s->bss->ent[0].hits);
		if (n_fail != fail_before)
			break;
	}
	kmsg = open("/dev/kmsg", O_WRONLY);
	if (expect(kmsg >= 0, "%s: open /dev/kmsg: %s", what, strerror(errno))) {
		release_beside_sweep(s, kmsg, &closes2, &faulted2, &held);
		close(kmsg);
	}
	print_pass = true;
	fentry_fexit__destroy(s);
	close(fail_nth_fd);
	expect(left > 0 && faulted,
	       "%s: %d closes, %d with an allocation failure injected, the last without",
	       what, closes, faulted);
	expect(faulted2 && held,
	       "%s: beside fentry1, %d closes, %d with an allocation failure injected, %d releases failed",
	       what, closes2, faulted2, held);
	return finish(what);
}

/*
 * A link's attach fails only with ENOMEM and then changes nothing.  Two
 * sweeps on bpf_fentry_test1: attach fentry1 alone (the function joins
 * the shared direct ops), then fexit1 beside an attached fentry1 (a new
 * trampoline image, the function retargeted).  For n = 1, 2, ... until an
 * attach injects nothing: write n to fail-nth, create the link (one
 * bpf(BPF_LINK_CREATE), the only system call before fail-nth is read
 * back), then check: a failed attach returned ENOMEM, the new program sees
 * no call and the one attached before sees every call, the function is
 * in enabled_functions and direct_functions iff a program is attached; a
 * successful one sees its calls, and its close takes it away again.
 */
static void attach_sweep(struct fentry_fexit *s, const char *what,
			 struct bpf_program *prog, enum bpf_attach_type type,
			 bool with_fentry, bool have_dfn, int *attaches,
			 int *faulted)
{
	const char *fn = "bpf_fentry_test1";
	int n, fd, err, left = 0, fail_before, fails = n_fail;
	__u64 ent, ext;
	char tag[96];

	for (n = 1; n < 10000 && !left; n++) {
		fail_before = n_fail;
		snprintf(tag, sizeof(tag), "%s: attach %d", what, n);
		if (fail_nth_write(n)) {
			expect(false, "%s: write %s: %s", tag, FAIL_NTH, strerror(errno));
			break;
		}
		fd = bpf_link_create(bpf_program__fd(prog), 0, type, NULL);
		err = fd < 0 ? errno : 0;
		left = fail_nth_read();
		fail_nth_write(0);
		(*attaches)++;
		*faulted += !left;
		expect(fd >= 0 || err == ENOMEM, "%s: failed with %s, not ENOMEM",
		       tag, strerror(err));

		ff_reset(s);
		trigger(s, tag);
		ent = s->bss->ent[0].hits;
		ext = s->bss->ext[0].hits;
		if (type == BPF_TRACE_FENTRY)
			expect(ent == (fd >= 0), "%s: fentry1 saw %llu calls, expected %d",
			       tag, (unsigned long long)ent, fd >= 0);
		else
			expect(ent == 1 && ext == (fd >= 0),
			       "%s: fentry1 and fexit1 saw %llu and %llu calls, expected 1 and %d",
			       tag, (unsigned long long)ent, (unsigned long long)ext,
			       fd >= 0);
		expect(tracefs_lines_naming("enabled_functions", fn) ==
		       (fd >= 0 || with_fentry),
		       "%s: %s in enabled_functions iff attached", tag, fn);
		if (have_dfn)
			expect(tracefs_lines_naming("direct_functions", fn) ==
			       (fd >= 0 || with_fentry),
			       "%s: %s in direct_functions iff attached", tag, fn);
		if (fd >= 0)
			close(fd);
		if (n_fail != fail_before)
			break;
	}
	/* The last attach injected nothing, unless a check stopped the sweep */
	if (n_fail == fails)
		expect(left > 0, "%s: still injecting after %d attaches", what,
		       n - 1);
}

static int cmd_attach_nomem(int argc, char **argv)
{
	const char *what = "attach-nomem", *fn = "bpf_fentry_test1";
	int rc = EXIT_FAIL, attaches[2] = {}, faulted[2] = {};
	struct fentry_fexit *s;
	struct bpf_link *link;
	bool have_dfn;

	s = nomem_load(what, fn, &have_dfn, &rc);
	if (!s)
		return rc;
	attach_sweep(s, "attach-nomem: fentry1", s->progs.fentry1,
		     BPF_TRACE_FENTRY, false, have_dfn, &attaches[0], &faulted[0]);
	link = bpf_program__attach(s->progs.fentry1);
	if (expect(link, "%s: attach fentry1: %s", what, strerror(errno))) {
		attach_sweep(s, "attach-nomem: fexit1 beside fentry1",
			     s->progs.fexit1, BPF_TRACE_FEXIT, true, have_dfn,
			     &attaches[1], &faulted[1]);
		bpf_link__destroy(link);
	}
	print_pass = true;
	expect(tracefs_lines_naming("enabled_functions", fn) == 0,
	       "%s: %s not in enabled_functions at the end", what, fn);
	fentry_fexit__destroy(s);
	close(fail_nth_fd);
	expect(faulted[0] && faulted[1],
	       "%s: %d and %d attaches, %d and %d with an allocation failure injected",
	       what, attaches[0], attaches[1], faulted[0], faulted[1]);
	return finish(what);
}

/* ------------------------------------------------------------------ */
/* fmod-ret                                                             */

/* The harness's test module (tests/ftsdo-test) and its errinj file */
#define FTSDO_MOD	"ftsdo_test"
#define FTSDO_MOD_DIR	"/sys/kernel/debug/" FTSDO_MOD
#define FTSDO_ERRINJ	FTSDO_MOD_DIR "/errinj"

static int errinj_call(int x, long *out)
{
	char buf[64];
	ssize_t len;
	int fd;

	fd = open(FTSDO_ERRINJ, O_WRONLY);
	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%d\n", x);
	if (write(fd, buf, len) != len) {
		int e = -errno;

		close(fd);
		return e ? e : -EIO;
	}
	close(fd);

	fd = open(FTSDO_ERRINJ, O_RDONLY);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return len < 0 ? -errno : -ENODATA;
	buf[len] = 0;
	*out = strtol(buf, NULL, 0);
	return 0;
}

static void errinj_expect(int x, long want, const char *tag)
{
	long got = 0;
	int err = errinj_call(x, &got);

	if (err) {
		expect(false, "fmod-ret: %s: write %d / read back %s: %s", tag,
		       x, FTSDO_ERRINJ, strerror(-err));
		return;
	}
	expect(got == want, "fmod-ret: %s: ftsdo_errinj_target(%d) returned %ld, expected %ld",
	       tag, x, got, want);
}

static int cmd_fmod_ret(int argc, char **argv)
{
	const char *what = "fmod-ret";
	struct fmod_ret *s = NULL;
	bool loaded_mod = false;
	long got;
	int err, opt;

	while ((opt = getopt(argc, argv, "v")) != -1) {
		switch (opt) {
		case 'v': verbose = true; break;
		default: return EXIT_USAGE;
		}
	}

	if (access(FTSDO_MOD_DIR, F_OK) &&
	    !access("/sys/kernel/debug", F_OK) &&
	    system("modprobe " FTSDO_MOD) == 0)
		loaded_mod = true;
	if (access(FTSDO_ERRINJ, F_OK) ||
	    access("/sys/kernel/btf/" FTSDO_MOD, F_OK)) {
		bool no_file = access(FTSDO_ERRINJ, F_OK);

		if (loaded_mod && system("rmmod " FTSDO_MOD) != 0)
			note("rmmod %s failed", FTSDO_MOD);
		if (no_file)
			return unsupported(what, "%s missing (module %s with ftsdo_errinj_target not available)",
					   FTSDO_ERRINJ, FTSDO_MOD);
		return unsupported(what, "/sys/kernel/btf/%s missing (no module BTF)",
				   FTSDO_MOD);
	}

	/* the original function, untouched */
	err = errinj_call(41, &got);
	if (err) {
		expect(false, "fmod-ret: baseline write/read %s: %s", FTSDO_ERRINJ,
		       strerror(-err));
		goto out;
	}
	expect(got == 42, "fmod-ret: baseline ftsdo_errinj_target(41) returned %ld, expected 42",
	       got);

	s = fmod_ret__open();
	if (!s) {
		expect(false, "fmod-ret: open: %s", strerror(errno));
		goto out;
	}
	/* libbpf 1.1 finds the target in module BTF from the SEC() name */
	err = fmod_ret__load(s);
	if (err) {
		if (err_is_unsupported(err)) {
			fmod_ret__destroy(s);
			return unsupported(what, "load fmod_ret: %s", strerror(-err));
		}
		expect(false, "fmod-ret: load fmod_ret + fexit on ftsdo_errinj_target: %d (%s)",
		       err, strerror(-err));
		goto out;
	}
	err = fmod_ret__attach(s);
	if (!expect(!err, "fmod-ret: attach fmod_ret + fexit on ftsdo_errinj_target: %d", err))
		goto out;

	errinj_expect(41, FTSDO_FMR_RETVAL, "fmod_ret attached");
	errinj_expect(-5, FTSDO_FMR_RETVAL, "fmod_ret attached");
	errinj_expect(1000, FTSDO_FMR_RETVAL, "fmod_ret attached");
	expect(s->bss->fmr_hits == 3, "fmod-ret: fmod_ret hits %llu, expected 3",
	       (unsigned long long)s->bss->fmr_hits);
	expect(s->bss->fmr_last_x == 1000, "fmod-ret: fmod_ret saw x = %d, expected 1000",
	       s->bss->fmr_last_x);
	expect(s->bss->fmr_last_in == 0, "fmod-ret: fmod_ret ret argument %d, expected 0",
	       s->bss->fmr_last_in);
	expect(s->bss->fexit_hits == 3, "fmod-ret: fexit hits %llu, expected 3",
	       (unsigned long long)s->bss->fexit_hits);
	expect(s->bss->fexit_last_x == 1000 &&
	       s->bss->fexit_last_ret == FTSDO_FMR_RETVAL,
	       "fmod-ret: fexit saw x = %d ret = %d, expected 1000 and %d",
	       s->bss->fexit_last_x, s->bss->fexit_last_ret, FTSDO_FMR_RETVAL);

	/* detach fmod_ret only: the original value comes back */
	bpf_link__destroy(s->links.fmr_errinj);
	s->links.fmr_errinj = NULL;
	errinj_expect(7, 8, "fmod_ret detached, fexit attached");
	expect(s->bss->fmr_hits == 3, "fmod-ret: fmod_ret hits after its detach %llu, expected 3",
	       (unsigned long long)s->bss->fmr_hits);
	expect(s->bss->fexit_hits == 4 && s->bss->fexit_last_x == 7 &&
	       s->bss->fexit_last_ret == 8,
	       "fmod-ret: fexit hits %llu x = %d ret = %d, expected 4, 7, 8",
	       (unsigned long long)s->bss->fexit_hits, s->bss->fexit_last_x,
	       s->bss->fexit_last_ret);

	/* detach everything */
	fmod_ret__detach(s);
	errinj_expect(9, 10, "all detached");
	expect(s->bss->fmr_hits == 3 && s->bss->fexit_hits == 4,
	       "fmod-ret: no hits after detach (fmod_ret %llu, fexit %llu; expected 3, 4)",
	       (unsigned long long)s->bss->fmr_hits,
	       (unsigned long long)s->bss->fexit_hits);
out:
	fmod_ret__destroy(s);
	if (loaded_mod && system("rmmod " FTSDO_MOD) != 0)
		note("rmmod %s failed", FTSDO_MOD);
	if (find_tracefs()) {
		const char *n[] = { "ftsdo_errinj_target" };
		int lines = enabled_functions_scan(n, 1, NULL, NULL);

		expect(lines == 0, "fmod-ret: enabled_functions has %d lines for ftsdo_errinj_target after detach, expected 0",
		       lines);
	}
	return finish(what);
}

/* ------------------------------------------------------------------ */
/* bench-attach                                                         */

/* Functions the attach path (trampoline entry/exit, ftrace, text patching,
 * RCU, locking, allocation, scheduling) itself uses, plus hot paths that
 * would make a TCG guest crawl.  Prefix match.  Conservative on purpose. */
static const char *const deny_prefix[] = {
	"bpf_", "__bpf", "___bpf", "btf_", "__btf",
	"rcu", "__rcu", "srcu", "__srcu", "call_rcu", "synchronize_",
	"migrate_", "preempt_", "__preempt", "ftrace", "__ftrace",
	"arch_ftrace", "prepare_ftrace", "ftrace_",
	"lock", "__lock", "_raw_", "__raw_", "raw_", "spin", "__spin",
	"queued_", "native_queued", "__pv_queued", "pv_", "mutex", "__mutex",
	"down", "__down", "up_", "up", "rwsem", "__rwsem", "percpu_", "__percpu",
	"text_poke", "__text_poke", "smp_text_poke", "int3", "poke_int3",
	"do_int3", "exc_", "asm_", "entry_", "__entry", "nmi", "do_nmi",
	"__nmi", "default_do_nmi", "irq", "__irq", "handle_irq",
	"native_", "paravirt_", "__paravirt", "arch_", "__arch", "x86_",
	"__x86", "sched_clock", "local_clock", "ktime_", "__ktime",
	"trace_", "__trace", "tracing_", "ring_buffer", "rb_", "perf_",
	"__perf", "kprobe", "__kprobe", "kretprobe", "fprobe", "rethook",
	"static_call", "__static_call", "static_key", "jump_label",
	"__jump_label", "kallsyms", "__kallsyms", "module_", "__module",
	"is_module", "within_", "is_kernel", "core_kernel", "kernel_text",
	"set_memory", "__set_memory", "set_direct_map", "flush_tlb",
	"__flush_tlb", "execmem", "vmalloc", "__vmalloc", "vfree", "vmap",
	"__vmap", "vunmap", "__vunmap", "kmalloc", "__kmalloc", "kfree",
	"__kfree", "kmem_cache", "__kmem_cache", "kzalloc", "krealloc",
	"__slab", "slab_", "___slab", "alloc_pages", "__alloc_pages",
	"free_pages", "__free_pages", "get_page_from_freelist",
	"schedule", "__schedule", "sched_", "__sched", "idle", "do_idle",
	"default_idle", "cpuidle", "__cpuidle", "tick_", "__tick",
	"hrtimer", "__hrtimer", "timer", "__timer", "clockevents",
	"__softirq", "do_softirq", "__do_softirq", "softirq", "raise_softirq",
	"__raise_softirq", "__local_bh", "local_bh", "_local_bh",
	"irq_work", "__irq_work", "smp_call", "__smp_call",
	"generic_smp_call", "on_each_cpu", "cpus_read", "cpu_hotplug",
	"stop_machine", "__stop_machine", "multi_cpu_stop",
	"memcpy", "memset", "memmove", "__memcpy", "__memset", "__memmove",
	"copy_", "_copy_", "__copy_", "strlen", "strcmp", "strncmp",
	"strscpy", "sized_strscpy", "__put_user", "__get_user",
	"get_random", "__get_random", "kasan", "__kasan", "kcsan", "kmsan",
	"__sanitizer", "__ubsan", "ubsan", "__stack_chk", "__fentry",
	"__x86_indirect", "__x86_return", "__cfi", "__kcfi", "cfi_",
	"__warn", "warn_", "report_bug", "panic", "printk", "_printk",
	"vprintk", "__printk", "console_", "dump_stack", "show_stack",
	"unwind_", "__unwind", "stack_trace", "arch_stack_walk",
	"do_syscall", "syscall_", "__syscall", "x64_sys_call",
	"get_current", "current_", "this_cpu", "__this_cpu",
	"in_lock_functions", "in_gate_area", "__cond_resched", "_cond_resched",
	"__might", "might_", "___might", "debug_", "__debug", "lockdep",
	"__lockdep", "check_", "mark_lock", "kfence", "__kfence",
	"refcount_", "__refcount", "__fdget", "fput", "__fput", "fget",
	"__fget", "anon_inode", "security_", "bpf", "tramp", "is_bpf",
	"__sys_bpf", "__x64_sys_bpf", "map_", "__copy_from_user",
	"alloc_file", "fd_install", "get_unused_fd", "put_unused_fd",
	"kvmalloc", "__kvmalloc", "kvfree", "kvzalloc", "page_", "__page",
	"folio", "__folio", "pcpu_", "__pcpu", "__free", "free_",
	"wake_up", "__wake_up", "try_to_wake_up", "ttwu", "enqueue_",
	"dequeue_", "update_", "__update", "account_", "cpuacct", "cgroup_",
	"__cgroup", "css_", "mem_cgroup", "__mem_cgroup", "obj_cgroup",
	"__obj_cgroup", "memcg", "__memcg", "pick_", "put_prev", "set_next",
	"task_tick", "scheduler_tick", "sched", "io_schedule", "finish_task",
	"context_switch", "switch_", "__switch", "prepare_task",
	"wait_", "__wait", "complete", "__complete", "autoremove_wake",
	"default_wake", "prepare_to_wait", "finish_wait", "poll_",
#ifdef __aarch64__
	/* arm64: syscall dispatch (do_syscall, x64_sys_call above), bpf()
	 * itself, and the instruction encoders the BPF JIT and ftrace call
	 * while attaching (compiled in only here: an x86_64 binary listing
	 * arm64 targets offline does not skip these) */
	"do_el0_svc", "el0_svc", "invoke_syscall", "__invoke_syscall",
	"__arm64_sys_bpf", "aarch64_insn_",
#endif
};

static bool denied(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(deny_prefix) / sizeof(deny_prefix[0]); i++)
		if (!strncmp(name, deny_prefix[i], strlen(deny_prefix[i])))
			return true;
	return false;
}

struct errhist {
	int err[16];
	long cnt[16];
	int n;
};

static void errhist_add(struct errhist *h, int err)
{
	int i;

	for (i = 0; i < h->n; i++) {
		if (h->err[i] == err) {
			h->cnt[i]++;
			return;
		}
	}
	if (h->n < 16) {
		h->err[h->n] = err;
		h->cnt[h->n++] = 1;
	}
}

static void errhist_print(const struct errhist *h, const char *what)
{
	int i;

	for (i = 0; i < h->n; i++)
		printf("# %s: %ld x errno %d (%s)\n", what, h->cnt[i], h->err[i],
		       strerror(h->err[i]));
}

static char **read_lines(const char *path, int *n)
{
	char line[512], **v = NULL;
	int cap = 0;
	FILE *f = fopen(path, "r");

	*n = 0;
	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		char *tok = first_token(line);

		if (!*tok || *tok == '#')
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 1024;
			v = realloc(v, cap * sizeof(*v));
			if (!v)
				exit(EXIT_FAIL);
		}
		v[(*n)++] = strdup(tok);
	}
	fclose(f);
	return v;
}

struct bench_target {
	const char *name;
	int btf_id;
	int prog_fd;
	int link_fd;
};

/*
 * How many of the bench targets that got a link are listed in
 * enabled_functions; -1 if it cannot be read.
 */
static long bench_listed(const struct bench_target *tg, long n)
{
	struct name_set en = {};
	char line[1024];
	long listed = 0, i;
	FILE *f = tracefs_open("enabled_functions");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		set_add(&en, strdup(first_token(line)), 0);
	fclose(f);
	set_finish(&en);
	for (i = 0; i < n; i++)
		if (tg[i].link_fd >= 0 && set_find(&en, tg[i].name))
			listed++;
	for (i = 0; i < (long)en.n; i++)
		free((void *)en.v[i].name);
	free(en.v);
	return listed;
}

static int cmd_bench_attach(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "funcs-from", required_argument, NULL, 'f' },
		{ "pattern", required_argument, NULL, 'p' },
		{ "list", no_argument, NULL, 'l' },
		{ "aff", required_argument, NULL, 'A' },
		{ "btf", required_argument, NULL, 'B' },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	const char *what = "bench-attach", *funcs_from = NULL, *pattern = NULL;
	const char *btf_path = NULL;
	struct name_set aff = {}, bfun = {};
	struct aff_stats ast;
	struct errhist load_err = {}, attach_err = {};
	struct bench_target *tg = NULL;
	struct bench *skel = NULL;
	struct btf *btf = NULL;
	const struct bpf_insn *insns;
	size_t insn_cnt;
	char **list = NULL;
	long want = 0, ncand, i, n_loaded = 0, n_attached = 0, log_shown = 0;
	long sk_pattern = 0, sk_btf_dup = 0, sk_no_btf = 0, sk_deny = 0;
	long sk_not_aff = 0, sk_aff_dup = 0, sk_load = 0, sk_attach = 0;
	long sk_repeated = 0;
	int opt, nlist = 0, err, template_loaded = 0;
	bool dry = false;
	double t0, t_attach, t_detach, t_load;

	while ((opt = getopt_long(argc, argv, "f:p:lv", lopts, NULL)) != -1) {
		switch (opt) {
		case 'f': funcs_from = optarg; break;
		case 'p': pattern = optarg; break;
		case 'l': dry = true; break;
		case 'A': aff_path = optarg; break;
		case 'B': btf_path = optarg; break;
		case 'v': verbose = true; break;
		default: return EXIT_USAGE;
		}
	}
	if (optind < argc)
		want = atol(argv[optind]);
	if (want < 0 || (funcs_from && pattern) ||
	    ((aff_path || btf_path) && !dry)) {
		fprintf(stderr, "bench-attach N [--funcs-from FILE | --pattern PREFIX] [--list [--aff FILE] [--btf VMLINUX]]\n");
		return EXIT_USAGE;
	}

	btf = btf_path ? btf__parse(btf_path, NULL) : btf__load_vmlinux_btf();
	if (!btf)
		return unsupported(what, "no vmlinux BTF: %s", strerror(errno));
	if (load_aff(&aff, &ast))
		return unsupported(what, "tracefs available_filter_functions not readable");
	load_btf_funcs(btf, &bfun);
	note("available_filter_functions: %ld lines, %ld module, %ld with '.', %ld names listed more than once",
	     ast.lines, ast.module, ast.dotted, ast.dup_names);
	note("vmlinux BTF: %zu distinct FUNC names", bfun.n);

	if (funcs_from) {
		list = read_lines(funcs_from, &nlist);
		if (!list) {
			fprintf(stderr, "cannot read %s: %s\n", funcs_from,
				strerror(errno));
			return EXIT_USAGE;
		}
		ncand = nlist;
	} else {
		ncand = bfun.n;
	}

	/*
	 * Template: the one bench_nop program of bench.bpf.o, loaded through
	 * the object API; its final instructions are then loaded once per
	 * target with bpf_prog_load() and attach_btf_id (no re-parsing of
	 * vmlinux BTF per target).
	 */
	if (dry) {
		/* --list: selection only, no bpf() call at all */
		insns = NULL;
		insn_cnt = 0;
		template_loaded = 1;
		goto select;
	}
	skel = bench__open();
	if (!skel) {
		expect(false, "%s: open bench object: %s", what, strerror(errno));
		goto out;
	}
	bpf_program__set_autoload(skel->progs.cc_count, false);
	err = bpf_program__set_attach_target(skel->progs.bench_nop, 0,
					     "bpf_fentry_test1");
	if (!err)
		err = bench__load(skel);
	if (err) {
		if (err_is_unsupported(err)) {
			bench__destroy(skel);
			return unsupported(what, "load fentry template: %s",
					   strerror(-err));
		}
		expect(false, "%s: load fentry template (target bpf_fentry_test1): %d (%s)",
		       what, err, strerror(-err));
		goto out;
	}
	insns = bpf_program__insns(skel->progs.bench_nop);
	insn_cnt = bpf_program__insn_cnt(skel->progs.bench_nop);
	template_loaded = 1;

select:
	tg = calloc(ncand ? ncand : 1, sizeof(*tg));
	if (!tg)
		goto out;

	/* selection + load (not timed) */
	t0 = now_ms();
	for (i = 0; i < ncand && (!want || n_loaded < want); i++) {
		LIBBPF_OPTS(bpf_prog_load_opts, lo,
			    .expected_attach_type = BPF_TRACE_FENTRY);
		const char *name;
		struct name_ent *e;
		int id, fd;

		if (funcs_from) {
			name = list[i];
			e = set_find(&bfun, name);
			if (!e) {
				sk_no_btf++;
				continue;
			}
			if (e->used) {
				sk_repeated++;
				continue;
			}
			e->used = true;
		} else {
			e = &bfun.v[i];
			name = e->name;
			if (pattern && strncmp(name, pattern, strlen(pattern))) {
				sk_pattern++;
				continue;
			}
		}
		id = e->id;
		if (id < 0) {
			sk_btf_dup++;
			continue;
		}
		if (denied(name)) {
			sk_deny++;
			continue;
		}
		if (!aff_unique(&aff, name)) {
			e = set_find(&aff, name);
			if (e && e->count > 1)
				sk_aff_dup++;
			else
				sk_not_aff++;
			continue;
		}
		lo.attach_btf_id = id;
		if (dry) {
			printf("%s\n", name);
			n_loaded++;
			continue;
		}
		fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "bench_nop", "GPL",
				   insns, insn_cnt, &lo);
		if (fd < 0) {
			int e2 = errno;

			sk_load++;
			errhist_add(&load_err, e2);
			if (verbose || log_shown < 3) {
				static char log[4096];
				LIBBPF_OPTS(bpf_prog_load_opts, lo2,
					    .expected_attach_type = BPF_TRACE_FENTRY,
					    .attach_btf_id = id,
					    .log_buf = log, .log_size = sizeof(log),
					    .log_level = 1);
				int fd2;

				log[0] = 0;
				fd2 = bpf_prog_load(BPF_PROG_TYPE_TRACING,
						    "bench_nop", "GPL", insns,
						    insn_cnt, &lo2);
				if (fd2 >= 0)
					close(fd2);
				{	/* the verifier's last line says why */
					char *l = log + strlen(log);

					while (l > log && l[-1] == '\n')
						*--l = 0;
					while (l > log && l[-1] != '\n')
						l--;
					printf("# load refused for %s: %s: %s\n",
					       name, strerror(e2), l);
				}
				log_shown++;
			}
			if (err_is_unsupported(e2) && n_loaded == 0 &&
			    sk_load >= 10) {
				printf("# every load fails with %s\n",
				       strerror(e2));
				break;
			}
			continue;
		}
		tg[n_loaded].name = name;
		tg[n_loaded].btf_id = id;
		tg[n_loaded].prog_fd = fd;
		tg[n_loaded].link_fd = -1;
		n_loaded++;
		if (verbose && n_loaded % 1000 == 0)
			fprintf(stderr, "loaded %ld\n", n_loaded);
	}
	t_load = now_ms() - t0;
	if (dry) {
		note("--list: %ld targets selected (load not tried)", n_loaded);
		goto report;
	}
	note("loaded %ld programs in %.1f ms (not part of the timing)",
	     n_loaded, t_load);
	if (!n_loaded) {
		if (load_err.n && err_is_unsupported(load_err.err[0])) {
			errhist_print(&load_err, "load refused");
			bench__destroy(skel);
			return unsupported(what, "fentry programs cannot be loaded");
		}
		expect(false, "%s: no target could be loaded", what);
		goto report;
	}

	/* timed: attach */
	t0 = now_ms();
	for (i = 0; i < n_loaded; i++) {
		tg[i].link_fd = bpf_link_create(tg[i].prog_fd, 0,
						BPF_TRACE_FENTRY, NULL);
		if (tg[i].link_fd < 0) {
			tg[i].link_fd = -1;
			errhist_add(&attach_err, errno);
			sk_attach++;
		}
	}
	t_attach = now_ms() - t0;
	n_attached = n_loaded - sk_attach;

	/* verify (not timed): every attached function is in enabled_functions */
	if (find_tracefs()) {
		long listed = bench_listed(tg, n_loaded);

		expect(listed == n_attached,
		       "%s: %ld of %ld attached functions listed in enabled_functions",
		       what, listed, n_attached);
	}

	/* timed: detach */
	t0 = now_ms();
	for (i = 0; i < n_loaded; i++)
		if (tg[i].link_fd >= 0)
			close(tg[i].link_fd);
	t_detach = now_ms() - t0;

	if (find_tracefs()) {
		long listed = bench_listed(tg, n_loaded);

		expect(listed == 0,
		       "%s: %ld detached functions still listed in enabled_functions, expected 0",
		       what, listed);
	}
	for (i = 0; i < n_loaded; i++)
		close(tg[i].prog_fd);

	printf("bpf_attach_ms %.3f\n", t_attach);
	printf("bpf_detach_ms %.3f\n", t_detach);
	printf("bpf_n_functions %ld\n", n_attached);
	printf("bpf_load_ms %.3f\n", t_load);
	expect(sk_attach == 0, "%s: %ld of %ld loaded programs attached", what,
	       n_attached, n_loaded);
	errhist_print(&attach_err, "attach failed");
	if (want)
		expect(n_attached == want, "%s: %ld functions attached, %ld requested",
		       what, n_attached, want);
report:
	printf("bpf_skipped_pattern %ld\n", sk_pattern);
	printf("bpf_skipped_no_btf %ld\n", sk_no_btf);
	printf("bpf_skipped_repeated %ld\n", sk_repeated);
	printf("bpf_skipped_btf_dup %ld\n", sk_btf_dup);
	printf("bpf_skipped_deny %ld\n", sk_deny);
	printf("bpf_skipped_not_traceable %ld\n", sk_not_aff);
	printf("bpf_skipped_listed_twice %ld\n", sk_aff_dup);
	printf("bpf_skipped_load_refused %ld\n", sk_load);
	printf("bpf_skipped_attach_failed %ld\n", sk_attach);
	note("skipped: pattern = name does not start with the --pattern prefix; no_btf = --funcs-from name not a vmlinux BTF FUNC; repeated = --funcs-from name given again; btf_dup = name of several BTF FUNCs; deny = deny list; not_traceable = not in available_filter_functions (or only as a module function); listed_twice = several lines in available_filter_functions; load_refused = bpf_prog_load() failed for that target");
	errhist_print(&load_err, "load refused");
out:
	if (!template_loaded && !n_fail)
		n_fail++;
	bench__destroy(skel);
	btf__free(btf);
	free(tg);
	return finish(what);
}

/* ------------------------------------------------------------------ */
/* call-cost                                                            */

static uint64_t time_getpid(long m)
{
	uint64_t t0 = now_ns();
	long i;

	for (i = 0; i < m; i++)
		syscall(SYS_getpid);
	return now_ns() - t0;
}

static double min_ns(const double *v, int n)
{
	double m = v[0];
	int i;

	for (i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

static int cmd_call_cost(int argc, char **argv)
{
	/* getpid()'s own function, then the one it calls */
	static const char *const cands[] = {
#ifdef __aarch64__
		"__arm64_sys_getpid", "__task_pid_nr_ns",
#else
		"__x64_sys_getpid", "__do_sys_getpid", "__task_pid_nr_ns",
#endif
	};
	const int n_cands = sizeof(cands) / sizeof(cands[0]);
	static const struct option lopts[] = {
		{ "func", required_argument, NULL, 'f' },
		{ "calls", required_argument, NULL, 'm' },
		{ "rounds", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	const char *what = "call-cost", *func = NULL, *only = NULL;
	double base[16], with[16], b, w;
	long m = 200000, r_cnt = 3, i;
	struct name_set aff = {}, bfun = {};
	struct aff_stats ast;
	struct bench *s = NULL;
	struct bpf_link *link = NULL;
	struct btf *btf;
	__u64 hits;
	int opt, c, err;

	while ((opt = getopt_long(argc, argv, "f:m:r:v", lopts, NULL)) != -1) {
		switch (opt) {
		case 'f': only = optarg; break;
		case 'm': m = atol(optarg); break;
		case 'r': r_cnt = atol(optarg); break;
		case 'v': verbose = true; break;
		default: return EXIT_USAGE;
		}
	}
	if (m < 1 || r_cnt < 1 || r_cnt > 8)
		return EXIT_USAGE;

	btf = btf__load_vmlinux_btf();
	if (!btf)
		return unsupported(what, "no vmlinux BTF: %s", strerror(errno));
	load_btf_funcs(btf, &bfun);
	if (load_aff(&aff, &ast))
		note("available_filter_functions not readable");

	/* first candidate in vmlinux BTF; its alias may be the one in aff */
	for (c = 0; c < n_cands && !func; c++) {
		const char *n = only ? only : cands[c];
		struct name_ent *e = set_find(&bfun, n);

		if (e && e->id > 0) {
			func = n;
			note("target %s: BTF id %d, %s in available_filter_functions",
			     n, e->id, aff_unique(&aff, n) ? "listed" : "not listed (alias?)");
		} else if (verbose) {
			note("%s: not a unique vmlinux BTF FUNC", n);
		}
		if (only)
			break;
	}
	if (!func) {
		btf__free(btf);
		return unsupported(what, "no getpid target in vmlinux BTF");
	}

	s = bench__open();
	if (!s) {
		expect(false, "%s: open: %s", what, strerror(errno));
		goto out;
	}
	bpf_program__set_autoload(s->progs.bench_nop, false);
	err = bpf_program__set_attach_target(s->progs.cc_count, 0, func);
	s->bss->cc_tgid = getpid();
	if (!err)
		err = bench__load(s);
	if (err) {
		if (err_is_unsupported(err)) {
			bench__destroy(s);
			btf__free(btf);
			return unsupported(what, "load: %s", strerror(-err));
		}
		expect(false, "%s: load fentry/%s: %d (%s)", what, func, err,
		       strerror(-err));
		goto out;
	}

	time_getpid(m / 10 + 1);	/* warm up */
	for (i = 0; i < r_cnt; i++)
		base[i] = (double)time_getpid(m) / m;

	link = bpf_program__attach(s->progs.cc_count);
	if (!expect(link != NULL, "%s: attach fentry/%s", what, func))
		goto out;
	for (i = 0; i < r_cnt; i++)
		with[i] = (double)time_getpid(m) / m;
	bpf_link__destroy(link);
	link = NULL;
	hits = s->bss->cc_hits;
	expect(hits == (__u64)(m * r_cnt),
	       "%s: fentry/%s counted %llu calls of this process, expected %ld",
	       what, func, (unsigned long long)hits, m * r_cnt);

	for (i = 0; i < r_cnt; i++)
		base[r_cnt + i] = (double)time_getpid(m) / m;
	expect(s->bss->cc_hits == hits, "%s: no calls counted after detach (%llu new)",
	       what, (unsigned long long)(s->bss->cc_hits - hits));

	b = min_ns(base, 2 * r_cnt);
	w = min_ns(with, r_cnt);
	printf("bpf_fentry_call_func %s\n", func);
	printf("bpf_fentry_call_calls %ld\n", m);
	printf("bpf_fentry_call_rounds %ld\n", r_cnt);
	printf("bpf_fentry_call_raw base_ns");
	for (i = 0; i < 2 * r_cnt; i++)
		printf(" %.2f", base[i]);
	printf(" with_ns");
	for (i = 0; i < r_cnt; i++)
		printf(" %.2f", with[i]);
	printf("\n");
	printf("bpf_fentry_call_base_ns %.2f\n", b);
	printf("bpf_fentry_call_with_ns %.2f\n", w);
	printf("bpf_fentry_call_ns %.2f\n", w - b);
	note("ns per getpid() call, best of the rounds; base rounds before attach and after detach");
out:
	bpf_link__destroy(link);
	bench__destroy(s);
	btf__free(btf);
	return finish(what);
}

/* ------------------------------------------------------------------ */
/* hold                                                                 */

#define HOLD_MAX	8

struct hold_req {
	const char *kind;	/* "fentry", "fexit", "fmod_ret" */
	const char *func;
	long long retval;	/* fmod_ret */
	struct hold *skel;
	struct bpf_program *prog;
	struct bpf_link *link;
	int ret_size;		/* fexit: bytes of the BTF return type, 0: void,
				   -1: unknown (print the raw 64 bits) */
	bool ret_signed;
};

static struct btf *hold_vmlinux_btf;

/* Return type of FUNC btf_id: sets r->ret_size/ret_signed, 0 if found. */
static int hold_ret_type_btf(const struct btf *btf, __u32 btf_id,
			     struct hold_req *r)
{
	const struct btf_type *t = btf__type_by_id(btf, btf_id);
	int id;

	if (!t || !btf_is_func(t))
		return -1;
	t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_func_proto(t))
		return -1;
	if (!t->type) {
		r->ret_size = 0;	/* void */
		return 0;
	}
	id = btf__resolve_type(btf, t->type);	/* skips typedef/const/... */
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	if (!t)
		return -1;
	if (btf_is_int(t) && t->size <= 8) {
		r->ret_size = t->size;
		r->ret_signed = btf_int_encoding(t) & BTF_INT_SIGNED;
	} else if (btf_is_any_enum(t) && t->size <= 8) {
		r->ret_size = t->size;
		r->ret_signed = btf_kflag(t);
	} else if (btf_is_ptr(t)) {
		r->ret_size = 8;
		r->ret_signed = false;
	} else {
		return -1;
	}
	return 0;
}

/*
 * fexit: size and signedness of the return type of the function the loaded
 * program is attached to, from the BTF object and id the kernel recorded
 * (bpf_prog_info.attach_btf_obj_id/attach_btf_id), so vmlinux and module
 * targets resolve exactly as libbpf chose them.  If that fails, ret_size
 * is -1 and the raw 64 bits are printed.
 */
static void hold_ret_type(struct hold_req *r)
{
	struct bpf_prog_info info = {};
	struct bpf_btf_info binfo = {};
	__u32 len = sizeof(info);
	struct btf *btf = NULL;
	char name[64] = "";
	int fd, err;

	r->ret_size = -1;
	if (bpf_obj_get_info_by_fd(bpf_program__fd(r->prog), &info, &len) ||
	    !info.attach_btf_obj_id)
		goto out;
	fd = bpf_btf_get_fd_by_id(info.attach_btf_obj_id);
	if (fd < 0)
		goto out;
	binfo.name = (__u64)(unsigned long)name;
	binfo.name_len = sizeof(name);
	len = sizeof(binfo);
	err = bpf_obj_get_info_by_fd(fd, &binfo, &len);
	close(fd);
	if (err)
		goto out;
	if (!hold_vmlinux_btf)
		hold_vmlinux_btf = btf__load_vmlinux_btf();
	if (!hold_vmlinux_btf)
		goto out;
	if (!strcmp(name, "vmlinux"))
		btf = hold_vmlinux_btf;
	else	/* module BTF is split BTF on top of vmlinux BTF */
		btf = btf__load_from_kernel_by_id_split(info.attach_btf_obj_id,
							hold_vmlinux_btf);
	if (btf && hold_ret_type_btf(btf, info.attach_btf_id, r))
		r->ret_size = -1;
	if (btf != hold_vmlinux_btf)
		btf__free(btf);
out:
	if (verbose)
		fprintf(stderr, "hold: %s %s: BTF '%s' id %u: return %s%d bytes%s\n",
			r->kind, r->func, name, info.attach_btf_id,
			r->ret_size < 0 ? "unknown, printing the raw " : "",
			r->ret_size < 0 ? 8 : r->ret_size,
			r->ret_size > 0 ? (r->ret_signed ? ", signed" : ", unsigned") : "");
}

/* The fexit return value narrowed to its BTF type, as signed decimal. */
static long long hold_ret_value(const struct hold_req *r, __u64 raw)
{
	int bits;

	if (r->ret_size == 0)
		return 0;
	if (r->ret_size < 0 || r->ret_size >= 8)
		return (long long)raw;
	bits = r->ret_size * 8;
	raw &= (1ull << bits) - 1;
	if (r->ret_signed && (raw >> (bits - 1)))
		raw |= ~0ull << bits;
	return (long long)raw;
}

static void hold_detach(struct hold_req *rq, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		bpf_link__destroy(rq[i].link);
		rq[i].link = NULL;
	}
}

static void hold_destroy(struct hold_req *rq, int n)
{
	int i;

	hold_detach(rq, n);
	for (i = 0; i < n; i++)
		hold__destroy(rq[i].skel);
	btf__free(hold_vmlinux_btf);
	hold_vmlinux_btf = NULL;
}

/*
 * Before `ready`: releases everything (entries not opened yet are NULL) and
 * reports r's failure; err is a negative errno.  FAIL (exit 1), or SKIP
 * (exit 4) if the kernel cannot do it.
 */
static int hold_fail(struct hold_req *rq, int n, const struct hold_req *r,
		     const char *step, int err)
{
	int e = err < 0 ? -err : err;

	hold_destroy(rq, n);
	if (err_is_unsupported(e))
		return unsupported("hold", "%s %s: %s: errno %d (%s)", r->kind,
				   r->func, step, e, strerror(e));
	printf("FAIL: hold: %s %s: %s: errno %d (%s)\n", r->kind, r->func,
	       step, e, strerror(e));
	fflush(stdout);
	return EXIT_FAIL;
}

/* After `ready`: one command per line until quit or EOF. */
static void hold_serve(struct hold_req *rq, int n, FILE *in)
{
	char line[256];
	int i;

	while (fgets(line, sizeof(line), in)) {
		char *cmd = first_token(line);

		if (!*cmd)
			continue;
		if (!strcmp(cmd, "counts")) {
			for (i = 0; i < n; i++) {
				const struct hold_req *r = &rq[i];
				/* written by the programs at any time */
				volatile struct hold__bss *b = r->skel->bss;
				long long ret = 0;

				if (!strcmp(r->kind, "fexit"))
					ret = hold_ret_value(r, b->last_ret);
				printf("%s %s hits %llu ret %lld\n", r->kind,
				       r->func, (unsigned long long)b->hits,
				       ret);
			}
			printf("end\n");
		} else if (!strcmp(cmd, "detach")) {
			hold_detach(rq, n);
			printf("detached\n");
		} else if (!strcmp(cmd, "quit")) {
			return;
		} else {
			printf("error: unknown command '%s' (counts, detach, quit)\n",
			       cmd);
		}
		fflush(stdout);
	}
}

static int hold_usage(const char *why)
{
	fprintf(stderr, "hold: %s\nusage: ftsdo-bpf hold [--fentry FUNC]... [--fexit FUNC]... [--fmod-ret FUNC RETVAL]...  (1..%d in total)\n",
		why, HOLD_MAX);
	return EXIT_USAGE;
}

static int cmd_hold(int argc, char **argv)
{
	struct hold_req rq[HOLD_MAX] = {};
	int n = 0, i, err;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		struct hold_req *r = &rq[n];

		if (!strcmp(a, "-v")) {
			verbose = true;
			continue;
		}
		if (strcmp(a, "--fentry") && strcmp(a, "--fexit") &&
		    strcmp(a, "--fmod-ret"))
			return hold_usage("unknown argument");
		if (n == HOLD_MAX)
			return hold_usage("too many programs");
		if (i + 1 >= argc || !argv[i + 1][0])
			return hold_usage("FUNC missing");
		r->func = argv[++i];
		if (!strcmp(a, "--fentry")) {
			r->kind = "fentry";
		} else if (!strcmp(a, "--fexit")) {
			r->kind = "fexit";
		} else {
			char *end;

			r->kind = "fmod_ret";
			if (i + 1 >= argc)
				return hold_usage("RETVAL missing");
			errno = 0;
			r->retval = strtoll(argv[++i], &end, 0);
			if (errno || end == argv[i] || *end)
				return hold_usage("bad RETVAL");
		}
		n++;
	}
	if (!n)
		return hold_usage("nothing to attach");

	/* one skeleton instance per request, only its program loaded */
	for (i = 0; i < n; i++) {
		struct hold_req *r = &rq[i];
		struct hold *s;

		s = r->skel = hold__open();
		if (!s)
			return hold_fail(rq, n, r, "open", -errno);
		if (!strcmp(r->kind, "fentry"))
			r->prog = s->progs.hold_fentry;
		else if (!strcmp(r->kind, "fexit"))
			r->prog = s->progs.hold_fexit;
		else
			r->prog = s->progs.hold_fmod_ret;
		bpf_program__set_autoload(s->progs.hold_fentry,
					  r->prog == s->progs.hold_fentry);
		bpf_program__set_autoload(s->progs.hold_fexit,
					  r->prog == s->progs.hold_fexit);
		bpf_program__set_autoload(s->progs.hold_fmod_ret,
					  r->prog == s->progs.hold_fmod_ret);
		s->rodata->fmr_retval = r->retval;
		/* libbpf looks in vmlinux BTF, then in module BTF */
		err = bpf_program__set_attach_target(r->prog, 0, r->func);
		if (err)
			return hold_fail(rq, n, r, "find in kernel BTF", err);
		err = hold__load(s);
		if (err)
			return hold_fail(rq, n, r, "load", err);
		r->link = bpf_program__attach(r->prog);
		if (!r->link)
			return hold_fail(rq, n, r, "attach", -errno);
		if (!strcmp(r->kind, "fexit"))
			hold_ret_type(r);
	}
	printf("ready\n");
	fflush(stdout);
	hold_serve(rq, n, stdin);
	hold_destroy(rq, n);
	return EXIT_PASS;
}

/* ------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f,
"usage: ftsdo-bpf [-v] COMMAND [ARGS]\n"
"\n"
"BPF trampoline tests for the ftrace-sdo series (run as root in the guest).\n"
"Exit: 0 pass, 1 fail, 4 unsupported, 2 usage.\n"
"\n"
"  fentry-fexit [-k K]   fentry+fexit on bpf_fentry_test1..8, K test runs (5):\n"
"                        exact hits, args and return values per program\n"
"  fmod-ret              fmod_ret on ftsdo_errinj_target of " FTSDO_MOD ":\n"
"                        return becomes %d, original back after detach\n"
"  cycles [N] [-k K]     N attach/trigger/detach cycles (10) of the 16\n"
"                        programs; enabled_functions clean at the end\n"
"  release-nomem         close a trampoline's last link with the n-th\n"
"                        allocation failing (fail-nth), n = 1, 2, ...\n"
"  attach-nomem          attach a link (the trampoline's first, then a\n"
"                        second) with the n-th allocation failing\n"
"  bench-attach N [--funcs-from FILE | --pattern PREFIX]\n"
"                        N trivial fentry programs on N functions (0: all\n"
"                        eligible); prints bpf_attach_ms, bpf_detach_ms,\n"
"                        bpf_n_functions and the skip counts\n"
"                        --list: print the selected targets, load nothing\n"
"                        (offline: --list --aff FILE --btf VMLINUX)\n"
"  call-cost [--calls M] [--rounds R] [--func NAME]\n"
"                        getpid() cost without/with an fentry program on\n"
#ifdef __aarch64__
"                        __arm64_sys_getpid; prints\n"
#else
"                        __x64_sys_getpid (or __do_sys_getpid); prints\n"
#endif
"                        bpf_fentry_call_ns\n"
"  hold [--fentry FUNC]... [--fexit FUNC]... [--fmod-ret FUNC RETVAL]...\n"
"                        attach up to 8 programs (all tasks counted), print\n"
"                        'ready', then serve stdin lines: counts, detach,\n"
"                        quit (EOF = quit); see README.md\n"
"  -v                    verbose (libbpf debug output, more PASS lines)\n",
		FTSDO_FMR_RETVAL);
}

int main(int argc, char **argv)
{
	const char *cmd;
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "-v")) {
			verbose = true;
		} else {
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	cmd = argv[i];
	argc -= i;
	argv += i;
	optind = 1;

	libbpf_set_print(libbpf_print);
	if (geteuid() != 0)
		fprintf(stderr, "warning: not running as root\n");
	bump_rlimits();

	if (!strcmp(cmd, "fentry-fexit"))
		return cmd_fentry_fexit(argc, argv);
	if (!strcmp(cmd, "fmod-ret"))
		return cmd_fmod_ret(argc, argv);
	if (!strcmp(cmd, "cycles"))
		return cmd_cycles(argc, argv);
	if (!strcmp(cmd, "release-nomem"))
		return cmd_release_nomem(argc, argv);
	if (!strcmp(cmd, "attach-nomem"))
		return cmd_attach_nomem(argc, argv);
	if (!strcmp(cmd, "bench-attach"))
		return cmd_bench_attach(argc, argv);
	if (!strcmp(cmd, "call-cost"))
		return cmd_call_cost(argc, argv);
	if (!strcmp(cmd, "hold"))
		return cmd_hold(argc, argv);
	fprintf(stderr, "unknown command '%s'\n", cmd);
	usage(stderr);
	return EXIT_USAGE;
}
