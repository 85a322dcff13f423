// SPDX-License-Identifier: GPL-2.0
/*
 * Test helper for classic Tasks RCU, driven by the guest tests
 * harness/guest/tests/2*-rcutasks-*.sh.
 *
 * Write "<test> <arg>" to /sys/kernel/debug/rcu_tasks_test/run.  The write
 * runs the test to completion, prints one "rcu_tasks_test: <test>: PASS
 * ..." or "... FAIL ..." line, and fails with -EIO if the test failed.
 *
 *  exit_storm <n>  n kthreads each queue a callback and exit at once while
 *                  another thread runs grace periods back to back; every
 *                  callback must run exactly once.
 *  holdout <ms>    a kthread spins in the kernel for ms milliseconds without
 *                  a voluntary context switch; synchronize_rcu_tasks() must
 *                  wait for it, and return once it lets go (ms up to 120000;
 *                  the other tests take at most 20000).
 *  barrier <n>     n callbacks, then rcu_barrier_tasks(): all must have run,
 *                  in the order they were queued.
 *  share <n>       n threads call synchronize_rcu_tasks() at once; they must
 *                  share grace periods (at most 3 for all of them).
 *  flood <ms>      one thread per online CPU queues call_rcu_tasks() as fast
 *                  as it can for ms milliseconds, each with at most
 *                  RTT_FLOOD_CAP callbacks outstanding; every callback must
 *                  run exactly once, and the peak of outstanding callbacks
 *                  (the memory the flood pins) stays under the caps.
 *  pending <ms>    queue RTT_PENDING_CBS callbacks behind a holdout of ms
 *                  milliseconds and return at once, for an rmmod while they
 *                  are queued: the module's exit must wait for them (they
 *                  run in its text), and reports how many were pending.
 *                  The last command before rmmod: others get -EBUSY.
 */

#define pr_fmt(fmt) "rcu_tasks_test: " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/wait.h>

#include "rcu.h"

#define RTT_MAX_N	20000
/* A holdout may run longer: the backpressure test holds a grace period 60 s. */
#define RTT_MAX_HOLDOUT_MS	120000

struct rtt_obj {
	struct rcu_head rh;
	atomic_t invoked;
	unsigned int seq;
};

static DEFINE_MUTEX(rtt_mutex);		/* One test at a time. */
static atomic_t rtt_invoked;		/* Callbacks invoked by this test. */
static atomic_t rtt_order_errors;	/* barrier: callbacks out of order. */
static atomic_t rtt_next_seq;		/* barrier: next expected seq. */
static struct completion rtt_done;	/* Helper threads report here. */
static struct completion rtt_go;	/* share: start together. */
static bool rtt_stop;			/* exit_storm: stop the GP driver. */

static unsigned long rtt_gp_ctr(void)
{
	unsigned long seq;
	int flags;

	rcu_tasks_get_gp_data(&flags, &seq);
	return rcu_seq_ctr(seq);
}

static void rtt_cb(struct rcu_head *rhp)
{
	struct rtt_obj *o = container_of(rhp, struct rtt_obj, rh);

	atomic_inc(&o->invoked);
	atomic_inc(&rtt_invoked);
}

static void rtt_ordered_cb(struct rcu_head *rhp)
{
	struct rtt_obj *o = container_of(rhp, struct rtt_obj, rh);

	if (o->seq != atomic_inc_return(&rtt_next_seq) - 1)
		atomic_inc(&rtt_order_errors);
	rtt_cb(rhp);
}

/* exit_storm: queue a callback, then exit at once. */
static int rtt_exiter(void *arg)
{
	struct rtt_obj *o = arg;

	call_rcu_tasks(&o->rh, rtt_cb);
	kthread_complete_and_exit(&rtt_done, 0);
}

/* exit_storm: keep grace periods running while the tasks exit. */
static int rtt_gp_driver(void *unused)
{
	while (!READ_ONCE(rtt_stop))
		synchronize_rcu_tasks();
	kthread_complete_and_exit(&rtt_done, 0);
}

static int rtt_exit_storm(unsigned int n)
{
	struct task_struct *t;
	unsigned long gp0 = rtt_gp_ctr();
	unsigned int started = 0;
	struct rtt_obj *objs;
	unsigned int bad = 0;
	unsigned int i;

	objs = kvcalloc(n, sizeof(*objs), GFP_KERNEL);
	if (!objs)
		return -ENOMEM;
	init_completion(&rtt_done);
	WRITE_ONCE(rtt_stop, false);
	t = kthread_run(rtt_gp_driver, NULL, "rtt_gp_driver");
	if (IS_ERR(t)) {
		kvfree(objs);
		return PTR_ERR(t);
	}
	for (i = 0; i < n; i++) {
		t = kthread_run(rtt_exiter, &objs[i], "rtt_exit/%u", i);
		if (IS_ERR(t))
			break;
		started++;
	}
	for (i = 0; i < started; i++)
		wait_for_completion(&rtt_done);
	WRITE_ONCE(rtt_stop, true);
	wait_for_completion(&rtt_done);
	rcu_barrier_tasks();

	for (i = 0; i < started; i++)
		if (atomic_read(&objs[i].invoked) != 1)
			bad++;
	kvfree(objs);
	if (started != n || bad || atomic_read(&rtt_invoked) != n) {
		pr_info("exit_storm: FAIL started %u/%u invoked %d bad %u\n",
			started, n, atomic_read(&rtt_invoked), bad);
		return -EIO;
	}
	pr_info("exit_storm: PASS tasks %u callbacks %d exactly once, %lu grace periods\n",
		n, atomic_read(&rtt_invoked), rtt_gp_ctr() - gp0);
	return 0;
}

/* holdout: spin without a voluntary context switch until the deadline. */
static int rtt_spinner(void *arg)
{
	unsigned long end = jiffies + msecs_to_jiffies((unsigned long)arg);

	set_user_nice(current, MAX_NICE);
	complete(&rtt_go);
	while (time_before(jiffies, end))
		cpu_relax();
	kthread_complete_and_exit(&rtt_done, 0);
}

static int rtt_holdout(unsigned int ms)
{
	struct task_struct *t;
	u64 t0, dur_ms;

	init_completion(&rtt_done);
	init_completion(&rtt_go);
	t = kthread_run(rtt_spinner, (void *)(unsigned long)ms, "rtt_holdout");
	if (IS_ERR(t))
		return PTR_ERR(t);
	wait_for_completion(&rtt_go);
	pr_info("holdout: spinner pid %d for %u ms\n", task_pid_nr(t), ms);
	t0 = ktime_get_ns();
	synchronize_rcu_tasks();
	dur_ms = div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC);
	wait_for_completion(&rtt_done);
	/* Allow for the spinner's start-up and the guest's clock skew. */
	if (dur_ms + 100 < ms) {
		pr_info("holdout: FAIL grace period %llu ms shorter than holdout %u ms\n",
			dur_ms, ms);
		return -EIO;
	}
	pr_info("holdout: PASS grace period %llu ms for a %u ms holdout\n", dur_ms, ms);
	return 0;
}

#define RTT_PENDING_CBS	1000

static struct rtt_obj *rtt_pending_objs;	/* pending: still queued? */

static int rtt_pending(unsigned int ms)
{
	struct task_struct *t;
	unsigned int i;

	rtt_pending_objs = kvcalloc(RTT_PENDING_CBS, sizeof(*rtt_pending_objs),
				    GFP_KERNEL);
	if (!rtt_pending_objs)
		return -ENOMEM;
	init_completion(&rtt_done);
	init_completion(&rtt_go);
	t = kthread_run(rtt_spinner, (void *)(unsigned long)ms, "rtt_holdout");
	if (IS_ERR(t)) {
		kvfree(rtt_pending_objs);
		rtt_pending_objs = NULL;
		return PTR_ERR(t);
	}
	/* Queue once the spinner runs: the grace period must wait for it. */
	wait_for_completion(&rtt_go);
	for (i = 0; i < RTT_PENDING_CBS; i++)
		call_rcu_tasks(&rtt_pending_objs[i].rh, rtt_cb);
	pr_info("pending: %u callbacks queued behind a %u ms holdout, pid %d\n",
		RTT_PENDING_CBS, ms, task_pid_nr(t));
	return 0;
}

/* Module exit, after a "pending": every callback ran once, in our text. */
static void rtt_pending_check(int invoked_before_barrier)
{
	unsigned int i, bad = 0;

	/* The spinner has stopped spinning; wait until it is gone, too. */
	wait_for_completion(&rtt_done);
	for (i = 0; i < RTT_PENDING_CBS; i++)
		if (atomic_read(&rtt_pending_objs[i].invoked) != 1)
			bad++;
	pr_info("pending: %s %d of %u callbacks pending at unload, all run by the exit's barrier: %u not exactly once\n",
		bad ? "FAIL" : "PASS", RTT_PENDING_CBS - invoked_before_barrier,
		RTT_PENDING_CBS, bad);
	kvfree(rtt_pending_objs);
}

static int rtt_barrier(unsigned int n)
{
	struct rtt_obj *objs;
	unsigned int i;
	int invoked;

	objs = kvcalloc(n, sizeof(*objs), GFP_KERNEL);
	if (!objs)
		return -ENOMEM;
	atomic_set(&rtt_next_seq, 0);
	atomic_set(&rtt_order_errors, 0);
	for (i = 0; i < n; i++) {
		objs[i].seq = i;
		call_rcu_tasks(&objs[i].rh, rtt_ordered_cb);
		/* Spread the callbacks over several grace periods. */
		if (!(i % (n / 4 + 1)))
			usleep_range(500, 1000);
	}
	rcu_barrier_tasks();
	invoked = atomic_read(&rtt_invoked);
	kvfree(objs);
	if (invoked != n || atomic_read(&rtt_order_errors)) {
		pr_info("barrier: FAIL invoked %d/%u before return, %d out of order\n",
			invoked, n, atomic_read(&rtt_order_errors));
		return -EIO;
	}
	pr_info("barrier: PASS %u callbacks invoked in order before rcu_barrier_tasks() returned\n",
		n);
	return 0;
}

static int rtt_sharer(void *unused)
{
	wait_for_completion(&rtt_go);
	synchronize_rcu_tasks();
	kthread_complete_and_exit(&rtt_done, 0);
}

static int rtt_share(unsigned int n)
{
	unsigned int started = 0;
	struct task_struct *t;
	unsigned long gps;
	unsigned long gp0;
	unsigned int i;

	init_completion(&rtt_done);
	init_completion(&rtt_go);
	for (i = 0; i < n; i++) {
		t = kthread_run(rtt_sharer, NULL, "rtt_sharer/%u", i);
		if (IS_ERR(t))
			break;
		started++;
	}
	/* Let them all reach wait_for_completion(). */
	msleep(100);
	rcu_barrier_tasks();
	gp0 = rtt_gp_ctr();
	complete_all(&rtt_go);
	for (i = 0; i < started; i++)
		wait_for_completion(&rtt_done);
	gps = rtt_gp_ctr() - gp0;
	/* The first caller's GP, one for the rest, and one already running. */
	if (started != n || gps > 3 || (n > 3 && gps >= n)) {
		pr_info("share: FAIL %u/%u callers took %lu grace periods\n",
			started, n, gps);
		return -EIO;
	}
	pr_info("share: PASS %u concurrent callers shared %lu grace period(s)\n", n, gps);
	return 0;
}

#define RTT_FLOOD_CAP	10000	/* Outstanding callbacks per flooding thread. */

static atomic_long_t rtt_flood_queued;
static atomic_long_t rtt_flood_invoked;
static atomic_long_t rtt_flood_peak;
static DECLARE_WAIT_QUEUE_HEAD(rtt_flood_wq);
static unsigned long rtt_flood_end;	/* jiffies */

struct rtt_flood_obj {
	struct rcu_head rh;
	atomic_t *outstanding;		/* The flooding thread's count. */
};

static void rtt_flood_cb(struct rcu_head *rhp)
{
	struct rtt_flood_obj *o = container_of(rhp, struct rtt_flood_obj, rh);

	/*
	 * Count the invocation before giving the flooder its slot back, and
	 * the flooder counts a callback as queued only after taking a slot:
	 * queued - invoked then never exceeds the sum of the slots in use,
	 * which the per-thread cap bounds.  @outstanding lives on the
	 * flooder's stack, so the decrement is the last touch of it.
	 */
	atomic_long_inc(&rtt_flood_invoked);
	smp_mb__before_atomic();	/* Pairs with the flooder's. */
	atomic_dec(o->outstanding);
	kfree(o);
	wake_up(&rtt_flood_wq);
}

static int rtt_flooder(void *arg)
{
	atomic_t outstanding = ATOMIC_INIT(0);
	struct rtt_flood_obj *o;
	long out, peak;

	while (time_before(jiffies, READ_ONCE(rtt_flood_end))) {
		/* At the cap: wait for a grace period to drain some. */
		if (atomic_read(&outstanding) >= RTT_FLOOD_CAP) {
			wait_event_timeout(rtt_flood_wq,
					   atomic_read(&outstanding) < RTT_FLOOD_CAP, HZ / 10);
			continue;
		}
		o = kmalloc(sizeof(*o), GFP_KERNEL);
		if (!o) {
			usleep_range(1000, 2000);
			continue;
		}
		o->outstanding = &outstanding;
		atomic_inc(&outstanding);
		smp_mb__after_atomic();	/* Slot taken before counted queued. */
		atomic_long_inc(&rtt_flood_queued);
		call_rcu_tasks(&o->rh, rtt_flood_cb);
		out = atomic_long_read(&rtt_flood_queued);
		smp_rmb();	/* Queued first: a later invoked only lowers it. */
		out -= atomic_long_read(&rtt_flood_invoked);
		peak = atomic_long_read(&rtt_flood_peak);
		while (out > peak && !atomic_long_try_cmpxchg(&rtt_flood_peak, &peak, out))
			;
		cond_resched_tasks_rcu_qs();
	}
	/* @outstanding lives on our stack: wait until nothing points at it. */
	wait_event(rtt_flood_wq, !atomic_read(&outstanding));
	complete(&rtt_done);
	return 0;
}

static int rtt_flood(unsigned int ms)
{
	unsigned long gp0, gps, queued, invoked, peak;
	unsigned int cpu, started = 0, i;
	struct task_struct *t;
	u64 t0, ns;

	atomic_long_set(&rtt_flood_queued, 0);
	atomic_long_set(&rtt_flood_invoked, 0);
	atomic_long_set(&rtt_flood_peak, 0);
	init_completion(&rtt_done);
	gp0 = rtt_gp_ctr();
	t0 = ktime_get_ns();
	WRITE_ONCE(rtt_flood_end, jiffies + msecs_to_jiffies(ms));
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		t = kthread_create_on_cpu(rtt_flooder, NULL, cpu, "rtt_flooder/%u");
		if (IS_ERR(t))
			continue;
		wake_up_process(t);
		started++;
	}
	cpus_read_unlock();
	for (i = 0; i < started; i++)
		wait_for_completion(&rtt_done);
	rcu_barrier_tasks();
	ns = ktime_get_ns() - t0;
	gps = rtt_gp_ctr() - gp0;
	queued = atomic_long_read(&rtt_flood_queued);
	invoked = atomic_long_read(&rtt_flood_invoked);
	peak = atomic_long_read(&rtt_flood_peak);
	pr_info("flood: %s threads=%u queued=%lu invoked=%lu ms=%llu cbs_per_s=%llu peak_outstanding=%lu peak_bytes=%lu gps=%lu\n",
		started && queued == invoked && peak <= (unsigned long)started * RTT_FLOOD_CAP ?
		"PASS" : "FAIL", started, queued, invoked, div_u64(ns, NSEC_PER_MSEC),
		div64_u64((u64)queued * NSEC_PER_SEC, ns ?: 1), peak,
		peak * sizeof(struct rtt_flood_obj), gps);
	if (!started || queued != invoked || peak > (unsigned long)started * RTT_FLOOD_CAP)
		return -EIO;
	return 0;
}

static ssize_t rtt_run_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[64];
	char name[32];
	unsigned int arg;
	int ret;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%31s %u", name, &arg) != 2 || !arg)
		return -EINVAL;
	if (arg > (strcmp(name, "holdout") ? RTT_MAX_N : RTT_MAX_HOLDOUT_MS))
		return -EINVAL;

	mutex_lock(&rtt_mutex);
	if (rtt_pending_objs) {
		mutex_unlock(&rtt_mutex);
		return -EBUSY;
	}
	atomic_set(&rtt_invoked, 0);
	if (!strcmp(name, "exit_storm"))
		ret = rtt_exit_storm(arg);
	else if (!strcmp(name, "holdout"))
		ret = rtt_holdout(arg);
	else if (!strcmp(name, "barrier"))
		ret = rtt_barrier(arg);
	else if (!strcmp(name, "share"))
		ret = rtt_share(arg);
	else if (!strcmp(name, "flood"))
		ret = rtt_flood(arg);
	else if (!strcmp(name, "pending"))
		ret = rtt_pending(arg);
	else
		ret = -EINVAL;
	mutex_unlock(&rtt_mutex);
	return ret ? ret : count;
}

static const struct file_operations rtt_run_fops = {
	.owner = THIS_MODULE,
	.write = rtt_run_write,
};

static struct dentry *rtt_dir;

static int __init rtt_init(void)
{
	rtt_dir = debugfs_create_dir("rcu_tasks_test", NULL);
	debugfs_create_file("run", 0200, rtt_dir, NULL, &rtt_run_fops);
	return 0;
}

static void __exit rtt_exit(void)
{
	int invoked;

	debugfs_remove_recursive(rtt_dir);
	invoked = atomic_read(&rtt_invoked);
	/* Our callbacks live in this module's text. */
	rcu_barrier_tasks();
	if (rtt_pending_objs)
		rtt_pending_check(invoked);
}

module_init(rtt_init);
module_exit(rtt_exit);
MODULE_DESCRIPTION("Test helper for classic Tasks RCU");
MODULE_LICENSE("GPL");
