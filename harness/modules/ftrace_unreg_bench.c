// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark for ./run bench, built out of tree against the stock and the
 * patched kernel alike (it uses only the public ftrace API).
 *
 * n times: register a dynamically allocated ops filtered on one function
 * of this module, call it, then time unregister_ftrace_function().  While
 * the unregister runs, a prober thread keeps changing the filter of a
 * second, never registered, ops: each of those calls takes ftrace_lock,
 * so the longest one during an unregister is how long the unregister
 * kept every other ftrace_lock user waiting.
 *
 * Then the same with a second ops, unregistered asynchronously where the
 * kernel can (unregister_ftrace_function_async(), FTRACE_UNREG_BENCH_ASYNC
 * from the Makefile); stock has no such call, so there the second one is
 * another unregister_ftrace_function(), which is what a stock user has.
 *
 * One line per sample:
 *   ftrace_unreg_bench: sample reg_ns=R unreg_ns=U lock_wait_max_ns=W
 *     unreg_async_ns=A lock_wait_async_max_ns=V
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>

static unsigned int samples = 20;
module_param(samples, uint, 0444);
MODULE_PARM_DESC(samples, "Register/unregister cycles to time (1..1000)");

static atomic64_t bench_hits;
static u64 prober_max_ns;		/* Written by the prober only. */
static bool prober_armed;		/* Window open: track the maximum. */

static noinline void ftrace_unreg_bench_target(void)
{
	barrier();
}

static noinline void ftrace_unreg_bench_probe_target(void)
{
	barrier();
}

static void bench_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	atomic64_inc(&bench_hits);
}

static struct ftrace_ops probe_ops;	/* Never registered. */

static int prober_fn(void *unused)
{
	unsigned long ip = (unsigned long)ftrace_unreg_bench_probe_target;

	while (!kthread_should_stop()) {
		u64 t0 = ktime_get_ns();
		u64 d;

		/* Takes ftrace_lock whether or not the ops is registered. */
		ftrace_set_filter_ip(&probe_ops, ip, 0, 1);
		d = ktime_get_ns() - t0;
		if (READ_ONCE(prober_armed) && d > READ_ONCE(prober_max_ns))
			WRITE_ONCE(prober_max_ns, d);
		usleep_range(100, 200);
	}
	return 0;
}

static void bench_free(struct ftrace_ops *ops)
{
	ftrace_free_filter(ops);
	kfree(ops);
}

static int bench_unregister(struct ftrace_ops *ops, bool async)
{
#ifdef FTRACE_UNREG_BENCH_ASYNC
	if (async)
		return unregister_ftrace_function_async(ops, bench_free);
#endif
	return unregister_ftrace_function(ops);
}

/*
 * Register an ops on the target, call it, and time its unregister and the
 * longest ftrace_lock wait of the prober meanwhile.  The ops is freed here,
 * or by the release callback of an asynchronous unregister.
 */
static int bench_cycle(bool async, u64 *reg_ns, u64 *unreg_ns, u64 *wait_ns)
{
	struct ftrace_ops *ops;
	u64 t0;
	int ret;

	ops = kzalloc(sizeof(*ops), GFP_KERNEL);
	if (!ops)
		return -ENOMEM;
	ops->func = bench_func;
	ret = ftrace_set_filter_ip(ops, (unsigned long)ftrace_unreg_bench_target, 0, 0);
	if (ret)
		goto out;
	t0 = ktime_get_ns();
	ret = register_ftrace_function(ops);
	*reg_ns = ktime_get_ns() - t0;
	if (ret)
		goto out;
	ftrace_unreg_bench_target();

	WRITE_ONCE(prober_max_ns, 0);
	WRITE_ONCE(prober_armed, true);
	t0 = ktime_get_ns();
	ret = bench_unregister(ops, async);
	*unreg_ns = ktime_get_ns() - t0;
	if (ret)
		return ret;	/* Still registered: leak it rather than free it. */
	/* Let a prober call that was blocked by the unregister finish. */
	usleep_range(2000, 3000);
	WRITE_ONCE(prober_armed, false);
	*wait_ns = READ_ONCE(prober_max_ns);
#ifdef FTRACE_UNREG_BENCH_ASYNC
	if (async)
		return 0;	/* bench_free() runs after the grace periods. */
#endif
out:
	bench_free(ops);
	return ret;
}

static int bench_one(void)
{
	u64 reg_ns, unreg_ns, wait_ns, areg_ns, aunreg_ns, await_ns;
	int ret;

	ret = bench_cycle(false, &reg_ns, &unreg_ns, &wait_ns);
	if (!ret)
		ret = bench_cycle(true, &areg_ns, &aunreg_ns, &await_ns);
	if (ret)
		return ret;
	pr_info("sample reg_ns=%llu unreg_ns=%llu lock_wait_max_ns=%llu unreg_async_ns=%llu lock_wait_async_max_ns=%llu\n",
		reg_ns, unreg_ns, wait_ns, aunreg_ns, await_ns);
	return 0;
}

static int __init ftrace_unreg_bench_init(void)
{
	struct task_struct *prober;
	unsigned int i;
	int ret = 0;

	if (!samples || samples > 1000)
		return -EINVAL;
	prober = kthread_run(prober_fn, NULL, "unreg_prober");
	if (IS_ERR(prober))
		return PTR_ERR(prober);
	for (i = 0; i < samples && !ret; i++) {
		ret = bench_one();
		msleep(20);
	}
	kthread_stop(prober);
	ftrace_free_filter(&probe_ops);
	pr_info("done samples=%u hits=%lld ret=%d\n", i,
		atomic64_read(&bench_hits), ret);
	return ret;
}

static void __exit ftrace_unreg_bench_exit(void)
{
}

module_init(ftrace_unreg_bench_init);
module_exit(ftrace_unreg_bench_exit);

MODULE_DESCRIPTION("unregister_ftrace_function() latency and ftrace_lock wait");
MODULE_LICENSE("GPL");
