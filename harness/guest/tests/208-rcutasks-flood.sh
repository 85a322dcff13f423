#!/bin/sh
# description: a call_rcu_tasks() flood from every CPU: each callback runs exactly once, memory stays bounded
# timeout: 180
# variant: ours

modprobe rcu_tasks_test 2>/dev/null || {
	echo "module rcu_tasks_test not available (CONFIG_RCU_TASKS_TEST=m?)"
	exit 77
}
run=/sys/kernel/debug/rcu_tasks_test/run
mark="rcutasks-test-$$-$(cut -d' ' -f1 /proc/uptime)"
echo "$mark" >/dev/kmsg
newlog() { dmesg | sed -n "/$mark/,\$p"; }
fail=0
echo "flood 3000" > $run || fail=1
rmmod rcu_tasks_test
line=$(newlog | grep 'rcu_tasks_test: flood:' | tail -n 1)
echo "$line"
[ -n "$line" ] || { echo "no flood result line"; exit 1; }
[ $fail -eq 0 ] || exit 1
echo "$line" | grep -q 'flood: PASS' || exit 1
exit 0
