#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark workload, identical on the stock and the patched kernel.  Every
# sample goes to the host as "@@ M <metric> <value>"; the host computes the
# medians, p99 and ratios.  harness.bench=a,b,... picks workloads.
. /harness/lib.sh
T=/sys/kernel/tracing
want=$(sed -n 's/.*harness\.bench=\([^ ]*\).*/\1/p' /proc/cmdline)
runs() { [ -z "$want" ] || echo ",$want," | grep -q ",$1,"; }
metric() { data "@@ M $1 $2"; }

# rcuscale scale_type=tasks: ~101 synchronize_rcu_tasks() latencies (ns).
rcuscale() {
	dmesg -c >/dev/null
	modprobe rcuscale scale_type=tasks nwriters=1 nreaders=0 holdoff=1 verbose=0 ||
		{ echo "bench: modprobe rcuscale failed"; return; }
	wait_dmesg 'Test complete' 300 || echo "bench: rcuscale did not complete"
	rmmod rcuscale
	dmesg | sed -n 's/.*writer-duration: *[0-9]* \([0-9]*\)$/\1/p' |
		while read -r ns; do metric "$1" "$ns"; done
}

# Voluntary switches of the Tasks RCU GP kthread over 10 s of idle.
idle_wakeups() {
	pid=""
	for p in /proc/[0-9]*; do
		case "$(cat "$p/comm" 2>/dev/null)" in
		rcu_tasks_kthre*|rcu_tasks) pid=${p#/proc/} ;;
		esac
	done
	[ -n "$pid" ] || { echo "bench: no Tasks RCU kthread"; return; }
	sleep 5
	a=$(sed -n 's/^voluntary_ctxt_switches:[[:space:]]*//p' "/proc/$pid/status")
	sleep 10
	b=$(sed -n 's/^voluntary_ctxt_switches:[[:space:]]*//p' "/proc/$pid/status")
	metric idle_kthread_wakeups_per_10s $((b - a))
}

# Disabling a filtered function tracer in an instance (ns per write).
instance_disable() {
	mkdir -p $T/instances/bench
	i=0
	while [ $i -lt 20 ]; do
		echo 'schedule*' >$T/instances/bench/set_ftrace_filter
		echo function >$T/instances/bench/current_tracer
		sleep 0.2
		metric instance_disable_ns "$(timewrite $T/instances/bench/current_tracer nop)"
		i=$((i + 1))
	done
	echo >$T/instances/bench/set_ftrace_filter
	rmdir $T/instances/bench
}

# samples/ftrace/ftrace-ops.ko: traced-call cost (ns per call).  busybox
# insmod runs its init twice (it retries after the module's -EINVAL).
ftrace_ops() {
	dmesg -c >/dev/null
	insmod /lib/modules/*/kernel/samples/ftrace/ftrace-ops.ko \
		nr_ops_relevant="$2" nr_function_calls=100000 2>/dev/null
	dmesg | sed -n 's/.*(\([0-9]*\)ns \/ call).*/\1/p' |
		while read -r ns; do metric "$1" "$ns"; done
}

runs idle && idle_wakeups
runs rcuscale && rcuscale rcuscale_idle_ns
if runs tasks; then
	for n in 100 1000 10000; do
		spawn $n sleep >/tmp/spawn.log &
		sp=$!
		sleep 3
		cat /tmp/spawn.log
		rcuscale rcuscale_tasks${n}_ns
		kill $sp
		wait $sp 2>/dev/null
	done
fi
if runs spin; then
	spawn 100 spin >/tmp/spawn.log &
	sp=$!
	sleep 2
	rcuscale rcuscale_spin100_ns
	kill $sp
	wait $sp 2>/dev/null
fi
runs disable && instance_disable
runs callcost && ftrace_ops call_ns_trampoline 1 && ftrace_ops call_ns_list10 10
echo "bench: done"
