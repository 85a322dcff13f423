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

# A slow stream: every change of a live function tracer's pid filter
# replaces its trampoline and retires the old one through call_rcu_tasks(),
# one every few ms.  Unbounded, each would get a grace period of its own
# after batch_ms; with gp_interval_ms at 500 there is at most one every
# 500 ms.
p=/sys/module/rcutasks/parameters
T=/sys/kernel/tracing
mkdir $T/instances/rb || fail "no tracefs instance"
echo schedule > $T/instances/rb/set_ftrace_filter
echo function > $T/instances/rb/current_tracer
echo 500 > $p/gp_interval_ms
sleep 1
n0=$(stat gps_normal)
t0=$(cut -d' ' -f1 /proc/uptime)
r0=$(tramp_stat retired)
i=0
while [ $i -lt 150 ]; do
	echo 1 >> $T/instances/rb/set_ftrace_notrace_pid
	: > $T/instances/rb/set_ftrace_notrace_pid
	i=$((i + 1))
done
retired=$(($(tramp_stat retired) - r0))
t1=$(cut -d' ' -f1 /proc/uptime)
n1=$(stat gps_normal)
echo "$ival" > $p/gp_interval_ms
echo nop > $T/instances/rb/current_tracer
rmdir $T/instances/rb
ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", (b - a) * 1000 }')
bound=$((ms / 500 + 2))
echo "300 pid filter changes retired $retired trampolines over $ms ms with gp_interval_ms=500: $((n1 - n0)) normal grace periods (bound $bound)"
[ "$retired" -ge 300 ] || fail "only $retired trampolines retired by 300 pid filter changes"
[ $((n1 - n0)) -ge 1 ] || fail "no grace period retired the trampolines"
[ $((n1 - n0)) -le "$bound" ] || fail "$((n1 - n0)) normal grace periods in $ms ms exceed gp_interval_ms=500"

# Somebody waiting cuts the batching window and the rate bound short:
# with both at 1 s and 10 s, rcu_barrier_tasks() behind 100 callbacks
# (the grace period right after the flood's) still returns within 1 s.
echo 10000 > $p/gp_interval_ms
echo 1000 > $p/batch_ms
e0=$(stat gps_expedited)
worst=0
for i in 1 2 3 4 5; do
	a=$(cut -d' ' -f1 /proc/uptime)
	echo "barrier 100" > $run || { echo "$ival" > $p/gp_interval_ms; fail "barrier test failed"; }
	b=$(cut -d' ' -f1 /proc/uptime)
	ms=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%d", (b - a) * 1000 }')
	[ "$ms" -gt "$worst" ] && worst=$ms
done
e1=$(stat gps_expedited)
echo "$ival" > $p/gp_interval_ms
echo 10 > $p/batch_ms
rmmod rcu_tasks_test
echo "5 x rcu_barrier_tasks() with batch_ms=1000 gp_interval_ms=10000: worst $worst ms, $((e1 - e0)) expedited grace periods"
[ "$worst" -lt 1000 ] || fail "rcu_barrier_tasks() waited for the batching window or the rate bound ($worst ms)"
[ $((e1 - e0)) -ge 5 ] || fail "only $((e1 - e0)) expedited grace periods for 5 waiters"
exit 0
