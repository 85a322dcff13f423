/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints for the lifecycle of per-ops ftrace trampolines
 * (kernel/trace/ftrace_rcu_tasks.c): allocated, swapped in, retired, freed.
 *
 * Every event carries the trampoline's id, unique for the life of the
 * system, so that a script can pair a retire with its free and measure
 * the reclamation latency from a trace alone (tools/perf/scripts/python/
 * ftrace-tramp-reclaim.py).  See Documentation/trace/ftrace-rcu-tasks.rst.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ftrace_tramp

#if !defined(_TRACE_FTRACE_TRAMP_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_FTRACE_TRAMP_H

#include <linux/tracepoint.h>
#include <linux/types.h>

/* Trampoline @id was built for @ops at @addr, @size bytes. */
TRACE_EVENT(ftrace_tramp_alloc,
	    TP_PROTO(u64 id, void *ops, unsigned long addr, unsigned int size),
	    TP_ARGS(id, ops, addr, size),
	    TP_STRUCT__entry(__field(u64, id)
			     __field(void *, ops)
			     __field(unsigned long, addr)
			     __field(unsigned int, size)),
	    TP_fast_assign(__entry->id = id;
			   __entry->ops = ops;
			   __entry->addr = addr;
			   __entry->size = size;),
	    TP_printk("id=%llu ops=%p addr=0x%lx size=%u",
		      __entry->id, __entry->ops, __entry->addr, __entry->size)
);

/* The call sites of @ops moved from trampoline @old_id to @new_id. */
TRACE_EVENT(ftrace_tramp_swap,
	    TP_PROTO(void *ops, u64 old_id, u64 new_id),
	    TP_ARGS(ops, old_id, new_id),
	    TP_STRUCT__entry(__field(void *, ops)
			     __field(u64, old_id)
			     __field(u64, new_id)),
	    TP_fast_assign(__entry->ops = ops;
			   __entry->old_id = old_id;
			   __entry->new_id = new_id;),
	    TP_printk("ops=%p old_id=%llu new_id=%llu",
		      __entry->ops, __entry->old_id, __entry->new_id)
);

/*
 * Trampoline @id is unreachable from every call site; its memory waits
 * for the grace periods.  @pending counts the bytes retired and not yet
 * freed, this one included.
 */
TRACE_EVENT(ftrace_tramp_retire,
	    TP_PROTO(u64 id, unsigned long addr, unsigned long pending),
	    TP_ARGS(id, addr, pending),
	    TP_STRUCT__entry(__field(u64, id)
			     __field(unsigned long, addr)
			     __field(unsigned long, pending)),
	    TP_fast_assign(__entry->id = id;
			   __entry->addr = addr;
			   __entry->pending = pending;),
	    TP_printk("id=%llu addr=0x%lx pending=%lu",
		      __entry->id, __entry->addr, __entry->pending)
);

/* Trampoline @id was freed, @latency_ns after it was retired. */
TRACE_EVENT(ftrace_tramp_free,
	    TP_PROTO(u64 id, unsigned long addr, u64 latency_ns),
	    TP_ARGS(id, addr, latency_ns),
	    TP_STRUCT__entry(__field(u64, id)
			     __field(unsigned long, addr)
			     __field(u64, latency_ns)),
	    TP_fast_assign(__entry->id = id;
			   __entry->addr = addr;
			   __entry->latency_ns = latency_ns;),
	    TP_printk("id=%llu addr=0x%lx latency_ns=%llu",
		      __entry->id, __entry->addr, __entry->latency_ns)
);

#endif /* _TRACE_FTRACE_TRAMP_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
