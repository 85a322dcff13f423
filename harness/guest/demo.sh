#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Demo: tools/tracing/rcu-tasks-session.sh in instance "demo"; its report
# goes to the host, and so does trace.dat for KernelShark.
. /harness/lib.sh
echo "harness: demo: rcu-tasks-session.sh -i demo"
cd /tmp || exit 1
rcu-tasks-session.sh -i demo -o /tmp/trace.dat >/tmp/report.txt 2>&1
rc=$?
cat /tmp/report.txt
data "@@ REPORT"
cat /tmp/report.txt >"$DATA"
data "@@ ENDREPORT"
if [ $rc = 0 ] && [ -s /tmp/trace.dat ]; then
	data "@@ PASS demo-recorded-session"
else
	data "@@ FAIL demo-recorded-session: trace.dat misses the session (exit $rc)"
fi
send_file /tmp/trace.dat trace.dat
# The same short churn twice: recorded by trace-cmd for KernelShark (the GP
# kthread, the churn threads, the trampoline events), then by perf for
# tools/perf/scripts/python/ftrace-tramp-reclaim.py and ftrace-lock.py on
# the host.  The churners contend on ftrace_lock with one another, and the
# data symbols of kallsyms let ftrace-lock.py name the locks.
churn="modprobe ftrace-churn nr_refilters=300 && rmmod ftrace-churn && sleep 0.5"
if ls /lib/modules/*/kernel/samples/ftrace/ftrace-churn.ko >/dev/null 2>&1; then
	trace-cmd record -q -e sched:sched_switch -e sched:sched_wakeup \
		-e rcu_tasks -e ftrace_tramp -o /tmp/churn.dat -- sh -c "$churn" \
		>/tmp/churn-record.log 2>&1
	if [ -s /tmp/churn.dat ]; then
		send_file /tmp/churn.dat churn.dat
	else
		cat /tmp/churn-record.log
	fi
fi
if command -v perf >/dev/null &&
	ls /lib/modules/*/kernel/samples/ftrace/ftrace-churn.ko >/dev/null 2>&1; then
	perf record -q -e 'ftrace_tramp:*' -e lock:contention_begin \
		-e lock:contention_end -a -o /tmp/perf.data -- sh -c "$churn" \
		>/tmp/perf.log 2>&1
	if [ -s /tmp/perf.data ]; then
		send_file /tmp/perf.data perf.data
		awk '$2 ~ /^[bBdD]$/' /proc/kallsyms >/tmp/data.kallsyms
		send_file /tmp/data.kallsyms data.kallsyms
	else
		cat /tmp/perf.log
	fi
fi
