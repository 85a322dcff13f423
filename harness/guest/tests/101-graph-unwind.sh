#!/bin/sh
# description: a stack unwound at any instruction of return_to_handler is clean
# timeout: 300
#
# function_graph sends every traced return through return_to_handler.  An
# interrupt or exception that unwinds the task it hit (a perf callchain,
# KASAN recording a free from a softirq) may stop it at any of those
# instructions, and the stack there must agree with the ORC data; where it
# did not, the unwinder printed "stack going in the wrong direction? at
# return_to_handler+0x46" (patch 208).  Random interrupts land on a given
# instruction too rarely to test that, so graph_unwind_probe.ko puts a
# kprobe on every instruction of return_to_handler and unwinds the stack
# from each hit.
. /harness/lib.sh
T=/sys/kernel/tracing
MOD=/harness/modules/graph_unwind_probe.ko
[ -e $MOD ] || skip "no $MOD"

start=$(awk '$3 == "return_to_handler" { print $1 }' /proc/kallsyms)
next=$(sort /proc/kallsyms | awk -v s="$start" 'f && $1 != s { print $1; exit } $1 == s { f = 1 }')
[ -n "$start" ] && [ -n "$next" ] || fail "return_to_handler not in /proc/kallsyms"
size=$((0x$next - 0x$start))

log_mark
insmod $MOD size=$size || fail "insmod graph_unwind_probe size=$size failed"
for f in 'kmem_cache_*' kfree 'vfs_*' 'dput*' 'seq_*'; do
	echo "$f" >>$T/set_ftrace_filter ||
		{ echo >$T/set_ftrace_filter; rmmod graph_unwind_probe; fail "no function matches $f"; }
done
echo function_graph >$T/current_tracer
i=0
while [ $i -lt 20 ]; do
	cat /proc/self/stat /proc/meminfo >/dev/null
	ls /sys/kernel >/dev/null
	i=$((i + 1))
done
echo nop >$T/current_tracer
echo >$T/set_ftrace_filter
rmmod graph_unwind_probe || fail "rmmod graph_unwind_probe failed"

# return_to_handler has no branch: every instruction up to its RET runs
# each time, and only the padding after it never does.
report=$(newlog | sed -n 's/.*graph_unwind_probe: +\(0x[0-9a-f]*\) hits=\([0-9]*\) depth=\([0-9]*\).*/\1:\2:\3/p')
n=$(echo $report | wc -w)
seen=0
unhit=""
for r in $report; do
	off=${r%%:*}
	hits=${r#*:}
	hits=${hits%:*}
	if [ "$hits" -gt 0 ]; then
		[ -z "$unhit" ] || fail "probe at +$unhit never hit, +$off was"
		seen=$((seen + 1))
	elif [ -z "$unhit" ]; then
		unhit=$off
	fi
done
echo "$size bytes, $n instructions probed, $seen executed (offset:hits:depth): $report"
[ "$seen" -ge 10 ] || fail "only $seen probed instructions of return_to_handler ran"

bad=$(newlog | grep -E 'stack going in the wrong direction|WARNING:|unwind:')
[ -z "$bad" ] || fail "unwinder complained: $bad"
