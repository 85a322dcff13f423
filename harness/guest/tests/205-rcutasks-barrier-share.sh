#!/bin/sh
# description: rcu_barrier_tasks() waits for all earlier callbacks; concurrent synchronize_rcu_tasks() callers share grace periods
# timeout: 120
# variant: ours
. /harness/lib.sh

rtt_load
run=/sys/kernel/debug/rcu_tasks_test/run
log_mark
fail=0
for t in "barrier 1000" "barrier 1" "share 16" "share 4"; do
	echo "$t" > $run || fail=1
done
rmmod rcu_tasks_test
newlog | grep -E "rcu_tasks_test: (barrier|share):"
if [ $fail -ne 0 ]; then
	newlog | grep -E "rcu_tasks_test: (barrier|share): FAIL" | tail -n 1
	exit 1
fi
exit 0
