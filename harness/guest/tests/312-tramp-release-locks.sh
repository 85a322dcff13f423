#!/bin/sh
# description: instance removal waits for its own ops's releases only: a pending release of another ops that takes trace_types_lock does not deadlock it
# timeout: 180
# variant: ours
#
# __remove_instance() holds trace_types_lock and event_mutex while it
# waits for the releases of the instance's ops.  If it waited for every
# pending release instead, one that takes trace_types_lock (here: the
# churn module's, through trace_array_get_by_name()) could never run, and
# rmdir would never return.
#
# The churn module's releases must still be pending when rmdir starts: a
# Tasks RCU holdout keeps them, and rmmod, which leaves its lingering ops
# to asynchronous releases, queues them behind it.  (Releases queued
# during modprobe are no use: modprobe itself waits for a grace period.)
. /harness/lib.sh
rtt_load
T=/sys/kernel/tracing
run=/sys/kernel/debug/rcu_tasks_test/run
HOLD_MS=15000
LINGER=8
tramp_mark
mkdir $T/instances/x || fail "no tracefs instance"
echo vfs_read >$T/instances/x/set_ftrace_filter
echo function >$T/instances/x/current_tracer || fail "function tracer refused"
dmesg -c >/dev/null
modprobe ftrace-churn nr_churners=1 nr_callers=1 nr_refilters=20 \
	refilters_per_ops=1 async_pct=100 linger=$LINGER release_takes_trace_lock=1 ||
	fail "modprobe ftrace-churn failed"
line=$(dmesg | grep 'ftrace_churn: \(PASS\|FAIL\)')
echo "$line"
echo "$line" | grep -q 'ftrace_churn: PASS' || fail "churn did not pass"
echo "holdout $HOLD_MS" >$run &
hold=$!
sleep 0.5
t_hold=$(now_us)
r0=$(tramp_stat async_releases)
[ -n "$r0" ] || fail "no stats"
# rmmod waits for its own releases, so until the holdout ends.
rmmod ftrace-churn &
rmm=$!
wait_dmesg 'ftrace_churn: exit:' 10 ||
	fail "rmmod ftrace-churn did not reach its exit function"
echo nop >$T/instances/x/current_tracer
kill -0 $hold 2>/dev/null || fail "the holdout ended before rmdir: nothing was pending"
[ "$(tramp_stat async_releases)" = "$r0" ] ||
	fail "releases completed during the holdout ($r0 -> $(tramp_stat async_releases))"
t0=$(now_us)
rmdir $T/instances/x &
rm=$!
# rmdir waits for the instance's own release, so for the holdout; not
# for the churn's releases, which wait for the lock rmdir holds.
limit=$((HOLD_MS / 100 + 300))
i=0
while kill -0 $rm 2>/dev/null && [ $i -lt $limit ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -0 $rm 2>/dev/null &&
	fail "rmdir still blocked 30 s after the holdout ended: it waits for releases that need trace_types_lock"
wait $rm || fail "rmdir failed"
echo "rmdir took $((($(now_us) - t0) / 1000)) ms, $((($(now_us) - t_hold) / 1000)) ms into a $HOLD_MS ms holdout, with the churn's releases pending"
wait $hold || fail "holdout failed"
wait $rmm || fail "rmmod ftrace-churn failed"
dmesg | grep 'ftrace_churn: exit:'
r1=$(tramp_stat async_releases)
echo "async releases: $r0 before rmdir, $r1 after the holdout"
[ "$r1" -ge $((r0 + LINGER + 1)) ] ||
	fail "expected the $LINGER lingering releases and the instance's pending across rmdir, saw $((r1 - r0))"
[ -d $T/instances/ftrace_churn ] || fail "no release took trace_types_lock (their instance is missing)"
rmdir $T/instances/ftrace_churn
tramp_settled
