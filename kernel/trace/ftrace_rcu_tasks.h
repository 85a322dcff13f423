/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-ops ftrace trampolines retired through call_rcu_tasks():
 * the interface between kernel/trace/ftrace.c and
 * kernel/trace/ftrace_rcu_tasks.c.  Everything here except
 * ftrace_tramp_lookup(), ftrace_tramp_kallsym() and the two waits is
 * called with ftrace_lock held.
 */
#ifndef _KERNEL_TRACE_FTRACE_RCU_TASKS_H
#define _KERNEL_TRACE_FTRACE_RCU_TASKS_H

#include <linux/ftrace.h>
#include <linux/rcupdate.h>
#include <linux/types.h>

#ifdef CONFIG_DYNAMIC_FTRACE

/*
 * The ops whose trampoline is being replaced by the update pass under
 * way, and the trampoline its call sites point at until the pass has
 * re-pointed them.  Both are written under ftrace_lock only.
 */
extern struct ftrace_ops *ftrace_tramp_swap_ops;
extern unsigned long ftrace_tramp_swap_from;

int ftrace_tramp_create(struct ftrace_ops *ops);
void ftrace_tramp_retire(struct ftrace_ops *ops);
bool ftrace_tramp_current(struct ftrace_ops *ops);
void ftrace_tramp_repointed(struct ftrace_ops *ops);
int ftrace_tramp_swap_begin(struct ftrace_ops *ops);
void ftrace_tramp_swap_end(struct ftrace_ops *ops);

bool ftrace_tramp_lookup(unsigned long addr);
int ftrace_tramp_kallsym(unsigned int symnum, unsigned long *value);

void ftrace_ops_wait_readers(void);
int ftrace_ops_release_async(struct ftrace_ops *ops,
			     void (*release)(struct ftrace_ops *ops));
void ftrace_ops_wait_released(struct ftrace_ops *ops);

/* Where the call sites of @ops point at this moment. */
static inline unsigned long ftrace_tramp_curr_addr(struct ftrace_ops *ops)
{
	if (ops == ftrace_tramp_swap_ops)
		return ftrace_tramp_swap_from;
	return ops->trampoline;
}

#else /* !CONFIG_DYNAMIC_FTRACE */

/*
 * Without dynamic ftrace there are no per-ops trampolines: mcount calls
 * ftrace_trace_function, which for an ops that is not core kernel data
 * (FTRACE_OPS_FL_DYNAMIC) is the list function.  It calls the ops with
 * preemption disabled, possibly where RCU is not watching, so once every
 * CPU has scheduled no CPU can be using an unhooked ops, and no task can
 * be preempted inside one.  FUNCTION_TRACER selects TASKS_RUDE_RCU.
 */
static inline void ftrace_ops_wait_readers(void)
{
	might_sleep();
	synchronize_rcu_tasks_rude();
}

/*
 * Nothing is deferred here: unregister_ftrace_function_async() waits
 * with ftrace_ops_wait_readers() and calls the release itself.
 */
static inline int ftrace_ops_release_async(struct ftrace_ops *ops,
					   void (*release)(struct ftrace_ops *ops))
{
	return -EOPNOTSUPP;
}

/* No release is ever pending. */
static inline void ftrace_ops_wait_released(struct ftrace_ops *ops)
{
}

#endif /* CONFIG_DYNAMIC_FTRACE */

#endif /* _KERNEL_TRACE_FTRACE_RCU_TASKS_H */
