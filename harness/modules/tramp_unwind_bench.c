// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark for ./run bench: the cost of a stack unwind that passes
 * through an ftrace trampoline, with no retired trampoline and with many
 * retired ones waiting for their Tasks RCU grace period.  Built out of
 * tree against the stock and the patched kernel alike.
 *
 * An ops traces tramp_unwind_bench_target() alone, so the call site calls
 * the ops's own trampoline, and its callback times stack_trace_save():
 * the ORC unwinder finds the trampoline frame through the trampoline
 * lookup (orc_ftrace_find()).  Phase 1 measures that with no retired
 * trampoline.  Phase 2 (patched kernel only, TRAMP_UNWIND_BENCH_ASYNC
 * from the Makefile) first starts a kthread that spins in the kernel and
 * so holds every Tasks RCU grace period, then registers and
 * asynchronously unregisters @retired ops on another function: each
 * retires a trampoline that cannot be freed while the spinner runs.  The
 * spinner runs until rmmod, so that the caller can read trace_stat while
 * they are pending.
 *
 * One line per sample:
 *   tramp_unwind_bench: sample retired=R ns=N frames=F
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/ftrace.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>

static unsigned int samples = 201;
module_param(samples, uint, 0444);
MODULE_PARM_DESC(samples, "Unwinds to time per phase (1..10000)");

static unsigned int retired = 1000;
module_param(retired, uint, 0444);
MODULE_PARM_DESC(retired, "Trampolines to retire before phase 2 (0..4000)");

#define TUB_DEPTH	64

static unsigned long tub_entries[TUB_DEPTH];
static u64 tub_ns;
static unsigned int tub_frames;
static bool tub_armed;

static noinline void tramp_unwind_bench_target(void)
{
	barrier();
}

static noinline void tramp_unwind_bench_churn_target(void)
{
	barrier();
}

static void tub_func(unsigned long ip, unsigned long parent_ip,
		     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	u64 t0;

	if (!READ_ONCE(tub_armed))
		return;
	t0 = ktime_get_ns();
	tub_frames = stack_trace_save(tub_entries, TUB_DEPTH, 0);
	tub_ns = ktime_get_ns() - t0;
}

static struct ftrace_ops tub_ops = {
	.func = tub_func,
};

static void tub_measure(unsigned int nr_retired)
{
	unsigned int i;

	for (i = 0; i < samples; i++) {
		WRITE_ONCE(tub_armed, true);
		tramp_unwind_bench_target();
		WRITE_ONCE(tub_armed, false);
		pr_info("sample retired=%u ns=%llu frames=%u\n",
			nr_retired, tub_ns, tub_frames);
		cond_resched();
	}
}

#ifdef TRAMP_UNWIND_BENCH_ASYNC
static struct task_struct *tub_spinner;
static DECLARE_COMPLETION(tub_spinning);
static bool tub_stop;

/* No voluntary switch until rmmod: every Tasks RCU grace period waits. */
static int tub_spin(void *unused)
{
	set_user_nice(current, MAX_NICE);
	complete(&tub_spinning);
	while (!READ_ONCE(tub_stop))
		cpu_relax();
	while (!kthread_should_stop())
		schedule_timeout_idle(HZ / 10);
	return 0;
}

/* The filter hash goes with the ops: kfree() alone would leak it. */
static void tub_release(struct ftrace_ops *ops)
{
	ftrace_free_filter(ops);
	kfree(ops);
}

static void dummy_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
}

static unsigned int tub_retire(void)
{
	unsigned long ip = (unsigned long)tramp_unwind_bench_churn_target;
	struct ftrace_ops *ops;
	unsigned int i;

	tub_spinner = kthread_run(tub_spin, NULL, "tub_spinner");
	if (IS_ERR(tub_spinner)) {
		tub_spinner = NULL;
		return 0;
	}
	wait_for_completion(&tub_spinning);
	for (i = 0; i < retired; i++) {
		ops = kzalloc(sizeof(*ops), GFP_KERNEL);
		if (!ops)
			break;
		ops->func = dummy_func;
		if (ftrace_set_filter_ip(ops, ip, 0, 0) ||
		    register_ftrace_function(ops)) {
			ftrace_free_filter(ops);
			kfree(ops);
			break;
		}
		if (unregister_ftrace_function_async(ops, tub_release)) {
			/* Still registered: let grace periods end, then unhook. */
			WRITE_ONCE(tub_stop, true);
			unregister_ftrace_function(ops);
			ftrace_free_filter(ops);
			kfree(ops);
			break;
		}
		cond_resched();
	}
	return i;
}
#endif

static int __init tramp_unwind_bench_init(void)
{
	unsigned long ip = (unsigned long)tramp_unwind_bench_target;
	int ret;

	if (!samples || samples > 10000 || retired > 4000)
		return -EINVAL;
	ret = ftrace_set_filter_ip(&tub_ops, ip, 0, 0);
	if (!ret)
		ret = register_ftrace_function(&tub_ops);
	if (ret) {
		ftrace_free_filter(&tub_ops);
		return ret;
	}
	tub_measure(0);
#ifdef TRAMP_UNWIND_BENCH_ASYNC
	if (retired) {
		unsigned int n = tub_retire();

		pr_info("retired %u trampolines of %u\n", n, retired);
		tub_measure(n);
	}
#endif
	return 0;
}

static void __exit tramp_unwind_bench_exit(void)
{
#ifdef TRAMP_UNWIND_BENCH_ASYNC
	/* First: the synchronous unregister below waits for a grace period. */
	if (tub_spinner) {
		WRITE_ONCE(tub_stop, true);
		kthread_stop(tub_spinner);
	}
#endif
	unregister_ftrace_function(&tub_ops);
	ftrace_free_filter(&tub_ops);
}

module_init(tramp_unwind_bench_init);
module_exit(tramp_unwind_bench_exit);
MODULE_DESCRIPTION("Stack unwind cost through ftrace trampolines, live and retired");
MODULE_LICENSE("GPL");
