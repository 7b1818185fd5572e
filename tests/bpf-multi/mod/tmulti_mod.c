// SPDX-License-Identifier: GPL-2.0
/*
 * tmulti_mod: functions of known signatures for tests/bpf-multi's module
 * case: 0 to 12 integer arguments (those past the sixth on the stack), a
 * 16-byte struct by value between scalars, and a pointer.  Writing
 * anything to /sys/kernel/debug/tmulti_mod/run calls each of them once
 * (tmm_*: what tmulti attaches to; init and exit are named otherwise).
 * Argument i of tmm_argsN is N * 16 + i, and tmm_argsN returns the sum of
 * its arguments plus N.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>

struct tmm_s16 {
	u64 lo, hi;
};

#define A(n, i)	((u64)(n) * 16 + (i))

/*
 * Not cloned either: called with constants, GCC would run a .constprop
 * copy of each, and the function traced would never be called.
 */
#define TMM noinline __attribute__((__noipa__))

static u64 tmm_zero;

/* A load the compiler keeps: clang drops a call whose result it knows */
TMM u64 tmm_args0(void) { return READ_ONCE(tmm_zero); }
TMM u64 tmm_args1(u64 a) { return a + 1; }
TMM u64 tmm_args2(u64 a, u64 b) { return a + b + 2; }
TMM u64 tmm_args3(u64 a, u64 b, u64 c) { return a + b + c + 3; }
TMM u64 tmm_args4(u64 a, u64 b, u64 c, u64 d)
{
	return a + b + c + d + 4;
}

TMM u64 tmm_args5(u64 a, u64 b, u64 c, u64 d, u64 e)
{
	return a + b + c + d + e + 5;
}

TMM u64 tmm_args6(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f)
{
	return a + b + c + d + e + f + 6;
}

TMM u64 tmm_args7(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f, u64 g)
{
	return a + b + c + d + e + f + g + 7;
}

TMM u64 tmm_args8(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f, u64 g,
		       u64 h)
{
	return a + b + c + d + e + f + g + h + 8;
}

TMM u64 tmm_args9(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f, u64 g,
		       u64 h, u64 i)
{
	return a + b + c + d + e + f + g + h + i + 9;
}

TMM u64 tmm_args10(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f, u64 g,
			u64 h, u64 i, u64 j)
{
	return a + b + c + d + e + f + g + h + i + j + 10;
}

TMM u64 tmm_args11(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f, u64 g,
			u64 h, u64 i, u64 j, u64 k)
{
	return a + b + c + d + e + f + g + h + i + j + k + 11;
}

TMM u64 tmm_args12(u64 a, u64 b, u64 c, u64 d, u64 e, u64 f, u64 g,
			u64 h, u64 i, u64 j, u64 k, u64 l)
{
	return a + b + c + d + e + f + g + h + i + j + k + l + 12;
}

/* Two slots of the trampoline's context, between two scalars */
TMM u64 tmm_struct(u64 a, struct tmm_s16 s, u64 b)
{
	return a + s.lo + s.hi + b;
}

TMM u64 tmm_ptr(const struct tmm_s16 *s)
{
	return s->lo + s->hi;
}

static u64 tmm_sum;

static ssize_t run_write(struct file *file, const char __user *buf,
			 size_t count, loff_t *pos)
{
	struct tmm_s16 s = { .lo = 0x1111, .hi = 0x2222 };

	/*
	 * A store the compiler keeps: clang drops calls of functions without
	 * side effects whose results nobody reads (noipa is GCC's only).
	 */
	WRITE_ONCE(tmm_sum, tmm_args0() + tmm_args1(A(1, 1)) +
		  tmm_args2(A(2, 1), A(2, 2)) +
		  tmm_args3(A(3, 1), A(3, 2), A(3, 3)) +
		  tmm_args4(A(4, 1), A(4, 2), A(4, 3), A(4, 4)) +
		  tmm_args5(A(5, 1), A(5, 2), A(5, 3), A(5, 4), A(5, 5)) +
		  tmm_args6(A(6, 1), A(6, 2), A(6, 3), A(6, 4), A(6, 5), A(6, 6)) +
		  tmm_args7(A(7, 1), A(7, 2), A(7, 3), A(7, 4), A(7, 5), A(7, 6),
			    A(7, 7)) +
		  tmm_args8(A(8, 1), A(8, 2), A(8, 3), A(8, 4), A(8, 5), A(8, 6),
			    A(8, 7), A(8, 8)) +
		  tmm_args9(A(9, 1), A(9, 2), A(9, 3), A(9, 4), A(9, 5), A(9, 6),
			    A(9, 7), A(9, 8), A(9, 9)) +
		  tmm_args10(A(10, 1), A(10, 2), A(10, 3), A(10, 4), A(10, 5),
			     A(10, 6), A(10, 7), A(10, 8), A(10, 9), A(10, 10)) +
		  tmm_args11(A(11, 1), A(11, 2), A(11, 3), A(11, 4), A(11, 5),
			     A(11, 6), A(11, 7), A(11, 8), A(11, 9), A(11, 10),
			     A(11, 11)) +
		  tmm_args12(A(12, 1), A(12, 2), A(12, 3), A(12, 4), A(12, 5),
			     A(12, 6), A(12, 7), A(12, 8), A(12, 9), A(12, 10),
			     A(12, 11), A(12, 12)) +
		  tmm_struct(0x10, s, 0x20) + tmm_ptr(&s));
	return count;
}

static const struct file_operations run_fops = {
	.write = run_write,
};

static struct dentry *tmm_dir;

static int __init tmulti_mod_init(void)
{
	tmm_dir = debugfs_create_dir("tmulti_mod", NULL);
	debugfs_create_file("run", 0200, tmm_dir, NULL, &run_fops);
	return 0;
}

static void __exit tmulti_mod_exit(void)
{
	debugfs_remove(tmm_dir);
}

module_init(tmulti_mod_init);
module_exit(tmulti_mod_exit);
MODULE_DESCRIPTION("Functions of known signatures for tracing_multi tests");
MODULE_LICENSE("GPL");
