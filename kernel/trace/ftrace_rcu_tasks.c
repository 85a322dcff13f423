// SPDX-License-Identifier: GPL-2.0
/*
 * Per-ops ftrace trampolines, replaced by copy-update and retired through
 * call_rcu_tasks().
 *
 * A trampoline is built for one ftrace_ops: it saves the registers, loads
 * that ops and calls its function directly, so a call site owned by a
 * single ops costs one call instead of a walk of the ops list.  A task can
 * be preempted while it runs in a trampoline, or in the function the
 * trampoline calls, and resume there much later.  So a trampoline that is
 * no longer reachable from any call site may still be executing, and its
 * memory may only be freed once every task has passed through a voluntary
 * context switch or user space since the last call site was re-pointed:
 * a Tasks RCU grace period.
 *
 * Mainline waits for that grace period (and a Tasks-RCU-rude one)
 * synchronously in ftrace_shutdown(), with ftrace_lock held, so every
 * other tracer, filter write and module load waits with it, and it patches
 * a live trampoline in place when the ops's function changes.  Here a
 * trampoline is never changed once it is live.  Its lifecycle is:
 *
 *   ALLOCATED  built, not yet reachable
 *   LIVE       published in ops->trampoline; call sites may point at it
 *   RETIRED    no call site and no ops points at it any more; waiting for
 *              the grace periods
 *   FREED      memory returned (the object is freed right after)
 *
 * Every change to what a trampoline would contain builds a new one, the
 * update pass re-points the call sites at it, and the old one is retired:
 * ftrace_tramp_swap_begin() / ftrace_tramp_swap_end().  Unregistering
 * retires the trampoline without waiting.  The reclaim pipeline then runs
 * in workqueue and Tasks RCU callback context:
 *
 *   retire   -> ftrace_tramp_retire_workfn(): every CPU schedules (rude)
 *            -> call_rcu_tasks(): every task passes a quiescent state
 *            -> ftrace_tramp_tasks_gp_done(): leave kallsyms
 *            -> queue_rcu_work(): every kallsyms/unwinder reader is done
 *            -> ftrace_tramp_free_workfn(): free the memory
 *
 * Why the "rude" step: the function tracers can be called where RCU is
 * not watching (on the way to idle or to user space, in the entry code).
 * Those stretches run with preemption disabled, but they are quiescent
 * states for RCU and for the RCU-protected part of a Tasks RCU grace
 * period, so neither waits for them.  A work item that runs on every CPU
 * does: a CPU can only run it after leaving whatever non-preemptible
 * stretch it was in.  This is what synchronize_rcu_tasks_rude() does,
 * done here from a workqueue so that nothing waits for it.
 *
 * Whoever must know that an ops is no longer used before freeing it
 * (unregister_ftrace_function()'s callers) waits with
 * ftrace_ops_wait_readers() after dropping ftrace_lock, or has a release
 * callback run through the same pipeline (unregister_ftrace_function_async()).
 * See Documentation/trace/ftrace-rcu-tasks.rst.
 */

#define pr_fmt(fmt) "ftrace_tramp: " fmt

#include <linux/atomic.h>
#include <linux/fault-inject.h>
#include <linux/ftrace.h>
#include <linux/init.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/rcupdate_wait.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "ftrace_internal.h"
#include "ftrace_rcu_tasks.h"
#include "trace_stat.h"

#define CREATE_TRACE_POINTS
#include <trace/events/ftrace_tramp.h>

#define FTRACE_TRAMP_SYM "ftrace_trampoline"

enum ftrace_tramp_state {
	FTRACE_TRAMP_ALLOCATED,
	FTRACE_TRAMP_LIVE,
	FTRACE_TRAMP_RETIRED,
	FTRACE_TRAMP_FREED,
};

/**
 * struct ftrace_tramp - One per-ops trampoline and where it is in its life.
 * @addr: Start of the trampoline's text.
 * @size: Its size in bytes, as the arch reported it.
 * @save_regs: A copy of ftrace_regs_caller rather than ftrace_caller.
 * @id: Unique for the life of the system; carried by every tracepoint.
 * @state: enum ftrace_tramp_state; changed only by ftrace_tramp_set_state().
 * @retire_ns: When it was retired, for the reclamation latency.
 * @ksym_node: On ftrace_tramp_ksyms while it has memory (LIVE or RETIRED).
 * @retire_node: On ftrace_tramp_retiring until the rude step has run.
 * @rh: For call_rcu_tasks().
 * @free_rwork: Frees the memory once kallsyms readers are done.
 */
struct ftrace_tramp {
	unsigned long addr;
	unsigned int size;
	bool save_regs;
	u64 id;
	enum ftrace_tramp_state state;
	u64 retire_ns;
	struct list_head ksym_node;
	struct list_head retire_node;
	struct rcu_head rh;
	struct rcu_work free_rwork;
};

/**
 * struct ftrace_ops_release - An asynchronous unregister, waiting for readers.
 * @node: On ftrace_release_retiring until the rude step has run.
 * @rh: For call_rcu_tasks().
 * @work: Calls @release in process context.
 * @ops: The unregistered ops.
 * @release: Called with @ops once nothing can be using it; may be NULL.
 */
struct ftrace_ops_release {
	struct list_head node;
	struct rcu_head rh;
	struct work_struct work;
	struct ftrace_ops *ops;
	void (*release)(struct ftrace_ops *ops);
};

/* Counters for trace_stat/ftrace_tramp, under ftrace_tramp_lock. */
struct ftrace_tramp_stats {
	u64 allocated;		/* Trampolines built. */
	u64 alloc_failures;	/* Builds that failed: list function instead. */
	u64 swaps;		/* Call sites re-pointed to a new trampoline. */
	u64 retired;		/* Trampolines retired. */
	u64 freed;		/* Trampolines freed. */
	u64 live;		/* LIVE now. */
	u64 retiring;		/* RETIRED now. */
	u64 bytes_pending;	/* Memory of the RETIRED ones. */
	u64 bytes_pending_max;	/* Peak of @bytes_pending. */
	u64 reclaim_ns_last;	/* Retire-to-free latency, last one. */
	u64 reclaim_ns_max;	/* ... longest one. */
	u64 reclaim_ns_total;	/* ... sum, for the mean. */
	u64 releases;		/* Asynchronous unregisters completed. */
};

/*
 * ftrace_tramp_lock protects the kallsyms list (readers use RCU), the two
 * retiring lists and the statistics.  It nests inside ftrace_lock and is
 * also taken from the Tasks RCU callback, never from hard-irq context.
 */
static DEFINE_SPINLOCK(ftrace_tramp_lock);
static LIST_HEAD(ftrace_tramp_ksyms);
static LIST_HEAD(ftrace_tramp_retiring);
static LIST_HEAD(ftrace_release_retiring);
static struct ftrace_tramp_stats ftrace_tramp_stats;
static u64 ftrace_tramp_next_id = 1;

/* Retired trampolines and pending releases not yet done. */
static atomic_t ftrace_tramp_inflight = ATOMIC_INIT(0);

/* Runs the frees and the releases, so that ftrace_tramp_drain() can flush them. */
static struct workqueue_struct *ftrace_tramp_wq;

static void ftrace_tramp_retire_workfn(struct work_struct *work);
static DECLARE_WORK(ftrace_tramp_retire_work, ftrace_tramp_retire_workfn);

struct ftrace_ops *ftrace_tramp_swap_ops;
unsigned long ftrace_tramp_swap_from;
static struct ftrace_tramp *ftrace_tramp_swap_old;

static DECLARE_FAULT_ATTR(fail_ftrace_tramp);

#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
static int __init fail_ftrace_tramp_debugfs(void)
{
	struct dentry *dir;

	dir = fault_create_debugfs_attr("fail_ftrace_tramp", NULL,
					&fail_ftrace_tramp);
	return PTR_ERR_OR_ZERO(dir);
}
late_initcall(fail_ftrace_tramp_debugfs);
#endif

/*
 * The only place a trampoline changes state.  The transitions are
 * ALLOCATED -> LIVE -> RETIRED -> FREED, plus ALLOCATED -> FREED for a
 * trampoline that was never published.  Called with ftrace_tramp_lock
 * held; keeps the live/retiring counts in step.
 */
static void ftrace_tramp_set_state(struct ftrace_tramp *t,
				   enum ftrace_tramp_state new)
{
	struct ftrace_tramp_stats *s = &ftrace_tramp_stats;
	enum ftrace_tramp_state old = t->state;

	lockdep_assert_held(&ftrace_tramp_lock);
	WARN_ON_ONCE(!(new == old + 1 ||
		       (old == FTRACE_TRAMP_ALLOCATED && new == FTRACE_TRAMP_FREED)));
	if (old == FTRACE_TRAMP_LIVE)
		s->live--;
	if (old == FTRACE_TRAMP_RETIRED) {
		s->retiring--;
		s->bytes_pending -= PAGE_ALIGN(t->size);
	}
	if (new == FTRACE_TRAMP_LIVE)
		s->live++;
	if (new == FTRACE_TRAMP_RETIRED) {
		s->retiring++;
		s->bytes_pending += PAGE_ALIGN(t->size);
		s->bytes_pending_max = max(s->bytes_pending_max, s->bytes_pending);
	}
	t->state = new;
}

/* Build a trampoline for @ops (ALLOCATED), or return NULL. */
static struct ftrace_tramp *ftrace_tramp_alloc(struct ftrace_ops *ops)
{
	struct ftrace_tramp *t;
	unsigned int size = 0;
	unsigned long addr;

	if (should_fail(&fail_ftrace_tramp, 1))
		goto fail;
	t = kzalloc(sizeof(*t), GFP_KERNEL);
	if (!t)
		goto fail;
	addr = arch_ftrace_alloc_trampoline(ops, &size);
	if (!addr) {
		kfree(t);
		goto fail;
	}
	t->addr = addr;
	t->size = size;
	t->save_regs = ops->flags & FTRACE_OPS_FL_SAVE_REGS;
	t->state = FTRACE_TRAMP_ALLOCATED;
	INIT_LIST_HEAD(&t->ksym_node);
	INIT_LIST_HEAD(&t->retire_node);

	spin_lock(&ftrace_tramp_lock);
	t->id = ftrace_tramp_next_id++;
	ftrace_tramp_stats.allocated++;
	spin_unlock(&ftrace_tramp_lock);
	trace_ftrace_tramp_alloc(t->id, ops, addr, size);
	return t;

fail:
	spin_lock(&ftrace_tramp_lock);
	ftrace_tramp_stats.alloc_failures++;
	spin_unlock(&ftrace_tramp_lock);
	return NULL;
}

/*
 * ALLOCATED -> LIVE: make @t visible to kallsyms, perf and the unwinder,
 * then to the update pass through @ops.  The call sites are patched
 * later, by the caller's update pass, so nothing executes @t yet.
 */
static void ftrace_tramp_publish(struct ftrace_ops *ops, struct ftrace_tramp *t)
{
	spin_lock(&ftrace_tramp_lock);
	ftrace_tramp_set_state(t, FTRACE_TRAMP_LIVE);
	list_add_rcu(&t->ksym_node, &ftrace_tramp_ksyms);
	spin_unlock(&ftrace_tramp_lock);

	/* Symbol first, then the text, as perf expects. */
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, t->addr, t->size,
			   false, FTRACE_TRAMP_SYM);
	perf_event_text_poke((void *)t->addr, NULL, 0, (void *)t->addr, t->size);

	ops->tramp = t;
	ops->trampoline = t->addr;
	ops->trampoline_size = t->size;
}

/**
 * ftrace_tramp_create - Give @ops its first trampoline
 * @ops: An ops being registered, not yet enabled.
 *
 * Called with ftrace_lock held.  On failure @ops keeps no trampoline and
 * its call sites use the list function, which is slower but complete.
 *
 * Return: 0, or -ENOMEM if no trampoline could be built.
 */
int ftrace_tramp_create(struct ftrace_ops *ops)
{
	struct ftrace_tramp *t;

	lockdep_assert_held(&ftrace_lock);
	if (WARN_ON_ONCE(ops->tramp || ops->trampoline))
		return -EBUSY;
	t = ftrace_tramp_alloc(ops);
	if (!t)
		return -ENOMEM;
	ftrace_tramp_publish(ops, t);
	return 0;
}

/* LIVE -> RETIRED, and hand @t to the reclaim pipeline. */
static void ftrace_tramp_queue_retire(struct ftrace_tramp *t)
{
	unsigned long pending;

	t->retire_ns = ktime_get_ns();
	atomic_inc(&ftrace_tramp_inflight);
	spin_lock(&ftrace_tramp_lock);
	ftrace_tramp_set_state(t, FTRACE_TRAMP_RETIRED);
	ftrace_tramp_stats.retired++;
	pending = ftrace_tramp_stats.bytes_pending;
	list_add_tail(&t->retire_node, &ftrace_tramp_retiring);
	spin_unlock(&ftrace_tramp_lock);
	trace_ftrace_tramp_retire(t->id, t->addr, pending);
	queue_work(system_unbound_wq, &ftrace_tramp_retire_work);
}

/**
 * ftrace_tramp_retire - Retire the trampoline of @ops
 * @ops: An ops none of whose call sites point at its trampoline any more.
 *
 * Called with ftrace_lock held, after the update pass that unhooked @ops
 * (or before any pass hooked it).  Never waits: the memory is freed after
 * the grace periods, see the top of this file.  A later registration of
 * @ops builds a new trampoline.
 */
void ftrace_tramp_retire(struct ftrace_ops *ops)
{
	struct ftrace_tramp *t = ops->tramp;

	lockdep_assert_held(&ftrace_lock);
	if (!t)
		return;
	ops->tramp = NULL;
	ops->trampoline = 0;
	ops->trampoline_size = 0;
	/* Set again by the arch code if a new trampoline is built. */
	ops->flags &= ~FTRACE_OPS_FL_ALLOC_TRAMP;
	ftrace_tramp_queue_retire(t);
}

/**
 * ftrace_tramp_swap_begin - Build a replacement trampoline for @ops
 * @ops: An ops whose trampoline content or call sites are about to change.
 *
 * Called with ftrace_lock held, right before an update pass.  On success
 * ops->trampoline is the new trampoline, which the pass installs at every
 * call site of @ops, while ftrace_tramp_curr_addr() keeps reporting the
 * old one, which those call sites still point at.  ftrace_tramp_swap_end()
 * must follow the pass.
 *
 * Return: 0 if a swap is set up; -ENOENT if @ops has no trampoline of
 * ours; -ENOMEM if no new one could be built, in which case the old one
 * stays live and the caller patches it in place if its function changed
 * (arch_ftrace_repoint_trampoline()), so nothing is lost.
 */
int ftrace_tramp_swap_begin(struct ftrace_ops *ops)
{
	struct ftrace_tramp *old = ops->tramp;
	struct ftrace_tramp *t;

	lockdep_assert_held(&ftrace_lock);
	if (!old)
		return -ENOENT;
	if (WARN_ON_ONCE(ftrace_tramp_swap_ops))
		return -EBUSY;
	t = ftrace_tramp_alloc(ops);
	if (!t)
		return -ENOMEM;
	ftrace_tramp_swap_old = old;
	ftrace_tramp_swap_from = old->addr;
	/* Only the update pass reads these, under ftrace_lock like us. */
	ftrace_tramp_swap_ops = ops;
	ftrace_tramp_publish(ops, t);
	return 0;
}

/**
 * ftrace_tramp_swap_end - Retire the trampoline that @ops was swapped away from
 * @ops: The ops passed to the successful ftrace_tramp_swap_begin().
 *
 * Called with ftrace_lock held, after the update pass: no call site points
 * at the old trampoline any more.
 */
void ftrace_tramp_swap_end(struct ftrace_ops *ops)
{
	struct ftrace_tramp *old = ftrace_tramp_swap_old;

	lockdep_assert_held(&ftrace_lock);
	if (WARN_ON_ONCE(ops != ftrace_tramp_swap_ops))
		return;
	ftrace_tramp_swap_ops = NULL;
	ftrace_tramp_swap_from = 0;
	ftrace_tramp_swap_old = NULL;
	spin_lock(&ftrace_tramp_lock);
	ftrace_tramp_stats.swaps++;
	spin_unlock(&ftrace_tramp_lock);
	trace_ftrace_tramp_swap(ops, old->id, ops->tramp ? ops->tramp->id : 0);
	ftrace_tramp_queue_retire(old);
}

/* ------------------------------------------------------------------ */
/* The reclaim pipeline.                                              */

static void ftrace_tramp_done_one(void)
{
	atomic_dec(&ftrace_tramp_inflight);
}

/* Step 4: no task, CPU or kallsyms reader can be using the memory now. */
static void ftrace_tramp_free_workfn(struct work_struct *work)
{
	struct ftrace_tramp *t = container_of(to_rcu_work(work),
					      struct ftrace_tramp, free_rwork);
	u64 lat = ktime_get_ns() - t->retire_ns;
	struct ftrace_tramp_stats *s = &ftrace_tramp_stats;

	/* The text-poke record goes before the ksymbol unregister record. */
	perf_event_text_poke((void *)t->addr, (void *)t->addr, t->size, NULL, 0);
	perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_OOL, t->addr, t->size,
			   true, FTRACE_TRAMP_SYM);
	arch_ftrace_free_trampoline(t->addr);

	spin_lock(&ftrace_tramp_lock);
	ftrace_tramp_set_state(t, FTRACE_TRAMP_FREED);
	s->freed++;
	s->reclaim_ns_last = lat;
	s->reclaim_ns_max = max(s->reclaim_ns_max, lat);
	s->reclaim_ns_total += lat;
	spin_unlock(&ftrace_tramp_lock);
	trace_ftrace_tramp_free(t->id, t->addr, lat);
	kfree(t);
	ftrace_tramp_done_one();
}

/*
 * Step 3, a Tasks RCU callback: no task can still be running in @t.
 * Take it out of kallsyms; the RCU grace period behind queue_rcu_work()
 * then waits for the lookups that may still see it (they run with
 * preemption disabled) before step 4 frees the memory.
 */
static void ftrace_tramp_tasks_gp_done(struct rcu_head *rh)
{
	struct ftrace_tramp *t = container_of(rh, struct ftrace_tramp, rh);

	spin_lock(&ftrace_tramp_lock);
	list_del_rcu(&t->ksym_node);
	spin_unlock(&ftrace_tramp_lock);
	INIT_RCU_WORK(&t->free_rwork, ftrace_tramp_free_workfn);
	queue_rcu_work(ftrace_tramp_wq, &t->free_rwork);
}

static void ftrace_ops_release_workfn(struct work_struct *work)
{
	struct ftrace_ops_release *r = container_of(work, struct ftrace_ops_release, work);

	if (r->release)
		r->release(r->ops);
	spin_lock(&ftrace_tramp_lock);
	ftrace_tramp_stats.releases++;
	spin_unlock(&ftrace_tramp_lock);
	kfree(r);
	ftrace_tramp_done_one();
}

/* Step 3 for a release: the ops is unused; call its owner back, may sleep. */
static void ftrace_ops_release_gp_done(struct rcu_head *rh)
{
	struct ftrace_ops_release *r = container_of(rh, struct ftrace_ops_release, rh);

	INIT_WORK(&r->work, ftrace_ops_release_workfn);
	queue_work(ftrace_tramp_wq, &r->work);
}

static void ftrace_tramp_rude_noop(struct work_struct *unused)
{
}

/*
 * Steps 1 and 2: take everything retired so far, make every CPU schedule
 * once (the rude step, see the top of this file), then start the Tasks
 * RCU grace period.  Everything retired while we sleep in
 * schedule_on_each_cpu() is taken by the next run of this work.
 */
static void ftrace_tramp_retire_workfn(struct work_struct *work)
{
	struct ftrace_ops_release *r, *r1;
	struct ftrace_tramp *t, *t1;
	LIST_HEAD(releases);
	LIST_HEAD(tramps);

	spin_lock(&ftrace_tramp_lock);
	list_splice_init(&ftrace_tramp_retiring, &tramps);
	list_splice_init(&ftrace_release_retiring, &releases);
	spin_unlock(&ftrace_tramp_lock);
	if (list_empty(&tramps) && list_empty(&releases))
		return;

	schedule_on_each_cpu(ftrace_tramp_rude_noop);

	list_for_each_entry_safe(t, t1, &tramps, retire_node) {
		list_del_init(&t->retire_node);
		call_rcu_tasks(&t->rh, ftrace_tramp_tasks_gp_done);
	}
	list_for_each_entry_safe(r, r1, &releases, node) {
		list_del_init(&r->node);
		call_rcu_tasks(&r->rh, ftrace_ops_release_gp_done);
	}
}

/**
 * ftrace_ops_wait_readers - Wait until no CPU or task can be using an unhooked ops
 *
 * Called after an ops was unregistered, without ftrace_lock: may sleep
 * for a Tasks RCU grace period.  On return the ops is used neither by a
 * trampoline nor by the list function, wherever they were called from,
 * so its owner may free it.
 */
void ftrace_ops_wait_readers(void)
{
	might_sleep();
	schedule_on_each_cpu(ftrace_tramp_rude_noop);
	synchronize_rcu_tasks();
}

/**
 * ftrace_ops_release_async - Call @release once nothing can be using @ops
 * @ops: An ops just unregistered.
 * @release: Called from a workqueue with @ops; may be NULL.
 *
 * Called after an ops was unregistered, with or without ftrace_lock.
 * Until ftrace_tramp_drain() returns, or @release is called, the ops must
 * stay allocated.
 *
 * Return: 0 if queued, -ENOMEM if not (the caller then waits instead).
 */
int ftrace_ops_release_async(struct ftrace_ops *ops,
			     void (*release)(struct ftrace_ops *ops))
{
	struct ftrace_ops_release *r;

	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->ops = ops;
	r->release = release;
	atomic_inc(&ftrace_tramp_inflight);
	spin_lock(&ftrace_tramp_lock);
	list_add_tail(&r->node, &ftrace_release_retiring);
	spin_unlock(&ftrace_tramp_lock);
	queue_work(system_unbound_wq, &ftrace_tramp_retire_work);
	return 0;
}

/**
 * ftrace_tramp_drain - Wait for every retirement and release queued so far
 *
 * May sleep for several grace periods; never call it with ftrace_lock
 * held.  Used before an ops that was unregistered asynchronously is
 * freed, and before a module's text goes away.  Each step flushes what
 * the step before it queued, so the wait is bounded even while others
 * keep retiring trampolines.
 */
void ftrace_tramp_drain(void)
{
	might_sleep();
	if (!atomic_read(&ftrace_tramp_inflight))
		return;
	/* Everything retired so far is now waiting for Tasks RCU... */
	flush_work(&ftrace_tramp_retire_work);
	/* ... its callbacks have run, queueing the releases and the rcu_works... */
	rcu_barrier_tasks();
	/* ... whose RCU callbacks have queued the frees... */
	rcu_barrier();
	/* ... which have run. */
	flush_workqueue(ftrace_tramp_wq);
}

/*
 * A module's release callbacks and the ops its text calls must not
 * outlive the module: drain before the text is freed.  GOING is
 * notified after the module's exit function and before its memory goes.
 */
static int ftrace_tramp_module_notify(struct notifier_block *nb,
				      unsigned long state, void *data)
{
	if (state == MODULE_STATE_GOING)
		ftrace_tramp_drain();
	return NOTIFY_DONE;
}

static struct notifier_block ftrace_tramp_module_nb = {
	.notifier_call = ftrace_tramp_module_notify,
};

/* ------------------------------------------------------------------ */
/* Lookups: kallsyms, the unwinder, perf.                             */

/**
 * ftrace_tramp_find - Find the trampoline, live or retired, containing @addr
 * @addr: A text address.
 * @save_regs: Set to whether the trampoline is a copy of ftrace_regs_caller.
 *
 * For the unwinder: a task preempted in a retired trampoline still has
 * its addresses on the stack.  Callable from any context.
 *
 * Return: the start of the trampoline, or 0 if @addr is in none that
 * still has memory.
 */
unsigned long ftrace_tramp_find(unsigned long addr, bool *save_regs)
{
	unsigned long start = 0;
	struct ftrace_tramp *t;

	/* The free path waits for an RCU grace period after list_del_rcu(). */
	preempt_disable_notrace();
	list_for_each_entry_rcu(t, &ftrace_tramp_ksyms, ksym_node) {
		if (addr >= t->addr && addr < t->addr + t->size) {
			start = t->addr;
			*save_regs = t->save_regs;
			break;
		}
	}
	preempt_enable_notrace();
	return start;
}

/**
 * ftrace_tramp_lookup - Is @addr inside a trampoline that still has memory?
 * @addr: A text address.
 *
 * Return: true if @addr is in a LIVE or RETIRED trampoline.
 */
bool ftrace_tramp_lookup(unsigned long addr)
{
	bool save_regs;

	return ftrace_tramp_find(addr, &save_regs);
}

/**
 * ftrace_tramp_kallsym - The address of the @symnum'th trampoline symbol
 * @symnum: Index among the trampolines that still have memory.
 * @value: Where to store the address.
 *
 * Called by kallsyms with preemption disabled.
 *
 * Return: 0, or -ERANGE if there are not that many trampolines.
 */
int ftrace_tramp_kallsym(unsigned int symnum, unsigned long *value)
{
	struct ftrace_tramp *t;

	list_for_each_entry_rcu(t, &ftrace_tramp_ksyms, ksym_node) {
		if (symnum--)
			continue;
		*value = t->addr;
		return 0;
	}
	return -ERANGE;
}

/* ------------------------------------------------------------------ */
/* trace_stat/ftrace_tramp                                            */

enum ftrace_tramp_stat_row {
	FTS_LIVE, FTS_RETIRING, FTS_FREED, FTS_ALLOCATED, FTS_ALLOC_FAILURES,
	FTS_SWAPS, FTS_RETIRED, FTS_RELEASES, FTS_BYTES_PENDING,
	FTS_BYTES_PENDING_MAX, FTS_RECLAIM_LAST, FTS_RECLAIM_MAX,
	FTS_RECLAIM_MEAN, FTS_NR_ROWS,
};

static const char * const ftrace_tramp_stat_names[FTS_NR_ROWS] = {
	[FTS_LIVE]		= "live",
	[FTS_RETIRING]		= "retiring",
	[FTS_FREED]		= "freed",
	[FTS_ALLOCATED]		= "allocated",
	[FTS_ALLOC_FAILURES]	= "alloc_failures",
	[FTS_SWAPS]		= "swaps",
	[FTS_RETIRED]		= "retired",
	[FTS_RELEASES]		= "async_releases",
	[FTS_BYTES_PENDING]	= "bytes_pending",
	[FTS_BYTES_PENDING_MAX]	= "bytes_pending_max",
	[FTS_RECLAIM_LAST]	= "reclaim_ns_last",
	[FTS_RECLAIM_MAX]	= "reclaim_ns_max",
	[FTS_RECLAIM_MEAN]	= "reclaim_ns_mean",
};

static u64 ftrace_tramp_stat_value(struct ftrace_tramp_stats *s, int row)
{
	switch (row) {
	case FTS_LIVE:			return s->live;
	case FTS_RETIRING:		return s->retiring;
	case FTS_FREED:			return s->freed;
	case FTS_ALLOCATED:		return s->allocated;
	case FTS_ALLOC_FAILURES:	return s->alloc_failures;
	case FTS_SWAPS:			return s->swaps;
	case FTS_RETIRED:		return s->retired;
	case FTS_RELEASES:		return s->releases;
	case FTS_BYTES_PENDING:		return s->bytes_pending;
	case FTS_BYTES_PENDING_MAX:	return s->bytes_pending_max;
	case FTS_RECLAIM_LAST:		return s->reclaim_ns_last;
	case FTS_RECLAIM_MAX:		return s->reclaim_ns_max;
	case FTS_RECLAIM_MEAN:
		return s->freed ? div64_u64(s->reclaim_ns_total, s->freed) : 0;
	}
	return 0;
}

/*
 * The stat iterator walks row numbers; entries are encoded as row + 1 so
 * that row 0 is not a NULL pointer.
 */
static void *ftrace_tramp_stat_start(struct tracer_stat *trace)
{
	return (void *)1UL;
}

static void *ftrace_tramp_stat_next(void *prev, int idx)
{
	unsigned long row = (unsigned long)prev;

	return row < FTS_NR_ROWS ? (void *)(row + 1) : NULL;
}

/* Keep the rows in the order of the enum (the default sorts them). */
static int ftrace_tramp_stat_cmp(const void *a, const void *b)
{
	return (unsigned long)a < (unsigned long)b ? 1 : -1;
}

static int ftrace_tramp_stat_headers(struct seq_file *m)
{
	seq_puts(m, "# counter              value\n");
	return 0;
}

static int ftrace_tramp_stat_show(struct seq_file *m, void *p)
{
	int row = (unsigned long)p - 1;
	struct ftrace_tramp_stats snap;

	spin_lock(&ftrace_tramp_lock);
	snap = ftrace_tramp_stats;
	spin_unlock(&ftrace_tramp_lock);
	seq_printf(m, "%-22s %llu\n", ftrace_tramp_stat_names[row],
		   ftrace_tramp_stat_value(&snap, row));
	return 0;
}

static struct tracer_stat ftrace_tramp_stat = {
	.name		= "ftrace_tramp",
	.stat_start	= ftrace_tramp_stat_start,
	.stat_next	= ftrace_tramp_stat_next,
	.stat_cmp	= ftrace_tramp_stat_cmp,
	.stat_headers	= ftrace_tramp_stat_headers,
	.stat_show	= ftrace_tramp_stat_show,
};

/*
 * Early, because the ftrace startup selftests register and unregister
 * ops, and so retire trampolines, from core_initcall on.
 */
static __init int ftrace_tramp_init(void)
{
	ftrace_tramp_wq = alloc_workqueue("ftrace_tramp", WQ_UNBOUND, 0);
	if (WARN_ON(!ftrace_tramp_wq))
		return -ENOMEM;
	return register_module_notifier(&ftrace_tramp_module_nb);
}
early_initcall(ftrace_tramp_init);

static __init int ftrace_tramp_stat_init(void)
{
	return register_stat_tracer(&ftrace_tramp_stat);
}
fs_initcall(ftrace_tramp_stat_init);
