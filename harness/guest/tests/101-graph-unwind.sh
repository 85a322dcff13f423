#!/bin/sh
# description: stacks unwound from interrupts while function_graph runs are clean
# timeout: 240
#
# function_graph sends every traced return through return_to_handler.  An
# interrupt that unwinds the task it hit (a perf callchain, KASAN recording
# an allocation or a free) must find stack and ORC data that agree at every
# instruction there; where they did not, the ORC unwinder printed "stack
# going in the wrong direction? at return_to_handler+0x46".  perf samples
# with callchains from a timer interrupt while a shell loop keeps hot VFS
# and slab functions returning through return_to_handler, which lands
# interrupts at each of its instructions many times over.  (Graphing the
# whole kernel works too, but takes minutes under KASAN on TCG.)
. /harness/lib.sh
T=/sys/kernel/tracing
command -v perf >/dev/null || skip "no perf in the guest"

log_mark
for f in 'kmem_cache_*' kfree '__kmalloc*' 'vfs_*' 'dput*' 'fput*' \
	'path_*' 'seq_*' '*_lookup*'; do
	echo "$f" >>$T/set_ftrace_filter ||
		{ echo >$T/set_ftrace_filter; fail "no function matches $f"; }
done
echo function_graph >$T/current_tracer
(
	end=$(($(cut -d. -f1 /proc/uptime) + 8))
	while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
		cat /proc/self/stat /proc/meminfo >/dev/null
		ls /sys/kernel >/dev/null
	done
) &
load=$!
perf record -q -a -g -e cpu-clock -F 2000 -o /tmp/graph-unwind.data \
	-- sleep 6 >/tmp/graph-unwind.out 2>&1
rc=$?
wait $load
echo nop >$T/current_tracer
echo >$T/set_ftrace_filter
[ $rc = 0 ] || { cat /tmp/graph-unwind.out; fail "perf record failed ($rc)"; }

# The unwinder must have walked through return_to_handler: count the
# samples whose kernel callchain holds it.
perf script -i /tmp/graph-unwind.data -F ip,sym 2>/dev/null >/tmp/graph-unwind.txt
samples=$(grep -c '^$' /tmp/graph-unwind.txt)
through=$(awk '/return_to_handler/ { n++ } END { print n + 0 }' /tmp/graph-unwind.txt)
rm -f /tmp/graph-unwind.data /tmp/graph-unwind.txt
echo "$samples samples, $through callchain frames in return_to_handler"
[ "$samples" -gt 100 ] || fail "perf recorded only $samples samples"
[ "$through" -gt 0 ] || fail "no sample unwound through return_to_handler"

bad=$(newlog | grep -E 'stack going in the wrong direction|unwind|WARNING:')
[ -z "$bad" ] || fail "unwinder complained: $bad"
