/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints for classic Tasks RCU (kernel/rcu/tasks.c).
 *
 * One event per phase of a grace period, so that the cost of each grace
 * period, and of the polling that waits for holdout tasks, can be
 * accounted for from a trace alone.  See
 * Documentation/trace/ftrace-rcu-tasks.rst.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM rcu_tasks

#if !defined(_TRACE_RCU_TASKS_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_RCU_TASKS_H

#include <linux/tracepoint.h>
#include <linux/types.h>

/* A callback was queued by call_rcu_tasks(); @qlen counts it. */
TRACE_EVENT(rcu_tasks_cb_queued,
	    TP_PROTO(struct rcu_head *rhp, rcu_callback_t func, unsigned long qlen),
	    TP_ARGS(rhp, func, qlen),
	    TP_STRUCT__entry(__field(void *, rhp)
			     __field(void *, func)
			     __field(unsigned long, qlen)),
	    TP_fast_assign(__entry->rhp = rhp;
			   __entry->func = func;
			   __entry->qlen = qlen;),
	    TP_printk("rhp=%p func=%ps qlen=%lu",
		      __entry->rhp, __entry->func, __entry->qlen)
);

/* A grace period started, covering @ncbs callbacks taken off the list. */
TRACE_EVENT(rcu_tasks_gp_start,
	    TP_PROTO(unsigned long gp_seq, unsigned long ncbs),
	    TP_ARGS(gp_seq, ncbs),
	    TP_STRUCT__entry(__field(unsigned long, gp_seq)
			     __field(unsigned long, ncbs)),
	    TP_fast_assign(__entry->gp_seq = gp_seq;
			   __entry->ncbs = ncbs;),
	    TP_printk("gp_seq=%lu ncbs=%lu", __entry->gp_seq, __entry->ncbs)
);

/* The task-list and exiting-task scans are done. */
TRACE_EVENT(rcu_tasks_scan_done,
	    TP_PROTO(unsigned long gp_seq, unsigned int nscanned,
		     unsigned int nholdouts, u64 scan_ns),
	    TP_ARGS(gp_seq, nscanned, nholdouts, scan_ns),
	    TP_STRUCT__entry(__field(unsigned long, gp_seq)
			     __field(unsigned int, nscanned)
			     __field(unsigned int, nholdouts)
			     __field(u64, scan_ns)),
	    TP_fast_assign(__entry->gp_seq = gp_seq;
			   __entry->nscanned = nscanned;
			   __entry->nholdouts = nholdouts;
			   __entry->scan_ns = scan_ns;),
	    TP_printk("gp_seq=%lu scanned=%u holdouts=%u scan_ns=%llu",
		      __entry->gp_seq, __entry->nscanned, __entry->nholdouts,
		      __entry->scan_ns)
);

/* One rescan of the holdout list; @next_us is the sleep before the next. */
TRACE_EVENT(rcu_tasks_holdout_pass,
	    TP_PROTO(unsigned long gp_seq, unsigned int pass,
		     unsigned int remaining, unsigned int next_us),
	    TP_ARGS(gp_seq, pass, remaining, next_us),
	    TP_STRUCT__entry(__field(unsigned long, gp_seq)
			     __field(unsigned int, pass)
			     __field(unsigned int, remaining)
			     __field(unsigned int, next_us)),
	    TP_fast_assign(__entry->gp_seq = gp_seq;
			   __entry->pass = pass;
			   __entry->remaining = remaining;
			   __entry->next_us = next_us;),
	    TP_printk("gp_seq=%lu pass=%u remaining=%u next_us=%u",
		      __entry->gp_seq, __entry->pass, __entry->remaining,
		      __entry->next_us)
);

/*
 * A grace period ended after @duration_ns and @npasses holdout passes;
 * @expedited: it closed with an expedited RCU grace period (one IPI to
 * each online CPU that was not idle) because somebody was waiting for it.
 */
TRACE_EVENT(rcu_tasks_gp_end,
	    TP_PROTO(unsigned long gp_seq, u64 duration_ns, unsigned int npasses,
		     bool expedited),
	    TP_ARGS(gp_seq, duration_ns, npasses, expedited),
	    TP_STRUCT__entry(__field(unsigned long, gp_seq)
			     __field(u64, duration_ns)
			     __field(unsigned int, npasses)
			     __field(bool, expedited)),
	    TP_fast_assign(__entry->gp_seq = gp_seq;
			   __entry->duration_ns = duration_ns;
			   __entry->npasses = npasses;
			   __entry->expedited = expedited;),
	    TP_printk("gp_seq=%lu duration_ns=%llu passes=%u expedited=%d",
		      __entry->gp_seq, __entry->duration_ns, __entry->npasses,
		      __entry->expedited)
);

/* @count callbacks of grace period @gp_seq were invoked. */
TRACE_EVENT(rcu_tasks_cbs_invoked,
	    TP_PROTO(unsigned long gp_seq, unsigned long count),
	    TP_ARGS(gp_seq, count),
	    TP_STRUCT__entry(__field(unsigned long, gp_seq)
			     __field(unsigned long, count)),
	    TP_fast_assign(__entry->gp_seq = gp_seq;
			   __entry->count = count;),
	    TP_printk("gp_seq=%lu count=%lu", __entry->gp_seq, __entry->count)
);

#endif /* _TRACE_RCU_TASKS_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
