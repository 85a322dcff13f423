#!/bin/sh
# description: KUnit suite rcu_tasks (holdout back-off, parameter parsing) passes
# timeout: 60
# variant: ours
. /harness/lib.sh

log_mark
modprobe tasks_kunit 2>/dev/null || {
	echo "module tasks_kunit not available (CONFIG_RCU_TASKS_KUNIT_TEST=m?)"
	exit 77
}
r=/sys/kernel/debug/kunit/rcu_tasks/results
if [ -r "$r" ]; then
	out=$(cat "$r")
else
	out=$(newlog)
fi
rmmod tasks_kunit
echo "$out" | grep -E "^[[:space:]]*(not )?ok [0-9]+ " | sed 's/^[[:space:]]*//'
if echo "$out" | grep -q "not ok"; then
	echo "KUnit suite rcu_tasks: $(echo "$out" | grep "not ok" | head -n 1)"
	exit 1
fi
if ! echo "$out" | grep -qE "^[[:space:]]*ok [0-9]+ rcu_tasks"; then
	echo "KUnit suite rcu_tasks reported no result"
	exit 1
fi
exit 0
