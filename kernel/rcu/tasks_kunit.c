// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the pure logic of classic Tasks RCU: the holdout
 * back-off computation and the run-time parameter parsing.  The helpers
 * live in tasks_classic.h, so these tests run the very code that
 * kernel/rcu/tasks.c runs.
 */

#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/module.h>

#include "tasks_classic.h"

static void backoff_starts_at_min(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rcu_tasks_backoff_next(0, 100, 50000), 100U);
	KUNIT_EXPECT_EQ(test, rcu_tasks_backoff_next(99, 100, 50000), 100U);
}

static void backoff_doubles(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rcu_tasks_backoff_next(100, 100, 50000), 200U);
	KUNIT_EXPECT_EQ(test, rcu_tasks_backoff_next(200, 100, 50000), 400U);
	KUNIT_EXPECT_EQ(test, rcu_tasks_backoff_next(12345, 100, 50000), 24690U);
}

static void backoff_caps_at_max(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, rcu_tasks_backoff_next(25000, 100, 50000), 50000U);
	KUNIT_EXPECT_EQ(test, rcu_tasks_backoff_next(30000, 100, 50000), 50000U);
	KUNIT_EXPECT_EQ(test, rcu_tasks_backoff_next(50000, 100, 50000), 50000U);
	/* No overflow near the top of the range. */
	KUNIT_EXPECT_EQ(test, rcu_tasks_backoff_next(UINT_MAX, 1, UINT_MAX), UINT_MAX);
	KUNIT_EXPECT_EQ(test, rcu_tasks_backoff_next(UINT_MAX / 2 + 1, 1, UINT_MAX),
			UINT_MAX);
}

static void backoff_sequence_reaches_max(struct kunit *test)
{
	unsigned int us = 100;
	unsigned int total = 0;
	int i;

	/* 100, 200, ..., 25600 (nine sleeps), then the 50000 cap. */
	for (i = 0; i < 10; i++) {
		total += us;
		us = rcu_tasks_backoff_next(us, 100, 50000);
		KUNIT_EXPECT_LE(test, us, 50000U);
		KUNIT_EXPECT_GE(test, us, 100U);
	}
	KUNIT_EXPECT_EQ(test, us, 50000U);
	/* Ten sleeps: 100 * (2^9 - 1) + 50000, about 100 ms in all. */
	KUNIT_EXPECT_EQ(test, total, 101100U);
}

static void backoff_inverted_bounds(struct kunit *test)
{
	/* max < min degenerates to a constant interval of min. */
	KUNIT_EXPECT_EQ(test, rcu_tasks_backoff_next(0, 500, 100), 500U);
	KUNIT_EXPECT_EQ(test, rcu_tasks_backoff_next(500, 500, 100), 500U);
	KUNIT_EXPECT_EQ(test, rcu_tasks_backoff_next(100, 100, 100), 100U);
}

static void stall_parse_valid(struct kunit *test)
{
	unsigned int v = 7;

	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_stall_ms("0", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0U);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_stall_ms("10", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 10U);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_stall_ms("600000\n", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 600000U);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_stall_ms("86400000", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 86400000U);
}

static void stall_parse_invalid(struct kunit *test)
{
	static const char * const bad[] = {
		"", "-1", "9", "1", "86400001", "4294967296", "abc", "10ms",
		"0x10", " 100", "1e3",
	};
	unsigned int v = 1234;
	int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, rcu_tasks_parse_stall_ms(bad[i], &v),
				    -EINVAL, "input \"%s\"", bad[i]);
		KUNIT_EXPECT_EQ(test, v, 1234U);
	}
}

static void backoff_parse(struct kunit *test)
{
	unsigned int v = 42;

	/* Lower bound: 10..1000, whatever the upper bound is. */
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_backoff("200", true, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 200U);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_backoff("10", true, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 10U);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_backoff("1000", true, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 1000U);
	v = 42;
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_backoff("9", true, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_backoff("1", true, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_backoff("1001", true, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_backoff("0", true, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_backoff("x", true, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, v, 42U);

	/* Upper bound: 1000..1000000; 1 would poll a holdout every 1 us. */
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_backoff("1000", false, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 1000U);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_backoff("1000000", false, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 1000000U);
	v = 42;
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_backoff("1", false, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_backoff("999", false, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_backoff("1000001", false, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_backoff("-5", false, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, v, 42U);
}

/* Every valid lower bound is at most every valid upper bound. */
static void backoff_ranges_ordered(struct kunit *test)
{
	unsigned int lo, hi;

	KUNIT_ASSERT_EQ(test, rcu_tasks_parse_backoff("1000", true, &lo), 0);
	KUNIT_ASSERT_EQ(test, rcu_tasks_parse_backoff("1000", false, &hi), 0);
	KUNIT_EXPECT_LE(test, lo, hi);
	KUNIT_EXPECT_LE(test, RCU_TASKS_BACKOFF_MIN_US_LIMIT,
			RCU_TASKS_BACKOFF_MAX_US_FLOOR);
}

static void range_parse(struct kunit *test)
{
	unsigned int v = 42;

	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_range("0", 10, 100, true, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0U);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_range("10", 10, 100, false, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 10U);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_range("100\n", 10, 100, false, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 100U);
	v = 42;
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_range("0", 10, 100, false, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_range("9", 10, 100, true, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_range("101", 10, 100, true, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_range("", 10, 100, true, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, rcu_tasks_parse_range("-1", 0, 100, true, &v), -EINVAL);
	KUNIT_EXPECT_EQ(test, v, 42U);
}

static struct kunit_case rcu_tasks_test_cases[] = {
	KUNIT_CASE(backoff_starts_at_min),
	KUNIT_CASE(backoff_doubles),
	KUNIT_CASE(backoff_caps_at_max),
	KUNIT_CASE(backoff_sequence_reaches_max),
	KUNIT_CASE(backoff_inverted_bounds),
	KUNIT_CASE(stall_parse_valid),
	KUNIT_CASE(stall_parse_invalid),
	KUNIT_CASE(backoff_parse),
	KUNIT_CASE(backoff_ranges_ordered),
	KUNIT_CASE(range_parse),
	{}
};

static struct kunit_suite rcu_tasks_test_suite = {
	.name = "rcu_tasks",
	.test_cases = rcu_tasks_test_cases,
};

kunit_test_suite(rcu_tasks_test_suite);

MODULE_DESCRIPTION("KUnit tests for classic Tasks RCU");
MODULE_LICENSE("GPL");
