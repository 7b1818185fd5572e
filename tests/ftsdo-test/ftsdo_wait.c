// SPDX-License-Identifier: GPL-2.0
/*
 * ftsdo_wait: a module whose init waits, then fails or succeeds, for
 * tests/guest/mod-init-fails.sh.  While its init waits, the module is
 * COMING: its functions' records are enabled and try_module_get() on it
 * succeeds, so a caller of the batch API can attach ftsdo_wait_func();
 * when the init then fails, the module is freed with the function still
 * attached, whatever references are held.
 *
 * Parameters: wait_ms, how long the init waits (0: not at all), and fail,
 * whether it then fails (-EAGAIN).  calls: write N to call
 * ftsdo_wait_func() N times.
 */
#include <linux/module.h>
#include <linux/delay.h>

static unsigned int wait_ms;
module_param(wait_ms, uint, 0444);
MODULE_PARM_DESC(wait_ms, "Milliseconds the init waits");

static bool fail;
module_param(fail, bool, 0444);
MODULE_PARM_DESC(fail, "Whether the init fails after the wait");

static noinline void ftsdo_wait_func(void)
{
	/* Not merged with another function, not optimized away */
	asm volatile("" ::: "memory");
}

static int calls_set(const char *val, const struct kernel_param *kp)
{
	unsigned int i, n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		ftsdo_wait_func();
	return 0;
}

static const struct kernel_param_ops calls_ops = {
	.set = calls_set,
};
module_param_cb(calls, &calls_ops, NULL, 0200);
MODULE_PARM_DESC(calls, "Write N to call ftsdo_wait_func() N times");

static int __init ftsdo_wait_init(void)
{
	if (wait_ms)
		msleep(wait_ms);
	return fail ? -EAGAIN : 0;
}

static void __exit ftsdo_wait_exit(void)
{
}

module_init(ftsdo_wait_init);
module_exit(ftsdo_wait_exit);
MODULE_DESCRIPTION("A module whose init waits, then fails or succeeds");
MODULE_LICENSE("GPL");
