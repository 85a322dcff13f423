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
 * A trampoline's code depends only on the function it calls and on
 * whether it saves all registers, never on which functions the ops
 * traces.  So a filter change only moves call sites to or from the live
 * trampoline: it builds nothing and retires nothing.  Only a change of
 * the code itself (the pid filter wrapping the function, for one) builds
 * a new trampoline, the update pass re-points the call sites at it, and
 * the old one is retired: ftrace_tramp_swap_begin() / ftrace_tramp_swap_end().
 * Unregistering retires the trampoline without waiting.  The reclaim pipeline then runs
 * in workqueue and Tasks RCU callback context:
 *
 *   retire   -> ftrace_tramp_retire_workfn(): every CPU schedules (rude)
 *            -> call_rcu_tasks(): every task passes a quiescent state
 *            -> ftrace_tramp_tasks_gp_done(): queue the unlink (no lock:
 *               it may run in softirq)
 *            -> ftrace_tramp_unlink_workfn(): leave kallsyms
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
 * callback run through the same pipeline (unregister_ftrace_function_async()),
 * for which ftrace_ops_wait_released() waits.  A module's unload waits for
 * the trampolines and releases that may lead into it, and for no others.
 * See Documentation/trace/ftrace-rcu-tasks.rst.
 */

#define pr_fmt(fmt) "ftrace_tramp: " fmt

#include <linux/fault-inject.h>
#include <linux/ftrace.h>
#include <linux/init.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/rbtree_latch.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/rcupdate_wait.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "ftrace_internal.h"
#include "ftrace_rcu_tasks.h"
#include "trace.h"
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
 * @func: The function it calls (ftrace_ops_get_func() when it was built).
 * @owner: The module whose code or data it may still lead to, once retired.
 * @id: Unique for the life of the system; carried by every tracepoint.
 * @state: enum ftrace_tramp_state; changed only by ftrace_tramp_set_state().
 * @retire_ns: When it was retired, for the reclamation latency.
 * @ksym_node: On ftrace_tramp_ksyms while it has memory (LIVE or RETIRED).
 * @tree_node: In ftrace_tramp_tree for as long.
 * @retire_node: On ftrace_tramp_retiring until the rude step has run.
 * @inflight_node: On ftrace_tramp_inflight from retirement until freed.
 * @rh: For call_rcu_tasks().
 * @unlink_work: Takes it out of kallsyms, in process context.
 * @free_rwork: Frees the memory once kallsyms readers are done.
 */
struct ftrace_tramp {
	unsigned long addr;
	unsigned int size;
	bool save_regs;
	ftrace_func_t func;
	struct module *owner;
	u64 id;
	enum ftrace_tramp_state state;
	u64 retire_ns;
	struct list_head ksym_node;
	struct latch_tree_node tree_node;
	struct list_head retire_node;
	struct list_head inflight_node;
	struct rcu_head rh;
	struct work_struct unlink_work;
	struct rcu_work free_rwork;
};

/**
 * struct ftrace_ops_release - An asynchronous unregister, waiting for readers.
 * @node: On ftrace_release_retiring until the rude step has run.
 * @inflight_node: On ftrace_release_inflight until @release has returned.
 * @rh: For call_rcu_tasks().
 * @work: Calls @release in process context.
 * @ops: The unregistered ops.
 * @release: Called with @ops once nothing can be using it; may be NULL.
 * @owner: The module whose code or data @ops or @release is.
 */
struct ftrace_ops_release {
	struct list_head node;
	struct list_head inflight_node;
	struct rcu_head rh;
	struct work_struct work;
	struct ftrace_ops *ops;
	void (*release)(struct ftrace_ops *ops);
	struct module *owner;
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
	u64 abandoned;		/* Left live after ftrace_bug(): never freed. */
	u64 over_budget;	/* Builds refused past max_pending_kb. */
};

/*
 * ftrace_tramp_lock protects the kallsyms list (readers use RCU), the
 * retiring and in-flight lists and the statistics.  It nests inside
 * ftrace_lock and is taken in process context only: never from an RCU or
 * Tasks RCU callback, which with TASKS_RCU=n runs in softirq (the
 * callbacks only queue work).
 */
static DEFINE_SPINLOCK(ftrace_tramp_lock);
static LIST_HEAD(ftrace_tramp_ksyms);

/*
 * The same trampolines by address, for ftrace_tramp_find(): the unwinder
 * asks about every word of every stack it walks (is_ftrace_trampoline()),
 * in NMI context too, so the lookup is O(log n) and lock-free.  A latch
 * tree gives both: its writers are serialized by ftrace_tramp_lock, its
 * readers only disable preemption, and a node leaves it one RCU grace
 * period before its memory is freed (ftrace_tramp_unlink_workfn()).
 */
static struct latch_tree_root ftrace_tramp_tree;

static __always_inline struct ftrace_tramp *
ftrace_tramp_of(struct latch_tree_node *n)
{
	return container_of(n, struct ftrace_tramp, tree_node);
}

static __always_inline bool ftrace_tramp_tree_less(struct latch_tree_node *a,
						   struct latch_tree_node *b)
{
	return ftrace_tramp_of(a)->addr < ftrace_tramp_of(b)->addr;
}

static __always_inline int ftrace_tramp_tree_comp(void *key,
						  struct latch_tree_node *n)
{
	unsigned long addr = (unsigned long)key;
	struct ftrace_tramp *t = ftrace_tramp_of(n);

	if (addr < t->addr)
		return -1;
	if (addr >= t->addr + t->size)
		return 1;
	return 0;
}

static const struct latch_tree_ops ftrace_tramp_tree_ops = {
	.less = ftrace_tramp_tree_less,
	.comp = ftrace_tramp_tree_comp,
};

static LIST_HEAD(ftrace_tramp_retiring);
static LIST_HEAD(ftrace_release_retiring);
static struct ftrace_tramp_stats ftrace_tramp_stats;
static u64 ftrace_tramp_next_id = 1;

/*
 * Every retired trampoline until it is freed, and every pending release
 * until its callback has returned, each with its owner: a module unload
 * or an ops's owner waits for its own entries only, never for everybody
 * else's retirements or releases (which may take locks the waiter holds).
 * ftrace_tramp_done_wq is woken whenever an entry leaves.
 */
static LIST_HEAD(ftrace_tramp_inflight);
static LIST_HEAD(ftrace_release_inflight);
static DECLARE_WAIT_QUEUE_HEAD(ftrace_tramp_done_wq);

/* Runs the unlinks, the frees and the releases. */
static struct workqueue_struct *ftrace_tramp_wq;

/* How long to wait before retrying a rude step that could not be queued. */
#define FTRACE_TRAMP_RUDE_RETRY	(HZ / 10)

static void ftrace_tramp_retire_workfn(struct work_struct *work);
static DECLARE_DELAYED_WORK(ftrace_tramp_retire_work, ftrace_tramp_retire_workfn);

struct ftrace_ops *ftrace_tramp_swap_ops;
unsigned long ftrace_tramp_swap_from;
static struct ftrace_tramp *ftrace_tramp_swap_old;

static DECLARE_FAULT_ATTR(fail_ftrace_tramp);

/*
 * Backpressure.  While a Tasks RCU grace period is held up (a task parked
 * in traced code for minutes: the stall case), every trampoline retired
 * meanwhile waits, in the executable area that modules and BPF load into.
 * Past ftrace_tramp.max_pending_kb of retired trampolines, no new one is
 * built: a registration uses the list function, and a change of a live
 * trampoline's code patches it in place (both as on allocation failure),
 * so the pending memory stops growing and the area stays usable.
 */
#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "ftrace_tramp."

#define FTRACE_TRAMP_MAX_PENDING_KB_MIN		16
#define FTRACE_TRAMP_MAX_PENDING_KB_MAX		(1024 * 1024)
static unsigned int ftrace_tramp_max_pending_kb = 4096;

static int ftrace_tramp_max_pending_set(const char *val,
					const struct kernel_param *kp)
{
	unsigned int kb;
	int ret;

	ret = kstrtouint(val, 0, &kb);
	if (ret)
		return ret;
	if (kb < FTRACE_TRAMP_MAX_PENDING_KB_MIN ||
	    kb > FTRACE_TRAMP_MAX_PENDING_KB_MAX)
		return -EINVAL;
	WRITE_ONCE(ftrace_tramp_max_pending_kb, kb);
	return 0;
}

static const struct kernel_param_ops ftrace_tramp_max_pending_ops = {
	.set = ftrace_tramp_max_pending_set,
	.get = param_get_uint,
};
module_param_cb(max_pending_kb, &ftrace_tramp_max_pending_ops,
		&ftrace_tramp_max_pending_kb, 0644);
MODULE_PARM_DESC(max_pending_kb,
		 "Retired trampolines' memory past which none is built (16..1048576 KiB)");

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

/* Is the memory of the retired trampolines past the backpressure limit? */
static bool ftrace_tramp_over_budget(void)
{
	u64 limit = (u64)READ_ONCE(ftrace_tramp_max_pending_kb) * SZ_1K;
	bool over;

	spin_lock(&ftrace_tramp_lock);
	over = ftrace_tramp_stats.bytes_pending >= limit;
	if (over)
		ftrace_tramp_stats.over_budget++;
	spin_unlock(&ftrace_tramp_lock);
	return over;
}

/* Build a trampoline for @ops (ALLOCATED), or return NULL. */
static struct ftrace_tramp *ftrace_tramp_alloc(struct ftrace_ops *ops)
{
	struct ftrace_tramp *t;
	unsigned int size = 0;
	unsigned long addr;

	if (should_fail(&fail_ftrace_tramp, 1))
		goto fail;
	if (ftrace_tramp_over_budget())
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
	t->func = ftrace_ops_get_func(ops);
	t->state = FTRACE_TRAMP_ALLOCATED;
	INIT_LIST_HEAD(&t->ksym_node);
	INIT_LIST_HEAD(&t->retire_node);
	INIT_LIST_HEAD(&t->inflight_node);

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
	latch_tree_insert(&t->tree_node, &ftrace_tramp_tree, &ftrace_tramp_tree_ops);
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

/*
 * The module whose code or data a retired trampoline of @ops, or a
 * pending release of it, may still lead to: the module @ops lives in, or
 * that of its function, or of @release.  Its unload waits for them
 * (ftrace_tramp_module_notify()).  NULL for the core kernel's.
 */
static struct module *ftrace_tramp_owner(struct ftrace_ops *ops,
					 void (*release)(struct ftrace_ops *ops))
{
	struct module *mod;

	/* __module_address() wants preemption disabled. */
	preempt_disable();
	mod = __module_address((unsigned long)ops);
	if (!mod)
		mod = __module_text_address((unsigned long)ops->saved_func);
	if (!mod && release)
		mod = __module_text_address((unsigned long)release);
	preempt_enable();
	return mod;
}

/* LIVE -> RETIRED, and hand @t, retired from @ops, to the reclaim pipeline. */
static void ftrace_tramp_queue_retire(struct ftrace_ops *ops,
				      struct ftrace_tramp *t)
{
	unsigned long pending;

	t->retire_ns = ktime_get_ns();
	t->owner = ftrace_tramp_owner(ops, NULL);
	spin_lock(&ftrace_tramp_lock);
	ftrace_tramp_set_state(t, FTRACE_TRAMP_RETIRED);
	ftrace_tramp_stats.retired++;
	pending = ftrace_tramp_stats.bytes_pending;
	list_add_tail(&t->retire_node, &ftrace_tramp_retiring);
	list_add_tail(&t->inflight_node, &ftrace_tramp_inflight);
	spin_unlock(&ftrace_tramp_lock);
	trace_ftrace_tramp_retire(t->id, t->addr, pending);
	queue_delayed_work(system_unbound_wq, &ftrace_tramp_retire_work, 0);
}

/*
 * ftrace_bug() hit the update pass that was to unhook @t: some call sites
 * may still point at it, and ftrace is disabled for good, so nothing will
 * re-point them.  Leave it live and never free it; kallsyms and the
 * unwinder keep knowing it.
 */
static void ftrace_tramp_abandon(struct ftrace_tramp *t)
{
	spin_lock(&ftrace_tramp_lock);
	ftrace_tramp_stats.abandoned++;
	spin_unlock(&ftrace_tramp_lock);
	pr_warn("trampoline %llu (%pS) left live after an ftrace failure\n",
		t->id, (void *)t->addr);
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
	if (unlikely(ftrace_is_dead()))
		ftrace_tramp_abandon(t);
	else
		ftrace_tramp_queue_retire(ops, t);
}

/**
 * ftrace_tramp_current - Does the live trampoline of @ops match it?
 * @ops: An ops with a trampoline of ours.
 *
 * Called with ftrace_lock held.  A trampoline's code is its function and
 * whether it saves all registers; nothing else about @ops (its filter in
 * particular) is in it.
 *
 * Return: true if ftrace_tramp_swap_begin() would build the same code.
 */
bool ftrace_tramp_current(struct ftrace_ops *ops)
{
	struct ftrace_tramp *t = ops->tramp;

	lockdep_assert_held(&ftrace_lock);
	return t && t->func == ftrace_ops_get_func(ops) &&
	       t->save_regs == !!(ops->flags & FTRACE_OPS_FL_SAVE_REGS);
}

/**
 * ftrace_tramp_repointed - The live trampoline of @ops was patched in place
 * @ops: An ops whose swap could not get memory.
 *
 * Called with ftrace_lock held, after arch_ftrace_repoint_trampoline().
 */
void ftrace_tramp_repointed(struct ftrace_ops *ops)
{
	lockdep_assert_held(&ftrace_lock);
	if (ops->tramp)
		ops->tramp->func = ftrace_ops_get_func(ops);
}

/**
 * ftrace_tramp_swap_begin - Build a replacement trampoline for @ops
 * @ops: An ops whose trampoline code is about to change (its function or
 *	 its flags; see ftrace_tramp_current()).
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
	/* A pass that hit ftrace_bug() may have left call sites on @old. */
	if (unlikely(ftrace_is_dead()))
		ftrace_tramp_abandon(old);
	else
		ftrace_tramp_queue_retire(ops, old);
}

/* ------------------------------------------------------------------ */
/* The reclaim pipeline.                                              */

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
	list_del(&t->inflight_node);
	s->freed++;
	s->reclaim_ns_last = lat;
	s->reclaim_ns_max = max(s->reclaim_ns_max, lat);
	s->reclaim_ns_total += lat;
	spin_unlock(&ftrace_tramp_lock);
	trace_ftrace_tramp_free(t->id, t->addr, lat);
	kfree(t);
	wake_up_all(&ftrace_tramp_done_wq);
}

/*
 * Step 3b: no task can still be running in @t.  Take it out of kallsyms;
 * the RCU grace period behind queue_rcu_work() then waits for the
 * lookups that may still see it (they run with preemption disabled)
 * before step 4 frees the memory.
 */
static void ftrace_tramp_unlink_workfn(struct work_struct *work)
{
	struct ftrace_tramp *t = container_of(work, struct ftrace_tramp, unlink_work);

	spin_lock(&ftrace_tramp_lock);
	list_del_rcu(&t->ksym_node);
	latch_tree_erase(&t->tree_node, &ftrace_tramp_tree, &ftrace_tramp_tree_ops);
	spin_unlock(&ftrace_tramp_lock);
	INIT_RCU_WORK(&t->free_rwork, ftrace_tramp_free_workfn);
	queue_rcu_work(ftrace_tramp_wq, &t->free_rwork);
}

/*
 * Step 3a, a Tasks RCU callback.  It only queues work: with TASKS_RCU=n,
 * call_rcu_tasks() is call_rcu() and this runs in softirq, where taking
 * ftrace_tramp_lock (a plain spinlock, taken in process context) could
 * deadlock against the process context it interrupted.
 */
static void ftrace_tramp_tasks_gp_done(struct rcu_head *rh)
{
	struct ftrace_tramp *t = container_of(rh, struct ftrace_tramp, rh);

	INIT_WORK(&t->unlink_work, ftrace_tramp_unlink_workfn);
	queue_work(ftrace_tramp_wq, &t->unlink_work);
}

static void ftrace_ops_release_workfn(struct work_struct *work)
{
	struct ftrace_ops_release *r = container_of(work, struct ftrace_ops_release, work);

	if (r->release) {
		/*
		 * From here on @ops belongs to its release callback, which
		 * may free it: registering it again is allowed once more
		 * (ftrace_startup() refused it with -EBUSY until now).
		 * The flag is changed under ftrace_lock like every other.
		 */
		mutex_lock(&ftrace_lock);
		r->ops->flags &= ~FTRACE_OPS_FL_RELEASE_PENDING;
		mutex_unlock(&ftrace_lock);
		r->release(r->ops);
	}
	spin_lock(&ftrace_tramp_lock);
	list_del(&r->inflight_node);
	ftrace_tramp_stats.releases++;
	spin_unlock(&ftrace_tramp_lock);
	kfree(r);
	wake_up_all(&ftrace_tramp_done_wq);
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

	if (schedule_on_each_cpu(ftrace_tramp_rude_noop)) {
		/*
		 * No memory for the per-CPU works: the rude step did not
		 * happen, so nothing may go on.  Put everything back, ahead
		 * of what was retired meanwhile, and try again later.
		 */
		spin_lock(&ftrace_tramp_lock);
		list_splice(&tramps, &ftrace_tramp_retiring);
		list_splice(&releases, &ftrace_release_retiring);
		spin_unlock(&ftrace_tramp_lock);
		queue_delayed_work(system_unbound_wq, &ftrace_tramp_retire_work,
				   FTRACE_TRAMP_RUDE_RETRY);
		return;
	}

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
	/* The rude step must happen; without memory for it, retry. */
	while (schedule_on_each_cpu(ftrace_tramp_rude_noop))
		schedule_timeout_uninterruptible(FTRACE_TRAMP_RUDE_RETRY);
	synchronize_rcu_tasks();
}

/**
 * ftrace_ops_release_async - Call @release once nothing can be using @ops
 * @ops: An ops just unregistered.
 * @release: Called from a workqueue with @ops; may be NULL.
 *
 * Called with ftrace_lock held, right after @ops was unregistered.  Until
 * @release is called, @ops must stay allocated, and registering it again
 * fails with -EBUSY; ftrace_ops_wait_released() waits for the release.
 *
 * Return: 0 if queued, -ENOMEM if not (the caller then waits instead).
 */
int ftrace_ops_release_async(struct ftrace_ops *ops,
			     void (*release)(struct ftrace_ops *ops))
{
	struct ftrace_ops_release *r;

	lockdep_assert_held(&ftrace_lock);
	r = kzalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->ops = ops;
	r->release = release;
	r->owner = ftrace_tramp_owner(ops, release);
	/* A NULL release frees nothing, so @ops may be registered again. */
	if (release)
		ops->flags |= FTRACE_OPS_FL_RELEASE_PENDING;
	spin_lock(&ftrace_tramp_lock);
	list_add_tail(&r->node, &ftrace_release_retiring);
	list_add_tail(&r->inflight_node, &ftrace_release_inflight);
	spin_unlock(&ftrace_tramp_lock);
	queue_delayed_work(system_unbound_wq, &ftrace_tramp_retire_work, 0);
	return 0;
}

/* Is a trampoline or release owned by @mod (or, if @ops, of @ops) in flight? */
static bool ftrace_tramp_busy(struct module *mod, struct ftrace_ops *ops)
{
	struct ftrace_ops_release *r;
	struct ftrace_tramp *t;
	bool busy = false;

	spin_lock(&ftrace_tramp_lock);
	list_for_each_entry(r, &ftrace_release_inflight, inflight_node) {
		if (ops ? r->ops == ops : r->owner == mod) {
			busy = true;
			goto out;
		}
	}
	if (ops)
		goto out;
	list_for_each_entry(t, &ftrace_tramp_inflight, inflight_node) {
		if (t->owner == mod) {
			busy = true;
			break;
		}
	}
out:
	spin_unlock(&ftrace_tramp_lock);
	return busy;
}

/*
 * Wait until ftrace_tramp_busy(@mod, @ops) is false.  Only a Tasks RCU
 * grace period stands in the way once the rude step has run: wait for one
 * with synchronize_rcu_tasks(), which marks it urgent, rather than for the
 * batching window of a grace period that only callbacks are waiting for.
 */
static void ftrace_tramp_wait_own(struct module *mod, struct ftrace_ops *ops)
{
	if (!ftrace_tramp_busy(mod, ops))
		return;
	flush_delayed_work(&ftrace_tramp_retire_work);
	synchronize_rcu_tasks();
	wait_event(ftrace_tramp_done_wq, !ftrace_tramp_busy(mod, ops));
}

/**
 * ftrace_ops_wait_released - Wait for the asynchronous releases of @ops
 * @ops: An ops that may have been unregistered asynchronously.
 *
 * Never call it with ftrace_lock held.  Waits for the releases of @ops
 * queued so far, and for nothing else: not for other ops's releases,
 * which may take locks that the caller holds.  On return no CPU or task
 * is using @ops through an earlier unregister_ftrace_function_async().
 */
void ftrace_ops_wait_released(struct ftrace_ops *ops)
{
	might_sleep();
	ftrace_tramp_wait_own(NULL, ops);
}

#ifdef CONFIG_MODULES
/*
 * A module's retired trampolines, the ops its text calls and its release
 * callbacks must not outlive the module: wait for them, and only for
 * them, before the text is freed.  GOING is notified after the module's
 * exit function and before its memory goes.
 */
static int ftrace_tramp_module_notify(struct notifier_block *nb,
				      unsigned long state, void *data)
{
	if (state == MODULE_STATE_GOING)
		ftrace_tramp_wait_own(data, NULL);
	return NOTIFY_DONE;
}

static struct notifier_block ftrace_tramp_module_nb = {
	.notifier_call = ftrace_tramp_module_notify,
};

static int __init ftrace_tramp_watch_modules(void)
{
	return register_module_notifier(&ftrace_tramp_module_nb);
}
#else
/* Without modules every owner is the kernel, which never goes away. */
static inline int ftrace_tramp_watch_modules(void)
{
	return 0;
}
#endif

/* ------------------------------------------------------------------ */
/* Lookups: kallsyms, the unwinder, perf.                             */

/**
 * ftrace_tramp_find - Find the trampoline, live or retired, containing @addr
 * @addr: A text address.
 * @save_regs: Set to whether the trampoline is a copy of ftrace_regs_caller.
 *
 * For the unwinder: a task preempted in a retired trampoline still has
 * its addresses on the stack.  Callable from any context;
 * where RCU is not watching it finds nothing.
 *
 * Return: the start of the trampoline, or 0 if @addr is in none that
 * still has memory.
 */
unsigned long ftrace_tramp_find(unsigned long addr, bool *save_regs)
{
	struct latch_tree_node *n;
	unsigned long start = 0;

	/*
	 * The free path waits for an RCU grace period after the erase,
	 * which covers a preemption-disabled lookup only where RCU is
	 * watching.  Elsewhere (an unwind from idle or the entry code)
	 * the node may be freed under us: do not look.
	 */
	if (!rcu_is_watching())
		return 0;
	preempt_disable_notrace();
	n = latch_tree_find((void *)addr, &ftrace_tramp_tree, &ftrace_tramp_tree_ops);
	if (n) {
		start = ftrace_tramp_of(n)->addr;
		*save_regs = ftrace_tramp_of(n)->save_regs;
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
	FTS_RECLAIM_MEAN, FTS_ABANDONED, FTS_OVER_BUDGET, FTS_NR_ROWS,
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
	[FTS_ABANDONED]		= "abandoned",
	[FTS_OVER_BUDGET]	= "over_budget",
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
	case FTS_ABANDONED:		return s->abandoned;
	case FTS_OVER_BUDGET:		return s->over_budget;
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
	return ftrace_tramp_watch_modules();
}
early_initcall(ftrace_tramp_init);

static __init int ftrace_tramp_stat_init(void)
{
	return register_stat_tracer(&ftrace_tramp_stat);
}
fs_initcall(ftrace_tramp_stat_init);
