#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Demo: a function tracer enabled dynamically in a tracefs instance with a
# filter, re-filtered and disabled, while trace-cmd records that instance.
# Each step is bracketed by trace_marker lines, so its duration is read off
# the trace's own clock.
. /harness/lib.sh
T=/sys/kernel/tracing
I=$T/instances/demo
step() { echo "$*" >"$I/trace_marker"; }

echo "harness: demo: trace-cmd record -B demo"
trace-cmd record -B demo -e sched:sched_switch -e sched:sched_wakeup \
	$( [ -d $T/events/rcu_tasks ] && echo -e rcu_tasks ) \
	$( [ -d $T/events/ftrace_rcu_tasks ] && echo -e ftrace_rcu_tasks ) \
	-o /tmp/trace.dat >/tmp/record.log 2>&1 &
rec=$!
i=0
while [ "$(cat "$I/tracing_on" 2>/dev/null)" != 1 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 1

step "demo: begin enable function tracer, filter schedule*"
echo 'schedule*' >"$I/set_ftrace_filter"
echo function >"$I/current_tracer"
step "demo: end enable"
sleep 1
step "demo: begin re-filter to vfs_read* vfs_write*"
echo 'vfs_read* vfs_write*' >"$I/set_ftrace_filter"
step "demo: end re-filter"
cat /proc/version >/dev/null
sleep 1
step "demo: begin disable (nop)"
echo nop >"$I/current_tracer"
step "demo: end disable"
sleep 0.5
kill -INT $rec
wait $rec
cat /tmp/record.log

data "@@ REPORT"
trace-cmd report -i /tmp/trace.dat 2>/dev/null | grep -E 'print:|function:' | head -n 20 >"$DATA"
echo "--- trace-cmd report --stat" >"$DATA"
trace-cmd report --stat -i /tmp/trace.dat 2>/dev/null | head -n 20 >"$DATA"
echo "--- step durations (trace clock)" >"$DATA"
trace-cmd report -i /tmp/trace.dat 2>/dev/null | awk '
	/demo: begin/ { sub(/:$/, "", $3); t0 = $3; split($0, a, "demo: begin "); what = a[2] }
	/demo: end/ { sub(/:$/, "", $3); printf "  %-45s %9.3f ms\n", what, ($3 - t0) * 1000 }' >"$DATA"
echo "--- events recorded" >"$DATA"
trace-cmd report -i /tmp/trace.dat 2>/dev/null | awk '{ print $4 }' | sort | uniq -c | sort -rn | head -n 8 >"$DATA"
data "@@ ENDREPORT"
if [ -s /tmp/trace.dat ] && trace-cmd report -i /tmp/trace.dat 2>/dev/null | grep -q 'demo: end disable'; then
	data "@@ PASS demo-recorded-session"
else
	data "@@ FAIL demo-recorded-session: trace.dat misses the session"
fi
send_file /tmp/trace.dat trace.dat
