#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# rcu-tasks-session.sh [-i INSTANCE] [-o trace.dat] [FILTER1 [FILTER2]]
#
# Record, with trace-cmd, a function tracer being enabled dynamically in a
# tracefs instance with FILTER1, re-filtered to FILTER2 and disabled, along
# with the scheduler, rcu_tasks and ftrace trampoline events.  Each step is
# bracketed by trace_marker lines, so its duration is read off the trace's
# own clock.  Ends with "trace-cmd stat", the step durations and the event
# counts.  Needs root, tracefs and trace-cmd.
T=/sys/kernel/tracing
inst=session
out=trace.dat
while getopts i:o: opt; do
	case $opt in
	i) inst=$OPTARG ;;
	o) out=$OPTARG ;;
	*) echo "usage: $0 [-i INSTANCE] [-o FILE] [FILTER1 [FILTER2]]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
f1=${1:-schedule*}
f2=${2:-vfs_read* vfs_write*}
I=$T/instances/$inst
step() { echo "$*" >"$I/trace_marker"; }

events="-e sched:sched_switch -e sched:sched_wakeup"
for sys in rcu_tasks ftrace_tramp; do
	[ -d "$T/events/$sys" ] && events="$events -e $sys"
done
# shellcheck disable=SC2086
trace-cmd record -B "$inst" $events -o "$out" >/tmp/rcu-tasks-session.log 2>&1 &
rec=$!
i=0
while [ "$(cat "$I/tracing_on" 2>/dev/null)" != 1 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -d "$I" ] || {
	cat /tmp/rcu-tasks-session.log >&2
	echo "trace-cmd did not create instance $inst" >&2
	exit 1
}
sleep 1

step "session: begin enable function tracer, filter $f1"
echo "$f1" >"$I/set_ftrace_filter"
echo function >"$I/current_tracer"
step "session: end enable"
sleep 1
step "session: begin re-filter to $f2"
echo "$f2" >"$I/set_ftrace_filter"
step "session: end re-filter"
cat /proc/version >/dev/null
sleep 1
step "session: begin disable (nop)"
echo nop >"$I/current_tracer"
step "session: end disable"
sleep 0.5
kill -INT $rec
wait $rec
cat /tmp/rcu-tasks-session.log

echo "--- trace-cmd report (markers and first function entries)"
trace-cmd report -i "$out" 2>/dev/null | grep -E 'print:|function:' | head -n 16
echo "--- trace-cmd stat"
trace-cmd stat 2>/dev/null | head -n 12
echo "--- step durations (trace clock)"
# Report lines may start with the instance name: find the timestamp field
# (seconds with a trailing colon); the event name follows it.
trace-cmd report -i "$out" 2>/dev/null | awk '
	function ts() { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { sub(/:$/, "", $i); ev = $(i + 1); return $i } }
	/session: begin/ { t0 = ts(); split($0, a, "session: begin "); what = a[2] }
	/session: end/ { printf "  %-50s %9.3f ms\n", what, (ts() - t0) * 1000 }'
echo "--- events recorded"
trace-cmd report -i "$out" 2>/dev/null | awk '
	{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { print $(i + 1); next } }' |
	sort | uniq -c | sort -rn | head -n 8
trace-cmd report -i "$out" 2>/dev/null | grep -q 'session: end disable'
