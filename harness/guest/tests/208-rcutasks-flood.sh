#!/bin/sh
# description: a call_rcu_tasks() flood from every CPU: each callback runs exactly once, memory stays bounded
# timeout: 180
# variant: ours
. /harness/lib.sh

rtt_load
run=/sys/kernel/debug/rcu_tasks_test/run
log_mark
fail=0
echo "flood 3000" > $run || fail=1
rmmod rcu_tasks_test
line=$(newlog | grep 'rcu_tasks_test: flood:' | tail -n 1)
echo "$line"
[ -n "$line" ] || { echo "no flood result line"; exit 1; }
[ $fail -eq 0 ] || exit 1
echo "$line" | grep -q 'flood: PASS' || exit 1
exit 0
