#!/bin/sh
# description: kallsyms lists live and retired trampolines, and never a freed one
# timeout: 120
# variant: ours
. /harness/lib.sh
T=/sys/kernel/tracing
ST=$T/trace_stat/ftrace_tramp
stat() { awk -v k="$1" '$1 == k { print $2 }' $ST; }
syms() { grep ' ftrace_trampoline' /proc/kallsyms | awk '{print $1}' | sort; }
mkdir $T/instances/ks
echo 'schedule' >$T/instances/ks/set_ftrace_filter
echo function >$T/instances/ks/current_tracer
sleep 0.5
live=$(syms)
[ -n "$live" ] || fail "no ftrace_trampoline symbol while a filtered tracer runs"
n=$(echo "$live" | wc -l)
[ "$n" = $(( $(stat live) + $(stat retiring) )) ] ||
	fail "kallsyms shows $n trampolines, stats $(stat live) live + $(stat retiring) retiring"
echo nop >$T/instances/ks/current_tracer
rmdir $T/instances/ks
i=0
while [ "$(stat retiring)" != 0 ] && [ $i -lt 30 ]; do sleep 1; i=$((i + 1)); done
after=$(syms)
for a in $live; do
	echo "$after" | grep -q "^$a\$" && fail "freed trampoline $a still in /proc/kallsyms"
done
echo "$n trampoline symbol(s) while tracing, all gone once freed"
