#!/bin/sh
# description: instance removal waits for its own ops's releases only: a pending release of another ops that takes trace_types_lock does not deadlock it
# timeout: 180
# variant: ours
#
# __remove_instance() holds trace_types_lock and event_mutex while it
# waits for the releases of the instance's ops.  If it waited for every
# pending release instead, one that takes trace_types_lock (here: the
# churn module's, through trace_array_get_by_name()) would never run, and
# rmdir would never return.
. /harness/lib.sh
rtt_load
T=/sys/kernel/tracing
run=/sys/kernel/debug/rcu_tasks_test/run
tramp_mark
mkdir $T/instances/x || fail "no tracefs instance"
echo vfs_read >$T/instances/x/set_ftrace_filter
echo function >$T/instances/x/current_tracer || fail "function tracer refused"
dmesg -c >/dev/null
# A 4 s Tasks RCU holdout keeps the churn's releases pending meanwhile.
echo "holdout 4000" >$run &
hold=$!
sleep 0.3
modprobe ftrace-churn nr_churners=1 nr_callers=1 nr_refilters=20 \
	refilters_per_ops=1 async_pct=100 release_takes_trace_lock=1 ||
	fail "modprobe ftrace-churn failed"
line=$(dmesg | grep 'ftrace_churn: \(PASS\|FAIL\)')
echo "$line"
echo "$line" | grep -q 'ftrace_churn: PASS' || fail "churn did not pass"
[ "$(tramp_stat async_releases)" ] || fail "no stats"
echo nop >$T/instances/x/current_tracer
t0=$(now_us)
rmdir $T/instances/x &
rm=$!
i=0
while kill -0 $rm 2>/dev/null && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -0 $rm 2>/dev/null && fail "rmdir still blocked after 30 s: it waits for releases that need trace_types_lock"
wait $rm || fail "rmdir failed"
echo "rmdir took $((($(now_us) - t0) / 1000)) ms with releases pending that take trace_types_lock"
wait $hold || fail "holdout failed"
rmmod ftrace-churn || fail "rmmod ftrace-churn failed"
[ -d $T/instances/ftrace_churn ] || fail "no release took trace_types_lock (their instance is missing)"
rmdir $T/instances/ftrace_churn
tramp_settled
