#!/bin/sh
# description: trampoline allocation fails (fault injection): the list function takes over, no call is lost
# timeout: 300
# variant: ours
. /harness/lib.sh
FI=/sys/kernel/debug/fail_ftrace_tramp
ST=/sys/kernel/tracing/trace_stat/ftrace_tramp
T=/sys/kernel/tracing
stat() { awk -v k="$1" '$1 == k { print $2 }' $ST; }
[ -d $FI ] || fail "no $FI (CONFIG_FAULT_INJECTION_DEBUG_FS)"
f0=$(stat alloc_failures)
echo 0 >$FI/interval
echo 100 >$FI/probability
echo -1 >$FI/times
echo 0 >$FI/verbose
# Every allocation fails: a filtered instance still traces, through the list function.
mkdir $T/instances/fi
echo 'schedule' >$T/instances/fi/set_ftrace_filter
echo function >$T/instances/fi/current_tracer
sleep 1
hits=$(grep -c ' schedule <-' $T/instances/fi/trace)
echo nop >$T/instances/fi/current_tracer
[ "$hits" -gt 0 ] || { head -n 20 $T/instances/fi/trace; cat $ST; }
rmdir $T/instances/fi
dmesg -c >/dev/null
modprobe ftrace-churn nr_refilters=2000 && rmmod ftrace-churn
line=$(dmesg | grep 'ftrace_churn: \(PASS\|FAIL\)')
echo 0 >$FI/probability
f1=$(stat alloc_failures)
echo "$line"
echo "instance recorded $hits schedule calls; $((f1 - f0)) allocations failed"
[ "$hits" -gt 0 ] || fail "no function traced while allocations failed"
[ $((f1 - f0)) -gt 0 ] || fail "no allocation failure was injected"
echo "$line" | grep -q 'ftrace_churn: PASS' || fail "churn lost or duplicated calls under allocation failure"
# Half of them fail: those registrations use the list function, counts stay exact.
echo 50 >$FI/probability
dmesg -c >/dev/null
modprobe ftrace-churn nr_refilters=2000 && rmmod ftrace-churn
echo 0 >$FI/probability
line=$(dmesg | grep 'ftrace_churn: \(PASS\|FAIL\)')
echo "$line"
echo "$line" | grep -q 'ftrace_churn: PASS' || fail "churn failed at 50% allocation failure"
