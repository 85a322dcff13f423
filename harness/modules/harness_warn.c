// SPDX-License-Identifier: GPL-2.0
/*
 * Harness self-test module: a WARN on load, so that the harness proves it
 * fails a run whose tests all passed but whose kernel complained.
 */
#include <linux/module.h>
#include <linux/bug.h>

static int __init harness_warn_init(void)
{
	WARN(1, "harness_warn: deliberate warning for the harness self-test\n");
	return 0;
}

static void __exit harness_warn_exit(void)
{
}

module_init(harness_warn_init);
module_exit(harness_warn_exit);
MODULE_DESCRIPTION("Harness self-test: WARN on load");
MODULE_LICENSE("GPL");
