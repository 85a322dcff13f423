// SPDX-License-Identifier: GPL-2.0
/*
 * Trampoline churn: register, re-filter and unregister ftrace_ops from
 * several threads while other threads keep calling the traced functions
 * and get preempted inside the trampolines, the case that Tasks RCU
 * exists for.
 *
 * A witness ops traces ftrace_churn_witness() for the whole run, and one
 * churner keeps adding and removing ftrace_churn_spare(), which nobody
 * calls, to and from its filter, so update passes keep running while the
 * callers run through the witness's trampoline (a filter change moves
 * call sites and builds no trampoline).  Every call must reach the
 * witness exactly once: its hit count must equal the number of calls.
 * The other churners' ops share the callers' functions, so their
 * trampolines are retired, on unregister, while callers may be preempted
 * inside them.
 *
 * The other churners each loop: allocate an ops, filter it on one or two
 * target functions (the witness's included), register it, re-filter it
 * refilters times, and unregister it, synchronously (then free it) or
 * asynchronously (it is freed by the release callback, which may still
 * be pending when the module is removed).
 *
 * insmod runs the whole test and prints one line,
 *   ftrace-churn: PASS refilters=... calls=... witness=... ...
 * or FAIL, with the latencies of the two kinds of unregister.  The module
 * stays loaded until rmmod so that the test can remove it while releases
 * are pending.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/ftrace.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/trace.h>

static unsigned int nr_churners = 2;
module_param(nr_churners, uint, 0444);
MODULE_PARM_DESC(nr_churners, "Threads registering, re-filtering and unregistering ops (1..16)");

static unsigned int nr_callers = 2;
module_param(nr_callers, uint, 0444);
MODULE_PARM_DESC(nr_callers, "Threads calling the traced functions (1..16)");

static unsigned int nr_refilters = 1000;
module_param(nr_refilters, uint, 0444);
MODULE_PARM_DESC(nr_refilters, "Filter changes on registered ops to make in all (1..10000000)");

static unsigned int refilters_per_ops = 8;
module_param(refilters_per_ops, uint, 0444);
MODULE_PARM_DESC(refilters_per_ops, "Filter changes per ops between register and unregister (0..1000)");

static unsigned int async_pct = 50;
module_param(async_pct, uint, 0444);
MODULE_PARM_DESC(async_pct, "Percentage of unregisters that are asynchronous (0..100)");

static unsigned int delay_every = 64;
module_param(delay_every, uint, 0444);
MODULE_PARM_DESC(delay_every, "Every Nth callback spins 20 us, to be preempted in the trampoline (0: never)");

static unsigned int stall_every;
module_param(stall_every, uint, 0444);
MODULE_PARM_DESC(stall_every, "Every Nth callback spins 100 ms, longer than the RCU grace period that a premature free would wait for (0: never)");

static unsigned int linger;
module_param(linger, uint, 0444);
MODULE_PARM_DESC(linger, "Ops that insmod leaves registered and rmmod unregisters asynchronously (0..64)");

static bool release_takes_trace_lock;
module_param(release_takes_trace_lock, bool, 0444);
MODULE_PARM_DESC(release_takes_trace_lock, "Release callbacks take trace_types_lock, as trace_array_get_by_name() does");

#define CHURN_MAX_LINGER	64
#define CHURN_DELAY_US		20
#define CHURN_STALL_US		(100 * USEC_PER_MSEC)
#define CHURN_MAX_THREADS	16
#define CHURN_MAX_SAMPLES	4096

/*
 * The traced functions.  noinline and the barrier keep an out-of-line,
 * traceable copy with a side effect the compiler cannot drop.
 */
static noinline void ftrace_churn_witness(void)
{
	barrier();
}

static noinline void ftrace_churn_target_a(void)
{
	barrier();
}

static noinline void ftrace_churn_target_b(void)
{
	barrier();
}

/* Never called: toggled in the witness's filter to replace its trampoline. */
static noinline void ftrace_churn_spare(void)
{
	barrier();
}

static void (* const churn_targets[])(void) = {
	ftrace_churn_witness, ftrace_churn_target_a, ftrace_churn_target_b,
};

static atomic64_t witness_hits;
static atomic64_t churn_hits;
static atomic64_t preempted_inside;
static atomic64_t stalls;
static atomic64_t refilters_done;
static atomic64_t registers_done;
static atomic64_t unregs_sync;
static atomic64_t unregs_async;
static atomic64_t releases_done;
static atomic_t errors;
static atomic64_t calls_made;
static bool stop_callers;

/* Unregister latencies in ns; only churner threads write, each its own slot. */
static u64 *lat_sync;
static u64 *lat_async;
static atomic_t nr_lat_sync;
static atomic_t nr_lat_async;

static void churn_spin(u64 us)
{
	unsigned long nivcsw = current->nivcsw;
	u64 end = ktime_get_ns() + us * NSEC_PER_USEC;

	/*
	 * Spin, do not sleep: a sleep would be a voluntary switch.  Preemption
	 * is enabled here, so a tick can preempt us inside the trampoline.
	 */
	while (ktime_get_ns() < end)
		cpu_relax();
	if (current->nivcsw != nivcsw)
		atomic64_inc(&preempted_inside);
}

/*
 * The stall: a trampoline retired while we spin here must not be freed
 * before we return into it.  An RCU grace period alone would have ended
 * long before, because we are preemptible and not in a read-side section.
 */
static void churn_delay(s64 n)
{
	if (stall_every && !(n % stall_every)) {
		atomic64_inc(&stalls);
		churn_spin(CHURN_STALL_US);
	} else if (delay_every && !(n % delay_every)) {
		churn_spin(CHURN_DELAY_US);
	}
}

static void witness_func(unsigned long ip, unsigned long parent_ip,
			 struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	churn_delay(atomic64_inc_return(&witness_hits));
}

static void churn_func(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	churn_delay(atomic64_inc_return(&churn_hits));
}

/* No FTRACE_OPS_FL_RECURSION: the callbacks run with preemption enabled. */
static struct ftrace_ops witness_ops = {
	.func = witness_func,
};

static void record_lat(u64 *arr, atomic_t *n, u64 ns)
{
	int i = atomic_inc_return(n) - 1;

	if (i < CHURN_MAX_SAMPLES)
		arr[i] = ns;
}

static void churn_release(struct ftrace_ops *ops)
{
	/*
	 * trace_array_get_by_name() takes trace_types_lock (and creates the
	 * instance the first time): a release that somebody waits for while
	 * holding that lock, as instance removal does, would deadlock.
	 */
	if (release_takes_trace_lock) {
		struct trace_array *tr = trace_array_get_by_name("ftrace_churn", NULL);

		if (tr)
			trace_array_put(tr);
	}
	ftrace_free_filter(ops);
	kfree(ops);
	atomic64_inc(&releases_done);
}

static DECLARE_COMPLETION(contract_released);
static int contract_reregister_ret;

static void contract_release(struct ftrace_ops *ops)
{
	ftrace_free_filter(ops);
	kfree(ops);
	complete(&contract_released);
}

/*
 * The contract of unregister_ftrace_function_async(): until the release
 * callback is called, the ops cannot be registered again (-EBUSY), or the
 * release would free a live ops.  Checked once, before the churn, on an
 * ops that nobody calls.
 */
static void churn_check_release_contract(void)
{
	struct ftrace_ops *ops = kzalloc(sizeof(*ops), GFP_KERNEL);
	int ret;

	if (!ops) {
		atomic_inc(&errors);
		return;
	}
	ret = ftrace_set_filter_ip(ops, (unsigned long)ftrace_churn_spare, 0, 0);
	if (!ret)
		ret = register_ftrace_function(ops);
	if (ret) {
		pr_err("contract: register: %d\n", ret);
		atomic_inc(&errors);
		ftrace_free_filter(ops);
		kfree(ops);
		return;
	}
	ret = unregister_ftrace_function_async(ops, contract_release);
	if (ret) {
		pr_err("contract: unregister_ftrace_function_async: %d\n", ret);
		atomic_inc(&errors);
		return;	/* Still registered: leak rather than free it. */
	}
	contract_reregister_ret = register_ftrace_function(ops);
	if (contract_reregister_ret != -EBUSY) {
		pr_err("contract: registering again before the release returned %d, not -EBUSY\n",
		       contract_reregister_ret);
		atomic_inc(&errors);
		/* The release is still to come: take the ops out again first. */
		if (!contract_reregister_ret)
			unregister_ftrace_function(ops);
	}
	wait_for_completion(&contract_released);
}

static bool churn_budget_left(void)
{
	return atomic64_read(&refilters_done) < nr_refilters && !atomic_read(&errors);
}

static int churn_filter(struct ftrace_ops *ops, unsigned int target, int remove)
{
	int ret = ftrace_set_filter_ip(ops, (unsigned long)churn_targets[target],
				       remove, 0);

	if (ret) {
		pr_err("ftrace_set_filter_ip(%ps, remove=%d): %d\n",
		       churn_targets[target], remove, ret);
		atomic_inc(&errors);
	}
	return ret;
}

static int witness_filter(int remove)
{
	int ret = ftrace_set_filter_ip(&witness_ops, (unsigned long)ftrace_churn_spare,
				       remove, 0);

	if (ret) {
		pr_err("witness filter (remove=%d): %d\n", remove, ret);
		atomic_inc(&errors);
	}
	return ret;
}

/* A new ops filtered on churn_targets[@target] and registered, or NULL. */
static struct ftrace_ops *churn_ops_register(unsigned int target)
{
	struct ftrace_ops *ops = kzalloc(sizeof(*ops), GFP_KERNEL);

	if (!ops) {
		atomic_inc(&errors);
		return NULL;
	}
	ops->func = churn_func;
	if (!churn_filter(ops, target, 0)) {
		if (!register_ftrace_function(ops)) {
			atomic64_inc(&registers_done);
			return ops;
		}
		pr_err("register_ftrace_function failed\n");
		atomic_inc(&errors);
	}
	ftrace_free_filter(ops);
	kfree(ops);
	return NULL;
}

/* Registered by insmod, unregistered asynchronously by rmmod. */
static struct ftrace_ops *lingering[CHURN_MAX_LINGER];
static unsigned int nr_lingering;

static void churn_linger(void)
{
	struct ftrace_ops *ops;

	/* Index 1 is ftrace_churn_target_a, which the callers keep calling. */
	while (nr_lingering < linger) {
		ops = churn_ops_register(1);
		if (!ops)
			return;
		lingering[nr_lingering++] = ops;
	}
}

/* One ops from allocation to unregister. */
static void churn_one_ops(void)
{
	unsigned int base = get_random_u32_below(ARRAY_SIZE(churn_targets));
	unsigned int extra = (base + 1) % ARRAY_SIZE(churn_targets);
	struct ftrace_ops *ops;
	unsigned int r;
	u64 t0;

	ops = churn_ops_register(base);
	if (!ops)
		return;

	/* Never remove @base: an empty filter would trace every function. */
	for (r = 0; r < refilters_per_ops && churn_budget_left(); r++) {
		if (churn_filter(ops, extra, r & 1))
			break;
		atomic64_inc(&refilters_done);
		cond_resched_tasks_rcu_qs();
	}

	t0 = ktime_get_ns();
	if (get_random_u32_below(100) < async_pct) {
		if (unregister_ftrace_function_async(ops, churn_release)) {
			atomic_inc(&errors);
			return;	/* Still registered: leak rather than free it. */
		}
		record_lat(lat_async, &nr_lat_async, ktime_get_ns() - t0);
		atomic64_inc(&unregs_async);
		return;
	}
	if (unregister_ftrace_function(ops)) {
		atomic_inc(&errors);
		return;
	}
	record_lat(lat_sync, &nr_lat_sync, ktime_get_ns() - t0);
	atomic64_inc(&unregs_sync);
	ftrace_free_filter(ops);
	kfree(ops);
}

/* Churner 0 also keeps replacing the witness's trampoline. */
static int churner_fn(void *arg)
{
	bool witness_swapper = !arg;
	unsigned int i = 0;

	while (churn_budget_left()) {
		if (witness_swapper) {
			if (witness_filter(i & 1))
				break;
			atomic64_inc(&refilters_done);
			i++;
		}
		churn_one_ops();
		cond_resched_tasks_rcu_qs();
	}
	/* Leave the witness with its base filter only. */
	if (witness_swapper && (i & 1))
		witness_filter(1);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static int caller_fn(void *arg)
{
	u64 n = 0;

	while (!READ_ONCE(stop_callers)) {
		ftrace_churn_witness();
		n++;
		ftrace_churn_target_a();
		ftrace_churn_target_b();
		/*
		 * A kthread that never blocks holds up every Tasks RCU grace
		 * period (with full preemption cond_resched() does nothing).
		 * Sleep now and then: that is a quiescent state, and it leaves
		 * the churners CPU time on a small guest.
		 */
		if (!(n & 255))
			usleep_range(50, 100);
	}
	atomic64_add(n, &calls_made);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* p50, p99 and max of @n samples, in us. */
static void lat_summary(const char *name, u64 *arr, int n, char *buf, size_t len)
{
	n = min(n, CHURN_MAX_SAMPLES);
	if (!n) {
		snprintf(buf, len, "%s_n=0", name);
		return;
	}
	sort(arr, n, sizeof(*arr), cmp_u64, NULL);
	snprintf(buf, len, "%s_n=%d %s_p50_us=%llu %s_p99_us=%llu %s_max_us=%llu",
		 name, n, name, div_u64(arr[n / 2], 1000),
		 name, div_u64(arr[(n * 99) / 100], 1000),
		 name, div_u64(arr[n - 1], 1000));
}

static struct task_struct *churners[CHURN_MAX_THREADS];
static struct task_struct *callers[CHURN_MAX_THREADS];

static void stop_threads(struct task_struct **t, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!IS_ERR_OR_NULL(t[i]))
			kthread_stop(t[i]);
}

static int start_threads(struct task_struct **t, unsigned int n,
			 int (*fn)(void *), const char *name)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		t[i] = kthread_run(fn, (void *)(unsigned long)i, "%s/%u", name, i);
		if (IS_ERR(t[i]))
			return PTR_ERR(t[i]);
	}
	return 0;
}

static bool churn_params_ok(void)
{
	return nr_churners >= 1 && nr_churners <= CHURN_MAX_THREADS &&
	       nr_callers >= 1 && nr_callers <= CHURN_MAX_THREADS &&
	       nr_refilters >= 1 && nr_refilters <= 10000000 &&
	       refilters_per_ops <= 1000 && async_pct <= 100 &&
	       linger <= CHURN_MAX_LINGER;
}

static int __init ftrace_churn_init(void)
{
	char sync_buf[128], async_buf[128];
	s64 calls, hits;
	u64 t0, ms;
	bool pass;
	int ret;

	if (!churn_params_ok())
		return -EINVAL;
	lat_sync = kcalloc(CHURN_MAX_SAMPLES, sizeof(u64), GFP_KERNEL);
	lat_async = kcalloc(CHURN_MAX_SAMPLES, sizeof(u64), GFP_KERNEL);
	if (!lat_sync || !lat_async) {
		ret = -ENOMEM;
		goto out_free;
	}

	ret = ftrace_set_filter_ip(&witness_ops, (unsigned long)ftrace_churn_witness, 0, 0);
	if (!ret)
		ret = register_ftrace_function(&witness_ops);
	if (ret)
		goto out_filter;

	churn_check_release_contract();
	t0 = ktime_get_ns();
	ret = start_threads(callers, nr_callers, caller_fn, "churn_call");
	if (!ret)
		ret = start_threads(churners, nr_churners, churner_fn, "churn_ops");
	while (!ret && churn_budget_left())
		msleep(20);
	/* All churners are done with their ops before the callers stop. */
	stop_threads(churners, nr_churners);
	WRITE_ONCE(stop_callers, true);
	stop_threads(callers, nr_callers);
	ms = div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC);
	unregister_ftrace_function(&witness_ops);
	if (ret)
		goto out_filter;

	calls = atomic64_read(&calls_made);
	hits = atomic64_read(&witness_hits);
	pass = calls == hits && !atomic_read(&errors);
	lat_summary("sync", lat_sync, atomic_read(&nr_lat_sync), sync_buf, sizeof(sync_buf));
	lat_summary("async", lat_async, atomic_read(&nr_lat_async), async_buf, sizeof(async_buf));
	pr_info("%s refilters=%lld registers=%lld unregs_sync=%lld unregs_async=%lld calls=%lld witness=%lld mismatch=%lld preempted_inside=%lld stalls=%lld errors=%d reregister_ret=%d ms=%llu %s %s\n",
		pass ? "PASS" : "FAIL", atomic64_read(&refilters_done),
		atomic64_read(&registers_done), atomic64_read(&unregs_sync),
		atomic64_read(&unregs_async), calls, hits, hits - calls,
		atomic64_read(&preempted_inside), atomic64_read(&stalls),
		atomic_read(&errors), contract_reregister_ret, ms,
		sync_buf, async_buf);
	churn_linger();
	ret = 0;
out_filter:
	ftrace_free_filter(&witness_ops);
out_free:
	if (ret) {
		kfree(lat_sync);
		kfree(lat_async);
	}
	return ret;
}

/*
 * Asynchronous releases may still be pending: they run module code
 * (churn_release()), and the ftrace core drains them before our text
 * goes away.
 */
static void __exit ftrace_churn_exit(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < nr_lingering; i++)
		if (!unregister_ftrace_function_async(lingering[i], churn_release))
			n++;
	pr_info("exit: releases done %lld of %lld (%u of %u lingering ops unregistered here)\n",
		atomic64_read(&releases_done), atomic64_read(&unregs_async) + n,
		n, nr_lingering);
	kfree(lat_sync);
	kfree(lat_async);
}

module_init(ftrace_churn_init);
module_exit(ftrace_churn_exit);

MODULE_AUTHOR("RCU-tasks team");
MODULE_DESCRIPTION("Churn of per-ops ftrace trampolines under callers preempted inside them");
MODULE_LICENSE("GPL");
