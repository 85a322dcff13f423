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
# A perf recording of the trampoline lifecycle under a short churn, for
# tools/perf/scripts/python/ftrace-tramp-reclaim.py on the host.
if command -v perf >/dev/null &&
	ls /lib/modules/*/kernel/samples/ftrace/ftrace-churn.ko >/dev/null 2>&1; then
	perf record -q -e 'ftrace_tramp:*' -a -o /tmp/perf.data -- \
		sh -c 'modprobe ftrace-churn nr_refilters=500 && rmmod ftrace-churn && sleep 1' \
		>/tmp/perf.log 2>&1
	if [ -s /tmp/perf.data ]; then
		send_file /tmp/perf.data perf.data
	else
		cat /tmp/perf.log
	fi
fi
