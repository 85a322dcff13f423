/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-ops ftrace trampolines retired through call_rcu_tasks():
 * the interface between kernel/trace/ftrace.c and
 * kernel/trace/ftrace_rcu_tasks.c.  Everything here except
 * ftrace_tramp_lookup() and ftrace_tramp_kallsym() is called with
 * ftrace_lock held.
 */
#ifndef _KERNEL_TRACE_FTRACE_RCU_TASKS_H
#define _KERNEL_TRACE_FTRACE_RCU_TASKS_H

#include <linux/ftrace.h>
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
int ftrace_tramp_swap_begin(struct ftrace_ops *ops);
void ftrace_tramp_swap_end(struct ftrace_ops *ops);

bool ftrace_tramp_lookup(unsigned long addr);
int ftrace_tramp_kallsym(unsigned int symnum, unsigned long *value);

void ftrace_ops_wait_readers(void);
int ftrace_ops_release_async(struct ftrace_ops *ops,
			     void (*release)(struct ftrace_ops *ops));
void ftrace_tramp_drain(void);

/* Where the call sites of @ops point at this moment. */
static inline unsigned long ftrace_tramp_curr_addr(struct ftrace_ops *ops)
{
	if (ops == ftrace_tramp_swap_ops)
		return ftrace_tramp_swap_from;
	return ops->trampoline;
}

#endif /* CONFIG_DYNAMIC_FTRACE */

#endif /* _KERNEL_TRACE_FTRACE_RCU_TASKS_H */
