#!/bin/sh
# description: a stack unwind through a trampoline frame is as deep with 300 retired trampolines pending as with none, and they are all freed after
# timeout: 240
# variant: ours
#
# tramp_unwind_bench unwinds from inside an ops callback (through the
# ops's trampoline, which the ORC unwinder finds with the trampoline
# lookup), then retires 300 trampolines behind a Tasks RCU holdout and
# unwinds again.  A lookup that missed a live trampoline, or lost one
# among many, would end the unwind at the trampoline frame.
. /harness/lib.sh
T=/sys/kernel/tracing
M=/harness/modules/tramp_unwind_bench.ko
[ -f $M ] || skip "no $M"
tramp_mark
kmemleak_forget
dmesg -c >/dev/null
insmod $M samples=5 retired=300 || fail "insmod tramp_unwind_bench failed"
pending=$(tramp_stat retiring)
rmmod tramp_unwind_bench || fail "rmmod tramp_unwind_bench failed"
dmesg | grep 'tramp_unwind_bench: retired'
f0=$(dmesg | sed -n 's/.*sample retired=0 ns=[0-9]* frames=\([0-9]*\).*/\1/p' | sort -n | head -n 1)
f1=$(dmesg | sed -n 's/.*sample retired=300 ns=[0-9]* frames=\([0-9]*\).*/\1/p' | sort -n | head -n 1)
echo "unwind depth: $f0 frames with none retired, $f1 with $pending retired pending"
[ "$pending" -ge 300 ] || fail "only $pending trampolines pending: the holdout did not hold them"
[ -n "$f0" ] && [ "$f0" -gt 4 ] || fail "unwind through the trampoline stopped after ${f0:-no} frames"
[ "$f1" = "$f0" ] || fail "unwind depth $f1 with retired trampolines pending, $f0 without"
tramp_settled
echo "$TRAMP_ALLOCATED trampolines allocated and freed"
# Each release frees its ops and the ops's filter hash.
kmemleak_clean
