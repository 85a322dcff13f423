#!/bin/sh
# description: a call_rcu_tasks() stream is served by batched, rate-bounded normal grace periods; a waiter still gets an expedited one
# timeout: 120
# variant: ours
. /harness/lib.sh

s=/sys/kernel/debug/rcu_tasks/stats
stat() { awk -v k="$1" '$1 == k {print $2}' $s; }
ival=$(cat /sys/module/rcutasks/parameters/gp_interval_ms)
rtt_load
run=/sys/kernel/debug/rcu_tasks_test/run
n0=$(stat gps_normal)
e0=$(stat gps_expedited)
q0=$(stat cbs_queued)
t0=$(cut -d' ' -f1 /proc/uptime)
echo "flood 3000" > $run || fail "flood failed"
t1=$(cut -d' ' -f1 /proc/uptime)
n1=$(stat gps_normal)
e1=$(stat gps_expedited)
q1=$(stat cbs_queued)
rmmod rcu_tasks_test
ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", (b - a) * 1000 }')
gps=$((n1 - n0))
cbs=$((q1 - q0))
# One grace period may start at once, then one per gp_interval_ms at most.
bound=$((ms / ival + 2))
echo "stream of $cbs callbacks over $ms ms: $gps normal grace periods (bound $bound), $((e1 - e0)) expedited"
[ "$gps" -ge 1 ] || fail "no normal grace period served the stream"
[ "$gps" -le "$bound" ] || fail "$gps normal grace periods in $ms ms exceed gp_interval_ms=$ival"
[ $((e1 - e0)) -le 2 ] || fail "$((e1 - e0)) expedited grace periods for a stream nobody waits for"
[ $((cbs / gps)) -ge 10 ] || fail "only $((cbs / gps)) callbacks per grace period: no batching"

# Somebody waiting cuts the batching window and the rate bound short.
echo 10000 > /sys/module/rcutasks/parameters/gp_interval_ms
echo 1000 > /sys/module/rcutasks/parameters/batch_ms
e0=$(stat gps_expedited)
modprobe rcutorture torture_type=tasks nreaders=1 nfakewriters=0 stat_interval=0 fwd_progress=0 || fail "modprobe rcutorture failed"
sleep 3
rmmod rcutorture
e1=$(stat gps_expedited)
echo "$ival" > /sys/module/rcutasks/parameters/gp_interval_ms
echo 10 > /sys/module/rcutasks/parameters/batch_ms
echo "rcutorture writer for 3 s with gp_interval_ms=10000: $((e1 - e0)) expedited grace periods"
[ $((e1 - e0)) -ge 3 ] || fail "synchronize_rcu_tasks() waited for the rate bound"
exit 0
