#!/bin/sh
# description: a filter change builds no trampoline; a pid filter change replaces only the trampoline whose code changes, under load
# timeout: 300
# variant: ours
#
# A trampoline's code is the function it calls and whether it saves all
# registers.  Filter writes on a live function tracer move call sites and
# must allocate, swap and retire nothing.  A pid filter in instance a
# wraps a's function (ftrace_pid_func): each change of it must replace a's
# trampoline exactly once, while readers hammer the traced function and
# are preempted in it; a pid filter change in instance b, which is not
# tracing, must leave a's trampoline alone.
. /harness/lib.sh
T=/sys/kernel/tracing
A=$T/instances/a
B=$T/instances/b
delta() { echo $(($(tramp_stat "$1") - $2)); }
tramp_mark
kmemleak_forget
mkdir $A $B || fail "no tracefs instances"
echo vfs_read >$A/set_ftrace_filter
echo function >$A/current_tracer || fail "function tracer refused"
# Two readers keep calling vfs_read() through a's trampoline.
cat /dev/zero >/dev/null &
r1=$!
cat /dev/zero >/dev/null &
r2=$!
trap 'kill $r1 $r2 2>/dev/null' EXIT
sleep 0.5

a0=$(tramp_stat allocated) s0=$(tramp_stat swaps) t0=$(tramp_stat retired)
i=0
while [ $i -lt 100 ]; do
	echo vfs_write >>$A/set_ftrace_filter || fail "filter write $i refused"
	echo vfs_read >$A/set_ftrace_filter || fail "filter write $i refused"
	i=$((i + 1))
done
echo "200 filter writes: $(delta allocated "$a0") allocated, $(delta swaps "$s0") swaps, $(delta retired "$t0") retired"
[ "$(delta allocated "$a0")" = 0 ] || fail "filter writes built $(delta allocated "$a0") trampolines"
[ "$(delta swaps "$s0")" = 0 ] || fail "filter writes swapped $(delta swaps "$s0") trampolines"
[ "$(delta retired "$t0")" = 0 ] || fail "filter writes retired $(delta retired "$t0") trampolines"

# b is not tracing: its pid filter changes nothing in a's trampoline.
s0=$(tramp_stat swaps)
i=0
while [ $i -lt 25 ]; do
	echo 1 >>$B/set_ftrace_notrace_pid || fail "b: pid write refused"
	: >$B/set_ftrace_notrace_pid
	i=$((i + 1))
done
echo "50 pid filter changes in b: $(delta swaps "$s0") swaps"
[ "$(delta swaps "$s0")" = 0 ] || fail "b's pid filter replaced $(delta swaps "$s0") trampolines"

# a's own pid filter: on (append, no truncation) and off, one swap each.
# pid 1 (init) never reads here, so the readers stay traced.
s0=$(tramp_stat swaps)
i=0
while [ $i -lt 50 ]; do
	echo 1 >>$A/set_ftrace_notrace_pid || fail "a: pid write refused"
	: >$A/set_ftrace_notrace_pid
	i=$((i + 1))
done
echo "100 pid filter changes in a: $(delta swaps "$s0") swaps"
[ "$(delta swaps "$s0")" = 100 ] || fail "$(delta swaps "$s0") swaps for 100 changes of a's pid filter"

kill $r1 $r2
wait $r1 $r2 2>/dev/null
trap - EXIT
grep -q ' vfs_read <-' $A/trace || fail "a traced no vfs_read call"
echo nop >$A/current_tracer
rmdir $A $B
tramp_settled
kmemleak_clean
echo "$TRAMP_ALLOCATED trampolines allocated and freed, $TRAMP_SWAPS swaps"
