// SPDX-License-Identifier: GPL-2.0
/*
 * ftsdo_test: the harness's out-of-tree module for the shared direct
 * ftrace_ops batch API (update_ftrace_direct_add/del/mod()), for make
 * bench, make's demo and the project's guest tests.  It uses only what the
 * kernel exports; it builds only against a kernel with the batch API.
 *
 * Counting trampolines (ftsdo_tramp_a, ftsdo_tramp_b) count the calls of
 * the 64 functions ftsdo_target_NN of this module they are attached to, and
 * ftsdo_tramp_ret only returns (the benchmarks).
 *
 * debugfs interface (ftsdo_test/):
 *  run   - write a command; the write returns 0 on success or the errno of
 *          the first failing check.  Every check is logged as a KTAP style
 *          "ok N - ..." line.  Commands:
 *          dfn_attach  attach targets 0-7 to A and 8-15 to B, and leave them
 *          dfn_call    call each of them 3 times, check the trampolines saw
 *                      every call
 *          dfn_detach  detach whatever is on the shared ops
 *          dfn_hold    attach every candidate (see ips) to the returning
 *                      trampoline in one batch, and leave them
 *          dfn_release detach them
 *          dfn_hold_single / dfn_release_single: the same with one
 *                      register_ftrace_direct() ops per candidate
 *          mod_attach, mod_detach, mod_reset, mod_expect: attach the
 *                      function at parameter mod_ip to A, detach it, forget
 *                      its hits, check its hits against parameter mod_calls
 *          mod_gone:   attaching mod_ip (of a removed module) fails with
 *                      -EINVAL and changes nothing
 *          mod_retarget: retarget mod_ip to B (its module went away while
 *                      attached: a mod of the dropped entry returns 0)
 *  ips   - write whitespace separated hex addresses (for instance the first
 *          column of tracefs available_filter_functions_addrs) to append
 *          them to the benchmark candidates, "clear" empties the list.  The
 *          candidates must not have a direct trampoline already.
 *  bench - write N (0: all candidates) to time batch attach/detach of the
 *          first N candidates against one register_ftrace_direct() ops per
 *          function (at most parameter per_ops_max), and one function
 *          added and deleted while up to 20,000 others are attached;
 *          read it for the results as "name value" lines.
 *  callbench - write anything to time calls of a function with two ops
 *          while 1, 8, 32 and 128 others are registered, of a function on
 *          the shared direct ops with a second ops, and of growing a
 *          filter one ftrace_set_filter_ip() at a time; read it for the
 *          results as "name nanoseconds" lines.
 *  calls - the calls made to each target by the last command.
 *  errinj - write an integer x to call ftsdo_errinj_target(x), read it for
 *          what that call returned.  The function returns x + 1 and allows
 *          error injection, for BPF fmod_ret programs.
 *  kill  - disable ftrace for the rest of the boot, as ftrace_bug() does:
 *          "now" calls ftrace_kill(), "at SYMBOL" calls it from a kprobe
 *          on SYMBOL, the first time SYMBOL runs.  ftrace_kill() is not
 *          exported: its address comes from a kprobe on it.  Refused
 *          (-EOPNOTSUPP) where the CPU enforces IBT: objtool seals
 *          ftrace_kill(), whose address the kernel never takes.  Read it
 *          for "armed", "fired" or "idle".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/ftrace.h>
#include <linux/debugfs.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/ktime.h>
#include <linux/ctype.h>
#include <linux/error-injection.h>
#include <linux/kprobes.h>
#include <linux/sort.h>

#ifdef CONFIG_X86_64
#include <asm/ibt.h>
#include <asm/nospec-branch.h>
#endif

#ifndef CONFIG_HAVE_SINGLE_FTRACE_DIRECT_OPS
#error "ftsdo_test needs a kernel with the shared direct ops (update_ftrace_direct_add)"
#endif

#include "ftsdo_test.h"

#ifdef CONFIG_X86_64
/*
 * Direct trampolines are entered by a call from the function's fentry site,
 * with the return address into the function on the stack and the
 * function's arguments in registers.  Save the argument registers around
 * the C call; seven pushes after %rbp keep the stack 16 byte aligned.
 * ENDBR for IBT, the call depth accounting of call depth tracking.
 */
#define FTSDO_COUNTING_TRAMP(name, hit)					\
	"	.pushsection	.text, \"ax\", @progbits\n"		\
	"	.type		" #name ", @function\n"			\
	"	.globl		" #name "\n"				\
	#name ":"							\
	ASM_ENDBR							\
	"	pushq %rbp\n"						\
	"	movq %rsp, %rbp\n"					\
	CALL_DEPTH_ACCOUNT						\
	"	pushq %rdi\n"						\
	"	pushq %rsi\n"						\
	"	pushq %rdx\n"						\
	"	pushq %rcx\n"						\
	"	pushq %r8\n"						\
	"	pushq %r9\n"						\
	"	pushq %rax\n"						\
	"	movq 8(%rbp), %rdi\n"					\
	"	call " #hit "\n"					\
	"	popq %rax\n"						\
	"	popq %r9\n"						\
	"	popq %r8\n"						\
	"	popq %rcx\n"						\
	"	popq %rdx\n"						\
	"	popq %rsi\n"						\
	"	popq %rdi\n"						\
	"	leave\n"						\
	ASM_RET								\
	"	.size		" #name ", .-" #name "\n"		\
	"	.popsection\n"

asm(FTSDO_COUNTING_TRAMP(ftsdo_tramp_a, ftsdo_hit_a));
asm(FTSDO_COUNTING_TRAMP(ftsdo_tramp_b, ftsdo_hit_b));

asm("	.pushsection	.text, \"ax\", @progbits\n"
"	.type		ftsdo_tramp_ret, @function\n"
"	.globl		ftsdo_tramp_ret\n"
"ftsdo_tramp_ret:"
	ASM_ENDBR
	CALL_DEPTH_ACCOUNT
	ASM_RET
"	.size		ftsdo_tramp_ret, .-ftsdo_tramp_ret\n"
"	.popsection\n"
);
#elif defined(CONFIG_ARM64)
/*
 * Direct trampolines are entered by "BL" from the call site, or "BR x17"
 * from ftrace_caller() for a trampoline out of BL range, with x9 the
 * function's return address, x30 the address to resume the function at
 * (its ftrace location + 4) and the arguments in x0-x8; x9-x17 may be
 * clobbered.  Two frame records, for the function's caller and for the
 * function, as ftrace_caller() makes them.  "bti c" for BTI.
 */
#define FTSDO_COUNTING_TRAMP(name, hit)					\
	"	.pushsection	.text, \"ax\", %progbits\n"		\
	"	.type		" #name ", %function\n"			\
	"	.globl		" #name "\n"				\
	"	.p2align	2\n"					\
	#name ":\n"							\
	"	bti	c\n"						\
	"	stp	x29, x9, [sp, #-16]!\n"				\
	"	mov	x29, sp\n"					\
	"	stp	x29, x30, [sp, #-16]!\n"			\
	"	mov	x29, sp\n"					\
	"	sub	sp, sp, #80\n"					\
	"	stp	x0, x1, [sp]\n"					\
	"	stp	x2, x3, [sp, #16]\n"				\
	"	stp	x4, x5, [sp, #32]\n"				\
	"	stp	x6, x7, [sp, #48]\n"				\
	"	str	x8, [sp, #64]\n"				\
	"	mov	x0, x30\n"					\
	"	bl	" #hit "\n"					\
	"	ldp	x0, x1, [sp]\n"					\
	"	ldp	x2, x3, [sp, #16]\n"				\
	"	ldp	x4, x5, [sp, #32]\n"				\
	"	ldp	x6, x7, [sp, #48]\n"				\
	"	ldr	x8, [sp, #64]\n"				\
	"	add	sp, sp, #80\n"					\
	"	ldp	x29, x30, [sp], #16\n"				\
	"	ldp	x29, x9, [sp], #16\n"				\
	"	mov	x10, x30\n"					\
	"	mov	x30, x9\n"					\
	"	ret	x10\n"						\
	"	.size		" #name ", .-" #name "\n"		\
	"	.popsection\n"

asm(FTSDO_COUNTING_TRAMP(ftsdo_tramp_a, ftsdo_hit_a));
asm(FTSDO_COUNTING_TRAMP(ftsdo_tramp_b, ftsdo_hit_b));

asm("	.pushsection	.text, \"ax\", %progbits\n"
"	.type		ftsdo_tramp_ret, %function\n"
"	.globl		ftsdo_tramp_ret\n"
"	.p2align	2\n"
"ftsdo_tramp_ret:\n"
"	bti	c\n"
"	mov	x10, x30\n"
"	mov	x30, x9\n"
"	ret	x10\n"
"	.size		ftsdo_tramp_ret, .-ftsdo_tramp_ret\n"
"	.popsection\n"
);
#else
#error "ftsdo_test has trampolines for x86_64 and arm64 only"
#endif

#define TRAMP_A		((unsigned long)ftsdo_tramp_a)
#define TRAMP_B		((unsigned long)ftsdo_tramp_b)
#define TRAMP_RET	((unsigned long)ftsdo_tramp_ret)

/* The functions the commands attach to */
#define NR_TARGETS	64

/* Distinct bodies, so that no two targets can be merged */
#define FTSDO_TARGET(n)					\
static noinline int ftsdo_target_##n(int x)		\
{							\
	barrier();					\
	return x + (n);					\
}

/*
 * ftsdo_target_00 .. ftsdo_target_77: target i is named after i in octal,
 * ftsdo_target_00 is target 0, ftsdo_target_01 target 1, ftsdo_target_10
 * target 8.
 */
FTSDO_TARGET(00) FTSDO_TARGET(01) FTSDO_TARGET(02) FTSDO_TARGET(03)
FTSDO_TARGET(04) FTSDO_TARGET(05) FTSDO_TARGET(06) FTSDO_TARGET(07)
FTSDO_TARGET(10) FTSDO_TARGET(11) FTSDO_TARGET(12) FTSDO_TARGET(13)
FTSDO_TARGET(14) FTSDO_TARGET(15) FTSDO_TARGET(16) FTSDO_TARGET(17)
FTSDO_TARGET(20) FTSDO_TARGET(21) FTSDO_TARGET(22) FTSDO_TARGET(23)
FTSDO_TARGET(24) FTSDO_TARGET(25) FTSDO_TARGET(26) FTSDO_TARGET(27)
FTSDO_TARGET(30) FTSDO_TARGET(31) FTSDO_TARGET(32) FTSDO_TARGET(33)
FTSDO_TARGET(34) FTSDO_TARGET(35) FTSDO_TARGET(36) FTSDO_TARGET(37)
FTSDO_TARGET(40) FTSDO_TARGET(41) FTSDO_TARGET(42) FTSDO_TARGET(43)
FTSDO_TARGET(44) FTSDO_TARGET(45) FTSDO_TARGET(46) FTSDO_TARGET(47)
FTSDO_TARGET(50) FTSDO_TARGET(51) FTSDO_TARGET(52) FTSDO_TARGET(53)
FTSDO_TARGET(54) FTSDO_TARGET(55) FTSDO_TARGET(56) FTSDO_TARGET(57)
FTSDO_TARGET(60) FTSDO_TARGET(61) FTSDO_TARGET(62) FTSDO_TARGET(63)
FTSDO_TARGET(64) FTSDO_TARGET(65) FTSDO_TARGET(66) FTSDO_TARGET(67)
FTSDO_TARGET(70) FTSDO_TARGET(71) FTSDO_TARGET(72) FTSDO_TARGET(73)
FTSDO_TARGET(74) FTSDO_TARGET(75) FTSDO_TARGET(76) FTSDO_TARGET(77)

/* Not const: called through READ_ONCE() so the calls stay real calls */
static int (*ftsdo_targets[NR_TARGETS])(int x) = {
	ftsdo_target_00, ftsdo_target_01, ftsdo_target_02, ftsdo_target_03,
	ftsdo_target_04, ftsdo_target_05, ftsdo_target_06, ftsdo_target_07,
	ftsdo_target_10, ftsdo_target_11, ftsdo_target_12, ftsdo_target_13,
	ftsdo_target_14, ftsdo_target_15, ftsdo_target_16, ftsdo_target_17,
	ftsdo_target_20, ftsdo_target_21, ftsdo_target_22, ftsdo_target_23,
	ftsdo_target_24, ftsdo_target_25, ftsdo_target_26, ftsdo_target_27,
	ftsdo_target_30, ftsdo_target_31, ftsdo_target_32, ftsdo_target_33,
	ftsdo_target_34, ftsdo_target_35, ftsdo_target_36, ftsdo_target_37,
	ftsdo_target_40, ftsdo_target_41, ftsdo_target_42, ftsdo_target_43,
	ftsdo_target_44, ftsdo_target_45, ftsdo_target_46, ftsdo_target_47,
	ftsdo_target_50, ftsdo_target_51, ftsdo_target_52, ftsdo_target_53,
	ftsdo_target_54, ftsdo_target_55, ftsdo_target_56, ftsdo_target_57,
	ftsdo_target_60, ftsdo_target_61, ftsdo_target_62, ftsdo_target_63,
	ftsdo_target_64, ftsdo_target_65, ftsdo_target_66, ftsdo_target_67,
	ftsdo_target_70, ftsdo_target_71, ftsdo_target_72, ftsdo_target_73,
	ftsdo_target_74, ftsdo_target_75, ftsdo_target_76, ftsdo_target_77,
};

/* ftrace location (rec->ip) of each target */
static unsigned long target_ip[NR_TARGETS];

static atomic_long_t hits_a[NR_TARGETS];
static atomic_long_t hits_b[NR_TARGETS];
static atomic_long_t hits_stray;

/* A function outside the targets (one a livepatch replaces), see "mod" */
static unsigned long mod_ip;
static atomic_long_t hits_mod;

static notrace int target_index(unsigned long ret_ip)
{
	unsigned long ip = ret_ip - MCOUNT_INSN_SIZE;
	int i;

	for (i = 0; i < NR_TARGETS; i++) {
		if (target_ip[i] == ip)
			return i;
	}
	return -1;
}

/* Called from the trampolines with the return address into the function */
static notrace __used void ftsdo_hit_a(unsigned long ret_ip)
{
	int i = target_index(ret_ip);

	/*
	 * While mod_ip is set, hits outside the targets are its hits: also
	 * those whose return address a livepatch moved to its new function.
	 */
	if (i < 0 && READ_ONCE(mod_ip))
		atomic_long_inc(&hits_mod);
	else
		atomic_long_inc(i < 0 ? &hits_stray : &hits_a[i]);
}

static notrace __used void ftsdo_hit_b(unsigned long ret_ip)
{
	int i = target_index(ret_ip);

	atomic_long_inc(i < 0 ? &hits_stray : &hits_b[i]);
}

/* Calls made to each target since the current command started */
static atomic_long_t calls_total[NR_TARGETS];

static noinline void call_target(int i)
{
	int (*fn)(int x) = READ_ONCE(ftsdo_targets[i]);

	fn(i);
	atomic_long_inc(&calls_total[i]);
}

static void reset_hits(void)
{
	int i;

	for (i = 0; i < NR_TARGETS; i++) {
		atomic_long_set(&hits_a[i], 0);
		atomic_long_set(&hits_b[i], 0);
	}
	atomic_long_set(&hits_stray, 0);
}

/* The shared direct ops of the targets, and of the benchmarks */
static struct ftrace_ops ftsdo_ops;
static struct ftrace_ops ftsdo_bench_ops;

/* Results of the current command */
static int test_nr;
static int test_err;

static __printf(3, 4)
void check(bool ok, const char *name, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	test_nr++;
	if (ok) {
		pr_info("ok %d - %s\n", test_nr, name);
		return;
	}

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("not ok %d - %s: %pV\n", test_nr, name, &vaf);
	va_end(args);

	if (!test_err)
		test_err = -EINVAL;
}

static void check_ret(int ret, int expect, const char *name)
{
	/* Report the unexpected errno rather than a generic failure */
	if (ret != expect && ret && !test_err)
		test_err = ret;
	check(ret == expect, name, "returned %d, expected %d", ret, expect);
}

/* Build a hash of targets [first, last), all to @direct */
static struct ftrace_hash *targets_hash(int first, int last,
					unsigned long direct)
{
	struct ftrace_hash *hash;
	int i;

	hash = alloc_ftrace_hash(6);
	if (!hash)
		return NULL;

	for (i = first; i < last; i++) {
		if (!add_ftrace_hash_entry_direct(hash, target_ip[i], direct)) {
			free_ftrace_hash(hash);
			return NULL;
		}
	}
	return hash;
}

/* Run one batch call on targets [first, last) */
static int batch_op(int (*op)(struct ftrace_ops *, struct ftrace_hash *),
		    int first, int last, unsigned long direct)
{
	struct ftrace_hash *hash;
	int ret;

	hash = targets_hash(first, last, direct);
	if (!hash)
		return -ENOMEM;
	ret = op(&ftsdo_ops, hash);
	free_ftrace_hash(hash);
	return ret;
}

#define batch_add(...)	batch_op(update_ftrace_direct_add, __VA_ARGS__)
#define batch_del(...)	batch_op(update_ftrace_direct_del, __VA_ARGS__)

static unsigned long ops_filter_count(struct ftrace_ops *ops)
{
	/* Only this module updates its ops, and not concurrently */
	if (!(ops->flags & FTRACE_OPS_FL_INITIALIZED))
		return 0;
	return ftrace_hash_count(rcu_dereference_raw(ops->func_hash->filter_hash));
}

/* Detach whatever is attached to @ops */
static void detach_all(struct ftrace_ops *ops)
{
	struct ftrace_hash *filter, *hash;
	struct ftrace_func_entry *entry;
	int i, size;

	if (!(ops->flags & FTRACE_OPS_FL_ENABLED))
		return;

	hash = alloc_ftrace_hash(10);
	if (!hash)
		return;

	filter = rcu_dereference_raw(ops->func_hash->filter_hash);
	size = 1 << filter->size_bits;
	for (i = 0; i < size; i++) {
		hlist_for_each_entry(entry, &filter->buckets[i], hlist) {
			if (!add_ftrace_hash_entry_direct(hash, entry->ip,
							  entry->direct))
				goto out;
		}
	}
	if (update_ftrace_direct_del(ops, hash))
		pr_warn("could not detach the ops\n");
 out:
	free_ftrace_hash(hash);
}

/*
 * Expected hits per target: calls[i] calls were made to target i, and
 * tramp[i] says which trampoline should have seen them (0: none).
 */
static bool hits_match(const int *calls, const unsigned long *tramp,
		       char *why, size_t len)
{
	long a, b, ea, eb;
	int i;

	for (i = 0; i < NR_TARGETS; i++) {
		a = atomic_long_read(&hits_a[i]);
		b = atomic_long_read(&hits_b[i]);
		ea = tramp[i] == TRAMP_A ? calls[i] : 0;
		eb = tramp[i] == TRAMP_B ? calls[i] : 0;
		if (a != ea || b != eb) {
			snprintf(why, len, "target %d: A %ld B %ld, expected A %ld B %ld",
				 i, a, b, ea, eb);
			return false;
		}
	}
	a = atomic_long_read(&hits_stray);
	if (a) {
		snprintf(why, len, "%ld hits on unknown functions", a);
		return false;
	}
	return true;
}

/* --- ops ----------------------------------------------------------- */

/*
 * ftsdo_ops.ops_func: share the functions with an IPMODIFY ops (a
 * livepatch, see "mod"); the trampolines return into whatever the ops made
 * of the function.
 */
static int ftsdo_ops_func(struct ftrace_ops *op, unsigned long ip,
			  enum ftrace_ops_cmd cmd)
{
	return 0;
}

/* The callback of the plain ops of callbench: does nothing */
static void ftsdo_plain_func(unsigned long ip, unsigned long parent_ip,
			     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

static void test_ops_free(struct ftrace_ops *ops)
{
	if (!ops)
		return;
	if (ops->flags & FTRACE_OPS_FL_ENABLED)
		unregister_ftrace_function(ops);
	ftrace_free_filter(ops);
	kfree(ops);
}

/* Calls of target @i go through the list function while it is registered */
static struct ftrace_ops *list_ops_new(int i)
{
	struct ftrace_ops *ops;
	int ret;

	ops = kzalloc(sizeof(*ops), GFP_KERNEL);
	if (!ops)
		return NULL;
	ops->func = ftsdo_plain_func;
	ret = ftrace_set_filter_ip(ops, target_ip[i], 0, 0);
	if (!ret)
		ret = register_ftrace_function(ops);
	if (ret) {
		test_ops_free(ops);
		return NULL;
	}
	return ops;
}

/* --- mod ----------------------------------------------------------- */

/*
 * A function outside this module, whose address the script writes to the
 * parameter mod_ip (make's demo: cmdline_proc_show, which a livepatch
 * replaces while it is attached).  "mod_attach" attaches it to A,
 * "mod_detach" detaches it, "mod_reset" forgets its hits so far and
 * "mod_expect" checks the hits counted since the previous check against
 * the parameter mod_calls.
 */
static unsigned int mod_calls;
module_param(mod_ip, ulong, 0644);
MODULE_PARM_DESC(mod_ip, "Address of the function used by mod_*");
module_param(mod_calls, uint, 0644);
MODULE_PARM_DESC(mod_calls, "Hits expected on the function by mod_expect");

/* One batch call with the entry mod_ip -> @direct (TRAMP_A unless said) */
static int mod_hash_op_to(int (*op)(struct ftrace_ops *, struct ftrace_hash *),
			  unsigned long direct)
{
	struct ftrace_hash *hash;
	int ret;

	hash = alloc_ftrace_hash(1);
	if (!hash || !add_ftrace_hash_entry_direct(hash, mod_ip, direct))
		ret = -ENOMEM;
	else
		ret = op(&ftsdo_ops, hash);
	free_ftrace_hash(hash);
	return ret;
}

#define mod_hash_op(op)	mod_hash_op_to(op, TRAMP_A)

static void test_mod_attach(void)
{
	int ret;

	if (!mod_ip) {
		check_ret(-EINVAL, 0, "mod: mod_ip is set");
		return;
	}
	ret = mod_hash_op(update_ftrace_direct_add);
	check_ret(ret, 0, "mod: attach the function to A");
	atomic_long_set(&hits_mod, 0);
}

static void test_mod_detach(void)
{
	check_ret(mod_hash_op(update_ftrace_direct_del), 0,
		  "mod: detach the function");
	check(!(ftsdo_ops.flags & FTRACE_OPS_FL_ENABLED), "mod: shared ops empty",
	      "flags %lx count %lu", ftsdo_ops.flags, ops_filter_count(&ftsdo_ops));
}

/*
 * The function's module was removed: its address is no ftrace location
 * any more, so attaching it is bad input, refused with -EINVAL, and the
 * shared ops is left as it was.
 */
static void test_mod_gone(void)
{
	unsigned long flags = ftsdo_ops.flags & FTRACE_OPS_FL_ENABLED;
	unsigned long count = ops_filter_count(&ftsdo_ops);

	check_ret(mod_hash_op(update_ftrace_direct_add), -EINVAL,
		  "mod: attach a function of a removed module");
	check((ftsdo_ops.flags & FTRACE_OPS_FL_ENABLED) == flags &&
	      ops_filter_count(&ftsdo_ops) == count, "mod: shared ops unchanged",
	      "flags %lx count %lu, was %lx %lu", ftsdo_ops.flags,
	      ops_filter_count(&ftsdo_ops), flags, count);
}

/*
 * Retarget the function at mod_ip to B, after its module went away while
 * attached (tests/guest/mod-init-fails.sh): ftrace dropped the entry
 * then, and a mod of it succeeds and changes nothing.
 */
static int mod_retarget_op(struct ftrace_ops *ops, struct ftrace_hash *hash)
{
	return update_ftrace_direct_mod(ops, hash, true);
}

static void test_mod_retarget(void)
{
	check_ret(mod_hash_op_to(mod_retarget_op, TRAMP_B), 0,
		  "mod: retarget the function to B");
}

/* Calls the script did not make (modprobe reads /proc/cmdline) */
static void test_mod_reset(void)
{
	atomic_long_set(&hits_mod, 0);
}

static void test_mod_expect(void)
{
	long hits = atomic_long_xchg(&hits_mod, 0);

	check(hits == mod_calls, "mod: hits on the function",
	      "%ld hits, expected %u", hits, mod_calls);
	check(!atomic_long_read(&hits_stray), "mod: no stray hits", "%ld",
	      atomic_long_read(&hits_stray));
}

/* --- bench --------------------------------------------------------- */

static unsigned int per_ops_max = 500;
module_param(per_ops_max, uint, 0644);
MODULE_PARM_DESC(per_ops_max,
		 "Functions timed with one register_ftrace_direct() ops each");

/* The candidates of the ips file */
static unsigned long *cand;
static unsigned int cand_nr, cand_max;

struct bench_result {
	unsigned int n, skipped, per_ops_n;
	u64 attach_ns, detach_ns;
	u64 attach_part_ns[3], detach_part_ns[3];	/* N/8, N/4, N/2 */
	u64 per_ops_attach_ns, per_ops_detach_ns;
	/* One function added and deleted while held_n are attached */
	unsigned int held_n;
	u64 add1_ns, del1_ns, copy_ns, free_ns;
};

static struct bench_result bench_res;

/* A candidate the benchmarks can attach to: an ftrace location */
static bool cand_ok(unsigned long ip)
{
	return ftrace_location(ip) == ip;
}

/* A hash of @ips[0..@n), each on the returning trampoline */
static struct ftrace_hash *bench_hash(const unsigned long *ips, unsigned int n)
{
	struct ftrace_hash *hash;
	unsigned int i;

	hash = alloc_ftrace_hash(min(fls(n), 12));
	if (!hash)
		return NULL;
	for (i = 0; i < n; i++) {
		if (!add_ftrace_hash_entry_direct(hash, ips[i], TRAMP_RET)) {
			free_ftrace_hash(hash);
			return NULL;
		}
	}
	return hash;
}

static int bench_batch(const unsigned long *ips, unsigned int n,
		       u64 *attach_ns, u64 *detach_ns)
{
	struct ftrace_hash *hash;
	u64 t0, t1, t2;
	int ret;

	if (!n) {
		*attach_ns = 0;
		*detach_ns = 0;
		return 0;
	}

	hash = bench_hash(ips, n);
	if (!hash)
		return -ENOMEM;

	t0 = ktime_get_ns();
	ret = update_ftrace_direct_add(&ftsdo_bench_ops, hash);
	t1 = ktime_get_ns();
	if (!ret) {
		ret = update_ftrace_direct_del(&ftsdo_bench_ops, hash);
		t2 = ktime_get_ns();
		*attach_ns = t1 - t0;
		*detach_ns = t2 - t1;
	}
	free_ftrace_hash(hash);
	return ret;
}

static int u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

#define HELD_MAX	20000
#define HELD_ROUNDS	9

static u64 median_ns(u64 *v)
{
	sort(v, HELD_ROUNDS, sizeof(*v), u64_cmp, NULL);
	return v[HELD_ROUNDS / 2];
}

/*
 * A one-function batch while @n others are on the shared ops: what each
 * single-program BPF attach is. Times update_ftrace_direct_add() and _del()
 * of @ips[@n] with @ips[0..@n) attached, and, as a measure of a batch API
 * that builds merged copies of the tables on every call instead of
 * updating them in place (Linux 7.0), a copy of an @n-entry hash made the
 * way such a copy is made, an entry at a time with
 * add_ftrace_hash_entry_direct() into a new hash, and its free. Medians of
 * HELD_ROUNDS.
 */
static int bench_held(const unsigned long *ips, unsigned int n)
{
	u64 add[HELD_ROUNDS], del[HELD_ROUNDS], copy[HELD_ROUNDS], drop[HELD_ROUNDS];
	struct ftrace_hash *held, *one, *dup;
	struct ftrace_func_entry *entry;
	int r, i, size, ret;
	u64 t0, t1, t2;

	held = bench_hash(ips, n);
	one = bench_hash(ips + n, 1);
	ret = -ENOMEM;
	if (!held || !one)
		goto out;

	ret = update_ftrace_direct_add(&ftsdo_bench_ops, held);
	if (ret)
		goto out;
	for (r = 0; !ret && r < HELD_ROUNDS; r++) {
		t0 = ktime_get_ns();
		ret = update_ftrace_direct_add(&ftsdo_bench_ops, one);
		t1 = ktime_get_ns();
		if (!ret)
			ret = update_ftrace_direct_del(&ftsdo_bench_ops, one);
		t2 = ktime_get_ns();
		add[r] = t1 - t0;
		del[r] = t2 - t1;
	}
	for (r = 0; !ret && r < HELD_ROUNDS; r++) {
		t0 = ktime_get_ns();
		dup = alloc_ftrace_hash(6);
		size = dup ? 1 << held->size_bits : 0;
		for (i = 0; i < size; i++) {
			hlist_for_each_entry(entry, &held->buckets[i], hlist) {
				if (!add_ftrace_hash_entry_direct(dup, entry->ip,
								  entry->direct))
					ret = -ENOMEM;
			}
		}
		t1 = ktime_get_ns();
		free_ftrace_hash(dup);
		t2 = ktime_get_ns();
		if (!dup)
			ret = -ENOMEM;
		copy[r] = t1 - t0;
		drop[r] = t2 - t1;
	}
	/* A valid removal never fails: report it if this one does */
	r = update_ftrace_direct_del(&ftsdo_bench_ops, held);
	if (!ret)
		ret = r;
	if (!ret) {
		bench_res.held_n = n;
		bench_res.add1_ns = median_ns(add);
		bench_res.del1_ns = median_ns(del);
		bench_res.copy_ns = median_ns(copy);
		bench_res.free_ns = median_ns(drop);
	}
out:
	free_ftrace_hash(one);
	free_ftrace_hash(held);
	return ret;
}

static int bench_per_ops(const unsigned long *ips, unsigned int n)
{
	struct ftrace_ops *ops;
	unsigned int i, done;
	u64 t0, t1;
	int ret = 0;

	ops = vcalloc(n, sizeof(*ops));
	if (!ops)
		return -ENOMEM;

	t0 = ktime_get_ns();
	for (done = 0; done < n; done++) {
		ret = ftrace_set_filter_ip(&ops[done], ips[done], 0, 0);
		if (!ret)
			ret = register_ftrace_direct(&ops[done], TRAMP_RET);
		if (ret) {
			ftrace_free_filter(&ops[done]);
			break;
		}
	}
	t1 = ktime_get_ns();
	bench_res.per_ops_attach_ns = t1 - t0;

	t0 = ktime_get_ns();
	for (i = 0; i < done; i++)
		unregister_ftrace_direct(&ops[i], TRAMP_RET, true);
	t1 = ktime_get_ns();
	bench_res.per_ops_detach_ns = t1 - t0;

	bench_res.per_ops_n = done;
	vfree(ops);
	return ret;
}

static int run_bench(unsigned int n)
{
	unsigned int i, used = 0, skipped = 0;
	unsigned long *ips;
	int ret, k;

	if (!cand_nr)
		return -ENOENT;
	if (!n || n > cand_nr)
		n = cand_nr;

	ips = vmalloc_array(n, sizeof(*ips));
	if (!ips)
		return -ENOMEM;

	for (i = 0; i < cand_nr && used < n; i++) {
		if (!cand_ok(cand[i])) {
			skipped++;
			continue;
		}
		ips[used++] = cand[i];
	}

	memset(&bench_res, 0, sizeof(bench_res));
	bench_res.n = used;
	bench_res.skipped = skipped;

	ret = bench_batch(ips, used, &bench_res.attach_ns, &bench_res.detach_ns);
	for (k = 0; !ret && k < 3; k++)
		ret = bench_batch(ips, used >> (3 - k), &bench_res.attach_part_ns[k],
				  &bench_res.detach_part_ns[k]);
	if (!ret && used > 1)
		ret = bench_held(ips, min(used - 1, HELD_MAX));
	if (!ret)
		ret = bench_per_ops(ips, min(used, per_ops_max));

	vfree(ips);
	return ret;
}

/* Print @num / @den with three decimals */
static void seq_put_ratio(struct seq_file *m, const char *name, u64 num, u64 den)
{
	u64 v;

	if (!den) {
		seq_printf(m, "%s 0\n", name);
		return;
	}
	v = div64_u64(num * 1000, den);
	seq_printf(m, "%s %llu.%03llu\n", name, v / 1000, v % 1000);
}

static int bench_show(struct seq_file *m, void *v)
{
	static const char * const part[] = { "n8", "n4", "n2" };
	struct bench_result *r = &bench_res;
	u64 per_attach = 0, per_detach = 0;
	char name[32];
	int k;

	seq_printf(m, "n_functions %u\n", r->n);
	seq_printf(m, "skipped %u\n", r->skipped);
	seq_put_ratio(m, "attach_batch_ms", r->attach_ns, NSEC_PER_MSEC);
	seq_put_ratio(m, "detach_batch_ms", r->detach_ns, NSEC_PER_MSEC);
	for (k = 0; k < 3; k++) {
		snprintf(name, sizeof(name), "attach_batch_ms_%s", part[k]);
		seq_put_ratio(m, name, r->attach_part_ns[k], NSEC_PER_MSEC);
	}
	for (k = 0; k < 3; k++) {
		snprintf(name, sizeof(name), "detach_batch_ms_%s", part[k]);
		seq_put_ratio(m, name, r->detach_part_ns[k], NSEC_PER_MSEC);
	}
	seq_printf(m, "held_n %u\n", r->held_n);
	seq_put_ratio(m, "add1_at20k_us", r->add1_ns, NSEC_PER_USEC);
	seq_put_ratio(m, "del1_at20k_us", r->del1_ns, NSEC_PER_USEC);
	seq_put_ratio(m, "hash_copy20k_us", r->copy_ns, NSEC_PER_USEC);
	seq_put_ratio(m, "hash_free20k_us", r->free_ns, NSEC_PER_USEC);
	seq_printf(m, "per_ops_n %u\n", r->per_ops_n);
	if (r->per_ops_n) {
		per_attach = div_u64(r->per_ops_attach_ns, r->per_ops_n);
		per_detach = div_u64(r->per_ops_detach_ns, r->per_ops_n);
	}
	seq_put_ratio(m, "attach_per_ops_us_per_func", per_attach, NSEC_PER_USEC);
	seq_put_ratio(m, "detach_per_ops_us_per_func", per_detach, NSEC_PER_USEC);
	/* Projected cost of N functions through per-function ops vs one batch */
	seq_put_ratio(m, "attach_speedup", per_attach * r->n, r->attach_ns);
	seq_put_ratio(m, "detach_speedup", per_detach * r->n, r->detach_ns);
	return 0;
}

/* --- direct_functions ---------------------------------------------- */

/*
 * dfn_attach attaches targets 0-7 to A and 8-15 to B and leaves them
 * attached, so that tracefs direct_functions and tracers can be looked at;
 * dfn_call calls each of them 3 times and checks that the trampolines saw
 * every call; dfn_detach detaches them.
 */
#define DFN_LAST	16

static void test_dfn_attach(void)
{
	int ret;

	ret = batch_add(0, DFN_LAST / 2, TRAMP_A);
	check_ret(ret, 0, "dfn: attach targets 0-7 to A");
	if (ret)
		return;
	ret = batch_add(DFN_LAST / 2, DFN_LAST, TRAMP_B);
	check_ret(ret, 0, "dfn: attach targets 8-15 to B");
}

static void test_dfn_call(void)
{
	static unsigned long tramp[NR_TARGETS];
	static int calls[NR_TARGETS];
	char why[96];
	int i, j;

	memset(tramp, 0, sizeof(tramp));
	memset(calls, 0, sizeof(calls));
	for (i = 0; i < DFN_LAST; i++)
		tramp[i] = i < DFN_LAST / 2 ? TRAMP_A : TRAMP_B;
	reset_hits();
	for (i = 0; i < DFN_LAST; i++) {
		calls[i] = 3;
		for (j = 0; j < calls[i]; j++)
			call_target(i);
	}
	check(hits_match(calls, tramp, why, sizeof(why)),
	      "dfn: every call reached its trampoline", "%s", why);
}

static void test_dfn_detach(void)
{
	detach_all(&ftsdo_ops);
	check(!(ftsdo_ops.flags & FTRACE_OPS_FL_ENABLED), "dfn: all detached",
	      "flags %lx count %lu", ftsdo_ops.flags, ops_filter_count(&ftsdo_ops));
}

/*
 * dfn_hold attaches every candidate of the ips file that is an ftrace
 * location to the returning trampoline on ftsdo_bench_ops, in one batch,
 * and leaves them attached, so that direct_functions can be read with as
 * many functions as the kernel has (make bench); dfn_release detaches them.
 */
static void test_dfn_hold(void)
{
	struct ftrace_hash *hash;
	unsigned int i;
	int ret;

	hash = alloc_ftrace_hash(12);
	ret = hash ? 0 : -ENOMEM;
	for (i = 0; !ret && i < cand_nr; i++) {
		if (!cand_ok(cand[i]))
			continue;
		if (!add_ftrace_hash_entry_direct(hash, cand[i], TRAMP_RET))
			ret = -ENOMEM;
	}
	if (!ret)
		ret = update_ftrace_direct_add(&ftsdo_bench_ops, hash);
	check_ret(ret, 0, "dfn_hold: attach the candidates in one batch");
	if (!ret)
		pr_info("# dfn_hold: %lu functions attached\n",
			ops_filter_count(&ftsdo_bench_ops));
	free_ftrace_hash(hash);
}

static void test_dfn_release(void)
{
	detach_all(&ftsdo_bench_ops);
	check(!(ftsdo_bench_ops.flags & FTRACE_OPS_FL_ENABLED),
	      "dfn_release: all detached", "flags %lx count %lu",
	      ftsdo_bench_ops.flags, ops_filter_count(&ftsdo_bench_ops));
}

/*
 * dfn_hold_single attaches the candidates of the ips file, at most
 * DFN_SINGLE_MAX, with one register_ftrace_direct() ops each, as users of
 * the old API do (and BPF where the shared ops is not available), so that
 * make bench can time a read of direct_functions with that many ops.
 * dfn_release_single unregisters them: one ftrace_shutdown() each, with
 * its RCU tasks grace periods, which under emulation takes far longer
 * than the attach.
 *
 * Each register_ftrace_direct() copies direct_functions and frees the old
 * copy after an RCU tasks grace period: the copies waiting for it can grow
 * with the square of the ops, up to 6 GiB for 20,000 (32-byte entries).  A
 * barrier every DFN_SINGLE_BARRIER ops keeps that in bounds.
 */
#define DFN_SINGLE_MAX		20000
#define DFN_SINGLE_BARRIER	128

static struct ftrace_ops *dfn_single;
static unsigned int dfn_single_nr;

static void test_dfn_hold_single(void)
{
	struct ftrace_ops *ops;
	unsigned int i;
	int ret = 0;

	if (!dfn_single)
		dfn_single = vcalloc(DFN_SINGLE_MAX, sizeof(*dfn_single));
	if (!dfn_single)
		ret = -ENOMEM;
	for (i = 0; !ret && i < cand_nr && dfn_single_nr < DFN_SINGLE_MAX; i++) {
		if (!cand_ok(cand[i]))
			continue;
		ops = &dfn_single[dfn_single_nr];
		ret = ftrace_set_filter_ip(ops, cand[i], 0, 0);
		if (!ret)
			ret = register_ftrace_direct(ops, TRAMP_RET);
		if (ret) {
			ftrace_free_filter(ops);
			memset(ops, 0, sizeof(*ops));
			break;
		}
		if (!(++dfn_single_nr % DFN_SINGLE_BARRIER))
			rcu_barrier_tasks();
		cond_resched();
	}
	check_ret(ret, 0, "dfn_hold_single: one old API ops per candidate");
	pr_info("# dfn_hold_single: %u ops\n", dfn_single_nr);
}

static int dfn_single_release(void)
{
	int ret = 0, err;

	while (dfn_single_nr) {
		err = unregister_ftrace_direct(&dfn_single[--dfn_single_nr],
					       TRAMP_RET, true);
		ret = ret ?: err;
	}
	return ret;
}

static void test_dfn_release_single(void)
{
	check_ret(dfn_single_release(), 0, "dfn_release_single: all unregistered");
}

/* --- callbench ----------------------------------------------------- */

/*
 * The cost of one call of a traced function, for the per-function ops of
 * the metadata: the function has two ops, so that its call site goes
 * through the list function, while K other ops are registered on other
 * functions; and a function on the shared direct ops with a second ops,
 * whose trampoline the list function finds for every call.  With call-site
 * ops (arm64) also a function whose only ops is the shared direct ops, its
 * trampoline in BL range (direct_near).  Times are the median of CB_ROUNDS
 * rounds of CB_CALLS calls, in picoseconds per call; run under QEMU -icount
 * they count instructions (1 ns each).
 */
#define CB_TARGET	60
#define CB_DIRECT	61
#define CB_UNTRACED	62
#define CB_OTHERS	50	/* the K other ops are on targets 0-49 */
#define CB_CALLS	1000000UL
#define CB_ROUNDS	3
#define CB_MAX_K	128

static const int cb_ks[] = { 1, 8, 32, 128 };
static u64 cb_list_ps[ARRAY_SIZE(cb_ks)];
static u64 cb_direct_ps, cb_untraced_ps, cb_near_ps;
static int cb_err = -ENODATA;

static noinline u64 cb_time_calls(int t)
{
	int (*fn)(int x) = READ_ONCE(ftsdo_targets[t]);
	u64 round[CB_ROUNDS], t0, tmp;
	unsigned long i;
	int r, j;

	fn(0);
	for (r = 0; r < CB_ROUNDS; r++) {
		t0 = ktime_get_ns();
		for (i = 0; i < CB_CALLS; i++)
			fn(i);
		round[r] = div64_u64((ktime_get_ns() - t0) * 1000, CB_CALLS);
		cond_resched();
	}
	/* The median */
	for (r = 1; r < CB_ROUNDS; r++) {
		for (j = r; j > 0 && round[j - 1] > round[j]; j--) {
			tmp = round[j];
			round[j] = round[j - 1];
			round[j - 1] = tmp;
		}
	}
	return round[CB_ROUNDS / 2];
}

/*
 * The cost of growing the filter of a registered ops one function at a
 * time, which updates the records and, with metadata, the sets of ops:
 * up to CB_FILTER_N ftrace_set_filter_ip() calls, each adding one
 * candidate of the ips file (none loaded: skipped), in ns per call.
 */
#define CB_FILTER_N	5000

static u64 cb_filter_ns;
static unsigned int cb_filter_n;

static int cb_time_filter(void)
{
	struct ftrace_ops *ops;
	unsigned int i, n = 0;
	int err;
	u64 t0;

	cb_filter_n = 0;
	if (!cand_nr)
		return 0;
	ops = list_ops_new(CB_UNTRACED);
	if (!ops)
		return -ENOMEM;
	t0 = ktime_get_ns();
	for (i = 0, err = 0; !err && i < cand_nr && n < CB_FILTER_N; i++) {
		if (!cand_ok(cand[i]))
			continue;
		err = ftrace_set_filter_ip(ops, cand[i], 0, 0);
		n++;
	}
	if (n)
		cb_filter_ns = div_u64(ktime_get_ns() - t0, n);
	cb_filter_n = n;
	test_ops_free(ops);
	return err;
}

static int run_callbench(void)
{
	struct ftrace_ops *two[2] = { NULL, NULL }, *dplain = NULL;
	struct ftrace_ops **others;
	int i, k, nr = 0, err = 0;

	others = kcalloc(CB_MAX_K, sizeof(*others), GFP_KERNEL);
	if (!others)
		return -ENOMEM;

	cb_untraced_ps = cb_time_calls(CB_UNTRACED);

	if (IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS)) {
		/* The shared direct ops alone on CB_DIRECT */
		err = batch_add(CB_DIRECT, CB_DIRECT + 1, TRAMP_RET);
		if (err)
			goto out;
		cb_near_ps = cb_time_calls(CB_DIRECT);
		err = batch_del(CB_DIRECT, CB_DIRECT + 1, TRAMP_RET);
		if (err)
			goto out;
	}

	/* The shared direct ops and a second ops on CB_DIRECT */
	dplain = list_ops_new(CB_DIRECT);
	err = dplain ? batch_add(CB_DIRECT, CB_DIRECT + 1, TRAMP_RET) : -ENOMEM;
	if (err)
		goto out;
	cb_direct_ps = cb_time_calls(CB_DIRECT);
	err = batch_del(CB_DIRECT, CB_DIRECT + 1, TRAMP_RET);
	if (err)
		goto out;
	test_ops_free(dplain);
	dplain = NULL;

	for (i = 0; i < 2; i++) {
		two[i] = list_ops_new(CB_TARGET);
		if (!two[i]) {
			err = -ENOMEM;
			goto out;
		}
	}
	for (k = 0; k < ARRAY_SIZE(cb_ks); k++) {
		for (; nr < cb_ks[k]; nr++) {
			others[nr] = list_ops_new(nr % CB_OTHERS);
			if (!others[nr]) {
				err = -ENOMEM;
				goto out;
			}
		}
		cb_list_ps[k] = cb_time_calls(CB_TARGET);
	}
	err = cb_time_filter();
 out:
	for (i = 0; i < nr; i++)
		test_ops_free(others[i]);
	kfree(others);
	test_ops_free(two[0]);
	test_ops_free(two[1]);
	test_ops_free(dplain);
	detach_all(&ftsdo_ops);
	return err;
}

static void seq_put_ps(struct seq_file *m, const char *name, u64 ps)
{
	seq_printf(m, "%s %llu.%03llu\n", name, ps / 1000, ps % 1000);
}

static int callbench_show(struct seq_file *m, void *v)
{
	char name[32];
	int k;

	if (cb_err) {
		seq_printf(m, "error %d\n", cb_err);
		return 0;
	}
	for (k = 0; k < ARRAY_SIZE(cb_ks); k++) {
		snprintf(name, sizeof(name), "list_k%d_ns", cb_ks[k]);
		seq_put_ps(m, name, cb_list_ps[k]);
	}
	seq_put_ps(m, "direct_shared_ns", cb_direct_ps);
	seq_put_ps(m, "untraced_ns", cb_untraced_ps);
	if (cb_filter_n) {
		seq_printf(m, "filter_ip_ns %llu\n", cb_filter_ns);
		seq_printf(m, "filter_ip_n %u\n", cb_filter_n);
	}
	if (IS_ENABLED(CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS))
		seq_put_ps(m, "direct_near_ns", cb_near_ps);
	return 0;
}

/* --- debugfs ------------------------------------------------------- */

static DEFINE_MUTEX(ftsdo_mutex);
static struct dentry *ftsdo_dir;

static const struct {
	const char *name;
	void (*fn)(void);
} ftsdo_cmds[] = {
	{ "mod_attach",	test_mod_attach },
	{ "mod_detach",	test_mod_detach },
	{ "mod_expect",	test_mod_expect },
	{ "mod_reset",	test_mod_reset },
	{ "mod_gone",	test_mod_gone },
	{ "mod_retarget", test_mod_retarget },
	{ "dfn_attach",	test_dfn_attach },
	{ "dfn_call",	test_dfn_call },
	{ "dfn_detach",	test_dfn_detach },
	{ "dfn_hold",	test_dfn_hold },
	{ "dfn_release", test_dfn_release },
	{ "dfn_hold_single", test_dfn_hold_single },
	{ "dfn_release_single", test_dfn_release_single },
};

static ssize_t run_write(struct file *file, const char __user *ubuf,
			 size_t cnt, loff_t *ppos)
{
	char buf[32], *name;
	int i, j, ret;

	if (cnt >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	name = strim(buf);

	for (i = 0; i < ARRAY_SIZE(ftsdo_cmds); i++) {
		if (!strcmp(name, ftsdo_cmds[i].name))
			break;
	}
	if (i == ARRAY_SIZE(ftsdo_cmds))
		return -EINVAL;

	mutex_lock(&ftsdo_mutex);
	test_nr = 0;
	test_err = 0;
	for (j = 0; j < NR_TARGETS; j++)
		atomic_long_set(&calls_total[j], 0);
	pr_info("# %s\n", ftsdo_cmds[i].name);
	ftsdo_cmds[i].fn();
	pr_info("# %s: %s (%d checks)\n", ftsdo_cmds[i].name,
		test_err ? "FAIL" : "PASS", test_nr);
	ret = test_err;
	mutex_unlock(&ftsdo_mutex);

	return ret ? ret : cnt;
}

static const struct file_operations run_fops = {
	.write	= run_write,
	.llseek	= noop_llseek,
};

static ssize_t callbench_write(struct file *file, const char __user *ubuf,
			       size_t cnt, loff_t *ppos)
{
	mutex_lock(&ftsdo_mutex);
	cb_err = run_callbench();
	mutex_unlock(&ftsdo_mutex);
	return cb_err ?: cnt;
}

static int callbench_open(struct inode *inode, struct file *file)
{
	return single_open(file, callbench_show, NULL);
}

static const struct file_operations callbench_fops = {
	.open		= callbench_open,
	.read		= seq_read,
	.write		= callbench_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int cand_add(unsigned long ip)
{
	unsigned long *n;

	if (cand_nr == cand_max) {
		unsigned int max = cand_max ? cand_max * 2 : 1024;

		n = kvrealloc(cand, max * sizeof(*cand), GFP_KERNEL);
		if (!n)
			return -ENOMEM;
		cand = n;
		cand_max = max;
	}
	cand[cand_nr++] = ip;
	return 0;
}

/* A token split between two writes is kept here */
static char ips_carry[24];

static int ips_parse_token(char *tok)
{
	unsigned long ip;

	if (!strcmp(tok, "clear")) {
		cand_nr = 0;
		return 0;
	}
	if (kstrtoul(tok, 16, &ip))
		return -EINVAL;
	return cand_add(ip);
}

static ssize_t ips_write(struct file *file, const char __user *ubuf,
			 size_t cnt, loff_t *ppos)
{
	size_t carry = strlen(ips_carry);
	char *buf, *p, *tok;
	int ret = 0;

	buf = kvmalloc(carry + cnt + 1, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, ips_carry, carry);
	if (copy_from_user(buf + carry, ubuf, cnt)) {
		kvfree(buf);
		return -EFAULT;
	}
	buf[carry + cnt] = '\0';
	ips_carry[0] = '\0';

	mutex_lock(&ftsdo_mutex);
	p = buf;
	while (!ret) {
		p = skip_spaces(p);
		if (!*p)
			break;
		tok = p;
		while (*p && !isspace(*p))
			p++;
		if (!*p) {
			/* No terminating space yet: wait for the next write */
			if (strscpy(ips_carry, tok, sizeof(ips_carry)) < 0)
				ret = -EINVAL;
			break;
		}
		*p++ = '\0';
		ret = ips_parse_token(tok);
	}
	mutex_unlock(&ftsdo_mutex);

	kvfree(buf);
	return ret ? ret : cnt;
}

static int ips_show(struct seq_file *m, void *v)
{
	seq_printf(m, "candidates %u\n", cand_nr);
	return 0;
}

static int ips_open(struct inode *inode, struct file *file)
{
	return single_open(file, ips_show, NULL);
}

static const struct file_operations ips_fops = {
	.open		= ips_open,
	.read		= seq_read,
	.write		= ips_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int calls_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < NR_TARGETS; i++)
		seq_printf(m, "%d %ld\n", i, atomic_long_read(&calls_total[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(calls);

static ssize_t bench_write(struct file *file, const char __user *ubuf,
			   size_t cnt, loff_t *ppos)
{
	unsigned int n;
	int ret;

	ret = kstrtouint_from_user(ubuf, cnt, 0, &n);
	if (ret)
		return ret;

	mutex_lock(&ftsdo_mutex);
	ret = run_bench(n);
	mutex_unlock(&ftsdo_mutex);

	return ret ? ret : cnt;
}

static int bench_open(struct inode *inode, struct file *file)
{
	return single_open(file, bench_show, NULL);
}

static const struct file_operations bench_fops = {
	.open		= bench_open,
	.read		= seq_read,
	.write		= bench_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* A target for BPF fmod_ret programs: they can change what it returns. */
static noinline int ftsdo_errinj_target(int x)
{
	return x + 1;
}
ALLOW_ERROR_INJECTION(ftsdo_errinj_target, ERRNO);

static int errinj_result;

static ssize_t errinj_write(struct file *file, const char __user *ubuf,
			    size_t cnt, loff_t *ppos)
{
	int x, ret;

	ret = kstrtoint_from_user(ubuf, cnt, 0, &x);
	if (ret)
		return ret;

	mutex_lock(&ftsdo_mutex);
	errinj_result = ftsdo_errinj_target(x);
	mutex_unlock(&ftsdo_mutex);
	return cnt;
}

static int errinj_show(struct seq_file *m, void *v)
{
	mutex_lock(&ftsdo_mutex);
	seq_printf(m, "%d\n", errinj_result);
	mutex_unlock(&ftsdo_mutex);
	return 0;
}

static int errinj_open(struct inode *inode, struct file *file)
{
	return single_open(file, errinj_show, NULL);
}

static const struct file_operations errinj_fops = {
	.open		= errinj_open,
	.read		= seq_read,
	.write		= errinj_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/* --- kill: ftrace_disabled on purpose ------------------------------ */

static void (*ftsdo_ftrace_kill)(void);
static struct kprobe kill_kp;
static atomic_t kill_fired;
static bool kill_armed;

static int kill_lookup(void)
{
	struct kprobe kp = { .symbol_name = "ftrace_kill" };
	int ret;

#ifdef CONFIG_X86_KERNEL_IBT
	if (cpu_feature_enabled(X86_FEATURE_IBT))
		return -EOPNOTSUPP;
#endif
	if (ftsdo_ftrace_kill)
		return 0;
	ret = register_kprobe(&kp);
	if (ret)
		return ret;
	ftsdo_ftrace_kill = (void (*)(void))kp.addr;
	unregister_kprobe(&kp);
	return 0;
}

static int kill_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (!atomic_xchg(&kill_fired, 1)) {
		pr_info("kill: ftrace_kill() at %ps\n", p->addr);
		ftsdo_ftrace_kill();
	}
	return 0;
}

static int kill_at(const char *sym)
{
	if (kill_armed)
		return -EBUSY;
	memset(&kill_kp, 0, sizeof(kill_kp));
	kill_kp.symbol_name = kstrdup(sym, GFP_KERNEL);
	if (!kill_kp.symbol_name)
		return -ENOMEM;
	kill_kp.pre_handler = kill_pre;
	if (register_kprobe(&kill_kp)) {
		kfree(kill_kp.symbol_name);
		return -ENOENT;
	}
	kill_armed = true;
	return 0;
}

static void kill_disarm(void)
{
	if (!kill_armed)
		return;
	unregister_kprobe(&kill_kp);
	kfree(kill_kp.symbol_name);
	kill_armed = false;
}

static ssize_t kill_write(struct file *file, const char __user *ubuf,
			  size_t cnt, loff_t *ppos)
{
	char buf[KSYM_NAME_LEN + 4], *cmd;
	int ret;

	if (cnt >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, cnt))
		return -EFAULT;
	buf[cnt] = '\0';
	cmd = strim(buf);

	mutex_lock(&ftsdo_mutex);
	ret = kill_lookup();
	if (ret)
		goto out;
	if (!strcmp(cmd, "now")) {
		atomic_set(&kill_fired, 1);
		pr_info("kill: ftrace_kill()\n");
		ftsdo_ftrace_kill();
	} else if (!strncmp(cmd, "at ", 3)) {
		ret = kill_at(skip_spaces(cmd + 3));
	} else {
		ret = -EINVAL;
	}
 out:
	mutex_unlock(&ftsdo_mutex);
	return ret ?: cnt;
}

static int kill_show(struct seq_file *m, void *v)
{
	seq_puts(m, atomic_read(&kill_fired) ? "fired\n" :
		 kill_armed ? "armed\n" : "idle\n");
	return 0;
}

static int kill_open(struct inode *inode, struct file *file)
{
	return single_open(file, kill_show, NULL);
}

static const struct file_operations kill_fops = {
	.open		= kill_open,
	.read		= seq_read,
	.write		= kill_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int __init ftsdo_init(void)
{
	int i;

	for (i = 0; i < NR_TARGETS; i++) {
		target_ip[i] = ftrace_location((unsigned long)ftsdo_targets[i]);
		if (!target_ip[i]) {
			pr_err("target %d is not traceable\n", i);
			return -ENODEV;
		}
	}

	ftsdo_ops.ops_func = ftsdo_ops_func;

	ftsdo_dir = debugfs_create_dir("ftsdo_test", NULL);
	debugfs_create_file("run", 0200, ftsdo_dir, NULL, &run_fops);
	debugfs_create_file("ips", 0600, ftsdo_dir, NULL, &ips_fops);
	debugfs_create_file("bench", 0600, ftsdo_dir, NULL, &bench_fops);
	debugfs_create_file("callbench", 0600, ftsdo_dir, NULL, &callbench_fops);
	debugfs_create_file("calls", 0400, ftsdo_dir, NULL, &calls_fops);
	debugfs_create_file("errinj", 0600, ftsdo_dir, NULL, &errinj_fops);
	debugfs_create_file("kill", 0600, ftsdo_dir, NULL, &kill_fops);
	return 0;
}

static void __exit ftsdo_exit(void)
{
	debugfs_remove_recursive(ftsdo_dir);
	kill_disarm();
	detach_all(&ftsdo_ops);
	detach_all(&ftsdo_bench_ops);
	dfn_single_release();
	vfree(dfn_single);
	kvfree(cand);
}

module_init(ftsdo_init);
module_exit(ftsdo_exit);

MODULE_DESCRIPTION("ftrace-sdo harness module for the shared direct ops batch API");
MODULE_LICENSE("GPL");
