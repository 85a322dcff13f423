// SPDX-License-Identifier: GPL-2.0
/*
 * Classic Tasks RCU (CONFIG_TASKS_RCU).
 *
 * A Tasks RCU grace period ends once every task that might have been
 * running inside an old structure (typically an ftrace or BPF trampoline
 * that has since been unhooked) has passed through a quiescent state:
 *
 *  - a voluntary context switch (schedule() not called for preemption),
 *  - cond_resched_tasks_rcu_qs(),
 *  - execution in user space, seen by the scheduling-clock interrupt,
 *  - running the idle task.
 *
 * Preemption is not a quiescent state: a task preempted inside a
 * trampoline resumes inside it.  There are no read-side markers; the
 * readers are all code that does not voluntarily block.
 *
 * A grace period runs in phases, one function each, in this order:
 *
 *  rcu_tasks_pregp()          order the updater's work before the scan
 *  rcu_tasks_scan_tasklist()  snapshot every runnable task as a holdout
 *  rcu_tasks_scan_exiting()   the same for tasks already off the task list
 *  rcu_tasks_wait_holdouts()  rescan the holdouts with back-off until none
 *  rcu_tasks_postgp()         wait out the last irq/preempt-off stretches
 *
 * One kthread runs the grace periods and invokes the callbacks.  It sleeps
 * on an rcuwait whenever no callback is queued, so an idle system sees no
 * wakeups at all.
 *
 * What a grace period costs depends on whether somebody waits for it.
 * synchronize_rcu_tasks(), rcu_barrier_tasks() and rcu_gp_is_expedited()
 * ask for speed: the grace period starts at once, rescans its holdouts
 * from backoff_min_us on, and closes with an expedited RCU grace period
 * (an IPI to each non-idle CPU).  A grace period that only serves
 * call_rcu_tasks() callbacks waits batch_ms for more callbacks, starts at
 * least gp_interval_ms after the previous one, rescans no sooner than
 * 1 ms, and closes with a normal RCU grace period, which sends no IPI.
 * See Documentation/trace/ftrace-rcu-tasks.rst.
 */

#define pr_fmt(fmt) "rcu_tasks: " fmt

#include <linux/debugfs.h>
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/rcupdate_wait.h>
#include <linux/sched.h>
#include <linux/sched/cputime.h>
#include <linux/sched/debug.h>
#include <linux/sched/isolation.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/percpu.h>
#include <linux/rcuwait.h>
#include <linux/tick.h>
#include <linux/u64_stats_sync.h>

#include "rcu.h"
#include "tasks_classic.h"

#define CREATE_TRACE_POINTS
#include <trace/events/rcu_tasks.h>

#ifdef MODULE_PARAM_PREFIX
#undef MODULE_PARAM_PREFIX
#endif
#define MODULE_PARAM_PREFIX "rcutasks."

/*
 * Run-time parameters, /sys/module/rcutasks/parameters/.  Each setter
 * validates the new value and refuses it with -EINVAL, leaving the old
 * one in place.  The kernel's parameter lock serializes the setters; the
 * kthread reads each value once per use with READ_ONCE().
 */
static unsigned int rcu_tasks_stall_ms = RCU_TASKS_STALL_MS_DEFAULT;
static unsigned int rcu_tasks_backoff_min_us = RCU_TASKS_BACKOFF_MIN_US_DEFAULT;
static unsigned int rcu_tasks_backoff_max_us = RCU_TASKS_BACKOFF_MAX_US_DEFAULT;
static unsigned int rcu_tasks_batch_ms = RCU_TASKS_BATCH_MS_DEFAULT;
static unsigned int rcu_tasks_gp_interval_ms = RCU_TASKS_GP_INTERVAL_MS_DEFAULT;

static int rcu_tasks_set_stall_ms(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int ret;

	ret = rcu_tasks_parse_stall_ms(val, &v);
	if (ret)
		return ret;
	WRITE_ONCE(*(unsigned int *)kp->arg, v);
	return 0;
}

static int rcu_tasks_set_backoff(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int ret;

	ret = rcu_tasks_parse_backoff(val, kp->arg == &rcu_tasks_backoff_min_us, &v);
	if (ret)
		return ret;
	WRITE_ONCE(*(unsigned int *)kp->arg, v);
	return 0;
}

static int rcu_tasks_set_batch_ms(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int ret;

	ret = rcu_tasks_parse_range(val, 0, RCU_TASKS_BATCH_MS_MAX, true, &v);
	if (ret)
		return ret;
	WRITE_ONCE(*(unsigned int *)kp->arg, v);
	return 0;
}

static int rcu_tasks_set_gp_interval_ms(const char *val,
					const struct kernel_param *kp)
{
	unsigned int v;
	int ret;

	ret = rcu_tasks_parse_range(val, RCU_TASKS_GP_INTERVAL_MS_MIN,
				    RCU_TASKS_GP_INTERVAL_MS_MAX, false, &v);
	if (ret)
		return ret;
	WRITE_ONCE(*(unsigned int *)kp->arg, v);
	return 0;
}

static const struct kernel_param_ops rcu_tasks_stall_ops = {
	.set = rcu_tasks_set_stall_ms,
	.get = param_get_uint,
};

static const struct kernel_param_ops rcu_tasks_backoff_ops = {
	.set = rcu_tasks_set_backoff,
	.get = param_get_uint,
};

static const struct kernel_param_ops rcu_tasks_batch_ops = {
	.set = rcu_tasks_set_batch_ms,
	.get = param_get_uint,
};

static const struct kernel_param_ops rcu_tasks_gp_interval_ops = {
	.set = rcu_tasks_set_gp_interval_ms,
	.get = param_get_uint,
};

module_param_cb(stall_timeout_ms, &rcu_tasks_stall_ops, &rcu_tasks_stall_ms, 0644);
MODULE_PARM_DESC(stall_timeout_ms,
		 "Warn about holdout tasks after this many ms (0: never, else 10..86400000)");
module_param_cb(backoff_min_us, &rcu_tasks_backoff_ops, &rcu_tasks_backoff_min_us, 0644);
MODULE_PARM_DESC(backoff_min_us, "First holdout rescan after this many us (10..1000)");
module_param_cb(backoff_max_us, &rcu_tasks_backoff_ops, &rcu_tasks_backoff_max_us, 0644);
MODULE_PARM_DESC(backoff_max_us, "Longest holdout rescan interval in us (1000..1000000)");
module_param_cb(batch_ms, &rcu_tasks_batch_ops, &rcu_tasks_batch_ms, 0644);
MODULE_PARM_DESC(batch_ms,
		 "call_rcu_tasks() callbacks wait this many ms for others to share their grace period (0..1000)");
module_param_cb(gp_interval_ms, &rcu_tasks_gp_interval_ops, &rcu_tasks_gp_interval_ms, 0644);
MODULE_PARM_DESC(gp_interval_ms,
		 "Grace periods that nobody waits for start at least this many ms apart (10..10000)");

/*
 * Mainline's name for the batching window, kept so that a command line
 * written for it still works: rcupdate.rcu_tasks_lazy_ms=N (N >= 0) sets
 * batch_ms at boot, clamped to its range.  Read once, when the kthread
 * starts.
 */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "rcupdate."
static int rcu_tasks_lazy_ms = -1;
module_param(rcu_tasks_lazy_ms, int, 0444);
MODULE_PARM_DESC(rcu_tasks_lazy_ms, "Boot-time alias of rcutasks.batch_ms (-1: keep it)");

/* Where the grace-period kthread is, for show_rcu_tasks_classic_gp_kthread(). */
enum rcu_tasks_gp_state {
	RTC_INIT,		/* Not started yet. */
	RTC_WAIT_CBS,		/* Asleep, waiting for a callback. */
	RTC_WAIT_BATCH,		/* Letting callbacks gather, or rate-bounded. */
	RTC_PREGP,		/* Ordering the updaters' work before the scan. */
	RTC_SCAN_TASKLIST,	/* Walking the task list. */
	RTC_SCAN_EXITING,	/* Walking the exiting-task list. */
	RTC_WAIT_HOLDOUTS,	/* Sleeping between holdout rescans. */
	RTC_SCAN_HOLDOUTS,	/* Rescanning the holdout list. */
	RTC_POSTGP,		/* Waiting out the last irq/preempt-off regions. */
	RTC_INVOKE_CBS,		/* Invoking callbacks. */
	RTC_NR_STATES,
};

static const char * const rcu_tasks_gp_state_names[RTC_NR_STATES] = {
	[RTC_INIT]		= "init",
	[RTC_WAIT_CBS]		= "wait_cbs",
	[RTC_WAIT_BATCH]	= "wait_batch",
	[RTC_PREGP]		= "pregp",
	[RTC_SCAN_TASKLIST]	= "scan_tasklist",
	[RTC_SCAN_EXITING]	= "scan_exiting",
	[RTC_WAIT_HOLDOUTS]	= "wait_holdouts",
	[RTC_SCAN_HOLDOUTS]	= "scan_holdouts",
	[RTC_POSTGP]		= "postgp",
	[RTC_INVOKE_CBS]	= "invoke_cbs",
};

/*
 * Counters for the debugfs stats file.  Those of struct rcu_tasks_gp_stats
 * are written once per grace period, under rcu_tasks.gp_mutex; cbs_queued
 * under rcu_tasks.cbs_lock.  Readers are lock-free and take a consistent
 * snapshot with rcu_tasks_stats_snapshot(): on 32-bit kernels the
 * u64_stats_sync sequence counts keep them from seeing a torn 64-bit
 * value, on 64-bit kernels they cost nothing.
 */
struct rcu_tasks_gp_stats {
	struct u64_stats_sync syncp;
	u64_stats_t gps;		/* Grace periods completed. */
	u64_stats_t gps_expedited;	/* ... closed with an expedited RCU GP. */
	u64_stats_t gp_ns_total;	/* Sum of their durations. */
	u64_stats_t gp_ns_max;		/* Longest one. */
	u64_stats_t gp_ns_last;		/* Most recent one. */
	u64_stats_t tasks_scanned;	/* Tasks looked at by the scans. */
	u64_stats_t holdouts;		/* Tasks found holding out at scan time. */
	u64_stats_t exit_holdouts;	/* ... of which found only on the exit lists. */
	u64_stats_t holdout_passes;	/* Rescans of the holdout list. */
	u64_stats_t stall_reports;	/* Stall warnings printed. */
	u64_stats_t cbs_invoked;	/* Callbacks invoked. */
	u64_stats_t cbs_per_gp_max;	/* Most callbacks served by one GP. */
	u64_stats_t wakeups;		/* Times the kthread was woken from idle. */
	u64_stats_t batch_ns_total;	/* Time spent letting callbacks gather. */
	u64_stats_t gps_rate_bounded;	/* GPs held back by gp_interval_ms. */
};

/* A consistent copy of every counter, for the readers. */
struct rcu_tasks_stats_snap {
	u64 gps, gps_expedited, gp_ns_total, gp_ns_max, gp_ns_last;
	u64 tasks_scanned, holdouts, exit_holdouts, holdout_passes;
	u64 stall_reports, cbs_invoked, cbs_per_gp_max, wakeups;
	u64 batch_ns_total, gps_rate_bounded, cbs_queued;
};

/**
 * struct rcu_tasks_classic - State of the classic Tasks RCU flavor.
 * @cbs_lock: Protects @cbs_head, @cbs_tail, @cbs_len, @cbs_first_jiffies,
 *	@cbs_syncp and @cbs_queued.
 * @cbs_head: Callbacks waiting for the next grace period, oldest first.
 * @cbs_tail: Where call_rcu_tasks() links the next callback.
 * @cbs_len: Number of callbacks on @cbs_head.
 * @cbs_first_jiffies: When the oldest callback on @cbs_head was queued.
 * @cbs_syncp: Lets readers of @cbs_queued see it whole on 32-bit.
 * @cbs_queued: call_rcu_tasks() calls.
 * @gp_wait: The kthread waits here for callbacks and for waiters.
 * @wake_work: Defers the wakeup of @gp_wait out of call_rcu_tasks()'s context.
 * @exp_waiters: Tasks in synchronize_rcu_tasks() or rcu_barrier_tasks().
 * @gp_mutex: Serializes grace periods (kthread against mid-boot callers).
 * @kthread: The grace-period kthread, NULL until it runs.
 * @gp_seq: Grace-period sequence number, rcu_seq_*() encoding.
 * @gp_state: Current phase, enum rcu_tasks_gp_state.
 * @gp_state_jiffies: When @gp_state last changed.
 * @gp_start_ns: When the current or last grace period started.
 * @nholdouts: Tasks on the current grace period's holdout list.
 * @stats: Accounting of the grace-period side.
 */
struct rcu_tasks_classic {
	raw_spinlock_t cbs_lock;
	struct rcu_head *cbs_head;
	struct rcu_head **cbs_tail;
	unsigned long cbs_len;
	unsigned long cbs_first_jiffies;
	struct u64_stats_sync cbs_syncp;
	u64_stats_t cbs_queued;
	struct rcuwait gp_wait;
	struct irq_work wake_work;
	atomic_t exp_waiters;
	struct mutex gp_mutex;		/* Serializes grace periods. */
	struct task_struct *kthread;
	unsigned long gp_seq;
	int gp_state;
	unsigned long gp_state_jiffies;
	u64 gp_start_ns;
	unsigned int nholdouts;
	struct rcu_tasks_gp_stats stats;
};

static void rcu_tasks_wake_work_fn(struct irq_work *iwp);

static struct rcu_tasks_classic rcu_tasks = {
	.cbs_lock = __RAW_SPIN_LOCK_UNLOCKED(rcu_tasks.cbs_lock),
	.cbs_tail = &rcu_tasks.cbs_head,
	.gp_wait = __RCUWAIT_INITIALIZER(rcu_tasks.gp_wait),
	.wake_work = IRQ_WORK_INIT_HARD(rcu_tasks_wake_work_fn),
	.exp_waiters = ATOMIC_INIT(0),
	.gp_mutex = __MUTEX_INITIALIZER(rcu_tasks.gp_mutex),
	.gp_state = RTC_INIT,
};

/*
 * Tasks that have entered do_exit()'s tail, see rcu_tasks_classic_exit_start().
 * One list per CPU, each under its own raw lock, so that an exit storm on
 * many CPUs does not bounce one lock: a task adds itself to the list of
 * the CPU it runs on and removes itself from that same list
 * (->rcu_tasks_exit_cpu) before it dies, so a list never points at freed
 * memory.  Each lock is held for a list_add() or list_del() at a time,
 * except by the scan, which lets go at least once a jiffy.
 */
struct rcu_tasks_exit_list {
	raw_spinlock_t lock;
	struct list_head tasks;
};

static DEFINE_PER_CPU(struct rcu_tasks_exit_list, rcu_tasks_exiting);

static void rcu_tasks_set_state(int state)
{
	WRITE_ONCE(rcu_tasks.gp_state, state);
	WRITE_ONCE(rcu_tasks.gp_state_jiffies, jiffies);
}

static const char *rcu_tasks_state_name(void)
{
	int state = READ_ONCE(rcu_tasks.gp_state);

	if (state < 0 || state >= RTC_NR_STATES)
		return "???";
	return rcu_tasks_gp_state_names[state];
}

static void rcu_tasks_stats_snapshot(struct rcu_tasks_stats_snap *snap)
{
	struct rcu_tasks_gp_stats *s = &rcu_tasks.stats;
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&s->syncp);
		snap->gps = u64_stats_read(&s->gps);
		snap->gps_expedited = u64_stats_read(&s->gps_expedited);
		snap->gp_ns_total = u64_stats_read(&s->gp_ns_total);
		snap->gp_ns_max = u64_stats_read(&s->gp_ns_max);
		snap->gp_ns_last = u64_stats_read(&s->gp_ns_last);
		snap->tasks_scanned = u64_stats_read(&s->tasks_scanned);
		snap->holdouts = u64_stats_read(&s->holdouts);
		snap->exit_holdouts = u64_stats_read(&s->exit_holdouts);
		snap->holdout_passes = u64_stats_read(&s->holdout_passes);
		snap->stall_reports = u64_stats_read(&s->stall_reports);
		snap->cbs_invoked = u64_stats_read(&s->cbs_invoked);
		snap->cbs_per_gp_max = u64_stats_read(&s->cbs_per_gp_max);
		snap->wakeups = u64_stats_read(&s->wakeups);
		snap->batch_ns_total = u64_stats_read(&s->batch_ns_total);
		snap->gps_rate_bounded = u64_stats_read(&s->gps_rate_bounded);
	} while (u64_stats_fetch_retry(&s->syncp, start));
	do {
		start = u64_stats_fetch_begin(&rcu_tasks.cbs_syncp);
		snap->cbs_queued = u64_stats_read(&rcu_tasks.cbs_queued);
	} while (u64_stats_fetch_retry(&rcu_tasks.cbs_syncp, start));
}

/* ------------------------------------------------------------------ */
/* Callback queueing.                                                 */

/*
 * Runs in hard-irq context, also on PREEMPT_RT: rcuwait_wake_up() takes
 * no sleeping lock (only the kthread's raw ->pi_lock and run-queue lock),
 * unlike a wait queue, whose lock is a sleeping lock on PREEMPT_RT.
 */
static void rcu_tasks_wake_work_fn(struct irq_work *iwp)
{
	rcuwait_wake_up(&rcu_tasks.gp_wait);
}

static bool rcu_tasks_cbs_pending(void)
{
	/* Lock-free peek; the kthread takes rcu_tasks.cbs_lock to dequeue. */
	return !!data_race(READ_ONCE(rcu_tasks.cbs_head));
}

/*
 * Does somebody wait for the grace period?  Then it is worth IPIs and
 * frequent rescans; otherwise it is batched and rate-bounded.
 */
static bool rcu_tasks_gp_urgent(void)
{
	return atomic_read(&rcu_tasks.exp_waiters) || rcu_gp_is_expedited();
}

/**
 * call_rcu_tasks() - Queue a callback for invocation after a Tasks RCU grace period
 * @rhp: Structure to be used for queueing the callback.
 * @func: Function to invoke after the grace period.
 *
 * @func(@rhp) is invoked some time after every task that was running, or
 * was preempted, when call_rcu_tasks() was called has passed through a
 * voluntary context switch, cond_resched_tasks_rcu_qs(), user-space
 * execution or the idle loop.  There are no read-side markers: any code
 * that does not voluntarily block is a reader.  Callbacks are invoked in
 * the order they were queued, from a kthread, with bottom halves disabled.
 *
 * Nobody waits for such a grace period, so it is not hurried: the first
 * callback waits rcutasks.batch_ms for others to share its grace period,
 * and such grace periods start at least rcutasks.gp_interval_ms apart.
 *
 * May be called from any context that may take a raw spinlock, including
 * with interrupts disabled and from hard-irq context.  See call_rcu() for
 * the memory-ordering guarantees, which are the same.
 */
void call_rcu_tasks(struct rcu_head *rhp, rcu_callback_t func)
{
	unsigned long flags;
	unsigned long qlen;
	bool was_empty;

	if (debug_rcu_head_queue(rhp)) {
		/* Probable double call_rcu_tasks(), so leak the callback. */
		WRITE_ONCE(rhp->func, (rcu_callback_t)0L);
		WARN_ONCE(1, "%s(): Double-freed CB %p->%pS()!!!\n", __func__, rhp, func);
		return;
	}
	rhp->func = func;
	rhp->next = NULL;

	raw_spin_lock_irqsave(&rcu_tasks.cbs_lock, flags);
	was_empty = !rcu_tasks.cbs_head;
	if (was_empty)
		WRITE_ONCE(rcu_tasks.cbs_first_jiffies, jiffies);
	*rcu_tasks.cbs_tail = rhp;
	rcu_tasks.cbs_tail = &rhp->next;
	qlen = ++rcu_tasks.cbs_len;
	u64_stats_update_begin(&rcu_tasks.cbs_syncp);
	u64_stats_inc(&rcu_tasks.cbs_queued);
	u64_stats_update_end(&rcu_tasks.cbs_syncp);
	raw_spin_unlock_irqrestore(&rcu_tasks.cbs_lock, flags);

	trace_rcu_tasks_cb_queued(rhp, func, qlen);

	/*
	 * Only the first callback on an empty list needs a wakeup: the
	 * kthread looks at the list again after every grace period.  The
	 * wakeup goes through irq_work because the caller may hold
	 * scheduler locks (a tracer or BPF program attached inside the
	 * scheduler), which the wakeup would take again.  The list update
	 * above is ordered before the kthread's recheck of the list by the
	 * full barrier in rcuwait_wake_up(), which pairs with the one in
	 * set_current_state() in rcuwait_wait_event().
	 */
	if (was_empty)
		irq_work_queue(&rcu_tasks.wake_work);
}
EXPORT_SYMBOL_GPL(call_rcu_tasks);

/* ------------------------------------------------------------------ */
/* The grace period.                                                  */

/*
 * Is @t possibly inside a reader right now?  A task that is not on a run
 * queue has blocked voluntarily, and the idle task is in the idle loop;
 * both are quiescent.  Everything else (running, preempted, or woken and
 * not yet run) has to be waited for.
 *
 * Code run by the idle task outside the idle loop proper, and code run
 * where RCU is not watching, is not covered here: ftrace pairs
 * synchronize_rcu_tasks() with synchronize_rcu_tasks_rude() for that.
 */
static bool rcu_tasks_is_holdout(struct task_struct *t)
{
	if (!READ_ONCE(t->on_rq))
		return false;
	if (is_idle_task(t))
		return false;
	return true;
}

/*
 * Snapshot @t for this grace period if it is a holdout.  The reference
 * keeps the task_struct (and so ->rcu_tasks_holdout_list) valid even if
 * the task exits and is reaped while we wait for it.  The ->nvcsw
 * snapshot lets rcu_tasks_check_holdout() see a voluntary switch that
 * raced with the flag store below.
 *
 * Return: true if @t was added to @hop.
 */
static bool rcu_tasks_pertask(struct task_struct *t, struct list_head *hop)
{
	if (t == current || !rcu_tasks_is_holdout(t))
		return false;
	get_task_struct(t);
	t->rcu_tasks_nvcsw = READ_ONCE(t->nvcsw);
	/*
	 * The scheduler hook rcu_tasks_classic_qs() clears this flag on
	 * @t's next voluntary switch or user-mode tick, with a plain
	 * READ_ONCE()/WRITE_ONCE() pair and no barrier.  That is enough:
	 * if @t reads true here it is at a quiescent state after this store,
	 * which is after the grace period started.  A stale true from an
	 * earlier grace period cannot be read, because every holdout's flag
	 * was cleared, and the clearing seen, before that grace period
	 * ended (see rcu_tasks_check_holdout()).
	 */
	WRITE_ONCE(t->rcu_tasks_holdout, true);
	list_add(&t->rcu_tasks_holdout_list, hop);
	return true;
}

/*
 * Phase 1: order everything the updaters did before they queued their
 * callbacks (unhooking a trampoline, say) before the scan reads any task
 * state.
 *
 * This full barrier pairs with the one every task executes in __schedule()
 * (smp_mb__after_spinlock()) before it can run again after a wakeup, and
 * with the tasklist_lock and wake_up_new_task() a new task passes before
 * its first instruction.  So a task that the scan sees blocked (or does
 * not see at all, because it is forked later) and that then runs and
 * reaches the unhooked call site sees it unhooked: it is a new reader,
 * not one this grace period has to wait for.  The updaters' own stores
 * reach us through cbs_lock (their unlock, our lock), and this barrier
 * then orders them against our loads.
 *
 * Mainline uses synchronize_rcu() here (12 ms on our guest).  It is not
 * needed for correctness: its two jobs are this ordering, which a full
 * barrier gives, and keeping a racing flag clear from an old grace period
 * from hitting a new flag store, which cannot happen, as argued in
 * rcu_tasks_pertask().
 */
static void rcu_tasks_pregp(void)
{
	rcu_tasks_set_state(RTC_PREGP);
	smp_mb(); /* Updaters' accesses before the scan's loads, see above. */
}

/*
 * Phase 2: every task on the task list.  A task removed from the list
 * while we walk it is either seen here or put itself on the exit list
 * first (phase 3).  The RCU read lock keeps each task_struct alive: it is
 * freed by an RCU callback only after it has left the task list and died.
 */
static unsigned int rcu_tasks_scan_tasklist(struct list_head *hop,
					    unsigned int *nholdouts)
{
	struct task_struct *g, *t;
	unsigned int nscanned = 0;

	rcu_tasks_set_state(RTC_SCAN_TASKLIST);
	rcu_read_lock();
	for_each_process_thread(g, t) {
		nscanned++;
		if (rcu_tasks_pertask(t, hop))
			(*nholdouts)++;
	}
	rcu_read_unlock();
	return nscanned;
}

/*
 * Phase 3: tasks between exit_tasks_rcu_start() and exit_tasks_rcu_finish().
 *
 * exit_notify() takes an exiting task off the task list, and after that the
 * task still runs (and can be preempted in) kernel code until its last
 * schedule().  Phase 2 cannot see such a task, so the task first puts
 * itself on its CPU's exit list.  Claim: every task that phase 2 missed
 * and that can still be preempted in a reader is on one of those lists
 * now.  The task adds itself under its list's lock and only then takes
 * tasklist_lock to unhash.  If its critical section on that lock came
 * after our first one on the same lock, our task-list walk (which ended
 * before that) happened before its unhash (after its add), so phase 2 saw
 * it.  Otherwise it is on the list when we look, and we see it here.
 *
 * The walk lets go of the lock at least once a jiffy, and after every
 * task on PREEMPT_RT, so that an exit storm cannot keep interrupts off
 * for long.  A cursor (a bare list_head: nothing else walks these lists)
 * keeps our place meanwhile.  A task that adds itself during a pause goes
 * in at the head, before the cursor, and is missed: its add came after
 * our first critical section, so phase 2 saw it, as argued above.  A task
 * that removes itself just unlinks, the cursor included in its neighbours.
 *
 * A task that already removed itself runs with preemption disabled until
 * its final __schedule(); phase 5 waits for that stretch.  Tasks already on
 * the holdout list (found by phase 2) are not added twice.
 */
static unsigned int rcu_tasks_scan_exiting(struct list_head *hop,
					   unsigned int *nholdouts,
					   unsigned int *nexit)
{
	unsigned int nscanned = 0;
	unsigned int n = 0;
	int cpu;

	rcu_tasks_set_state(RTC_SCAN_EXITING);
	for_each_possible_cpu(cpu) {
		struct rcu_tasks_exit_list *el = per_cpu_ptr(&rcu_tasks_exiting, cpu);
		struct list_head cursor;
		struct list_head *pos;
		unsigned long until;

		raw_spin_lock_irq(&el->lock);
		until = jiffies + 1;
		for (pos = el->tasks.next; pos != &el->tasks; ) {
			struct task_struct *t;

			t = list_entry(pos, struct task_struct, rcu_tasks_exit_list);
			nscanned++;
			if (list_empty(&t->rcu_tasks_holdout_list) &&
			    rcu_tasks_pertask(t, hop))
				n++;
			pos = pos->next;
			if (pos == &el->tasks ||
			    (!IS_ENABLED(CONFIG_PREEMPT_RT) && time_before(jiffies, until)))
				continue;
			list_add_tail(&cursor, pos);
			raw_spin_unlock_irq(&el->lock);
			cond_resched();
			raw_spin_lock_irq(&el->lock);
			pos = cursor.next;
			list_del(&cursor);
			until = jiffies + 1;
		}
		raw_spin_unlock_irq(&el->lock);
	}
	*nexit = n;
	*nholdouts += n;
	return nscanned;
}

/* Has holdout @t passed through a quiescent state since its snapshot? */
static bool rcu_tasks_holdout_done(struct task_struct *t)
{
	/* Cleared by rcu_tasks_classic_qs(): voluntary switch or user tick. */
	if (!READ_ONCE(t->rcu_tasks_holdout))
		return true;
	/* It blocked voluntarily at least once since the snapshot. */
	if (t->rcu_tasks_nvcsw != READ_ONCE(t->nvcsw))
		return true;
	/* It is blocked (or idle) right now. */
	if (!rcu_tasks_is_holdout(t))
		return true;
	/* nohz_full CPU running it in user space, without a tick to tell us. */
	if (IS_ENABLED(CONFIG_NO_HZ_FULL) &&
	    READ_ONCE(t->rcu_tasks_idle_cpu) >= 0)
		return true;
	return false;
}

static void rcu_tasks_report_stall(struct task_struct *t)
{
	pr_err("stall on pid %d (%s) state %#x cpu %d nvcsw %lu/%lu\n",
	       task_pid_nr(t), t->comm, READ_ONCE(t->__state), task_cpu(t),
	       t->rcu_tasks_nvcsw, READ_ONCE(t->nvcsw));
	sched_show_task(t);
}

/*
 * One rescan of the holdout list: drop every task that has passed through
 * a quiescent state, and report the others if @report.
 *
 * Clearing ->rcu_tasks_holdout here races only with the task clearing it
 * too.  The loads that saw the quiescent state come before the store, so
 * the task's own clearing (which precedes, in its program order and behind
 * the barrier in __schedule(), everything we could have seen) can never be
 * ordered after a later grace period's store of true.
 */
static unsigned int rcu_tasks_scan_holdouts(struct list_head *hop, bool report)
{
	struct task_struct *t, *t1;
	unsigned int remaining = 0;

	list_for_each_entry_safe(t, t1, hop, rcu_tasks_holdout_list) {
		if (rcu_tasks_holdout_done(t)) {
			WRITE_ONCE(t->rcu_tasks_holdout, false);
			list_del_init(&t->rcu_tasks_holdout_list);
			put_task_struct(t);
		} else {
			remaining++;
			if (report)
				rcu_tasks_report_stall(t);
		}
		cond_resched();
	}
	return remaining;
}

/* The first rescan interval: short only if somebody waits. */
static unsigned int rcu_tasks_backoff_first(bool urgent)
{
	unsigned int min_us = READ_ONCE(rcu_tasks_backoff_min_us);

	return urgent ? min_us : max(min_us, RCU_TASKS_NORMAL_BACKOFF_MIN_US);
}

/*
 * Sleep for about @wait_us between two holdout rescans.  On PREEMPT_RT the
 * hrtimer of a task that is not real-time expires from the timer softirq
 * thread, which spawn_ksoftirqd() creates among the early initcalls.  The
 * first grace period runs before those (the Tasks RCU self-test in
 * rcu_init_tasks_generic()); a soft hrtimer would never fire there and the
 * boot would hang with the CPU idle.  Until rcu_set_runtime_mode() (a
 * core_initcall, after the early initcalls) the timer expires in hard-irq
 * context instead; afterwards, as usleep_idle_range() does, it is soft, so
 * a real-time kernel does not take this kthread's wakeups in hard irq.
 * Either mode is the same on other kernels, so only PREEMPT_RT looks
 * (where RCU is always Tree RCU, whose rcu_scheduler_active has that
 * meaning).
 *
 * Any wakeup ends the sleep early (a waiter's rcuwait_wake_up() reaching
 * the kthread here): the caller then only rescans sooner.
 */
static void rcu_tasks_backoff_sleep(unsigned int wait_us)
{
	ktime_t expires = ns_to_ktime((u64)wait_us * NSEC_PER_USEC);
	enum hrtimer_mode mode = HRTIMER_MODE_REL;

	if (IS_ENABLED(CONFIG_PREEMPT_RT) &&
	    READ_ONCE(rcu_scheduler_active) != RCU_SCHEDULER_RUNNING)
		mode = HRTIMER_MODE_REL_HARD;
	set_current_state(TASK_IDLE);
	schedule_hrtimeout_range(&expires, (u64)(wait_us / 4) * NSEC_PER_USEC,
				 mode);
}

/*
 * Phase 4: rescan the holdouts until none is left.  The first rescan comes
 * backoff_min_us after the scan if somebody waits for this grace period,
 * else RCU_TASKS_NORMAL_BACKOFF_MIN_US (or backoff_min_us if longer); the
 * interval then doubles up to backoff_max_us, see rcu_tasks_backoff_next().
 * A waiter that arrives meanwhile brings the interval back to
 * backoff_min_us.  Once the grace period is stall_timeout_ms old, the
 * remaining holdouts are reported, and again every stall_timeout_ms after
 * that; the grace period still ends as soon as they let go.
 */
static unsigned int rcu_tasks_wait_holdouts(struct list_head *hop,
					    unsigned int nholdouts,
					    unsigned int *nstalls)
{
	bool urgent = rcu_tasks_gp_urgent();
	unsigned int wait_us = rcu_tasks_backoff_first(urgent);
	u64 last_report_ns = rcu_tasks.gp_start_ns;
	unsigned int pass = 0;

	while (!list_empty(hop)) {
		unsigned int stall_ms;
		bool report = false;
		u64 now;

		rcu_tasks_set_state(RTC_WAIT_HOLDOUTS);
		rcu_tasks_backoff_sleep(wait_us);

		rcu_tasks_set_state(RTC_SCAN_HOLDOUTS);
		pass++;
		/* Re-read each pass, so a new timeout applies at once. */
		stall_ms = READ_ONCE(rcu_tasks_stall_ms);
		now = ktime_get_ns();
		if (stall_ms &&
		    now - last_report_ns >= (u64)stall_ms * NSEC_PER_MSEC) {
			report = true;
			last_report_ns = now;
			pr_err("grace period %lu stalled for %llu ms on %u task(s)\n",
			       rcu_seq_ctr(rcu_tasks.gp_seq),
			       div_u64(now - rcu_tasks.gp_start_ns, NSEC_PER_MSEC),
			       nholdouts);
			(*nstalls)++;
		}
		nholdouts = rcu_tasks_scan_holdouts(hop, report);
		WRITE_ONCE(rcu_tasks.nholdouts, nholdouts);

		if (!urgent && rcu_tasks_gp_urgent()) {
			urgent = true;
			wait_us = 0;	/* Back to backoff_min_us. */
		}
		wait_us = rcu_tasks_backoff_next(wait_us,
						 rcu_tasks_backoff_first(urgent),
						 READ_ONCE(rcu_tasks_backoff_max_us));
		trace_rcu_tasks_holdout_pass(rcu_tasks.gp_seq, pass, nholdouts,
					     wait_us);
	}
	return pass;
}

/*
 * Phase 5: the evidence phases 2-4 rely on (->on_rq cleared, ->nvcsw
 * bumped, the holdout flag cleared) becomes visible a little before the
 * task has really stopped running kernel code that may be traced:
 *
 *  - __schedule() clears the flag and ->on_rq, then still calls the
 *    (traceable) scheduling-class code before it switches away;
 *  - the user-mode tick clears the flag and then finishes the interrupt;
 *  - an exiting task leaves the exit list in exit_tasks_rcu_finish() and
 *    then runs to its final __schedule().
 *
 * All three stretches run with interrupts or preemption disabled, so one
 * RCU grace period that starts after our last look at the evidence waits
 * for all of them.  That is what mainline's closing synchronize_rcu() is
 * for.  Its full barriers also order our loads of the evidence before the
 * callbacks' frees.
 *
 * If somebody waits, we use the expedited form: the same guarantee (it too
 * waits for every preempt- and irq-disabled region) in about 2.7 ms on the
 * project's 2-vCPU TCG guest instead of 12 ms, at the price of one IPI to
 * each online CPU that is not idle; that is most of the cost of a grace
 * period without holdouts (the scan of ~40 tasks takes ~12 us).  A grace
 * period that only serves call_rcu_tasks() callbacks uses the normal form,
 * which sends no IPI: nohz_full, isolated and real-time CPUs and guests'
 * vCPUs are not disturbed for a trampoline that nobody is waiting to
 * reuse.
 *
 * Return: true if the grace period was expedited.
 */
static bool rcu_tasks_postgp(void)
{
	rcu_tasks_set_state(RTC_POSTGP);
	if (rcu_tasks_gp_urgent()) {
		synchronize_rcu_expedited();
		return true;
	}
	synchronize_rcu();
	return false;
}

/* What the kthread did before a grace period, for the statistics. */
struct rcu_tasks_gp_prelude {
	bool woken;		/* It slept waiting for the first callback. */
	bool rate_bounded;	/* gp_interval_ms held the grace period back. */
	u64 batch_ns;		/* Time it let callbacks gather. */
};

/* Wait for one Tasks RCU grace period, covering @ncbs callbacks. */
static void rcu_tasks_wait_gp(unsigned long ncbs,
			      const struct rcu_tasks_gp_prelude *pre)
{
	struct rcu_tasks_gp_stats *s = &rcu_tasks.stats;
	unsigned int nholdouts = 0;
	unsigned int nstalls = 0;
	unsigned int nexit = 0;
	unsigned int nscanned;
	unsigned int npasses;
	unsigned long flags;
	LIST_HEAD(holdouts);
	bool expedited;
	u64 scan_start;
	u64 dur;

	lockdep_assert_held(&rcu_tasks.gp_mutex);
	rcu_tasks.gp_start_ns = ktime_get_ns();
	rcu_seq_start(&rcu_tasks.gp_seq);
	trace_rcu_tasks_gp_start(rcu_tasks.gp_seq, ncbs);

	rcu_tasks_pregp();
	scan_start = ktime_get_ns();
	nscanned = rcu_tasks_scan_tasklist(&holdouts, &nholdouts);
	nscanned += rcu_tasks_scan_exiting(&holdouts, &nholdouts, &nexit);
	WRITE_ONCE(rcu_tasks.nholdouts, nholdouts);
	trace_rcu_tasks_scan_done(rcu_tasks.gp_seq, nscanned, nholdouts,
				  ktime_get_ns() - scan_start);

	npasses = rcu_tasks_wait_holdouts(&holdouts, nholdouts, &nstalls);
	expedited = rcu_tasks_postgp();

	rcu_seq_end(&rcu_tasks.gp_seq);
	dur = ktime_get_ns() - rcu_tasks.gp_start_ns;

	flags = u64_stats_update_begin_irqsave(&s->syncp);
	u64_stats_inc(&s->gps);
	if (expedited)
		u64_stats_inc(&s->gps_expedited);
	u64_stats_add(&s->gp_ns_total, dur);
	u64_stats_set(&s->gp_ns_last, dur);
	if (dur > u64_stats_read(&s->gp_ns_max))
		u64_stats_set(&s->gp_ns_max, dur);
	u64_stats_add(&s->tasks_scanned, nscanned);
	u64_stats_add(&s->holdouts, nholdouts);
	u64_stats_add(&s->exit_holdouts, nexit);
	u64_stats_add(&s->holdout_passes, npasses);
	u64_stats_add(&s->stall_reports, nstalls);
	if (ncbs > u64_stats_read(&s->cbs_per_gp_max))
		u64_stats_set(&s->cbs_per_gp_max, ncbs);
	if (pre->woken)
		u64_stats_inc(&s->wakeups);
	if (pre->rate_bounded)
		u64_stats_inc(&s->gps_rate_bounded);
	u64_stats_add(&s->batch_ns_total, pre->batch_ns);
	u64_stats_update_end_irqrestore(&s->syncp, flags);

	trace_rcu_tasks_gp_end(rcu_tasks.gp_seq, dur, npasses, expedited);
}

/*
 * Invoke the callbacks of the grace period that just ended, in order.
 * Return: how many were invoked.
 */
static unsigned long rcu_tasks_invoke_cbs(struct rcu_head *rhp)
{
	unsigned long count = 0;
	struct rcu_head *next;
	rcu_callback_t f;

	rcu_tasks_set_state(RTC_INVOKE_CBS);
	for (; rhp; rhp = next) {
		next = rhp->next; /* The callback may free rhp. */
		debug_rcu_head_unqueue(rhp);
		f = rhp->func;
		debug_rcu_head_callback(rhp);
		WRITE_ONCE(rhp->func, (rcu_callback_t)0L);
		local_bh_disable();
		f(rhp);
		local_bh_enable();
		count++;
		cond_resched();
	}
	trace_rcu_tasks_cbs_invoked(rcu_tasks.gp_seq, count);
	return count;
}

/*
 * Take every queued callback, wait for one grace period, invoke them.
 * Callbacks queued from now on wait for the next grace period.
 */
static void rcu_tasks_one_gp(const struct rcu_tasks_gp_prelude *pre)
{
	struct rcu_tasks_gp_stats *s = &rcu_tasks.stats;
	struct rcu_head *list;
	unsigned long flags;
	unsigned long n;

	mutex_lock(&rcu_tasks.gp_mutex);
	raw_spin_lock_irq(&rcu_tasks.cbs_lock);
	list = rcu_tasks.cbs_head;
	n = rcu_tasks.cbs_len;
	rcu_tasks.cbs_head = NULL;
	rcu_tasks.cbs_tail = &rcu_tasks.cbs_head;
	rcu_tasks.cbs_len = 0;
	raw_spin_unlock_irq(&rcu_tasks.cbs_lock);

	rcu_tasks_wait_gp(n, pre);
	n = rcu_tasks_invoke_cbs(list);
	flags = u64_stats_update_begin_irqsave(&s->syncp);
	u64_stats_add(&s->cbs_invoked, n);
	u64_stats_update_end_irqrestore(&s->syncp, flags);
	mutex_unlock(&rcu_tasks.gp_mutex);
}

/*
 * Before a grace period that nobody waits for: let more callbacks join the
 * oldest one for batch_ms, and start no sooner than gp_interval_ms after
 * the previous grace period started.  A waiter (synchronize_rcu_tasks(),
 * rcu_barrier_tasks()) cuts the wait short: it raises ->exp_waiters and
 * then wakes us, and the wait's condition rechecks it after the barrier
 * in set_current_state() (pairs with the one in rcuwait_wake_up()).
 */
static void rcu_tasks_wait_batch(u64 last_gp_ns,
				 struct rcu_tasks_gp_prelude *pre)
{
	u64 t0 = ktime_get_ns();

	rcu_tasks_set_state(RTC_WAIT_BATCH);
	for (;;) {
		unsigned long first = READ_ONCE(rcu_tasks.cbs_first_jiffies);
		unsigned long batch = msecs_to_jiffies(READ_ONCE(rcu_tasks_batch_ms));
		u64 interval_ns = (u64)READ_ONCE(rcu_tasks_gp_interval_ms) * NSEC_PER_MSEC;
		unsigned long now = jiffies;
		unsigned long wait = 0;
		u64 since_gp_ns;

		if (rcu_tasks_gp_urgent())
			break;
		/* ->cbs_first_jiffies is at most one grace period old: no wrap. */
		if (time_before(now, first + batch))
			wait = first + batch - now;
		since_gp_ns = ktime_get_ns() - last_gp_ns;
		if (since_gp_ns < interval_ns &&
		    nsecs_to_jiffies(interval_ns - since_gp_ns) + 1 > wait) {
			wait = nsecs_to_jiffies(interval_ns - since_gp_ns) + 1;
			pre->rate_bounded = true;
		}
		if (!wait)
			break;
		/*
		 * A timer_list timeout: on PREEMPT_RT it expires from
		 * ksoftirqd, absent before do_pre_smp_initcalls().  Only
		 * callbacks wait here; a synchronous waiter is urgent and
		 * ends the wait at once (see rcu_tasks_backoff_sleep()).
		 */
		rcuwait_wait_event_timeout(&rcu_tasks.gp_wait,
					   rcu_tasks_gp_urgent(), TASK_IDLE, wait);
	}
	pre->batch_ns = ktime_get_ns() - t0;
}

static int rcu_tasks_kthread(void *unused)
{
	u64 last_gp_ns = 0;

	/* Run on housekeeping CPUs by default; the admin may move us. */
	housekeeping_affine(current, HK_TYPE_RCU);
	/* Publish ourselves after our setup; pairs with READ_ONCE() users. */
	smp_store_release(&rcu_tasks.kthread, current);

	for (;;) {
		struct rcu_tasks_gp_prelude pre = { };

		if (!rcu_tasks_cbs_pending()) {
			rcu_tasks_set_state(RTC_WAIT_CBS);
			rcuwait_wait_event(&rcu_tasks.gp_wait,
					   rcu_tasks_cbs_pending(), TASK_IDLE);
			pre.woken = true;
		}
		rcu_tasks_wait_batch(last_gp_ns, &pre);
		last_gp_ns = ktime_get_ns();
		rcu_tasks_one_gp(&pre);
		cond_resched();
	}
	return 0;
}

/*
 * Wait for a grace period as somebody who waits: expedited, unbatched,
 * not rate-bounded.  The kthread may be waiting out a batching window, so
 * wake it after raising ->exp_waiters (see rcu_tasks_wait_batch()).
 */
static void rcu_tasks_wait_urgent(void)
{
	struct rcu_synchronize rs;
	struct rcu_tasks_gp_prelude pre = { };

	atomic_inc(&rcu_tasks.exp_waiters);
	if (!READ_ONCE(rcu_tasks.kthread)) {
		/* Mid-boot, before the kthread exists: run a grace period ourselves. */
		rcu_tasks_one_gp(&pre);
		atomic_dec(&rcu_tasks.exp_waiters);
		return;
	}
	init_rcu_head_on_stack(&rs.head);
	init_completion(&rs.completion);
	call_rcu_tasks(&rs.head, wakeme_after_rcu);
	rcuwait_wake_up(&rcu_tasks.gp_wait);
	wait_for_completion_state(&rs.completion, TASK_IDLE);
	destroy_rcu_head_on_stack(&rs.head);
	atomic_dec(&rcu_tasks.exp_waiters);
}

/**
 * synchronize_rcu_tasks() - Wait until a Tasks RCU grace period has elapsed
 *
 * Returns some time after every task that was running or preempted at
 * the time of the call has passed through a voluntary context switch,
 * cond_resched_tasks_rcu_qs(), user-space execution or the idle loop.
 * Concurrent callers share grace periods.  Somebody waits, so the grace
 * period is expedited: it starts at once and closes with an expedited
 * RCU grace period.  Must be called from process context that may sleep,
 * once the scheduler runs; the wait does not count towards the load
 * average and is not reported as a hung task.
 *
 * Intended for tracing and similar code that must know no task is still
 * executing in, or preempted in, a code sequence such as a trampoline
 * that has been made unreachable.  See synchronize_rcu() for the
 * memory-ordering guarantees, which are the same.
 */
void synchronize_rcu_tasks(void)
{
	if (WARN_ONCE(rcu_scheduler_active == RCU_SCHEDULER_INACTIVE,
		      "%s() called too soon", __func__))
		return;
	rcu_tasks_wait_urgent();
}
EXPORT_SYMBOL_GPL(synchronize_rcu_tasks);

/**
 * rcu_barrier_tasks() - Wait for in-flight call_rcu_tasks() callbacks
 *
 * Returns after every callback queued by call_rcu_tasks() before the call
 * has been invoked.  Callbacks are queued on one list and invoked in
 * order, so waiting for a callback queued now is enough; the grace period
 * is expedited like synchronize_rcu_tasks()'s.  Must be called from
 * process context that may sleep.
 */
void rcu_barrier_tasks(void)
{
	if (WARN_ONCE(rcu_scheduler_active == RCU_SCHEDULER_INACTIVE,
		      "%s() called too soon", __func__))
		return;
	rcu_tasks_wait_urgent();
}
EXPORT_SYMBOL_GPL(rcu_barrier_tasks);

/* ------------------------------------------------------------------ */
/* Exiting tasks.                                                     */

/**
 * rcu_tasks_classic_init_exit_lists() - Set up the per-CPU exit lists
 *
 * Called from rcu_init(), with one CPU up and interrupts disabled, before
 * any task can exit.
 */
void __init rcu_tasks_classic_init_exit_lists(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct rcu_tasks_exit_list *el = per_cpu_ptr(&rcu_tasks_exiting, cpu);

		raw_spin_lock_init(&el->lock);
		INIT_LIST_HEAD(&el->tasks);
	}
}

/**
 * rcu_tasks_classic_exit_start() - An exiting task is about to leave the task list
 *
 * Called by exit_tasks_rcu_start() in do_exit(), before exit_notify()
 * unhashes the task.  From here until rcu_tasks_classic_exit_finish() the
 * task can be preempted, but the task-list scan can no longer find it, so
 * it goes on the exit list of the CPU it runs on, where
 * rcu_tasks_scan_exiting() finds it.  No reference is taken: the task
 * removes itself before it can die.
 *
 * Deadlock freedom: a grace period never waits for a task to leave this
 * list or to finish exiting, only for it to pass through a voluntary
 * context switch, as for any other task.  An exiting task that blocks,
 * for instance on a mutex held by a synchronize_rcu_tasks() caller, is
 * quiescent while it blocks, so that caller's grace period ends.
 */
void rcu_tasks_classic_exit_start(void)
{
	struct task_struct *t = current;
	struct rcu_tasks_exit_list *el;
	unsigned long flags;

	WARN_ON_ONCE(!list_empty(&t->rcu_tasks_exit_list));
	local_irq_save(flags);
	t->rcu_tasks_exit_cpu = smp_processor_id();
	el = this_cpu_ptr(&rcu_tasks_exiting);
	raw_spin_lock(&el->lock);
	list_add(&t->rcu_tasks_exit_list, &el->tasks);
	/* The unlock orders the add before the unhash; see rcu_tasks_scan_exiting(). */
	raw_spin_unlock_irqrestore(&el->lock, flags);
}

/**
 * rcu_tasks_classic_exit_finish() - An exiting task is done with preemptible code
 *
 * Called by exit_tasks_rcu_finish() with preemption disabled, which stays
 * disabled until the task's final __schedule().  A grace period that no
 * longer sees the task waits for that stretch in rcu_tasks_postgp().  The
 * task may have migrated since rcu_tasks_classic_exit_start(): it leaves
 * the list it joined.
 */
void rcu_tasks_classic_exit_finish(void)
{
	struct task_struct *t = current;
	struct rcu_tasks_exit_list *el;
	unsigned long flags;

	el = per_cpu_ptr(&rcu_tasks_exiting, t->rcu_tasks_exit_cpu);
	raw_spin_lock_irqsave(&el->lock, flags);
	WARN_ON_ONCE(list_empty(&t->rcu_tasks_exit_list));
	list_del_init(&t->rcu_tasks_exit_list);
	raw_spin_unlock_irqrestore(&el->lock, flags);
}

/* ------------------------------------------------------------------ */
/* Start-up, diagnostics and accounting.                              */

/**
 * rcu_tasks_classic_spawn_kthread() - Start the grace-period kthread
 * @legacy_stall_jiffies: rcupdate.rcu_task_stall_timeout, in jiffies.
 * @legacy_stall_set: True if that was changed from its default.
 *
 * Called once from rcu_init_tasks_generic(), early in boot, once kthreads
 * can be created.  Until the kthread publishes itself,
 * synchronize_rcu_tasks() runs grace periods in the caller's context and
 * callbacks simply accumulate.
 *
 * The parameters mainline documents for this flavor still act on it:
 * rcupdate.rcu_task_stall_timeout (jiffies, <= 0 disables the warnings)
 * sets stall_timeout_ms unless that was given too, and
 * rcupdate.rcu_tasks_lazy_ms sets batch_ms.
 */
void __init rcu_tasks_classic_spawn_kthread(int legacy_stall_jiffies,
					    bool legacy_stall_set)
{
	struct task_struct *t;

	if (rcu_tasks_stall_ms == RCU_TASKS_STALL_MS_DEFAULT && legacy_stall_set) {
		rcu_tasks_stall_ms = legacy_stall_jiffies <= 0 ? 0 :
			clamp_t(unsigned int, jiffies_to_msecs(legacy_stall_jiffies),
				RCU_TASKS_STALL_MS_MIN, RCU_TASKS_STALL_MS_MAX);
	}
	if (rcu_tasks_lazy_ms >= 0)
		rcu_tasks_batch_ms = min_t(unsigned int, rcu_tasks_lazy_ms,
					   RCU_TASKS_BATCH_MS_MAX);

	t = kthread_run(rcu_tasks_kthread, NULL, "rcu_tasks_kthread");
	if (WARN_ONCE(IS_ERR(t), "%s: cannot start rcu_tasks_kthread\n", __func__))
		return;
	if (rcu_tasks_stall_ms != RCU_TASKS_STALL_MS_DEFAULT)
		pr_info("stall warnings after %u ms\n", rcu_tasks_stall_ms);
	if (rcu_tasks_batch_ms != RCU_TASKS_BATCH_MS_DEFAULT)
		pr_info("callbacks batched for %u ms\n", rcu_tasks_batch_ms);
}

/**
 * get_rcu_tasks_gp_kthread() - Return the classic Tasks RCU grace-period kthread
 *
 * Used by rcuscale to account the kthread's CPU time.
 *
 * Return: the kthread, or NULL if it has not started yet.
 */
struct task_struct *get_rcu_tasks_gp_kthread(void)
{
	return READ_ONCE(rcu_tasks.kthread);
}
EXPORT_SYMBOL_GPL(get_rcu_tasks_gp_kthread);

/**
 * rcu_tasks_get_gp_data() - Report the classic Tasks RCU grace-period state
 * @flags: Set to 0; there are no flavor flags.
 * @gp_seq: Set to the grace-period sequence number (rcu_seq_*() encoding).
 */
void rcu_tasks_get_gp_data(int *flags, unsigned long *gp_seq)
{
	*flags = 0;
	*gp_seq = rcu_seq_current(&rcu_tasks.gp_seq);
}
EXPORT_SYMBOL_GPL(rcu_tasks_get_gp_data);

#ifndef CONFIG_TINY_RCU
/**
 * show_rcu_tasks_classic_gp_kthread() - Print the grace-period kthread's state
 *
 * One line for rcutorture's and RCU's stall diagnostics: the phase, how
 * long it has been in it, the grace-period counter, queued callbacks,
 * current holdouts, waiters, and whether the kthread runs ('k').
 */
void show_rcu_tasks_classic_gp_kthread(void)
{
	pr_info("rcu_tasks_kthread: %s since %lu jiffies g:%lu cbs:%lu holdouts:%u waiters:%d %c\n",
		rcu_tasks_state_name(),
		jiffies - READ_ONCE(rcu_tasks.gp_state_jiffies),
		rcu_seq_ctr(READ_ONCE(rcu_tasks.gp_seq)),
		/* Diagnostic only: racy read of a count protected by cbs_lock. */
		data_race(rcu_tasks.cbs_len),
		READ_ONCE(rcu_tasks.nholdouts),
		atomic_read(&rcu_tasks.exp_waiters),
		READ_ONCE(rcu_tasks.kthread) ? 'k' : '.');
}
EXPORT_SYMBOL_GPL(show_rcu_tasks_classic_gp_kthread);

/**
 * rcu_tasks_torture_stats_print() - Print classic Tasks RCU statistics
 * @tt: Torture type, printed as a prefix.
 * @tf: Torture flag, printed as a prefix.
 */
void rcu_tasks_torture_stats_print(char *tt, char *tf)
{
	struct rcu_tasks_stats_snap s;

	rcu_tasks_stats_snapshot(&s);
	pr_alert("%s%s Tasks RCU g%lu state %s gps %llu (exp %llu) holdouts %llu passes %llu cbs %llu/%llu stalls %llu\n",
		 tt, tf, rcu_seq_ctr(READ_ONCE(rcu_tasks.gp_seq)),
		 rcu_tasks_state_name(), s.gps, s.gps_expedited, s.holdouts,
		 s.holdout_passes, s.cbs_invoked, s.cbs_queued, s.stall_reports);
}
EXPORT_SYMBOL_GPL(rcu_tasks_torture_stats_print);
#endif /* #ifndef CONFIG_TINY_RCU */

#ifdef CONFIG_DEBUG_FS
/*
 * One "name value" line per figure.  What the grace periods cost the rest
 * of the system: gps_expedited bounds the IPIs they caused (an expedited
 * RCU grace period sends at most one to each online CPU that is not
 * idle; a normal one and the rest of a Tasks RCU grace period send none),
 * kthread_cpu_ns is the kthread's CPU time, tasks_scanned the work of the
 * scans.  cbs_queued / gps_normal is the batching achieved.
 */
static int rcu_tasks_stats_show(struct seq_file *m, void *unused)
{
	struct task_struct *kt = READ_ONCE(rcu_tasks.kthread);
	struct rcu_tasks_stats_snap s;

	rcu_tasks_stats_snapshot(&s);
	seq_printf(m, "gps %llu\n", s.gps);
	seq_printf(m, "gps_expedited %llu\n", s.gps_expedited);
	seq_printf(m, "gps_normal %llu\n", s.gps - s.gps_expedited);
	seq_printf(m, "gps_rate_bounded %llu\n", s.gps_rate_bounded);
	seq_printf(m, "gp_ns_total %llu\n", s.gp_ns_total);
	seq_printf(m, "gp_ns_max %llu\n", s.gp_ns_max);
	seq_printf(m, "gp_ns_last %llu\n", s.gp_ns_last);
	seq_printf(m, "batch_ns_total %llu\n", s.batch_ns_total);
	seq_printf(m, "tasks_scanned %llu\n", s.tasks_scanned);
	seq_printf(m, "holdouts %llu\n", s.holdouts);
	seq_printf(m, "exit_holdouts %llu\n", s.exit_holdouts);
	seq_printf(m, "holdout_passes %llu\n", s.holdout_passes);
	seq_printf(m, "stall_reports %llu\n", s.stall_reports);
	seq_printf(m, "cbs_queued %llu\n", s.cbs_queued);
	seq_printf(m, "cbs_invoked %llu\n", s.cbs_invoked);
	seq_printf(m, "cbs_per_gp_max %llu\n", s.cbs_per_gp_max);
	/* Racy read of a count protected by cbs_lock: statistics only. */
	seq_printf(m, "cbs_pending %lu\n", data_race(rcu_tasks.cbs_len));
	seq_printf(m, "kthread_wakeups %llu\n", s.wakeups);
	seq_printf(m, "kthread_cpu_ns %llu\n", kt ? task_sched_runtime(kt) : 0ULL);
	seq_printf(m, "gp_seq %lu\n", rcu_seq_ctr(READ_ONCE(rcu_tasks.gp_seq)));
	seq_printf(m, "gp_state %s\n", rcu_tasks_state_name());
	seq_printf(m, "holdouts_now %u\n", READ_ONCE(rcu_tasks.nholdouts));
	seq_printf(m, "waiters_now %d\n", atomic_read(&rcu_tasks.exp_waiters));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(rcu_tasks_stats);

static int __init rcu_tasks_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("rcu_tasks", NULL);

	debugfs_create_file("stats", 0444, dir, NULL, &rcu_tasks_stats_fops);
	return 0;
}
late_initcall(rcu_tasks_debugfs_init);
#endif /* #ifdef CONFIG_DEBUG_FS */
