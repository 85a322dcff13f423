#!/bin/sh
# description: a module is removed while its asynchronous releases and trampoline retirements are pending
# timeout: 300
# variant: ours
. /harness/lib.sh
rtt_load
run=/sys/kernel/debug/rcu_tasks_test/run
ST=/sys/kernel/tracing/trace_stat/ftrace_tramp
stat() { awk -v k="$1" '$1 == k { print $2 }' $ST; }
r0=$(stat async_releases)
k=0
pending=0
while [ $k -lt 5 ]; do
	dmesg -c >/dev/null
	# linger=8: eight ops stay registered until the module's exit, which
	# unregisters them asynchronously; their releases run module code and
	# are still pending when the exit returns, so the ftrace core must
	# drain them before the text is freed.
	# A 1.5 s Tasks RCU holdout (a kthread of rcu_tasks_test spinning in
	# the kernel) keeps those releases pending well past the module's
	# teardown, which would otherwise often outlast them by chance.
	modprobe ftrace-churn nr_churners=2 nr_callers=1 nr_refilters=200 \
		refilters_per_ops=1 async_pct=100 linger=8 || fail "modprobe failed"
	echo "holdout 1500" >$run &
	hold=$!
	sleep 0.2
	rmmod ftrace-churn || fail "rmmod failed"
	wait $hold || fail "holdout 1500 failed"
	line=$(dmesg | grep 'ftrace_churn: \(PASS\|FAIL\)')
	echo "$line" | grep -q PASS || fail "churn: $line"
	async=$(churn_field "$line" unregs_async)
	exit_line=$(dmesg | grep 'ftrace_churn: exit')
	echo "$exit_line"
	[ "$async" -gt 0 ] || fail "no asynchronous unregister in round $k"
	done_n=$(echo "$exit_line" | sed -n 's/.*releases done \([0-9]*\) of \([0-9]*\).*/\1/p')
	all_n=$(echo "$exit_line" | sed -n 's/.*releases done \([0-9]*\) of \([0-9]*\).*/\2/p')
	[ -n "$done_n" ] && [ "$done_n" -lt "$all_n" ] ||
		fail "no release was pending at the module's exit in round $k: $exit_line"
	pending=$((pending + all_n - done_n))
	k=$((k + 1))
done
r1=$(stat async_releases)
echo "$((r1 - r0)) asynchronous releases completed across 5 module removals, $pending of them pending when the module's exit returned"
[ $((r1 - r0)) -gt 0 ] || fail "no release completed"
rmmod rcu_tasks_test
