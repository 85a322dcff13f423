// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark for ./run bench, built out of tree against the stock and the
 * patched kernel alike (it uses only the public ftrace API): the module a
 * user writes.  Its init registers one ops filtered on a function of this
 * module and calls that function; its exit unregisters the ops with
 * unregister_ftrace_function().  The guest times "rmmod" of it while
 * another owner (a tracefs instance) turns its function tracer on and
 * off: the removal should wait for this module's own ops, not for the
 * other owner's retirements or for ftrace_lock held across their grace
 * periods.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ftrace.h>
#include <linux/module.h>

static atomic_t rmmod_bench_hits;

static noinline void ftrace_rmmod_bench_target(void)
{
	barrier();
}

static void rmmod_bench_func(unsigned long ip, unsigned long parent_ip,
			     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	atomic_inc(&rmmod_bench_hits);
}

static struct ftrace_ops rmmod_bench_ops = {
	.func	= rmmod_bench_func,
};

static int __init ftrace_rmmod_bench_init(void)
{
	int ret;

	ret = ftrace_set_filter_ip(&rmmod_bench_ops,
				   (unsigned long)ftrace_rmmod_bench_target, 0, 0);
	if (ret)
		return ret;
	ret = register_ftrace_function(&rmmod_bench_ops);
	if (ret) {
		ftrace_free_filter(&rmmod_bench_ops);
		return ret;
	}
	ftrace_rmmod_bench_target();
	if (atomic_read(&rmmod_bench_hits) != 1) {
		/* The ops must really be live, or the removal times nothing. */
		pr_err("the ops was not called (%d calls)\n",
		       atomic_read(&rmmod_bench_hits));
		unregister_ftrace_function(&rmmod_bench_ops);
		ftrace_free_filter(&rmmod_bench_ops);
		return -EIO;
	}
	return 0;
}

static void __exit ftrace_rmmod_bench_exit(void)
{
	unregister_ftrace_function(&rmmod_bench_ops);
	ftrace_free_filter(&rmmod_bench_ops);
}

module_init(ftrace_rmmod_bench_init);
module_exit(ftrace_rmmod_bench_exit);

MODULE_DESCRIPTION("rmmod of a module with one ftrace_ops while another owner churns");
MODULE_LICENSE("GPL");
