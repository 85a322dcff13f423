#!/bin/sh
# description: function-probe removal (full and partial) and instance removal free nothing before a Tasks RCU grace period has passed
# timeout: 180
# variant: ours
#
# A task preempted in a trampoline may still be on its way to what an
# unregister frees: the probe entries (ftrace_count_free() data) of a
# function probe, the filter hashes that the list function tests.  So
# each free must follow a whole Tasks RCU grace period that started after
# the removal did.  The kernel's own events show the order: the kfree()
# calls made from the freeing function (kmem:kfree, filtered on its
# call_site range) against rcu_tasks:rcu_tasks_gp_start/_end, with the
# global trace clock so that CPUs compare.
. /harness/lib.sh
T=/sys/kernel/tracing
P=/sys/module/rcutasks/parameters
[ -d $T/events/kmem/kfree ] || fail "no kmem:kfree event"

# fn_range NAME: "start end" of a text symbol, from /proc/kallsyms; the
# compiler may have split it (NAME.part.0 holds free_ftrace_hash()'s
# kfree() calls).
fn_range() {
	sort /proc/kallsyms | awk -v f="$1" '
		found { print "0x" s, "0x" $1; exit }
		($3 == f || index($3, f ".part.") == 1) && ($2 == "t" || $2 == "T") { s = $1; found = 1 }'
}

# watch_frees NAME: trace the kfree() calls made from function NAME.
watch_frees() {
	set -- $(fn_range "$1")
	[ -n "$2" ] || fail "no kallsyms range for the freeing function"
	echo 0 >$T/events/kmem/kfree/enable
	echo "call_site >= $1 && call_site < $2" >$T/events/kmem/kfree/filter ||
		fail "kfree filter refused"
	echo 1 >$T/events/kmem/kfree/enable
}

# check_order MARK WHAT: after the marker MARK, a grace period must start
# and end before the first traced kfree().
check_order() {
	r=$(awk -v m="$1" '
		index($0, "tracing_mark_write: mark " m) { seen = 1; next }
		!seen { next }
		/ rcu_tasks_gp_start:/ { if (!st) st = NR }
		/ rcu_tasks_gp_end:/ { if (st && !en) en = NR }
		/ kfree:/ { if (!kf) kf = NR }
		END {
			if (!seen) print "nomark"
			else if (!kf) print "nofree"
			else if (en && en < kf) print "ok"
			else print "early"
		}' $T/trace)
	case $r in
	ok) echo "$2: freed after a whole Tasks RCU grace period" ;;
	early)
		grep -A 30 "tracing_mark_write: mark $1" $T/trace | head -n 30
		fail "$2: freed before a Tasks RCU grace period that started after the removal" ;;
	*)
		tail -n 30 $T/trace
		fail "$2: trace incomplete ($r)" ;;
	esac
}

echo global >$T/trace_clock
echo 1 >$T/events/rcu_tasks/rcu_tasks_gp_start/enable
echo 1 >$T/events/rcu_tasks/rcu_tasks_gp_end/enable
mkdir $T/instances/p $T/instances/d || fail "no tracefs instances"

# 1. A function probe removed whole: the probe ops is unhooked.
watch_frees unregister_ftrace_function_probe_func
echo 'vfs_read:traceon:1000' >>$T/instances/p/set_ftrace_filter || fail "probe refused"
: >$T/trace
echo "mark probe-full" >$T/trace_marker
echo '!vfs_read:traceon:0' >>$T/instances/p/set_ftrace_filter || fail "probe removal refused"
check_order probe-full "full probe removal"

# 2. One of two functions removed: the probe ops stays registered, but a
# task may be preempted in its trampoline on the way to the removed entry.
echo 'vfs_read:traceon:1000' >>$T/instances/p/set_ftrace_filter || fail "probe refused"
echo 'vfs_write:traceon:1000' >>$T/instances/p/set_ftrace_filter || fail "probe refused"
: >$T/trace
echo "mark probe-partial" >$T/trace_marker
echo '!vfs_write:traceon:0' >>$T/instances/p/set_ftrace_filter || fail "probe removal refused"
check_order probe-partial "partial probe removal"
grep -q 'vfs_read:traceon' $T/instances/p/set_ftrace_filter || fail "partial removal removed vfs_read's probe too"
echo '!vfs_read:traceon:0' >>$T/instances/p/set_ftrace_filter

# 3. An instance removed right after its tracer stopped asynchronously:
# the release is still pending (a 1 s batching window holds it) when
# rmdir frees the filter hashes.
watch_frees free_ftrace_hash
echo vfs_read >$T/instances/d/set_ftrace_filter
echo function >$T/instances/d/current_tracer || fail "function tracer refused"
sleep 0.2
b0=$(cat $P/batch_ms)
echo 1000 >$P/batch_ms
: >$T/trace
echo nop >$T/instances/d/current_tracer
echo "mark rmdir" >$T/trace_marker
rmdir $T/instances/d || fail "rmdir refused"
echo "$b0" >$P/batch_ms
check_order rmdir "instance removal"

echo 0 >$T/events/kmem/kfree/enable
echo 0 >$T/events/kmem/kfree/filter
echo 0 >$T/events/rcu_tasks/rcu_tasks_gp_start/enable
echo 0 >$T/events/rcu_tasks/rcu_tasks_gp_end/enable
echo local >$T/trace_clock
rmdir $T/instances/p
