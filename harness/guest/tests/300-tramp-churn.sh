#!/bin/sh
# description: trampoline churn: retirements under callers preempted inside, no trampoline per filter change, exact call counts, every trampoline freed, no leak
# timeout: 900
# variant: ours
. /harness/lib.sh
# harness.churn=N on the kernel command line overrides the number of filter changes.
n=$(sed -n 's/.*harness\.churn=\([0-9]*\).*/\1/p' /proc/cmdline)
n=${n:-5000}
tramp_mark
kmemleak_forget
dmesg -c >/dev/null
# stall_every: now and then a caller spins 100 ms inside a trampoline
# while the churners unregister the ops it belongs to; a trampoline freed
# before its Tasks RCU grace period is then run after it is gone.
modprobe ftrace-churn nr_churners=2 nr_callers=2 nr_refilters="$n" stall_every=16384 ||
	fail "modprobe ftrace-churn failed: $(dmesg | tail -n 3)"
line=$(dmesg | grep 'ftrace_churn: \(PASS\|FAIL\)')
echo "$line"
rmmod ftrace-churn || fail "rmmod ftrace-churn failed"
echo "$line" | grep -q 'ftrace_churn: PASS' || fail "churn did not pass"
[ "$(churn_field "$line" stalls)" -gt 0 ] || fail "no caller stalled inside a trampoline"
# Every retired trampoline is freed once the grace periods have run.
tramp_settled
cat $TRAMP_ST
# A filter change moves call sites and builds nothing: one trampoline per
# registration (the churners', the witness and the contract check's).
regs=$(churn_field "$line" registers)
[ "$TRAMP_SWAPS" = 0 ] || fail "$TRAMP_SWAPS swaps: a filter change replaced a trampoline"
[ "$TRAMP_ALLOCATED" -le $((regs + 2)) ] ||
	fail "$TRAMP_ALLOCATED trampolines for $regs registrations: filter changes built trampolines"
kmemleak_clean
echo "$TRAMP_ALLOCATED trampolines allocated and freed for $regs registrations and $n filter changes, peak pending $(tramp_stat bytes_pending_max) bytes"
