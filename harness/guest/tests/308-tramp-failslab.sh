#!/bin/sh
# description: failslab and fail_page_alloc on a task that re-filters, switches tracers and reads the stats: clean errors, tracing and reclaim intact after, no leak
# timeout: 300
# variant: ours
#
# The kernel's own fault injection, limited to one subshell (task-filter,
# make-it-fail), which then re-filters a function-tracing instance,
# switches its tracer and reads both stats files 100 times while one
# allocation in ten fails: the ftrace_tramp object, the trampoline's
# execmem pages, the hashes, the seq_file buffers.  Each operation either
# works or fails with an errno.  Afterwards, with injection off, the
# instance must still trace, every retired trampoline must be freed (all
# call_rcu_tasks() callbacks ran) and kmemleak must find nothing.
. /harness/lib.sh
T=/sys/kernel/tracing
RS=/sys/kernel/debug/rcu_tasks/stats
FS=/sys/kernel/debug/failslab
FP=/sys/kernel/debug/fail_page_alloc
I=$T/instances/failslab
[ -d $FS ] && [ -d $FP ] || skip "no failslab/fail_page_alloc in debugfs"
inject() {	# on|off: one allocation in ten fails, at random, or none
	for d in $FS $FP; do
		[ "$1" = on ] && echo 10 >$d/probability || echo 0 >$d/probability
	done
}
# At random: a fixed interval keeps hitting the same allocation of each
# operation (every 10th: none of them failed, every 7th: all of them).
for d in $FS $FP; do
	echo Y >$d/task-filter
	echo 1 >$d/interval
	echo -1 >$d/times
	echo 0 >$d/space
	echo 0 >$d/verbose
	echo N >$d/ignore-gfp-wait
done
echo N >$FP/ignore-gfp-highmem
echo 0 >$FP/min-order
# Not vmalloc's own bookkeeping: when the allocation that splits a free
# area fails, mainline WARNs (va_clip() in mm/vmalloc.c), whoever the
# caller; that is not what this test is about.  The pages of a trampoline
# are still failed, and so is everything else.
[ -e $FS/reject-start ] || fail "no stack trace filter (CONFIG_FAULT_INJECTION_STACKTRACE_FILTER)"
range=$(sort /proc/kallsyms | awk '
	f { print "0x" $1; exit }
	$3 == "alloc_vmap_area" { printf "0x%s ", $1; f = 1 }')
set -- $range
[ $# = 2 ] || fail "alloc_vmap_area not found in /proc/kallsyms"
echo "$1" >$FS/reject-start
echo "$2" >$FS/reject-end
kmemleak_forget
tramp_mark
e0=$(tramp_stat alloc_failures)
mkdir $I || fail "cannot create instance"
inject on
(
	echo 1 >/proc/self/make-it-fail
	ok=0
	err=0
	i=0
	while [ $i -lt 100 ]; do
		case $((i % 3)) in
		0) f='schedule*' ;;
		1) f='vfs_read vfs_write' ;;
		*) f='do_sys_open*' ;;
		esac
		for w in "$f:$I/set_ftrace_filter" "function:$I/current_tracer" \
			"nop:$I/current_tracer" "function:$I/current_tracer"; do
			if echo "${w%%:*}" 2>/dev/null >"${w#*:}"; then
				ok=$((ok + 1))
			else
				err=$((err + 1))
			fi
		done
		for s in $TRAMP_ST $RS; do
			if { while read -r line; do :; done; } 2>/dev/null <$s; then
				ok=$((ok + 1))
			else
				err=$((err + 1))
			fi
		done
		i=$((i + 1))
	done
	# Out of the injection before writing the counts (which can fail too).
	until echo 0 2>/dev/null >/proc/self/make-it-fail; do :; done
	echo "$ok $err" >/tmp/failslab.counts
)
inject off
read -r ok err </tmp/failslab.counts
echo "under injection: $ok operations worked, $err failed with an errno"
[ "$err" -gt 0 ] || fail "no operation failed: the injection did not reach the task"
[ "$ok" -gt 0 ] || fail "no operation worked with one allocation in ten failing"
echo nop >$I/current_tracer
echo 'schedule' >$I/set_ftrace_filter || fail "set_ftrace_filter refused after the injection"
echo >$I/trace
echo function >$I/current_tracer || fail "function tracer refused after the injection"
sleep 1
hits=$(grep -c ' schedule <-' $I/trace)
echo nop >$I/current_tracer
rmdir $I
[ "$hits" -gt 0 ] || fail "the instance traces nothing after the injection"
tramp_settled
kmemleak_clean
echo "$hits schedule calls traced after; $TRAMP_ALLOCATED trampolines allocated and freed, $(($(tramp_stat alloc_failures) - e0)) trampoline allocations failed"
