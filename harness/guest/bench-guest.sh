#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark workload, identical on the stock and the patched kernel.  Every
# sample goes to the host as "@@ M <metric> <value>"; the host computes the
# medians, p99 and ratios.  A measurement that failed is "@@ E <metric>
# <why>" and one this kernel cannot make (a stat file it lacks) "@@ NA
# <metric> <why>": neither is a sample.  harness.bench=a,b,... picks
# workloads.
. /harness/lib.sh
T=/sys/kernel/tracing
want=$(sed -n 's/.*harness\.bench=\([^ ]*\).*/\1/p' /proc/cmdline)
runs() { [ -z "$want" ] || echo ",$want," | grep -q ",$1,"; }
metric() { data "@@ M $1 $2"; }
metric_error() { data "@@ E $1 $2"; }
metric_na() { data "@@ NA $1 $2"; }
# metric_or_na METRIC VALUE WHY: VALUE as a sample, "not available" if empty.
metric_or_na() {
	if [ -n "$2" ]; then metric "$1" "$2"; else metric_na "$1" "$3"; fi
}

# stat_val FILE KEY: KEY's value in a trace_stat file; prints nothing and
# fails if the file or the row is missing (trace_stat/ftrace_tramp is ours
# only).
stat_val() {
	[ -r "$1" ] && awk -v k="$2" '$1 == k { print $2; f = 1 } END { exit !f }' "$1"
}

# settle: wait until the trampolines retired so far are freed, so that a
# workload does not pay for the previous one's.  Stock frees a trampoline
# in the unregister and has nothing to wait for (nor the stat file).
settle() {
	[ -r "$TRAMP_ST" ] || return 0
	tramp_wait_retired
	[ "$(tramp_stat retiring)" = 0 ] ||
		echo "bench: $(tramp_stat retiring) trampolines still retiring after 60 s"
}

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

# gp_kthread_pid: the Tasks RCU GP kthread ("rcu_tasks_kthread", both
# kernels; comm keeps 15 characters).
gp_kthread_pid() {
	for p in /proc/[0-9]*; do
		read -r c 2>/dev/null <"$p/comm" || continue
		case "$c" in
		rcu_tasks_kthre*|rcu_tasks) echo "${p#/proc/}"; return 0 ;;
		esac
	done
	return 1
}

# Voluntary switches of the Tasks RCU GP kthread over 10 s of idle.
idle_wakeups() {
	pid=$(gp_kthread_pid) || { echo "bench: no Tasks RCU kthread"; return; }
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
	while [ $i -lt 40 ]; do
		echo 'schedule*' >$T/instances/bench/set_ftrace_filter
		echo function >$T/instances/bench/current_tracer
		sleep 0.2
		# The two steps of turning a filtered tracer off: the tracer, then
		# its filter (" " parses as an empty filter, like echo's newline).
		# -c: also the part of the write spent off the CPU: under TCG
		# the text patching itself is CPU time, the rest is waiting.
		# A failed write prints nothing: an error, not a sample (and no
		# sum with a missing term).
		set -- $(timewrite -c $T/instances/bench/current_tracer nop)
		off=${1:-}
		offcpu=${2:-}
		clear=$(timewrite $T/instances/bench/set_ftrace_filter " ")
		for m in instance_disable_ns:$off instance_disable_offcpu_ns:$offcpu \
			 instance_filter_clear_ns:$clear; do
			if [ -n "${m#*:}" ]; then
				metric "${m%%:*}" "${m#*:}"
			else
				metric_error "${m%%:*}" "the write failed"
			fi
		done
		if [ -n "$off" ] && [ -n "$clear" ]; then
			metric instance_disable_and_clear_ns "$((off + clear))"
		else
			metric_error instance_disable_and_clear_ns "a write failed"
		fi
		# The same clear with nothing retiring meanwhile: what the
		# retirement of the tracer's trampoline costs a write right
		# after the disable (on TCG the vCPUs share one host thread).
		echo 'schedule*' >$T/instances/bench/set_ftrace_filter
		settle
		clear=$(timewrite $T/instances/bench/set_ftrace_filter " ")
		if [ -n "$clear" ]; then
			metric instance_filter_clear_settled_ns "$clear"
		else
			metric_error instance_filter_clear_settled_ns "the write failed"
		fi
		i=$((i + 1))
	done
	rmdir $T/instances/bench
}

# samples/ftrace/ftrace-ops.ko: traced-call cost (ns per call).  busybox
# insmod runs its init twice (it retries after the module's -EINVAL).
ftrace_ops() {
	k=0
	while [ $k -lt 20 ]; do
		dmesg -c >/dev/null
		insmod /lib/modules/*/kernel/samples/ftrace/ftrace-ops.ko \
			nr_ops_relevant="$2" nr_function_calls=100000 2>/dev/null
		# The module rounds ns/call down to an integer, which is 2.5%
		# of a 40 ns call: divide its total instead.
		dmesg | sed -n 's/.*Attempted \([0-9]*\) calls to .* in \([0-9]*\)ns .*/\1 \2/p' |
			while read -r calls ns; do
				metric "$1" "$(awk -v c="$calls" -v t="$ns" 'BEGIN { printf "%.2f", t / c }')"
			done
		k=$((k + 1))
	done
}

# harness/modules/ftrace_unreg_bench.ko: unregister_ftrace_function()
# latency and the longest ftrace_lock wait it causes.  On ours, the
# trampolines' retire-to-free latency comes from the ftrace_tramp_free
# event; on stock the free happens inside the unregister, so the
# unregister time is the reclamation latency.
unreg() {
	ev=$T/instances/reclaim/events/ftrace_tramp/ftrace_tramp_free
	mkdir -p $T/instances/reclaim
	[ -d "$ev" ] && echo 1 >"$ev/enable"
	dmesg -c >/dev/null
	insmod /harness/modules/ftrace_unreg_bench.ko samples=40 ||
		echo "bench: ftrace_unreg_bench failed"
	rmmod ftrace_unreg_bench 2>/dev/null
	dmesg | sed -n 's/.*sample reg_ns=\([0-9]*\) unreg_ns=\([0-9]*\) lock_wait_max_ns=\([0-9]*\) unreg_async_ns=\([0-9]*\) lock_wait_async_max_ns=\([0-9]*\).*/\1 \2 \3 \4 \5/p' |
		while read -r r u w a aw; do
			metric register_ns "$r"
			metric unregister_ns "$u"
			metric ftrace_lock_wait_max_ns "$w"
			# Stock has no asynchronous unregister: there it is another
			# unregister_ftrace_function().
			metric unregister_async_ns "$a"
			metric ftrace_lock_wait_async_max_ns "$aw"
			[ -d "$ev" ] || metric reclaim_ns "$u"
		done
	if [ -d "$ev" ]; then
		sleep 1
		echo 0 >"$ev/enable"
		sed -n 's/.*ftrace_tramp_free:.*latency_ns=\([0-9]*\).*/\1/p' $T/instances/reclaim/trace |
			while read -r ns; do metric reclaim_ns "$ns"; done
	fi
	rmdir $T/instances/reclaim
}

# samples/ftrace/ftrace-churn.ko (ours only): asynchronous unregister
# latency and the peak memory waiting for retirement under churn.
churn() {
	modprobe ftrace-churn nr_refilters=20000 2>/dev/null || return 0
	rmmod ftrace-churn
	line=$(dmesg | grep 'ftrace_churn: PASS' | tail -n 1)
	for k in async_p50_us async_p99_us sync_p50_us; do
		v=$(echo "$line" | sed -n "s/.* $k=\([0-9]*\).*/\1/p")
		[ -n "$v" ] && metric "churn_${k%_us}_ns" $((v * 1000))
	done
	st=$T/trace_stat/ftrace_tramp
	metric_or_na churn_bytes_pending_max "$(stat_val $st bytes_pending_max)" "no bytes_pending_max in $st"
	metric_or_na churn_swaps "$(stat_val $st swaps)" "no swaps in $st"
}

# call_rcu_tasks() flood from every CPU (rcu_tasks_test, ours only):
# throughput and the peak memory pinned by outstanding callbacks.
flood() {
	modprobe rcu_tasks_test 2>/dev/null || return 0
	i=0
	while [ $i -lt 5 ]; do
		dmesg -c >/dev/null
		echo "flood 2000" >/sys/kernel/debug/rcu_tasks_test/run
		line=$(dmesg | grep 'rcu_tasks_test: flood:')
		metric rcu_tasks_flood_cbs_per_s "$(echo "$line" | sed -n 's/.*cbs_per_s=\([0-9]*\).*/\1/p')"
		metric rcu_tasks_flood_peak_bytes "$(echo "$line" | sed -n 's/.*peak_bytes=\([0-9]*\).*/\1/p')"
		i=$((i + 1))
	done
	rmmod rcu_tasks_test
}

# A filter write on a live, filtered function tracer in an instance (ns
# per write): on ours it moves call sites and builds no trampoline, on
# stock it builds one and patches it in.  Alternates two filters so that
# every write changes the call sites.
filter_write() {
	mkdir -p $T/instances/fw
	echo 'vfs_read' >$T/instances/fw/set_ftrace_filter
	echo function >$T/instances/fw/current_tracer
	i=0
	while [ $i -lt 40 ]; do
		metric filter_write_live_ns "$(timewrite $T/instances/fw/set_ftrace_filter vfs_write)"
		metric filter_write_live_ns "$(timewrite $T/instances/fw/set_ftrace_filter vfs_read)"
		i=$((i + 1))
	done
	echo nop >$T/instances/fw/current_tracer
	rmdir $T/instances/fw
}

# harness/modules/tramp_unwind_bench.ko: one stack unwind through a
# trampoline frame, ns per frame, with no retired trampoline and (ours)
# with 1 000 retired ones held by a Tasks RCU holdout.
unwind() {
	dmesg -c >/dev/null
	insmod /harness/modules/tramp_unwind_bench.ko samples=201 retired=1000 ||
		{ echo "bench: tramp_unwind_bench failed"; return; }
	st=$T/trace_stat/ftrace_tramp
	[ -r $st ] && metric unwind_retired_pending "$(awk '$1 == "retiring" {print $2}' $st)"
	rmmod tramp_unwind_bench
	dmesg | sed -n 's/.*sample retired=\([0-9]*\) ns=\([0-9]*\) frames=\([0-9]*\).*/\1 \2 \3/p' |
		while read -r r ns fr; do
			[ "$fr" -gt 0 ] || continue
			if [ "$r" = 0 ]; then m=unwind_frame_ns; else m=unwind_frame_1000_retired_ns; fi
			metric $m "$(awk -v t="$ns" -v f="$fr" 'BEGIN { printf "%.1f", t / f }')"
		done
}

# harness/modules/ftrace_rmmod_bench.ko (one ops, unregistered in its
# exit): rmmod wall time with nothing else tracing, then while another
# owner, a tracefs instance, turns its function tracer on and off, and
# the cycles it completed meanwhile.  A failed insmod or rmmod is an
# error, not a sample; a failed insmod ends the phase.
rmmod_samples() {	# N: "ok NS" or "err WHY" per rmmod, on stdout
	i=0
	while [ $i -lt "$1" ]; do
		insmod /harness/modules/ftrace_rmmod_bench.ko ||
			{ echo "err insmod ftrace_rmmod_bench failed"; return; }
		rc=0
		ns=$(timerun rmmod ftrace_rmmod_bench) || rc=$?
		if [ "$rc" = 0 ]; then
			echo "ok $ns"
		else
			echo "err rmmod ftrace_rmmod_bench failed (exit $rc)"
			# Not left loaded for the workloads after this one.
			rmmod ftrace_rmmod_bench 2>/dev/null
			return
		fi
		i=$((i + 1))
	done
}

# rmmod_emit METRIC FILE [WHY]: FILE's samples as METRIC, or all of them
# as errors for WHY (the condition they were taken under did not hold).
rmmod_emit() {
	while read -r kind val; do
		if [ -n "${3:-}" ]; then
			metric_error "$1" "$3"
		elif [ "$kind" = ok ]; then
			metric "$1" "$val"
		else
			metric_error "$1" "$val"
		fi
	done <"$2"
}

rmmod_churn() {
	settle
	rmmod_samples 10 >/tmp/rmmod.idle
	rmmod_emit rmmod_idle_ns /tmp/rmmod.idle
	mkdir -p $T/instances/owner
	echo vfs_read >$T/instances/owner/set_ftrace_filter
	rm -f /tmp/churn.go /tmp/churn.stop
	# Counts the cycles completed between churn.go and churn.stop; fails
	# if a write failed or no cycle completed, so that the rmmod samples
	# are not reported as taken while another owner churned when it
	# did not.
	(
		n=0 n0="" bad=0
		while [ ! -e /tmp/churn.stop ]; do
			if echo function >$T/instances/owner/current_tracer &&
			   echo nop >$T/instances/owner/current_tracer; then
				n=$((n + 1))
			else
				bad=$((bad + 1))
			fi
			[ -z "$n0" ] && [ -e /tmp/churn.go ] && n0=$n
		done
		n=$((n - ${n0:-$n}))
		echo "$n"
		[ "$bad" = 0 ] && [ "$n" -gt 0 ]
	) >/tmp/churn.cycles &
	owner=$!
	sleep 1
	touch /tmp/churn.go
	rmmod_samples 20 >/tmp/rmmod.churn
	touch /tmp/churn.stop
	if wait $owner; then
		metric rmmod_churn_cycles "$(cat /tmp/churn.cycles)"
		rmmod_emit rmmod_while_churn_ns /tmp/rmmod.churn
	else
		why="the churning owner failed ($(cat /tmp/churn.cycles) cycles, or a failed write)"
		metric_error rmmod_churn_cycles "$why"
		rmmod_emit rmmod_while_churn_ns /tmp/rmmod.churn "$why"
	fi
	echo nop >$T/instances/owner/current_tracer
	rmdir $T/instances/owner
}

# Ours only (rcu_tasks_test): a kthread spinning in the kernel holds the
# Tasks RCU grace period for 60 s while an instance turns its function
# tracer on and off, each cycle retiring a trampoline: the peak memory
# pending retirement against ftrace_tramp.max_pending_kb, at its default.
stall() {
	modprobe rcu_tasks_test 2>/dev/null || return 0
	cap=$(cat /sys/module/ftrace_tramp/parameters/max_pending_kb 2>/dev/null)
	st=$T/trace_stat/ftrace_tramp
	mkdir -p $T/instances/stall
	echo vfs_read >$T/instances/stall/set_ftrace_filter
	r0=$(stat_val $st over_budget)
	max=""
	stat_val $st bytes_pending >/dev/null && max=0
	echo "holdout 60000" >/sys/kernel/debug/rcu_tasks_test/run &
	hold=$!
	sleep 0.5
	n=0
	t_end=$(($(now_us) + 55000000))
	while [ "$(now_us)" -lt $t_end ]; do
		echo function >$T/instances/stall/current_tracer
		echo nop >$T/instances/stall/current_tracer
		if [ -n "$max" ]; then
			p=$(stat_val $st bytes_pending)
			[ "${p:-0}" -gt "$max" ] && max=$p
		fi
		n=$((n + 1))
	done
	rc=0
	wait $hold || rc=$?
	refused=""
	r1=$(stat_val $st over_budget) && [ -n "$r0" ] && refused=$((r1 - r0))
	[ -n "$cap" ] && cap=$((cap * 1024))
	metric_or_na stall_pending_cap_bytes "$cap" "no /sys/module/ftrace_tramp/parameters/max_pending_kb"
	# Without the holdout nothing held the retirements back: the rows
	# would mean nothing.
	if [ "$rc" != 0 ]; then
		for m in stall_bytes_pending_max stall_tracer_cycles stall_builds_refused; do
			metric_error $m "the holdout failed (exit $rc, see dmesg)"
		done
	else
		metric_or_na stall_bytes_pending_max "$max" "no bytes_pending in $st"
		metric stall_tracer_cycles "$n"
		metric_or_na stall_builds_refused "$refused" "no over_budget in $st"
	fi
	rmdir $T/instances/stall
	rmmod rcu_tasks_test
}

# --- Accounting: what the Tasks RCU machinery costs the rest of the
# system, and who pays.  Each window takes the same counters on both
# kernels: the IPIs each CPU received (/proc/interrupts rows CAL, function
# calls, and TLB, shootdowns), the CPU time of the GP kthread and of every
# kworker, and (ours only) the expedited and normal grace periods.

RT_ST=/sys/kernel/debug/rcu_tasks/stats
NCPU=$(grep -c '^processor' /proc/cpuinfo)

# ipi_row ROW: that row's per-CPU counts of /proc/interrupts, on one line.
ipi_row() {
	awk -v r="$1:" 'NR == 1 { n = NF }
		$1 == r { s = $2; for (i = 3; i <= n + 1; i++) s = s " " $i; print s; f = 1 }
		END { exit !f }' /proc/interrupts
}

# task_cpu_ns PID: the task's CPU time in ns: /proc/PID/schedstat
# (CONFIG_SCHED_INFO), else se.sum_exec_runtime of /proc/PID/sched
# (CONFIG_SCHED_DEBUG, ns resolution too), else utime + stime of
# /proc/PID/stat (USER_HZ = 100 ticks, so 10 ms resolution).  The bench
# config has SCHED_DEBUG only: /proc/PID/sched.
task_cpu_ns() {
	if [ -r "/proc/$1/schedstat" ]; then
		cut -d' ' -f1 "/proc/$1/schedstat"
	elif [ -r "/proc/$1/sched" ]; then
		awk -F: '$1 ~ /^se\.sum_exec_runtime/ { printf "%.0f\n", $2 * 1000000; f = 1 }
			END { exit !f }' "/proc/$1/sched"
	else
		sed 's/.*) //' "/proc/$1/stat" | awk '{ printf "%.0f\n", ($12 + $13) * 10000000 }'
	fi
}

# kworker_snap FILE: "pid ns" of every kworker, bound and unbound.  Our
# trampoline unlink and release work runs on the unbound ftrace_tramp
# workqueue, stock's Tasks RCU invokes per-CPU callback lists from
# system_wq; which worker ran which item is not recorded, so the row is
# the time of all kworkers (an upper bound on either).
kworker_snap() {
	for p in /proc/[0-9]*; do
		read -r c 2>/dev/null <"$p/comm" || continue
		case "$c" in
		kworker/*) echo "${p#/proc/} $(task_cpu_ns "${p#/proc/}")" ;;
		esac
	done >"$1"
}

# ipi_delta cal|tlb: "cpu count" per CPU, the IPIs of that row between
# acct_begin and acct_end; fails if /proc/interrupts had no such row.
ipi_delta() {
	if [ "$1" = cal ]; then a=$CAL0 b=$CAL1; else a=$TLB0 b=$TLB1; fi
	[ -n "$a" ] && [ -n "$b" ] || return 1
	echo "$a" "|" "$b" | awk '{
		n = (NF - 1) / 2
		for (i = 1; i <= n; i++) printf "%d %d\n", i - 1, $(n + 1 + i) - $i }'
}

# acct_begin: snapshot the counters; the IPIs last, next to the workload.
acct_begin() {
	kworker_snap /tmp/acct.kw0
	KT_PID=$(gp_kthread_pid) || KT_PID=""
	KT0=""
	[ -n "$KT_PID" ] && KT0=$(task_cpu_ns "$KT_PID")
	GX0=$(stat_val $RT_ST gps_expedited) || GX0=""
	GN0=$(stat_val $RT_ST gps_normal) || GN0=""
	CAL0=$(ipi_row CAL) || CAL0=""
	TLB0=$(ipi_row TLB) || TLB0=""
	T0=$(now_us)
}

# acct_end NAME [DUR_US [CBS]]: the rows of the window since acct_begin.
# IPIs per second on each CPU, divided by DUR_US (default: the window);
# the CPU time of the GP kthread and of the kworkers in ns per second of
# DUR_US or, given CBS callbacks, in ns per 1 000 callbacks; the grace
# periods of ours as counts.
acct_end() {
	CAL1=$(ipi_row CAL) || CAL1=""
	TLB1=$(ipi_row TLB) || TLB1=""
	T1=$(now_us)
	GX1=$(stat_val $RT_ST gps_expedited) || GX1=""
	GN1=$(stat_val $RT_ST gps_normal) || GN1=""
	KT1=""
	[ -n "$KT_PID" ] && KT1=$(task_cpu_ns "$KT_PID")
	kworker_snap /tmp/acct.kw1
	name=$1 dur=${2:-$((T1 - T0))} cbs=${3:-}
	for row in cal tlb; do
		if ! ipi_delta $row >/tmp/acct.ipi; then
			metric_error "ipi_${name}_${row}_per_s" "no $row row in /proc/interrupts"
			continue
		fi
		while read -r cpu n; do
			metric "ipi_${name}_${row}_cpu${cpu}_per_s" \
				"$(awk -v n="$n" -v d="$dur" 'BEGIN { printf "%.2f", n * 1000000 / d }')"
		done </tmp/acct.ipi
		# Where an IPI lands follows where the sender ran: the sum is
		# the row that does not depend on placement.
		metric "ipi_${name}_${row}_all_per_s" \
			"$(awk -v d="$dur" '{ s += $2 } END { printf "%.2f", s * 1000000 / d }' /tmp/acct.ipi)"
	done
	# A kworker that exited between the snapshots has no line (or no
	# time) in the second one: its time in the window is lost (the row
	# undercounts).  One that appeared ran only inside the window, and
	# so did a reused pid (its time went back): all their time counts.
	kw=$(awk 'NF < 2 { next } FILENAME == ARGV[1] { a[$1] = $2; next }
		{ d = $2 - ($1 in a ? a[$1] : 0); if (d < 0) d = $2; s += d; n++ }
		END { if (n) printf "%.0f\n", s }' /tmp/acct.kw0 /tmp/acct.kw1)
	kt=""
	[ -n "$KT0" ] && [ -n "$KT1" ] && kt=$((KT1 - KT0))
	# Stock invokes its callbacks from kworkers, ours from the GP
	# kthread: the sum is the row that compares the same work.
	ktkw=""
	[ -n "$kt" ] && [ -n "$kw" ] && ktkw=$((kt + kw))
	for m in gp_kthread:$kt kworker:$kw gp_kthread_kworker:$ktkw; do
		v=${m#*:}
		if [ -z "$cbs" ]; then
			m=${m%%:*}_${name}_cpu_ns_per_s
			[ -n "$v" ] && v=$(awk -v v="$v" -v d="$dur" 'BEGIN { printf "%.0f", v * 1000000 / d }')
		else
			m=${m%%:*}_${name}_cpu_per_1000cbs_ns
			if [ "$cbs" -gt 0 ] && [ -n "$v" ]; then
				v=$(awk -v v="$v" -v c="$cbs" 'BEGIN { printf "%.0f", v * 1000 / c }')
			else
				v=""
			fi
		fi
		if [ -n "$v" ]; then metric "$m" "$v"; else metric_error "$m" "no CPU time (kthread not found, or no callbacks)"; fi
	done
	if [ -n "$GX0" ] && [ -n "$GX1" ] && [ -n "$GN0" ] && [ -n "$GN1" ]; then
		metric "rcu_tasks_${name}_gps_expedited_count" $((GX1 - GX0))
		metric "rcu_tasks_${name}_gps_normal_count" $((GN1 - GN0))
	else
		metric_na "rcu_tasks_${name}_gps_expedited_count" "no $RT_ST"
		metric_na "rcu_tasks_${name}_gps_normal_count" "no $RT_ST"
	fi
}

# acct_error NAME WHY [CBS]: the rows acct_end NAME would give (with CBS:
# per 1 000 callbacks), each as an error, for a window whose workload
# failed: none of them is a sample then.
acct_error() {
	for row in cal tlb; do
		metric_error "ipi_$1_${row}_all_per_s" "$2"
		ae_cpu=0
		while [ $ae_cpu -lt "$NCPU" ]; do
			metric_error "ipi_$1_${row}_cpu${ae_cpu}_per_s" "$2"
			ae_cpu=$((ae_cpu + 1))
		done
	done
	for m in gp_kthread kworker gp_kthread_kworker; do
		if [ -n "${3:-}" ]; then
			metric_error "${m}_$1_cpu_per_1000cbs_ns" "$2"
		else
			metric_error "${m}_$1_cpu_ns_per_s" "$2"
		fi
	done
}

# acct_churn_start: in the instance "acct", turn a function tracer
# filtered on schedule* on, move its filter to vfs_read while it is live,
# and turn it off, until acct_churn_stop (works the same on stock).  One
# cycle starts every ACCT_CHURN_PERIOD s (harness.acct_period=, default
# 0.25: stock needs about 0.12 s per cycle under TCG), so that both
# kernels do the same work per second and the per-second rows compare
# like with like; a cycle that overruns the period starts the next one
# late, which the cycles-per-second row shows.  The churn runs on the
# last CPU, so that the per-CPU rows do not follow the scheduler's
# placement of the shell from one window to the next.
ACCT_CHURN_PERIOD=$(sed -n 's/.*harness\.acct_period=\([0-9.]*\).*/\1/p' /proc/cmdline)
ACCT_CHURN_PERIOD=${ACCT_CHURN_PERIOD:-0.25}
acct_churn_start() {
	mkdir -p $T/instances/acct
	rm -f /tmp/acct.stop /tmp/acct.churn
	(
		d=$T/instances/acct n=0 bad=0
		while [ ! -e /tmp/acct.stop ]; do
			sleep "$ACCT_CHURN_PERIOD" &
			tick=$!
			echo 'schedule*' >$d/set_ftrace_filter || bad=$((bad + 1))
			echo function >$d/current_tracer || bad=$((bad + 1))
			echo vfs_read >$d/set_ftrace_filter || bad=$((bad + 1))
			echo nop >$d/current_tracer || bad=$((bad + 1))
			n=$((n + 1))
			# A sleep without fractions would leave the churn unpaced.
			wait $tick || bad=$((bad + 1))
		done
		echo "$n $bad" >/tmp/acct.churn
	) &
	ACCT_CHURN=$!
	taskset -p "$(printf %x $((1 << (NCPU - 1))))" $ACCT_CHURN >/dev/null ||
		echo "bench: could not pin the churn to CPU $((NCPU - 1))"
}

# acct_churn_stop: stop it; sets NCYC (cycles done) and NBAD (failed
# writes).  Not in a $(...): a subshell cannot wait for the churn.
acct_churn_stop() {
	touch /tmp/acct.stop
	wait "$ACCT_CHURN"
	echo nop >$T/instances/acct/current_tracer
	echo " " >$T/instances/acct/set_ftrace_filter
	rmdir $T/instances/acct
	NCYC=0 NBAD=1
	read -r NCYC NBAD </tmp/acct.churn
}

# ipi: the idle baseline (10 s), then twice 10 s of trampoline churn.  The
# churn's window runs on to the retirement of its trampolines (ours frees
# them later) and is divided by the churn's own duration.
acct_ipi() {
	settle
	acct_begin
	sleep 10
	acct_end idle
	r=0
	while [ $r -lt 2 ]; do
		settle
		acct_begin
		acct_churn_start
		sleep 10
		acct_churn_stop
		dur=$(($(now_us) - T0))
		settle
		ncyc=$NCYC nbad=$NBAD
		if [ "$nbad" != 0 ] || [ "$ncyc" = 0 ]; then
			echo "bench: acct churn: $ncyc cycles, $nbad failed writes"
			why="the churn failed ($ncyc cycles, $nbad failed writes)"
			acct_error churn "$why"
			for m in ipi_churn_tracer_cycles_per_s ipi_churn_cal_per_cycle \
				 ipi_churn_tlb_per_cycle gp_kthread_churn_cpu_per_cycle_ns \
				 kworker_churn_cpu_per_cycle_ns gp_kthread_kworker_churn_cpu_per_cycle_ns; do
				metric_error $m "$why"
			done
		else
			acct_end churn "$dur"
			metric ipi_churn_tracer_cycles_per_s "$(awk -v n="$ncyc" -v d="$dur" 'BEGIN { printf "%.2f", n * 1000000 / d }')"
			# Per on/off cycle, all CPUs: the rows that hold even if
			# one kernel could not keep the pace.
			for m in gp_kthread:$kt kworker:$kw gp_kthread_kworker:$ktkw; do
				if [ -n "${m#*:}" ]; then
					metric "${m%%:*}_churn_cpu_per_cycle_ns" \
						"$(awk -v v="${m#*:}" -v c="$ncyc" 'BEGIN { printf "%.0f", v / c }')"
				else
					metric_error "${m%%:*}_churn_cpu_per_cycle_ns" "no CPU time"
				fi
			done
			for row in cal tlb; do
				if ! ipi_delta $row >/tmp/acct.ipi; then
					metric_error "ipi_churn_${row}_per_cycle" "no $row row in /proc/interrupts"
					continue
				fi
				metric "ipi_churn_${row}_per_cycle" \
					"$(awk -v c="$ncyc" '{ s += $2 } END { printf "%.2f", s / c }' /tmp/acct.ipi)"
			done
		fi
		r=$((r + 1))
	done
}

# cb_bench NAME ARGS...: one run of harness/modules/rcu_tasks_cb_bench.ko
# inside an accounting window.  The insmod returns once every callback
# queued has been invoked; the window closes there, before the rmmod,
# whose rcu_barrier_tasks() ours would expedite (somebody waits on it).
cb_bench() {
	name=$1
	shift
	settle
	dmesg -c >/dev/null
	acct_begin
	if ! insmod /harness/modules/rcu_tasks_cb_bench.ko "$@"; then
		why="insmod rcu_tasks_cb_bench failed"
		for m in cbs_per_s enqueue_ns lat_p50_ns lat_p99_ns capped_count; do
			metric_error "${name}_$m" "$why"
		done
		acct_error "$name" "$why" cbs
		return
	fi
	line=$(dmesg | grep 'rcu_tasks_cb_bench: result' | tail -n 1)
	queued=$(churn_field "$line" queued)
	invoked=$(churn_field "$line" invoked)
	capped=$(churn_field "$line" capped)
	why=""
	if [ -z "$queued" ] || [ "$queued" = 0 ]; then
		why="no callbacks queued (${queued:-no result line})"
	elif [ "$queued" != "$invoked" ]; then
		why="queued $queued but invoked ${invoked:-?} callbacks"
	fi
	if [ -n "$why" ]; then
		# The window's IPI and CPU rows are no samples either.  The
		# rows first: the rmmod waits for the callbacks left.
		for m in cbs_per_s enqueue_ns lat_p50_ns lat_p99_ns capped_count; do
			metric_error "${name}_$m" "$why"
		done
		acct_error "$name" "$why" cbs
		rmmod rcu_tasks_cb_bench
		return
	fi
	acct_end "$name" "" "$queued"
	rmmod rcu_tasks_cb_bench
	run=$(churn_field "$line" run_ns)
	metric "${name}_cbs_per_s" "$(awk -v n="$queued" -v t="$run" 'BEGIN { printf "%.0f", n * 1e9 / t }')"
	metric "${name}_enqueue_ns" "$(awk -v n="$queued" -v t="$(churn_field "$line" enqueue_ns)" 'BEGIN { printf "%.1f", t / n }')"
	metric "${name}_lat_p50_ns" "$(churn_field "$line" lat_p50_ns)"
	metric "${name}_lat_p99_ns" "$(churn_field "$line" lat_p99_ns)"
	# How many times a kthread found max_inflight callbacks outstanding
	# and waited (episodes): the flood then ran at the pace the grace
	# periods and the invocation of the callbacks allow.
	metric "${name}_capped_count" "${capped:-0}"
}

# cyclic_run NAME: cyclictest, one thread per vCPU pinned to it, FIFO 90,
# 1 ms period, 10 s; the max and (from a 100 ms histogram in 1 us bins)
# the p99 wake-up latency of each vCPU, in ns.  The rows go to
# /tmp/ct.rows as "M metric value" or "E metric why", for cyclic_emit:
# a window whose churn failed must not count as a churn sample.
cyclic_run() {
	: >/tmp/ct.rows
	if ! command -v cyclictest >/dev/null; then
		echo "N cyclic_$1_max_ns cyclictest is not in the initramfs (rt-tests not installed on the host)" >/tmp/ct.rows
		return
	fi
	if ! cyclictest -m -t "$NCPU" -a -p 90 -i 1000 -D 10 -q -h 100000 >/tmp/ct.raw 2>/tmp/ct.err; then
		cat /tmp/ct.err
		echo "E cyclic_$1_max_ns cyclictest failed: $(tail -n 1 /tmp/ct.err)" >/tmp/ct.rows
		return
	fi
	# Empty bins are most of the 100 000 lines: busybox awk under TCG
	# would take seconds over them.
	grep -v -E '^[0-9]+([[:space:]]+0+)+$' /tmp/ct.raw >/tmp/ct.out
	# cyclictest pads with zeros, which busybox awk reads as octal.
	awk -v n="$NCPU" '
		function num(s) { sub(/^0+/, "", s); return s + 0 }
		/^[0-9]/ { l = num($1); for (i = 1; i <= n; i++) { h[i, l] = num($(i + 1)); tot[i] += h[i, l] }; last = l; next }
		/^# Max Latencies:/ { for (i = 1; i <= n; i++) max[i] = num($(i + 3)) }
		/^# Histogram Overflows:/ { for (i = 1; i <= n; i++) ov[i] = num($(i + 3)) }
		END {
			for (i = 1; i <= n; i++) {
				want = 0.99 * (tot[i] + ov[i]); c = 0; p = ""
				for (l = 0; l <= last; l++) { c += h[i, l]; if (c >= want) { p = l; break } }
				printf "%d %s %s\n", i - 1, max[i] == "" ? "-" : max[i] * 1000, p == "" ? "-" : p * 1000
			}
		}' /tmp/ct.out |
		while read -r cpu max p99; do
			if [ "$max" = - ]; then
				echo "E cyclic_$1_cpu${cpu}_max_ns no Max Latencies line"
			else
				echo "M cyclic_$1_cpu${cpu}_max_ns $max"
			fi
			if [ "$p99" = - ]; then
				echo "E cyclic_$1_cpu${cpu}_p99_ns p99 beyond the 100 ms histogram"
			else
				echo "M cyclic_$1_cpu${cpu}_p99_ns $p99"
			fi
		done >/tmp/ct.rows
}

# cyclic_emit: send the rows cyclic_run left in /tmp/ct.rows.
cyclic_emit() {
	while read -r kind m rest; do
		case "$kind" in
		M) metric "$m" "$rest" ;;
		E) metric_error "$m" "$rest" ;;
		N) metric_na "$m" "$rest" ;;
		esac
	done </tmp/ct.rows
}

# cbstream: twice 10 s of callbacks from one kthread per CPU, one per
# millisecond each.  cbflood: three times 5 s of callbacks from one
# kthread per CPU, as fast as they can.
acct_cbstream() {
	r=0
	while [ $r -lt 2 ]; do
		cb_bench cbstream nthreads=0 seconds=10 interval_us=1000
		r=$((r + 1))
	done
}

acct_cbflood() {
	r=0
	while [ $r -lt 3 ]; do
		cb_bench cbflood nthreads=0 seconds=5 interval_us=0 max_inflight=1000000
		r=$((r + 1))
	done
}

acct_cyclic() {
	settle
	cyclic_run idle
	cyclic_emit
	r=0
	while [ $r -lt 2 ]; do
		settle
		acct_churn_start
		sleep 1
		cyclic_run churn
		acct_churn_stop
		ncyc=$NCYC nbad=$NBAD
		if [ "$nbad" != 0 ] || [ "$ncyc" = 0 ]; then
			# Its latencies were not measured under a churn: dropped.
			metric_error cyclic_churn_max_ns "the churn failed ($ncyc cycles, $nbad failed writes)"
		else
			cyclic_emit
			metric cyclic_churn_tracer_cycles_count "$ncyc"
		fi
		r=$((r + 1))
	done
}

# sched: an exit storm (forkexit: 2 000 children that exit at once, ns
# per child), a pipe ping-pong between two processes (perf bench sched
# pipe, ns per round trip) and hackbench (processes, ns per run); ten of
# each.
acct_sched() {
	settle
	r=0
	while [ $r -lt 10 ]; do
		v=$(forkexit 2000) || v=""
		if [ -n "$v" ]; then metric sched_fork_exit_ns "$v"; else metric_error sched_fork_exit_ns "forkexit failed"; fi
		v=$(perf bench sched pipe -l 20000 2>&1 | awk '$2 == "usecs/op" { printf "%.0f", $1 * 1000 }')
		if [ -n "$v" ]; then metric sched_pipe_op_ns "$v"; else metric_error sched_pipe_op_ns "perf bench sched pipe failed"; fi
		if ! command -v hackbench >/dev/null; then
			metric_na sched_hackbench_ns "hackbench is not in the initramfs (rt-tests not installed on the host)"
		else
			v=$(hackbench -p -g 4 -f 10 -l 100 2>&1 | awk '$1 == "Time:" { printf "%.0f", $2 * 1e9 }')
			if [ -n "$v" ]; then metric sched_hackbench_ns "$v"; else metric_error sched_hackbench_ns "hackbench failed"; fi
		fi
		r=$((r + 1))
	done
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
runs unreg && unreg
runs churn && churn
# The churn and the unwind module leave retirements pending: on TCG the
# guest's vCPUs share one host thread, so freeing them would be timed too.
runs unwind && { settle; unwind; }
runs filterwrite && { settle; filter_write; }
runs flood && flood
runs rmmod && rmmod_churn
runs stall && stall
if runs callcost; then
	settle
	ftrace_ops call_ns_trampoline 1
	ftrace_ops call_ns_list10 10
fi
acct_timed() {	# NAME FUNCTION: run it, say how long it took
	t=$(now_us)
	$2
	echo "bench: $1 took $((($(now_us) - t) / 1000000)) s"
}
runs ipi && acct_timed ipi acct_ipi
runs cbstream && acct_timed cbstream acct_cbstream
runs cbflood && acct_timed cbflood acct_cbflood
runs cyclic && acct_timed cyclic acct_cyclic
runs sched && acct_timed sched acct_sched
echo "bench: done"
