#!/bin/sh
# description: traceoff:N and stacktrace:N function probes added and removed in a loop on a function that readers call through the probe's trampoline
# timeout: 300
#
# Two readers call vfs_read() back to back (dd with one-byte blocks), so
# at any time some of them may be preempted in the probe ops's trampoline
# on the way to function_trace_probe_call(), before it disables
# preemption.  Each removal frees the probe's entries and count data:
# with a free that does not wait for a Tasks RCU grace period first,
# KASAN reports the use after free (the console scan fails the run).  The
# counts must still work: a stacktrace:N probe records at most N stacks,
# a traceoff:N probe turns the instance off.  Rounds alternate the two
# probes so that each is, most of the time, alone on the function.
. /harness/lib.sh
T=/sys/kernel/tracing
I=$T/instances/pl
F=$I/set_ftrace_filter
N=${PROBE_LOOPS:-150}
mkdir $I || fail "no tracefs instance"
kmemleak_forget

dd if=/dev/zero of=/dev/null bs=1 count=100000000 2>/dev/null &
r1=$!
dd if=/dev/zero of=/dev/null bs=1 count=100000000 2>/dev/null &
r2=$!
trap 'kill $r1 $r2 2>/dev/null' EXIT

i=0
while [ $i -lt "$N" ]; do
	# Alone on vfs_read(), each probe ops is called through its own
	# trampoline; every fourth round the two overlap (list function).
	echo 'vfs_read:stacktrace:3' >>$F || fail "stacktrace probe refused in loop $i"
	[ $((i % 4)) = 0 ] || echo '!vfs_read:stacktrace:0' >>$F ||
		fail "stacktrace probe removal refused in loop $i"
	echo 'vfs_read:traceoff:5' >>$F || fail "traceoff probe refused in loop $i"
	[ $((i % 4)) = 0 ] && { echo '!vfs_read:stacktrace:0' >>$F ||
		fail "stacktrace probe removal refused in loop $i"; }
	echo '!vfs_read:traceoff:0' >>$F || fail "traceoff probe removal refused in loop $i"
	echo 1 >$I/tracing_on
	i=$((i + 1))
done
echo "$N add/remove rounds of a stacktrace:3 and a traceoff:5 probe under two vfs_read() loops"
grep -q ':' $F && fail "probes left after removal: $(cat $F)"

# The counts still count: a stacktrace:3 probe records three stacks and
# no more; a traceoff:1 probe turns the instance off.
: >$I/trace
echo 'vfs_read:stacktrace:3' >>$F || fail "stacktrace probe refused"
sleep 1
echo '!vfs_read:stacktrace:0' >>$F
st=$(grep -c '<stack trace>' $I/trace)
echo "stacktrace:3 recorded $st stacks"
[ "$st" = 3 ] || fail "stacktrace:3 recorded $st stacks"
echo 1 >$I/tracing_on
echo 'vfs_read:traceoff:1' >>$F || fail "traceoff probe refused"
sleep 1
echo '!vfs_read:traceoff:0' >>$F
[ "$(cat $I/tracing_on)" = 0 ] || fail "traceoff:1 did not turn the instance off"

kill $r1 $r2 2>/dev/null
wait 2>/dev/null
trap - EXIT
rmdir $I || fail "rmdir refused"
kmemleak_clean
