#!/bin/sh
# description: with CPU 1 offline, grace periods and trampoline retirements still end at once: an offline CPU's idle task is no holdout
# timeout: 180
# variant: ours
#
# An offline CPU's idle task stays on its runqueue, never switches
# voluntarily and gets no tick, so were it taken as a holdout every grace
# period would wait until the CPU came back.  Mainline exempts the idle
# tasks of offline CPUs; rcu_tasks_is_holdout() exempts every idle task.
# The trampoline side adds the rude step, which must not wait for the
# offline CPU either.  Each wait gets 5 s (a grace period takes
# milliseconds here); then CPU 1 comes back, so that a failure is reported
# instead of hanging the guest.
. /harness/lib.sh
CPU=/sys/devices/system/cpu/cpu1/online
T=/sys/kernel/tracing
[ -w $CPU ] || skip "CPU 1 cannot go offline here"
rtt_load
run=/sys/kernel/debug/rcu_tasks_test/run
trap 'echo 1 >$CPU 2>/dev/null' EXIT

# bounded WHAT CMD...: run CMD in the background; fail if it is not done
# within 5 s, after bringing CPU 1 back so that it can end.
bounded() {
	what=$1
	shift
	t0=$(now_us)
	"$@" &
	pid=$!
	n=0
	while kill -0 $pid 2>/dev/null && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	if kill -0 $pid 2>/dev/null; then
		echo 1 >$CPU
		wait $pid
		fail "$what still waiting after 5 s with CPU 1 offline (it ended $((($(now_us) - t0) / 1000)) ms in, once CPU 1 was back)"
	fi
	wait $pid || fail "$what failed"
	d=$((($(now_us) - t0) / 1000))
	[ "$d" -gt "$worst" ] && worst=$d
	return 0
}
share() { echo "share 4" >$run; }
tracer_cycle() {
	echo 'schedule*' >$T/instances/offline/set_ftrace_filter &&
	echo function >$T/instances/offline/current_tracer &&
	sleep 0.2 &&
	echo nop >$T/instances/offline/current_tracer
}

mkdir $T/instances/offline || fail "cannot create an instance"
tramp_mark
echo 0 >$CPU || fail "CPU 1 refused to go offline"
[ "$(cat $CPU)" = 0 ] || fail "CPU 1 still online"
worst=0
i=0
while [ $i -lt 5 ]; do
	bounded "synchronize_rcu_tasks() (share 4)" share
	bounded "a function tracer on and off in an instance" tracer_cycle
	bounded "the retirement of its trampolines" tramp_wait_retired 600
	i=$((i + 1))
done
echo 1 >$CPU || fail "CPU 1 refused to come back"
rmdir $T/instances/offline
rmmod rcu_tasks_test
tramp_settled
echo "5 rounds with CPU 1 offline (share 4, tracer on/off, retirement): longest wait $worst ms; $TRAMP_ALLOCATED trampolines allocated and freed"
