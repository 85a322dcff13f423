#!/bin/sh
# description: while a Tasks RCU grace period is held up, retired trampolines stay under max_pending_kb, tracing goes on, and an unrelated module loads and unloads without waiting
# timeout: 360
# variant: ours
. /harness/lib.sh
rtt_load
T=/sys/kernel/tracing
I=$T/instances/bp
MP=/sys/module/ftrace_tramp/parameters/max_pending_kb
run=/sys/kernel/debug/rcu_tasks_test/run
[ -w $MP ] || fail "no $MP"

# Bad values are refused and change nothing.
old=$(cat $MP)
for v in 0 15 1048577 -1 abc '' 99999999999; do
	if echo "$v" >$MP 2>/dev/null; then fail "max_pending_kb accepted '$v'"; fi
	[ "$(cat $MP)" = "$old" ] || fail "max_pending_kb changed by refused '$v'"
done

tramp_mark
limit_kb=64
echo $limit_kb >$MP || fail "max_pending_kb refused $limit_kb"
mkdir $I || fail "no tracefs instance"
echo vfs_read >$I/set_ftrace_filter
# A kthread spinning in the kernel holds every Tasks RCU grace period for
# 60 s: nothing retired meanwhile can be freed.
echo "holdout 60000" >$run &
hold=$!
sleep 0.5
o0=$(tramp_stat over_budget)
max=0
i=0
# Tracer cycles for 40 s of the stall (200 at most), each retiring a
# trampoline.
t_end=$(($(now_us) + 40000000))
while [ $i -lt 200 ] && [ "$(now_us)" -lt $t_end ]; do
	echo function >$I/current_tracer || fail "function tracer refused in cycle $i"
	echo nop >$I/current_tracer
	p=$(tramp_stat bytes_pending)
	[ "$p" -gt "$max" ] && max=$p
	i=$((i + 1))
done
over=$(($(tramp_stat over_budget) - o0))
echo "$i tracer cycles during the stall: pending peaked at $max bytes (limit $((limit_kb * 1024))), $over builds refused"
[ "$max" -le $(((limit_kb + 4) * 1024)) ] || fail "$max bytes pending, over the $limit_kb KiB limit"
[ "$over" -gt 0 ] || fail "no build was refused: the stall did not hold the retirements"

# Over the limit the tracer still traces, through the list function.
: >$I/trace
echo function >$I/current_tracer || fail "function tracer refused over the limit"
head -c 100000 /dev/zero >/dev/null
grep -q ' vfs_read <-' $I/trace || fail "nothing traced over the limit"
echo nop >$I/current_tracer

# A module with no ftrace ops loads and unloads during the stall: its
# unload waits for its own retirements only (it has none).
t0=$(now_us)
modprobe trace-printk || fail "modprobe trace-printk failed during the stall"
rmmod trace-printk || fail "rmmod trace-printk failed during the stall"
ms=$((($(now_us) - t0) / 1000))
kill -0 $hold 2>/dev/null || fail "the holdout ended before the module test: nothing was shown"
echo "module load and unload during the stall: $ms ms"
[ "$ms" -lt 5000 ] || fail "module load and unload took $ms ms: they waited for the stall"

wait $hold || fail "holdout failed"
echo "$old" >$MP
rmdir $I
tramp_settled
echo "$TRAMP_ALLOCATED trampolines allocated and freed after the stall"
