/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Classic Tasks RCU (CONFIG_TASKS_RCU): interfaces private to kernel/rcu.
 *
 * The grace-period machinery lives in kernel/rcu/tasks.c.  The Rude and
 * Trace flavors in kernel/rcu/tasks.h reach it only through the functions
 * declared here.  The small pure helpers at the end are static inline so
 * that the KUnit suite (kernel/rcu/tasks_kunit.c) tests exactly the code
 * that the grace-period kthread and the parameter handlers run.
 */
#ifndef __KERNEL_RCU_TASKS_CLASSIC_H
#define __KERNEL_RCU_TASKS_CLASSIC_H

#include <linux/errno.h>
#include <linux/kstrtox.h>
#include <linux/types.h>

#ifdef CONFIG_TASKS_RCU
void __init rcu_tasks_classic_spawn_kthread(void);
void rcu_tasks_classic_exit_start(void);
void rcu_tasks_classic_exit_finish(void);
#endif /* #ifdef CONFIG_TASKS_RCU */

/* Holdout-rescan back-off, in microseconds. */
#define RCU_TASKS_BACKOFF_MIN_US_DEFAULT	100
#define RCU_TASKS_BACKOFF_MAX_US_DEFAULT	50000
#define RCU_TASKS_BACKOFF_MIN_US_LIMIT		1000	/* Start within 1 ms. */
#define RCU_TASKS_BACKOFF_MAX_US_LIMIT		1000000	/* Never poll slower than 1 Hz. */

/* Stall-warning timeout in milliseconds; 0 disables the warning. */
#define RCU_TASKS_STALL_MS_DEFAULT		(10 * 60 * 1000)
#define RCU_TASKS_STALL_MS_MIN			10
#define RCU_TASKS_STALL_MS_MAX			(24 * 60 * 60 * 1000)

/**
 * rcu_tasks_backoff_next() - Compute the next holdout-rescan interval.
 * @cur_us: Interval just used, in microseconds.
 * @min_us: Lower bound, in microseconds.
 * @max_us: Upper bound, in microseconds.
 *
 * The interval doubles after each pass that still finds holdouts, so that
 * a short holdout (a task preempted for a moment) ends the grace period
 * within about @min_us, while a long one (a CPU-bound kernel thread) costs
 * at most one wakeup every @max_us.  Bounds given in the wrong order are
 * treated as a single bound.
 *
 * Return: the next interval, always within [@min_us, max(@min_us, @max_us)].
 */
static inline unsigned int rcu_tasks_backoff_next(unsigned int cur_us,
						  unsigned int min_us,
						  unsigned int max_us)
{
	if (max_us < min_us)
		max_us = min_us;
	if (cur_us < min_us)
		return min_us;
	if (cur_us >= max_us / 2)
		return max_us;
	return cur_us * 2;
}

/**
 * rcu_tasks_parse_stall_ms() - Parse a stall-warning timeout.
 * @val: Decimal string from the user.
 * @res: Where to store the value on success; untouched on failure.
 *
 * Return: 0 on success, -EINVAL if @val is not a decimal number, or is
 * neither 0 (disabled) nor within [RCU_TASKS_STALL_MS_MIN,
 * RCU_TASKS_STALL_MS_MAX].
 */
static inline int rcu_tasks_parse_stall_ms(const char *val, unsigned int *res)
{
	unsigned int v;

	if (kstrtouint(val, 10, &v))
		return -EINVAL;
	if (v && (v < RCU_TASKS_STALL_MS_MIN || v > RCU_TASKS_STALL_MS_MAX))
		return -EINVAL;
	*res = v;
	return 0;
}

/**
 * rcu_tasks_check_backoff() - Validate a pair of back-off bounds.
 * @min_us: Proposed lower bound, in microseconds.
 * @max_us: Proposed upper bound, in microseconds.
 *
 * Return: 0 if 1 <= @min_us <= RCU_TASKS_BACKOFF_MIN_US_LIMIT,
 * @min_us <= @max_us and @max_us <= RCU_TASKS_BACKOFF_MAX_US_LIMIT,
 * otherwise -EINVAL.
 */
static inline int rcu_tasks_check_backoff(unsigned int min_us,
					  unsigned int max_us)
{
	if (!min_us || min_us > RCU_TASKS_BACKOFF_MIN_US_LIMIT)
		return -EINVAL;
	if (max_us < min_us || max_us > RCU_TASKS_BACKOFF_MAX_US_LIMIT)
		return -EINVAL;
	return 0;
}

/**
 * rcu_tasks_parse_backoff() - Parse one back-off bound and check the pair.
 * @val: Decimal string from the user.
 * @is_min: True if @val is the lower bound, false for the upper bound.
 * @other: The current value of the other bound.
 * @res: Where to store the value on success; untouched on failure.
 *
 * Return: 0 on success, -EINVAL if @val is not a decimal number or if the
 * resulting pair fails rcu_tasks_check_backoff().
 */
static inline int rcu_tasks_parse_backoff(const char *val, bool is_min,
					  unsigned int other, unsigned int *res)
{
	unsigned int v;
	int ret;

	if (kstrtouint(val, 10, &v))
		return -EINVAL;
	ret = is_min ? rcu_tasks_check_backoff(v, other) :
		       rcu_tasks_check_backoff(other, v);
	if (ret)
		return ret;
	*res = v;
	return 0;
}

#endif /* __KERNEL_RCU_TASKS_CLASSIC_H */
