#!/bin/sh
# description: idle system: rcu_tasks_kthread wakes 0 times in 5 s; stats file is complete
# timeout: 60
# variant: ours

s=/sys/kernel/debug/rcu_tasks/stats
[ -r $s ] || { echo "no $s"; exit 1; }
for k in gps gp_ns_total gp_ns_max tasks_scanned holdouts holdout_passes \
	 cbs_queued cbs_invoked kthread_wakeups kthread_cpu_ns; do
	grep -q "^$k [0-9]" $s || { echo "stats: no $k"; exit 1; }
done
pid=$(for p in /proc/[0-9]*; do
	[ "$(cat $p/comm 2>/dev/null)" = rcu_tasks_kthread ] && basename $p
done)
[ -n "$pid" ] || { echo "no rcu_tasks_kthread"; exit 1; }
sleep 2
w0=$(awk '$1 == "kthread_wakeups" {print $2}' $s)
v0=$(awk '/^voluntary_ctxt_switches/ {print $2}' /proc/$pid/status)
sleep 5
w1=$(awk '$1 == "kthread_wakeups" {print $2}' $s)
v1=$(awk '/^voluntary_ctxt_switches/ {print $2}' /proc/$pid/status)
echo "idle 5 s: kthread_wakeups +$((w1 - w0)), voluntary switches +$((v1 - v0))"
[ $((w1 - w0)) -eq 0 ] && [ $((v1 - v0)) -eq 0 ] && exit 0
echo "rcu_tasks_kthread woke up while idle"
exit 1
