// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark for ./run bench, built out of tree against the stock and the
 * patched kernel alike (it uses only call_rcu_tasks() and
 * rcu_barrier_tasks()): a call_rcu_tasks() stream or flood.  Its init
 * starts nthreads kthreads (0: one per online CPU, each bound to its CPU)
 * that queue callbacks for "seconds", one every interval_us (0: as fast
 * as they can), never more than max_inflight outstanding each; then it
 * waits, without asking for a grace period, until every callback queued
 * has been invoked and prints one line:
 *
 *   result threads=T queued=N invoked=N capped=C run_ns=NS total_ns=NS
 *          enqueue_ns=NS lat_p50_ns=NS lat_p99_ns=NS lat_max_ns=NS
 *
 * run_ns is the queuing phase, total_ns also the wait for the last
 * callbacks, enqueue_ns the time spent inside call_rcu_tasks() summed over
 * all calls (the cost of its list and lock under contention), capped the
 * times a kthread found max_inflight callbacks outstanding and waited
 * (the cap is a memory guard: a run where it bound measured the cap, not
 * the grace periods), lat_* the time from call_rcu_tasks() to the
 * callback (1 ms buckets, so p50 and p99 are at 1 ms resolution; the max
 * is exact).  The guest takes its own counters (IPIs, kthread CPU time)
 * around the insmod, which returns once the run is over.
 *
 * The rcu_barrier_tasks() that module unload needs (a callback may still
 * be on its way out of this module's text) runs at rmmod, outside that
 * window: the patched kernel expedites a grace period somebody waits for,
 * and a barrier inside the window would measure that, not the stream.
 *
 * A flood kthread reports a Tasks RCU quiescent state every batch
 * callbacks (cond_resched_tasks_rcu_qs(), which both kernels honour: it
 * clears the task's holdout flag), as a real caller passes one when it
 * blocks.  Without it a kthread that never
 * blocks holds every grace period up until the cap stops it.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

static int nthreads;
module_param(nthreads, int, 0444);
MODULE_PARM_DESC(nthreads, "queuing kthreads (0: one per online CPU, else 1..64)");
static int seconds = 10;
module_param(seconds, int, 0444);
MODULE_PARM_DESC(seconds, "length of the queuing phase (s, 1..600)");
static int interval_us = 1000;
module_param(interval_us, int, 0444);
MODULE_PARM_DESC(interval_us, "pause between two calls of a kthread (us, 0: none, else 1..1000000)");
static int max_inflight = 100000;
module_param(max_inflight, int, 0444);
MODULE_PARM_DESC(max_inflight, "outstanding callbacks per kthread at most (1..4000000)");
static int batch = 100;
module_param(batch, int, 0444);
MODULE_PARM_DESC(batch, "with interval_us=0, a Tasks RCU quiescent state every batch calls (1..100000)");

/* How long the init waits for the last callbacks before it gives up. */
#define CB_BENCH_DRAIN_TIMEOUT	(300 * HZ)

/* Latency histogram: 1 ms buckets up to LAT_BUCKETS ms, then one more. */
#define LAT_BUCKETS	60000

struct cb_bench_cb {
	struct rcu_head rh;
	u64 queued_ns;
	atomic_t *inflight;
};

struct cb_bench_thread {
	struct task_struct *task;
	atomic_t inflight;
	u64 queued;
	u64 enqueue_ns;
	u64 capped;
};

static atomic_t *lat_hist;		/* LAT_BUCKETS + 1 counters */
static struct cb_bench_thread *cb_threads;	/* Freed at exit if not drained. */
static atomic64_t lat_max_ns;
static atomic64_t cbs_invoked;
static atomic64_t cbs_target = ATOMIC64_INIT(-1);	/* -1: still queuing */
static DECLARE_COMPLETION(cbs_all_invoked);
static bool cb_bench_stop;

static void cb_bench_cb(struct rcu_head *rh)
{
	struct cb_bench_cb *cb = container_of(rh, struct cb_bench_cb, rh);
	u64 lat = ktime_get_ns() - cb->queued_ns;
	u64 bucket = div_u64(lat, NSEC_PER_MSEC);
	s64 max = atomic64_read(&lat_max_ns);

	atomic_inc(&lat_hist[min_t(u64, bucket, LAT_BUCKETS)]);
	while (lat > max && !atomic64_try_cmpxchg(&lat_max_ns, &max, lat))
		;
	atomic_dec(cb->inflight);
	kfree(cb);
	/*
	 * Fully ordered, as is the atomic64_set() plus smp_mb() in
	 * rcu_tasks_cb_bench_init(): of the last callback and the init, at
	 * least one sees the other's store, so the init never waits for a
	 * completion nobody will signal.
	 */
	if (atomic64_inc_return(&cbs_invoked) == atomic64_read(&cbs_target))
		complete(&cbs_all_invoked);
}

static int cb_bench_thread_fn(void *arg)
{
	struct cb_bench_thread *t = arg;
	struct cb_bench_cb *cb;
	bool at_cap = false;
	u64 t0;

	while (!READ_ONCE(cb_bench_stop) && !kthread_should_stop()) {
		if (atomic_read(&t->inflight) >= max_inflight) {
			/* One episode at the cap, however many jiffies long. */
			if (!at_cap)
				t->capped++;
			at_cap = true;
			schedule_timeout_idle(1);
			continue;
		}
		at_cap = false;
		/* A flood must not push the guest into reclaim or the OOM killer. */
		cb = kmalloc(sizeof(*cb), GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN);
		if (!cb) {
			schedule_timeout_idle(1);
			continue;
		}
		cb->inflight = &t->inflight;
		atomic_inc(&t->inflight);
		t0 = ktime_get_ns();
		cb->queued_ns = t0;
		call_rcu_tasks(&cb->rh, cb_bench_cb);
		t->enqueue_ns += ktime_get_ns() - t0;
		t->queued++;
		if (interval_us)
			usleep_range(interval_us, interval_us + interval_us / 10 + 1);
		else if (t->queued % batch == 0)
			cond_resched_tasks_rcu_qs();	/* See above. */
	}
	/* kthread_stop() must find this thread still there. */
	while (!kthread_should_stop())
		schedule_timeout_idle(1);
	return 0;
}

/* The latency below which a fraction pct/100 of the callbacks fell (ns). */
static u64 lat_pct(u64 n, unsigned int pct)
{
	u64 want = div_u64(n * pct + 99, 100), seen = 0;
	int i;

	for (i = 0; i <= LAT_BUCKETS; i++) {
		seen += atomic_read(&lat_hist[i]);
		if (seen >= want)
			return (u64)(i + 1) * NSEC_PER_MSEC;
	}
	return (u64)(LAT_BUCKETS + 1) * NSEC_PER_MSEC;
}

static int __init rcu_tasks_cb_bench_init(void)
{
	struct cb_bench_thread *th;
	u64 t0, t_run, t_end, queued = 0, enqueue_ns = 0, capped = 0, invoked;
	int n = nthreads > 0 ? nthreads : num_online_cpus();
	int i, cpu = -1, ret = 0;

	if (nthreads < 0 || nthreads > 64 || seconds < 1 || seconds > 600 ||
	    interval_us < 0 || interval_us > USEC_PER_SEC ||
	    max_inflight < 1 || max_inflight > 4000000 ||
	    batch < 1 || batch > 100000)
		return -EINVAL;
	lat_hist = vzalloc((LAT_BUCKETS + 1) * sizeof(*lat_hist));
	th = kcalloc(n, sizeof(*th), GFP_KERNEL);
	if (!lat_hist || !th) {
		ret = -ENOMEM;
		goto out;
	}
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++) {
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
		th[i].task = kthread_create_on_cpu(cb_bench_thread_fn, &th[i],
						   cpu, "cb_bench/%u");
		if (IS_ERR(th[i].task)) {
			ret = PTR_ERR(th[i].task);
			th[i].task = NULL;
			break;
		}
		wake_up_process(th[i].task);
	}
	if (!ret)
		msleep(seconds * MSEC_PER_SEC);
	WRITE_ONCE(cb_bench_stop, true);
	for (i = 0; i < n && th[i].task; i++) {
		kthread_stop(th[i].task);
		queued += th[i].queued;
		enqueue_ns += th[i].enqueue_ns;
		capped += th[i].capped;
	}
	t_run = ktime_get_ns();
	if (ret) {
		/* Nothing to report: only make the module text safe to free. */
		rcu_barrier_tasks();
		goto out;
	}
	atomic64_set(&cbs_target, queued);
	smp_mb(); /* Target before count: pairs with cb_bench_cb()'s inc_return. */
	if (atomic64_read(&cbs_invoked) != queued)
		wait_for_completion_timeout(&cbs_all_invoked, CB_BENCH_DRAIN_TIMEOUT);
	t_end = ktime_get_ns();
	/* Acquire: the histogram the callbacks filled is read below. */
	invoked = atomic64_read_acquire(&cbs_invoked);
	if (invoked != queued) {
		/*
		 * Not drained, maybe because grace periods are stuck: do not
		 * wait here, report (the guest sees queued != invoked) and
		 * leave th[], whose counters the callbacks left still
		 * decrement, to rcu_tasks_cb_bench_exit().
		 */
		pr_err("%llu of %llu callbacks not invoked after %d s\n",
		       queued - invoked, queued, CB_BENCH_DRAIN_TIMEOUT / HZ);
		cb_threads = th;
		th = NULL;
	}
	pr_info("result threads=%d queued=%llu invoked=%llu capped=%llu run_ns=%llu total_ns=%llu enqueue_ns=%llu lat_p50_ns=%llu lat_p99_ns=%llu lat_max_ns=%lld\n",
		n, queued, invoked, capped, t_run - t0, t_end - t0, enqueue_ns,
		lat_pct(invoked, 50), lat_pct(invoked, 99),
		(long long)atomic64_read(&lat_max_ns));
	kfree(th);
	/* The callbacks still use lat_hist: rcu_tasks_cb_bench_exit() frees it. */
	return 0;
out:
	kfree(th);
	vfree(lat_hist);
	return ret;
}

static void __exit rcu_tasks_cb_bench_exit(void)
{
	/* Waits for the callbacks still on their way out of this module. */
	rcu_barrier_tasks();
	kfree(cb_threads);
	vfree(lat_hist);
}

module_init(rcu_tasks_cb_bench_init);
module_exit(rcu_tasks_cb_bench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("call_rcu_tasks() stream and flood benchmark");
