#!/bin/sh
# description: rmmod of a module whose call_rcu_tasks() callbacks are still queued: its exit waits for them, each runs once, no use-after-free
# timeout: 120
# variant: ours
#
# rcu_tasks_test "pending 2000" queues 1000 callbacks behind a 2 s
# holdout and returns; rmmod follows at once.  The callbacks live in the
# module's text: the exit's rcu_barrier_tasks() must run them before the
# text goes away (KASAN and the splat scan catch it otherwise), and the
# module must report that they really were pending at unload.
. /harness/lib.sh
run=/sys/kernel/debug/rcu_tasks_test/run
log_mark
for round in 1 2 3; do
	rtt_load
	echo "pending 2000" >$run || fail "pending 2000 refused"
	echo "holdout 10" >$run 2>/dev/null && fail "a command after pending was accepted"
	rmmod rcu_tasks_test || fail "rmmod rcu_tasks_test failed"
done
newlog | grep "rcu_tasks_test: pending:"
n=$(newlog | grep -c "rcu_tasks_test: pending: PASS [1-9][0-9]* of 1000 callbacks pending")
[ "$n" = 3 ] || fail "$n of 3 unloads had pending callbacks that all ran exactly once"
