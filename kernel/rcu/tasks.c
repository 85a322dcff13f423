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
 * on a wait queue whenever no callback is queued, so an idle system sees
 * no wakeups at all.  See Documentation/trace/ftrace-rcu-tasks.rst.
 */

#define pr_fmt(fmt) "rcu_tasks: " fmt

#include <linux/debugfs.h>
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
#include <linux/tick.h>
#include <linux/wait.h>

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
	bool is_min = kp->arg == &rcu_tasks_backoff_min_us;
	unsigned int other;
	unsigned int v;
	int ret;

	other = is_min ? rcu_tasks_backoff_max_us : rcu_tasks_backoff_min_us;
	ret = rcu_tasks_parse_backoff(val, is_min, other, &v);
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

module_param_cb(stall_timeout_ms, &rcu_tasks_stall_ops, &rcu_tasks_stall_ms, 0644);
MODULE_PARM_DESC(stall_timeout_ms,
		 "Warn about holdout tasks after this many ms (0: never, else 10..86400000)");
module_param_cb(backoff_min_us, &rcu_tasks_backoff_ops, &rcu_tasks_backoff_min_us, 0644);
MODULE_PARM_DESC(backoff_min_us, "First holdout rescan after this many us (1..1000)");
module_param_cb(backoff_max_us, &rcu_tasks_backoff_ops, &rcu_tasks_backoff_max_us, 0644);
MODULE_PARM_DESC(backoff_max_us, "Longest holdout rescan interval in us (min..1000000)");

/* Where the grace-period kthread is, for show_rcu_tasks_classic_gp_kthread(). */
enum rcu_tasks_gp_state {
	RTC_INIT,		/* Not started yet. */
	RTC_WAIT_CBS,		/* Asleep, waiting for a callback. */
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
	[RTC_PREGP]		= "pregp",
	[RTC_SCAN_TASKLIST]	= "scan_tasklist",
	[RTC_SCAN_EXITING]	= "scan_exiting",
	[RTC_WAIT_HOLDOUTS]	= "wait_holdouts",
	[RTC_SCAN_HOLDOUTS]	= "scan_holdouts",
	[RTC_POSTGP]		= "postgp",
	[RTC_INVOKE_CBS]	= "invoke_cbs",
};

/*
 * Counters for the debugfs stats file.  The grace-period side is written
 * only under rcu_tasks.gp_mutex, cbs_queued only under rcu_tasks.cbs_lock;
 * readers are lock-free and use READ_ONCE().
 */
struct rcu_tasks_stats {
	u64 gps;		/* Grace periods completed. */
	u64 gp_ns_total;	/* Sum of their durations. */
	u64 gp_ns_max;		/* Longest one. */
	u64 gp_ns_last;		/* Most recent one. */
	u64 tasks_scanned;	/* Tasks looked at by the scans. */
	u64 holdouts;		/* Tasks found holding out at scan time. */
	u64 exit_holdouts;	/* ... of which found only on the exit list. */
	u64 holdout_passes;	/* Rescans of the holdout list. */
	u64 stall_reports;	/* Stall warnings printed. */
	u64 cbs_queued;		/* call_rcu_tasks() calls. */
	u64 cbs_invoked;	/* Callbacks invoked. */
	u64 wakeups;		/* Times the kthread was woken from its wait. */
};

/**
 * struct rcu_tasks_classic - State of the classic Tasks RCU flavor.
 * @cbs_lock: Protects @cbs_head, @cbs_tail, @cbs_len and @stats.cbs_queued.
 * @cbs_head: Callbacks waiting for the next grace period, oldest first.
 * @cbs_tail: Where call_rcu_tasks() links the next callback.
 * @cbs_len: Number of callbacks on @cbs_head.
 * @gp_wq: The kthread sleeps here while @cbs_head is empty.
 * @wake_work: Defers the wakeup of @gp_wq out of call_rcu_tasks()'s context.
 * @gp_mutex: Serializes grace periods (kthread against mid-boot callers).
 * @kthread: The grace-period kthread, NULL until it runs.
 * @gp_seq: Grace-period sequence number, rcu_seq_*() encoding.
 * @gp_state: Current phase, enum rcu_tasks_gp_state.
 * @gp_state_jiffies: When @gp_state last changed.
 * @gp_start_ns: When the current or last grace period started.
 * @nholdouts: Tasks on the current grace period's holdout list.
 * @stats: Accounting, see struct rcu_tasks_stats.
 */
struct rcu_tasks_classic {
	raw_spinlock_t cbs_lock;
	struct rcu_head *cbs_head;
	struct rcu_head **cbs_tail;
	unsigned long cbs_len;
	struct wait_queue_head gp_wq;
	struct irq_work wake_work;
	struct mutex gp_mutex;		/* Serializes grace periods. */
	struct task_struct *kthread;
	unsigned long gp_seq;
	int gp_state;
	unsigned long gp_state_jiffies;
	u64 gp_start_ns;
	unsigned int nholdouts;
	struct rcu_tasks_stats stats;
};

static void rcu_tasks_wake_work_fn(struct irq_work *iwp);

static struct rcu_tasks_classic rcu_tasks = {
	.cbs_lock = __RAW_SPIN_LOCK_UNLOCKED(rcu_tasks.cbs_lock),
	.cbs_tail = &rcu_tasks.cbs_head,
	.gp_wq = __WAIT_QUEUE_HEAD_INITIALIZER(rcu_tasks.gp_wq),
	.wake_work = IRQ_WORK_INIT_HARD(rcu_tasks_wake_work_fn),
	.gp_mutex = __MUTEX_INITIALIZER(rcu_tasks.gp_mutex),
	.gp_state = RTC_INIT,
};

/*
 * Tasks that have entered do_exit()'s tail, see rcu_tasks_classic_exit_start().
 * Linked through ->rcu_tasks_exit_list; a task removes itself before it
 * dies, so the list never points at freed memory.  One list and one lock
 * for the whole system: the list only holds tasks between
 * exit_tasks_rcu_start() and exit_tasks_rcu_finish(), and the lock is held
 * for a list_add() or list_del() at a time, except by the scan.
 */
static DEFINE_RAW_SPINLOCK(rcu_tasks_exit_lock);
static LIST_HEAD(rcu_tasks_exit_list);

#define rcu_tasks_stat_add(field, n)			\
do {							\
	u64 *__p = &rcu_tasks.stats.field;		\
							\
	WRITE_ONCE(*__p, *__p + (n));			\
} while (0)

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

/* ------------------------------------------------------------------ */
/* Callback queueing.                                                 */

/* Runs in hard-irq context, where taking the wait-queue lock is safe. */
static void rcu_tasks_wake_work_fn(struct irq_work *iwp)
{
	wake_up(&rcu_tasks.gp_wq);
}

static bool rcu_tasks_cbs_pending(void)
{
	/* Lock-free peek; the kthread takes rcu_tasks.cbs_lock to dequeue. */
	return !!data_race(READ_ONCE(rcu_tasks.cbs_head));
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
	*rcu_tasks.cbs_tail = rhp;
	rcu_tasks.cbs_tail = &rhp->next;
	qlen = ++rcu_tasks.cbs_len;
	rcu_tasks_stat_add(cbs_queued, 1);
	raw_spin_unlock_irqrestore(&rcu_tasks.cbs_lock, flags);

	trace_rcu_tasks_cb_queued(rhp, func, qlen);

	/*
	 * Only the first callback on an empty list needs a wakeup: the
	 * kthread looks at the list again after every grace period.  The
	 * wakeup goes through irq_work because the caller may hold
	 * scheduler locks (a tracer or BPF program attached inside the
	 * scheduler), which wake_up() would take again.  The list update
	 * above is ordered before the kthread's recheck by the wait-queue
	 * lock taken in wake_up() and in prepare_to_wait_event().
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
 * itself on rcu_tasks_exit_list.  Claim: every task that phase 2 missed
 * and that can still be preempted in a reader is on that list now.  The
 * task adds itself under rcu_tasks_exit_lock and only then takes
 * tasklist_lock to unhash.  If its critical section on the exit lock came
 * after ours, our task-list walk (before our unlock) happened before its
 * unhash (after its lock), so phase 2 saw it.  Otherwise we see it here.
 *
 * A task that already removed itself runs with preemption disabled until
 * its final __schedule(); phase 5 waits for that stretch.  Tasks already on
 * the holdout list (found by phase 2) are not added twice.
 */
static unsigned int rcu_tasks_scan_exiting(struct list_head *hop,
					   unsigned int *nholdouts)
{
	struct task_struct *t;
	unsigned int nscanned = 0;
	unsigned int n = 0;

	rcu_tasks_set_state(RTC_SCAN_EXITING);
	raw_spin_lock_irq(&rcu_tasks_exit_lock);
	list_for_each_entry(t, &rcu_tasks_exit_list, rcu_tasks_exit_list) {
		nscanned++;
		if (list_empty(&t->rcu_tasks_holdout_list) &&
		    rcu_tasks_pertask(t, hop))
			n++;
	}
	raw_spin_unlock_irq(&rcu_tasks_exit_lock);
	rcu_tasks_stat_add(exit_holdouts, n);
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

/*
 * Phase 4: rescan the holdouts until none is left.  The first rescan comes
 * backoff_min_us after the scan, and the interval doubles up to
 * backoff_max_us, see rcu_tasks_backoff_next().  Once the grace period is
 * stall_timeout_ms old, the remaining holdouts are reported, and again
 * every stall_timeout_ms after that; the grace period still ends as soon
 * as they let go.
 */
static unsigned int rcu_tasks_wait_holdouts(struct list_head *hop,
					    unsigned int nholdouts)
{
	unsigned int min_us = READ_ONCE(rcu_tasks_backoff_min_us);
	unsigned int wait_us = min_us;
	u64 last_report_ns = rcu_tasks.gp_start_ns;
	unsigned int pass = 0;

	while (!list_empty(hop)) {
		unsigned int stall_ms;
		bool report = false;
		u64 now;

		rcu_tasks_set_state(RTC_WAIT_HOLDOUTS);
		usleep_idle_range(wait_us, wait_us + wait_us / 4);

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
			       rcu_tasks.gp_seq,
			       div_u64(now - rcu_tasks.gp_start_ns, NSEC_PER_MSEC),
			       nholdouts);
			rcu_tasks_stat_add(stall_reports, 1);
		}
		nholdouts = rcu_tasks_scan_holdouts(hop, report);
		WRITE_ONCE(rcu_tasks.nholdouts, nholdouts);
		rcu_tasks_stat_add(holdout_passes, 1);

		wait_us = rcu_tasks_backoff_next(wait_us,
						 READ_ONCE(rcu_tasks_backoff_min_us),
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
 * for.  We use the expedited form: it gives the same guarantee (it too
 * waits for every preempt- and irq-disabled region), at the price of one
 * IPI to each CPU that is not idle.  On the project's 2-vCPU TCG guest it
 * takes about 2.7 ms on average against a normal grace period's 12 ms,
 * and it is most of the cost of a grace period without holdouts (the
 * scan of ~40 tasks takes ~12 us).  Its full barriers also order our
 * loads of the evidence before the callbacks' frees.
 */
static void rcu_tasks_postgp(void)
{
	rcu_tasks_set_state(RTC_POSTGP);
	synchronize_rcu_expedited();
}

/* Wait for one Tasks RCU grace period, covering @ncbs callbacks. */
static void rcu_tasks_wait_gp(unsigned long ncbs)
{
	unsigned int nholdouts = 0;
	unsigned int nscanned;
	unsigned int npasses;
	LIST_HEAD(holdouts);
	u64 scan_start;
	u64 dur;

	lockdep_assert_held(&rcu_tasks.gp_mutex);
	rcu_tasks.gp_start_ns = ktime_get_ns();
	rcu_seq_start(&rcu_tasks.gp_seq);
	trace_rcu_tasks_gp_start(rcu_tasks.gp_seq, ncbs);

	rcu_tasks_pregp();
	scan_start = ktime_get_ns();
	nscanned = rcu_tasks_scan_tasklist(&holdouts, &nholdouts);
	nscanned += rcu_tasks_scan_exiting(&holdouts, &nholdouts);
	WRITE_ONCE(rcu_tasks.nholdouts, nholdouts);
	rcu_tasks_stat_add(tasks_scanned, nscanned);
	rcu_tasks_stat_add(holdouts, nholdouts);
	trace_rcu_tasks_scan_done(rcu_tasks.gp_seq, nscanned, nholdouts,
				  ktime_get_ns() - scan_start);

	npasses = rcu_tasks_wait_holdouts(&holdouts, nholdouts);
	rcu_tasks_postgp();

	rcu_seq_end(&rcu_tasks.gp_seq);
	dur = ktime_get_ns() - rcu_tasks.gp_start_ns;
	rcu_tasks_stat_add(gps, 1);
	rcu_tasks_stat_add(gp_ns_total, dur);
	WRITE_ONCE(rcu_tasks.stats.gp_ns_last, dur);
	if (dur > rcu_tasks.stats.gp_ns_max)
		WRITE_ONCE(rcu_tasks.stats.gp_ns_max, dur);
	trace_rcu_tasks_gp_end(rcu_tasks.gp_seq, dur, npasses);
}

/* Invoke the callbacks of the grace period that just ended, in order. */
static void rcu_tasks_invoke_cbs(struct rcu_head *rhp)
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
	rcu_tasks_stat_add(cbs_invoked, count);
	trace_rcu_tasks_cbs_invoked(rcu_tasks.gp_seq, count);
}

/*
 * Take every queued callback, wait for one grace period, invoke them.
 * Callbacks queued from now on wait for the next grace period.
 */
static void rcu_tasks_one_gp(void)
{
	struct rcu_head *list;
	unsigned long n;

	mutex_lock(&rcu_tasks.gp_mutex);
	raw_spin_lock_irq(&rcu_tasks.cbs_lock);
	list = rcu_tasks.cbs_head;
	n = rcu_tasks.cbs_len;
	rcu_tasks.cbs_head = NULL;
	rcu_tasks.cbs_tail = &rcu_tasks.cbs_head;
	rcu_tasks.cbs_len = 0;
	raw_spin_unlock_irq(&rcu_tasks.cbs_lock);

	rcu_tasks_wait_gp(n);
	rcu_tasks_invoke_cbs(list);
	mutex_unlock(&rcu_tasks.gp_mutex);
}

static int rcu_tasks_kthread(void *unused)
{
	/* Run on housekeeping CPUs by default; the admin may move us. */
	housekeeping_affine(current, HK_TYPE_RCU);
	/* Publish ourselves after our setup; pairs with READ_ONCE() users. */
	smp_store_release(&rcu_tasks.kthread, current);

	for (;;) {
		rcu_tasks_set_state(RTC_WAIT_CBS);
		wait_event_idle(rcu_tasks.gp_wq, rcu_tasks_cbs_pending());
		rcu_tasks_stat_add(wakeups, 1);
		do {
			rcu_tasks_one_gp();
			cond_resched();
		} while (rcu_tasks_cbs_pending());
	}
	return 0;
}

/**
 * synchronize_rcu_tasks() - Wait until a Tasks RCU grace period has elapsed
 *
 * Returns some time after every task that was running or preempted at
 * the time of the call has passed through a voluntary context switch,
 * cond_resched_tasks_rcu_qs(), user-space execution or the idle loop.
 * Concurrent callers share grace periods.  Must be called from process
 * context that may sleep; the wait does not count towards the load
 * average and is not reported as a hung task.
 *
 * Intended for tracing and similar code that must know no task is still
 * executing in, or preempted in, a code sequence such as a trampoline
 * that has been made unreachable.  See synchronize_rcu() for the
 * memory-ordering guarantees, which are the same.
 */
void synchronize_rcu_tasks(void)
{
	/* Before the scheduler runs there is only one task: nothing to wait for. */
	if (rcu_scheduler_active == RCU_SCHEDULER_INACTIVE)
		return;
	if (READ_ONCE(rcu_tasks.kthread)) {
		wait_rcu_gp_state(TASK_IDLE, call_rcu_tasks);
		return;
	}
	/* Mid-boot, before the kthread exists: run a grace period ourselves. */
	rcu_tasks_one_gp();
}
EXPORT_SYMBOL_GPL(synchronize_rcu_tasks);

/**
 * rcu_barrier_tasks() - Wait for in-flight call_rcu_tasks() callbacks
 *
 * Returns after every callback queued by call_rcu_tasks() before the call
 * has been invoked.  Callbacks are queued on one list and invoked in
 * order, so waiting for a callback queued now is enough.  Must be called
 * from process context that may sleep.
 */
void rcu_barrier_tasks(void)
{
	synchronize_rcu_tasks();
}
EXPORT_SYMBOL_GPL(rcu_barrier_tasks);

/* ------------------------------------------------------------------ */
/* Exiting tasks.                                                     */

/**
 * rcu_tasks_classic_exit_start() - An exiting task is about to leave the task list
 *
 * Called by exit_tasks_rcu_start() in do_exit(), before exit_notify()
 * unhashes the task.  From here until rcu_tasks_classic_exit_finish() the
 * task can be preempted, but the task-list scan can no longer find it, so
 * it goes on rcu_tasks_exit_list where rcu_tasks_scan_exiting() finds it.
 * No reference is taken: the task removes itself before it can die.
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
	unsigned long flags;

	raw_spin_lock_irqsave(&rcu_tasks_exit_lock, flags);
	WARN_ON_ONCE(!list_empty(&t->rcu_tasks_exit_list));
	list_add(&t->rcu_tasks_exit_list, &rcu_tasks_exit_list);
	/* The unlock orders the add before the unhash; see rcu_tasks_scan_exiting(). */
	raw_spin_unlock_irqrestore(&rcu_tasks_exit_lock, flags);
}

/**
 * rcu_tasks_classic_exit_finish() - An exiting task is done with preemptible code
 *
 * Called by exit_tasks_rcu_finish() with preemption disabled, which stays
 * disabled until the task's final __schedule().  A grace period that no
 * longer sees the task waits for that stretch in rcu_tasks_postgp().
 */
void rcu_tasks_classic_exit_finish(void)
{
	struct task_struct *t = current;
	unsigned long flags;

	raw_spin_lock_irqsave(&rcu_tasks_exit_lock, flags);
	WARN_ON_ONCE(list_empty(&t->rcu_tasks_exit_list));
	list_del_init(&t->rcu_tasks_exit_list);
	raw_spin_unlock_irqrestore(&rcu_tasks_exit_lock, flags);
}

/* ------------------------------------------------------------------ */
/* Start-up, diagnostics and accounting.                              */

/**
 * rcu_tasks_classic_spawn_kthread() - Start the grace-period kthread
 *
 * Called once from rcu_init_tasks_generic(), early in boot, once kthreads
 * can be created.  Until the kthread publishes itself,
 * synchronize_rcu_tasks() runs grace periods in the caller's context and
 * callbacks simply accumulate.
 */
void __init rcu_tasks_classic_spawn_kthread(void)
{
	struct task_struct *t;

	t = kthread_run(rcu_tasks_kthread, NULL, "rcu_tasks_kthread");
	if (WARN_ONCE(IS_ERR(t), "%s: cannot start rcu_tasks_kthread\n", __func__))
		return;
	if (rcu_tasks_stall_ms != RCU_TASKS_STALL_MS_DEFAULT)
		pr_info("stall warnings after %u ms\n", rcu_tasks_stall_ms);
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
 * long it has been in it, the sequence number, queued callbacks, current
 * holdouts and whether the kthread runs ('k').
 */
void show_rcu_tasks_classic_gp_kthread(void)
{
	pr_info("rcu_tasks_kthread: %s since %lu jiffies g:%lu cbs:%lu holdouts:%u %c\n",
		rcu_tasks_state_name(),
		jiffies - READ_ONCE(rcu_tasks.gp_state_jiffies),
		READ_ONCE(rcu_tasks.gp_seq),
		/* Diagnostic only: racy read of a count protected by cbs_lock. */
		data_race(rcu_tasks.cbs_len),
		READ_ONCE(rcu_tasks.nholdouts),
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
	struct rcu_tasks_stats *s = &rcu_tasks.stats;

	pr_alert("%s%s Tasks RCU g%lu state %s gps %llu holdouts %llu passes %llu cbs %llu/%llu stalls %llu\n",
		 tt, tf, READ_ONCE(rcu_tasks.gp_seq), rcu_tasks_state_name(),
		 READ_ONCE(s->gps), READ_ONCE(s->holdouts),
		 READ_ONCE(s->holdout_passes), READ_ONCE(s->cbs_invoked),
		 READ_ONCE(s->cbs_queued), READ_ONCE(s->stall_reports));
}
EXPORT_SYMBOL_GPL(rcu_tasks_torture_stats_print);
#endif /* #ifndef CONFIG_TINY_RCU */

#ifdef CONFIG_DEBUG_FS
static int rcu_tasks_stats_show(struct seq_file *m, void *unused)
{
	struct rcu_tasks_stats *s = &rcu_tasks.stats;
	struct task_struct *kt = READ_ONCE(rcu_tasks.kthread);

	seq_printf(m, "gps %llu\n", READ_ONCE(s->gps));
	seq_printf(m, "gp_ns_total %llu\n", READ_ONCE(s->gp_ns_total));
	seq_printf(m, "gp_ns_max %llu\n", READ_ONCE(s->gp_ns_max));
	seq_printf(m, "gp_ns_last %llu\n", READ_ONCE(s->gp_ns_last));
	seq_printf(m, "tasks_scanned %llu\n", READ_ONCE(s->tasks_scanned));
	seq_printf(m, "holdouts %llu\n", READ_ONCE(s->holdouts));
	seq_printf(m, "exit_holdouts %llu\n", READ_ONCE(s->exit_holdouts));
	seq_printf(m, "holdout_passes %llu\n", READ_ONCE(s->holdout_passes));
	seq_printf(m, "stall_reports %llu\n", READ_ONCE(s->stall_reports));
	/* Racy reads of counters protected by cbs_lock: statistics only. */
	seq_printf(m, "cbs_queued %llu\n", data_race(s->cbs_queued));
	seq_printf(m, "cbs_invoked %llu\n", READ_ONCE(s->cbs_invoked));
	seq_printf(m, "cbs_pending %lu\n", data_race(rcu_tasks.cbs_len)); /* See above. */
	seq_printf(m, "kthread_wakeups %llu\n", READ_ONCE(s->wakeups));
	seq_printf(m, "kthread_cpu_ns %llu\n", kt ? task_sched_runtime(kt) : 0ULL);
	seq_printf(m, "gp_seq %lu\n", READ_ONCE(rcu_tasks.gp_seq));
	seq_printf(m, "gp_state %s\n", rcu_tasks_state_name());
	seq_printf(m, "holdouts_now %u\n", READ_ONCE(rcu_tasks.nholdouts));
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
