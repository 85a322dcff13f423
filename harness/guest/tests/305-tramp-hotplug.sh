#!/bin/sh
# description: trampoline churn while CPU 1 goes offline and online: exact call counts, every trampoline freed, no splat
# timeout: 600
# variant: ours
#
# Retirement runs work on each CPU (the rude step) and Tasks RCU scans the
# runqueues: both must cope with a CPU leaving and coming back in the
# middle.  The churn's threads are not bound, so they migrate meanwhile.
. /harness/lib.sh
CPU=/sys/devices/system/cpu/cpu1/online
[ -w $CPU ] || skip "CPU 1 cannot go offline here"
n=$(sed -n 's/.*harness\.churn=\([0-9]*\).*/\1/p' /proc/cmdline)
n=${n:-1500}
tramp_mark
log_mark
trap 'echo 1 >$CPU 2>/dev/null' EXIT
# stall_every: callers spin 100 ms inside trampolines now and then, so some
# are migrated off CPU 1 while inside one that is being retired.
modprobe ftrace-churn nr_churners=2 nr_callers=2 nr_refilters="$n" stall_every=16384 &
churn=$!
ops=0
while kill -0 $churn 2>/dev/null; do
	echo 0 >$CPU || fail "CPU 1 refused to go offline"
	sleep 0.3
	echo 1 >$CPU || fail "CPU 1 refused to come back"
	sleep 0.3
	ops=$((ops + 1))
done
[ "$(cat $CPU)" = 1 ] || echo 1 >$CPU
wait $churn || fail "modprobe ftrace-churn failed: $(newlog | tail -n 3)"
line=$(newlog | grep 'ftrace_churn: \(PASS\|FAIL\)')
echo "$line"
rmmod ftrace-churn || fail "rmmod ftrace-churn failed"
echo "$line" | grep -q 'ftrace_churn: PASS' || fail "churn did not pass"
[ "$(churn_field "$line" stalls)" -gt 0 ] || fail "no caller stalled inside a trampoline"
tramp_settled
# A filter change moves call sites and builds nothing: one trampoline per
# registration (the churners', the witness and the contract check's).
regs=$(churn_field "$line" registers)
[ "$TRAMP_SWAPS" = 0 ] || fail "$TRAMP_SWAPS swaps: a filter change replaced a trampoline"
[ "$TRAMP_ALLOCATED" -le $((regs + 2)) ] ||
	fail "$TRAMP_ALLOCATED trampolines for $regs registrations: filter changes built trampolines"
[ $ops -ge 3 ] || fail "only $ops offline/online cycles during the churn"
echo "$TRAMP_ALLOCATED trampolines allocated and freed for $regs registrations and $n filter changes, during $ops offline/online cycles of CPU 1"
