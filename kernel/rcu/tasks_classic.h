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
void __init rcu_tasks_classic_init_exit_lists(void);
void __init rcu_tasks_classic_spawn_kthread(int legacy_stall_jiffies,
					    bool legacy_stall_set);
void rcu_tasks_classic_exit_start(void);
void rcu_tasks_classic_exit_finish(void);
#endif /* #ifdef CONFIG_TASKS_RCU */

/*
 * Holdout-rescan back-off, in microseconds.  Each bound has a range of its
 * own, and the two ranges meet at 1000 us, so any pair of valid values is
 * ordered and the parameters can be given in any order.  The floor of
 * backoff_max_us keeps a persistent holdout from being polled more than
 * 1000 times a second.
 */
#define RCU_TASKS_BACKOFF_MIN_US_DEFAULT	100
#define RCU_TASKS_BACKOFF_MAX_US_DEFAULT	50000
#define RCU_TASKS_BACKOFF_MIN_US_FLOOR		10
#define RCU_TASKS_BACKOFF_MIN_US_LIMIT		1000	/* Start within 1 ms. */
#define RCU_TASKS_BACKOFF_MAX_US_FLOOR		1000
#define RCU_TASKS_BACKOFF_MAX_US_LIMIT		1000000	/* Never poll slower than 1 Hz. */

/*
 * A grace period that nobody waits for rescans its holdouts no sooner than
 * this after the scan: it is not worth a wakeup every 100 us.
 */
#define RCU_TASKS_NORMAL_BACKOFF_MIN_US		1000

/* Stall-warning timeout in milliseconds; 0 disables the warning. */
#define RCU_TASKS_STALL_MS_DEFAULT		(10 * 60 * 1000)
#define RCU_TASKS_STALL_MS_MIN			10
#define RCU_TASKS_STALL_MS_MAX			(24 * 60 * 60 * 1000)

/*
 * Grace periods that only serve call_rcu_tasks() callbacks: the first
 * callback waits batch_ms for others to join it, and two such grace
 * periods start at least gp_interval_ms apart.
 */
#define RCU_TASKS_BATCH_MS_DEFAULT		10
#define RCU_TASKS_BATCH_MS_MAX			1000
#define RCU_TASKS_GP_INTERVAL_MS_DEFAULT	100	/* At most 10 a second. */
#define RCU_TASKS_GP_INTERVAL_MS_MIN		10
#define RCU_TASKS_GP_INTERVAL_MS_MAX		10000

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
 * rcu_tasks_parse_range() - Parse a parameter that must lie within a range.
 * @val: Decimal string from the user.
 * @lo: Smallest value accepted.
 * @hi: Largest value accepted.
 * @zero_ok: Accept 0 as well, whatever @lo is (0 meaning "off").
 * @res: Where to store the value on success; untouched on failure.
 *
 * Return: 0 on success, -EINVAL if @val is not a decimal number or is out
 * of range.
 */
static inline int rcu_tasks_parse_range(const char *val, unsigned int lo,
					unsigned int hi, bool zero_ok,
					unsigned int *res)
{
	unsigned int v;

	if (kstrtouint(val, 10, &v))
		return -EINVAL;
	if (!(zero_ok && !v) && (v < lo || v > hi))
		return -EINVAL;
	*res = v;
	return 0;
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
	return rcu_tasks_parse_range(val, RCU_TASKS_STALL_MS_MIN,
				     RCU_TASKS_STALL_MS_MAX, true, res);
}

/**
 * rcu_tasks_parse_backoff() - Parse one back-off bound.
 * @val: Decimal string from the user.
 * @is_min: True if @val is the lower bound, false for the upper bound.
 * @res: Where to store the value on success; untouched on failure.
 *
 * The lower bound lies within [RCU_TASKS_BACKOFF_MIN_US_FLOOR,
 * RCU_TASKS_BACKOFF_MIN_US_LIMIT], the upper one within
 * [RCU_TASKS_BACKOFF_MAX_US_FLOOR, RCU_TASKS_BACKOFF_MAX_US_LIMIT].  The
 * ranges do not overlap except at their common end, so each bound is
 * checked alone and the result does not depend on the other's value.
 *
 * Return: 0 on success, -EINVAL if @val is not a decimal number or is out
 * of its range.
 */
static inline int rcu_tasks_parse_backoff(const char *val, bool is_min,
					  unsigned int *res)
{
	if (is_min)
		return rcu_tasks_parse_range(val, RCU_TASKS_BACKOFF_MIN_US_FLOOR,
					     RCU_TASKS_BACKOFF_MIN_US_LIMIT,
					     false, res);
	return rcu_tasks_parse_range(val, RCU_TASKS_BACKOFF_MAX_US_FLOOR,
				     RCU_TASKS_BACKOFF_MAX_US_LIMIT, false, res);
}

#endif /* __KERNEL_RCU_TASKS_CLASSIC_H */
