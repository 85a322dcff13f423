// SPDX-License-Identifier: GPL-2.0
/*
 * Unwind the stack from every instruction of return_to_handler.
 *
 * An interrupt can stop a task at any instruction of return_to_handler and
 * unwind its stack from there; random interrupts land on one particular
 * instruction far too rarely to test that.  This module puts a kprobe on
 * each instruction boundary of the first @size bytes of return_to_handler
 * (register_kprobe() refuses the others) and unwinds the stack from each
 * hit, through the int3 exception frame and into return_to_handler, the
 * way an interrupt handler that records a stack would.  The unwinder
 * reports what it cannot make sense of in the kernel log; the module
 * reports, per probed offset, the hits and the deepest stack it saw.
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/stacktrace.h>
#include <linux/slab.h>

static unsigned int size;
module_param(size, uint, 0444);
MODULE_PARM_DESC(size, "Bytes of return_to_handler to probe (from /proc/kallsyms)");

#define GRAPH_UNWIND_MAX_SIZE	256
#define GRAPH_UNWIND_DEPTH	32

struct graph_unwind_probe {
	struct kprobe kp;
	atomic_t hits;
	atomic_t max_depth;
};

static struct graph_unwind_probe *probes;
static unsigned int nr_probes;

static int graph_unwind_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct graph_unwind_probe *p = container_of(kp, struct graph_unwind_probe, kp);
	unsigned long entries[GRAPH_UNWIND_DEPTH];
	int depth, old;

	depth = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	atomic_inc(&p->hits);
	old = atomic_read(&p->max_depth);
	while (depth > old && !atomic_try_cmpxchg(&p->max_depth, &old, depth))
		;
	return 0;
}

static void graph_unwind_unregister(void)
{
	unsigned int i;

	for (i = 0; i < nr_probes; i++)
		unregister_kprobe(&probes[i].kp);
}

static int __init graph_unwind_init(void)
{
	unsigned int off;
	int ret;

	if (!size || size > GRAPH_UNWIND_MAX_SIZE)
		return -EINVAL;
	probes = kcalloc(size, sizeof(*probes), GFP_KERNEL);
	if (!probes)
		return -ENOMEM;

	for (off = 0; off < size; off++) {
		struct graph_unwind_probe *p = &probes[nr_probes];

		memset(p, 0, sizeof(*p));	/* a refused kprobe is not reused */
		p->kp.symbol_name = "return_to_handler";
		p->kp.offset = off;
		p->kp.pre_handler = graph_unwind_pre;
		ret = register_kprobe(&p->kp);
		if (ret == -EILSEQ)	/* not an instruction boundary */
			continue;
		if (ret) {
			pr_err("graph_unwind_probe: +%#x: register_kprobe: %d\n", off, ret);
			graph_unwind_unregister();
			kfree(probes);
			return ret;
		}
		nr_probes++;
	}
	pr_info("graph_unwind_probe: %u probes in %u bytes\n", nr_probes, size);
	return 0;
}

static void __exit graph_unwind_exit(void)
{
	unsigned int i;

	graph_unwind_unregister();
	for (i = 0; i < nr_probes; i++)
		pr_info("graph_unwind_probe: +%#x hits=%d depth=%d\n",
			probes[i].kp.offset, atomic_read(&probes[i].hits),
			atomic_read(&probes[i].max_depth));
	kfree(probes);
}

module_init(graph_unwind_init);
module_exit(graph_unwind_exit);
MODULE_DESCRIPTION("Unwind the stack from every instruction of return_to_handler");
MODULE_LICENSE("GPL");
