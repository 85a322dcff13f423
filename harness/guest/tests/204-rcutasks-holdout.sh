#!/bin/sh
# description: forced holdout: stall warning names the spinning task, grace period ends once it lets go
# timeout: 120
# variant: ours
#
# rcu_tasks_test spins a kthread in the kernel for 3 s without a voluntary
# context switch; stall_timeout_ms is lowered to 1000 meanwhile.  The stall
# message must name that pid, and synchronize_rcu_tasks() must return
# after the spinner stops.
. /harness/lib.sh

p=/sys/module/rcutasks/parameters/stall_timeout_ms
rtt_load
old=$(cat $p)
log_mark
# Lower the timeout only once the grace period is under way: a new value
# must apply to the grace period in progress.
echo "holdout 3000" > /sys/kernel/debug/rcu_tasks_test/run &
bg=$!
sleep 1
echo 1000 > $p || { echo "cannot set stall_timeout_ms"; wait $bg; exit 1; }
wait $bg
rc=$?
echo "$old" > $p
rmmod rcu_tasks_test
log=$(newlog)
pid=$(echo "$log" | sed -n 's/.*holdout: spinner pid \([0-9]*\).*/\1/p' | tail -n 1)
echo "$log" | grep -E "rcu_tasks: (stall on|grace period .* stalled)" | head -n 3
res=$(echo "$log" | grep "rcu_tasks_test: holdout:" | tail -n 1)
echo "$res"
[ -n "$pid" ] || { echo "spinner pid not reported"; exit 1; }
echo "$log" | grep -q "rcu_tasks: stall on pid $pid (rtt_holdout)" || {
	echo "no stall warning naming pid $pid (rtt_holdout)"
	exit 1
}
[ "$(cat $p)" = "$old" ] || { echo "stall_timeout_ms not restored"; exit 1; }
[ $rc -eq 0 ] && case "$res" in *PASS*) exit 0 ;; esac
echo "holdout test failed: $res"
exit 1
