#!/bin/sh
# description: exit storm: thousands of short-lived tasks during grace periods, every callback exactly once
# timeout: 300
# variant: ours
#
# Kernel side: rcu_tasks_test starts 2000 kthreads that each queue one
# callback and exit at once while grace periods run back to back.  User
# side, at the same time: shells fork and reap 1000 short-lived
# processes.  KASAN and kmemleak watch the console.
. /harness/lib.sh

rtt_load
run=/sys/kernel/debug/rcu_tasks_test/run
stats=/sys/kernel/debug/rcu_tasks/stats
gps0=$(awk '$1 == "gps" {print $2}' $stats)

i=0
( while [ $i -lt 500 ]; do /bin/true & /bin/true & wait; i=$((i + 1)); done ) &
forker=$!
log_mark
echo "exit_storm 2000" > $run
rc=$?
wait $forker
res=$(newlog | grep "rcu_tasks_test: exit_storm:" | tail -n 1)
rmmod rcu_tasks_test
gps1=$(awk '$1 == "gps" {print $2}' $stats)
echo "grace periods during the storm: $((gps1 - gps0))"
echo "exit holdouts so far: $(awk '$1 == "exit_holdouts" {print $2}' $stats)"
echo "${res:-exit_storm printed nothing}"
[ $rc -eq 0 ] && case "$res" in *PASS*) exit 0 ;; esac
exit 1
