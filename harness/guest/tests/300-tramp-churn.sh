#!/bin/sh
# description: trampoline churn: swaps under callers preempted inside, exact call counts, every trampoline freed, no leak
# timeout: 900
# variant: ours
. /harness/lib.sh
ST=/sys/kernel/tracing/trace_stat/ftrace_tramp
stat() { awk -v k="$1" '$1 == k { print $2 }' $ST; }
[ -r $ST ] || fail "no $ST"
# harness.churn=N on the kernel command line overrides the number of swaps.
n=$(sed -n 's/.*harness\.churn=\([0-9]*\).*/\1/p' /proc/cmdline)
n=${n:-5000}
a0=$(stat allocated); f0=$(stat freed); s0=$(stat swaps); l0=$(stat live)
dmesg -c >/dev/null
modprobe ftrace-churn nr_churners=2 nr_callers=2 nr_refilters="$n" ||
	fail "modprobe ftrace-churn failed: $(dmesg | tail -n 3)"
line=$(dmesg | grep 'ftrace_churn: \(PASS\|FAIL\)')
echo "$line"
rmmod ftrace-churn || fail "rmmod ftrace-churn failed"
echo "$line" | grep -q 'ftrace_churn: PASS' || fail "churn did not pass"
# Every retired trampoline is freed once the grace periods have run.
i=0
while [ "$(stat retiring)" != 0 ] && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done
cat $ST
a1=$(stat allocated); f1=$(stat freed); s1=$(stat swaps); l1=$(stat live)
swaps=$((s1 - s0))
[ "$(stat retiring)" = 0 ] || fail "$(stat retiring) trampolines still retiring after 60 s"
[ "$l1" = "$l0" ] || fail "live trampolines $l0 before, $l1 after"
[ $((a1 - a0)) = $((f1 - f0)) ] || fail "allocated $((a1 - a0)) but freed $((f1 - f0))"
[ "$swaps" -ge "$n" ] || fail "only $swaps swaps for $n filter changes"
[ "$(stat bytes_pending)" = 0 ] || fail "bytes_pending $(stat bytes_pending) at rest"
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo clear >/sys/kernel/debug/kmemleak
	echo scan >/sys/kernel/debug/kmemleak
	sleep 1
	echo scan >/sys/kernel/debug/kmemleak
	leaks=$(grep -c '^unreferenced object' /sys/kernel/debug/kmemleak)
	[ "$leaks" = 0 ] || { head -n 40 /sys/kernel/debug/kmemleak; fail "kmemleak: $leaks leaks"; }
	echo "kmemleak: 0 leaks"
fi
echo "$swaps swaps, $((a1 - a0)) trampolines allocated and freed, peak pending $(stat bytes_pending_max) bytes"
