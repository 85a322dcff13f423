#!/bin/sh
# description: a module is removed while its asynchronous releases and trampoline retirements are pending
# timeout: 300
# variant: ours
. /harness/lib.sh
ST=/sys/kernel/tracing/trace_stat/ftrace_tramp
stat() { awk -v k="$1" '$1 == k { print $2 }' $ST; }
r0=$(stat async_releases)
k=0
while [ $k -lt 5 ]; do
	dmesg -c >/dev/null
	modprobe ftrace-churn nr_churners=2 nr_callers=1 nr_refilters=200 \
		refilters_per_ops=1 async_pct=100 || fail "modprobe failed"
	# Remove it at once: the releases run module code and must be drained first.
	rmmod ftrace-churn || fail "rmmod failed"
	line=$(dmesg | grep 'ftrace_churn: \(PASS\|FAIL\)')
	echo "$line" | grep -q PASS || fail "churn: $line"
	async=$(echo "$line" | sed -n 's/.*unregs_async=\([0-9]*\).*/\1/p')
	dmesg | grep 'ftrace_churn: exit'
	[ "$async" -gt 0 ] || fail "no asynchronous unregister in round $k"
	k=$((k + 1))
done
r1=$(stat async_releases)
echo "$((r1 - r0)) asynchronous releases completed across 5 module removals"
[ $((r1 - r0)) -gt 0 ] || fail "no release completed"
