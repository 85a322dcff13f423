#!/bin/sh
# description: SCHED_FIFO hog on every CPU: grace periods end under RT throttling, and without it once the hogs stop; no stall, no hang
# timeout: 180
# variant: ours
#
# The GP kthread is SCHED_OTHER, like mainline's, and nothing boosts it:
# what keeps grace periods going under a real-time hog is RT throttling
# (sched_rt_runtime_us), which leaves SCHED_OTHER 5% of each CPU.
#  1. Throttling on: a hog on each CPU for up to 30 s; four
#     synchronize_rcu_tasks() callers must all return while the hogs still
#     run (3 s on an idle host, 6 s on a loaded one; a shell running in
#     the 5% needs seconds more to notice).  Then the hogs are killed.
#  2. Throttling off: a grace period held open by a 1.5 s in-kernel
#     holdout, then 3 s of hogs that nothing else can interrupt; the grace
#     period must end once the hogs stop and the holdout lets go, and the
#     kernel must report no stall (a user-space hog holds no reference:
#     it is not a holdout once the GP kthread gets to look).
. /harness/lib.sh
rtt_load
run=/sys/kernel/debug/rcu_tasks_test/run
rt=/proc/sys/kernel/sched_rt_runtime_us
stats=/sys/kernel/debug/rcu_tasks/stats
gps() { awk '$1 == "gps" { print $2 }' $stats; }
log_mark
kt=$(for p in /proc/[0-9]*; do
	[ "$(cat "$p/comm" 2>/dev/null)" = rcu_tasks_kthread ] && echo "${p#/proc/}"
done)
[ -n "$kt" ] || fail "no rcu_tasks_kthread"
# /proc/PID/stat field 41 is the policy (0: SCHED_OTHER), 19 the nice value.
echo "GP kthread pid $kt: policy $(cut -d' ' -f41 /proc/$kt/stat), nice $(cut -d' ' -f19 /proc/$kt/stat)"
rt0=$(cat $rt)
[ "$rt0" -gt 0 ] || fail "RT throttling is off at boot ($rt0)"

# 1. Throttled hogs.
g0=$(gps)
fifohog 30 &
hog=$!
sleep 1
t0=$(now_us)
echo "share 4" >$run || { kill $hog; wait $hog; fail "share 4 failed under throttled hogs"; }
alive=0
kill $hog 2>/dev/null && alive=1
t1=$(now_us)
wait $hog
echo "throttled hogs: 4 synchronize_rcu_tasks() in $(((t1 - t0) / 1000)) ms, $(($(gps) - g0)) GPs"
[ $alive = 1 ] || fail "the grace periods only ended after the hogs stopped"

# 2. Unthrottled hogs: nothing of SCHED_OTHER runs for 3 s.
g0=$(gps)
echo "holdout 1500" >$run &
hold=$!
sleep 0.5
echo -1 >$rt || fail "cannot disable RT throttling"
t0=$(now_us)
fifohog 3
t1=$(now_us)
echo "$rt0" >$rt
i=0
while kill -0 $hold 2>/dev/null && [ $i -lt 30 ]; do sleep 1; i=$((i + 1)); done
kill -0 $hold 2>/dev/null && fail "synchronize_rcu_tasks() still waiting 30 s after the hogs stopped"
wait $hold || fail "holdout failed across unthrottled hogs"
newlog | grep "rcu_tasks_test: holdout:"
echo "unthrottled hogs: ran $(((t1 - t0) / 1000)) ms; the grace period ended within $i s after, $(($(gps) - g0)) GPs"
rmmod rcu_tasks_test
newlog | grep -E "rcu_tasks: (stall on|grace period .* stalled)" && fail "stall warning for user-space hogs"
exit 0
