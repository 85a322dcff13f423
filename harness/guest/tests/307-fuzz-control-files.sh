#!/bin/sh
# description: fuzzed control files (parameters, rcu_tasks_test, stats, set_ftrace_filter, module options): clean errno, state unchanged, concurrent writers safe
# timeout: 600
# variant: ours
#
# Each invalid write must fail and leave what the file controls as it was.
# Random inputs start with a byte no valid input starts with, so that a
# lucky draw cannot be a valid number.  Then several writers at once, on
# the parameters and on set_ftrace_filter: the result must be one of the
# values written, the invariants must hold and tracing must still work.
. /harness/lib.sh
T=/sys/kernel/tracing
P=/sys/module/rcutasks/parameters
RUN=/sys/kernel/debug/rcu_tasks_test/run
tried=0
bad=0
rnd=/tmp/fuzz.bin
oops() { echo "$*"; bad=$((bad + 1)); }

# random SIZE: $rnd holds "z" and SIZE-1 random bytes.  With ONE_TOKEN
# set, one token ended by a newline: without the whitespace and glob
# characters that would make a filter file take part of it as valid
# patterns, and terminated, so that the write itself (not the close)
# parses it and can fail.
random() {
	printf z >$rnd
	[ "$1" -gt 1 ] && dd if=/dev/urandom bs="$(($1 - 1))" count=1 2>/dev/null >>$rnd
	if [ -n "${ONE_TOKEN:-}" ]; then
		tr -d '\000-\040*?[]!:\134\177' <$rnd >$rnd.t
		echo >>$rnd.t
		mv $rnd.t $rnd
	fi
}

# refuse FILE SHOWCMD INPUTFILE: writing INPUTFILE to FILE must fail and
# SHOWCMD's output must not change.
refuse() {
	tried=$((tried + 1))
	before=$(sh -c "$2" 2>&1)
	if dd if="$3" of="$1" bs=1M 2>/dev/null; then
		oops "$1: accepted $(head -c 40 "$3" | od -An -c | head -n 1)"
	fi
	after=$(sh -c "$2" 2>&1)
	[ "$before" = "$after" ] || oops "$1: state changed by a refused write"
}

# unchanged FILE SHOWCMD INPUTFILE: writing INPUTFILE to FILE may succeed
# (a filter file parses a last token without separator at close, where no
# errno can be returned) but SHOWCMD's output must not change.
unchanged() {
	tried=$((tried + 1))
	before=$(sh -c "$2" 2>&1)
	dd if="$3" of="$1" bs=1M 2>/dev/null
	after=$(sh -c "$2" 2>&1)
	[ "$before" = "$after" ] || oops "$1: state changed by an invalid write"
}

# refuse_all FILE SHOWCMD WORD...: the words, then random inputs.
refuse_all() {
	f=$1
	show=$2
	shift 2
	for w in "$@"; do
		printf '%s' "$w" >$rnd
		if [ -n "${ONE_TOKEN:-}" ]; then
			unchanged "$f" "$show" $rnd
		else
			refuse "$f" "$show" $rnd
		fi
		printf '%s\n' "$w" >$rnd
		refuse "$f" "$show" $rnd
	done
	for size in 1 2 7 64 4095 4096 4097 65536 1048576; do
		random $size
		refuse "$f" "$show" $rnd
	done
	for i in $(seq 20); do
		random $((i * 3))
		refuse "$f" "$show" $rnd
	done
}

numbers="-1 -2147483648 -9223372036854775809 4294967296 18446744073709551616 99999999999999999999999 1e3 0x10 +-1 -0x1 1.5 . ' ' '1 2'"
# 1. The rcutasks parameters.
for p in stall_timeout_ms backoff_min_us backoff_max_us; do
	eval "refuse_all $P/$p 'cat $P/*' $numbers"
done

# 2. The test module's command file.
modprobe rcu_tasks_test || fail "modprobe rcu_tasks_test failed"
refuse_all $RUN "grep -E '^(gps|cbs_queued) ' /sys/kernel/debug/rcu_tasks/stats" \
	"holdout" "holdout 0" "holdout -1" "holdout 4294967296" \
	"exit_storm 4294967295" "flood 99999999" "barrier" "nosuch 5" "5 holdout"
rmmod rcu_tasks_test

# 3. The stats files take no writes.
refuse_all $T/trace_stat/ftrace_tramp "grep -v _ns $T/trace_stat/ftrace_tramp" \
	"reset" "0" "live 0"
refuse_all /sys/kernel/debug/rcu_tasks/stats "grep -c . /sys/kernel/debug/rcu_tasks/stats" \
	"reset" "0"

# 4. set_ftrace_filter of an instance with the function tracer on.
I=$T/instances/fuzz
mkdir $I || fail "cannot create instance"
echo 'schedule*' >$I/set_ftrace_filter
echo function >$I/current_tracer
ONE_TOKEN=1 refuse_all $I/set_ftrace_filter "cat $I/set_ftrace_filter $I/current_tracer" \
	"no_such_function_xyz" "schedule no_such_function_xyz" "schedule:nosuchcmd" \
	"$(printf 'x%.0s' $(seq 300))"

# 5. The churn module's options, at load time.
for o in nr_churners=0 nr_churners=4294967296 nr_callers=-1 nr_refilters=abc \
	async_pct=101 refilters_per_ops=1001 delay_every=-5 nr_churners=100000 \
	linger=65 stall_every=-1; do
	tried=$((tried + 1))
	if modprobe ftrace-churn "$o" nr_refilters=10 2>/dev/null; then
		rmmod ftrace-churn
		oops "ftrace-churn accepted $o"
	fi
done
lsmod | grep -q ftrace_churn && oops "ftrace-churn left loaded"

# 6. Concurrent writers.  The back-off parameters: min <= max must hold
# whatever interleaving; each writer offers valid and invalid values.
smin=$(cat $P/backoff_min_us)
smax=$(cat $P/backoff_max_us)
writer() {	# file values...
	f=$1
	shift
	for i in $(seq 100); do
		for v in "$@"; do echo "$v" >"$f" 2>/dev/null; done
	done
}
writer $P/backoff_min_us 1 50 1000 0 -1 &
w1=$!
writer $P/backoff_max_us 1000 2000 50 999999 1000001 &
w2=$!
writer $P/backoff_min_us 200 x 900 &
w3=$!
writer $P/backoff_max_us 100000 5000 y &
w4=$!
wait $w1 $w2 $w3 $w4
tried=$((tried + 2000))
min=$(cat $P/backoff_min_us)
max=$(cat $P/backoff_max_us)
[ "$min" -le "$max" ] || oops "backoff_min_us $min > backoff_max_us $max after concurrent writers"
[ "$min" -ge 1 ] && [ "$min" -le 1000 ] || oops "backoff_min_us $min out of range"
[ "$max" -le 1000000 ] || oops "backoff_max_us $max out of range"
echo "$smax" >$P/backoff_max_us
echo "$smin" >$P/backoff_min_us
echo "$smax" >$P/backoff_max_us

# set_ftrace_filter: writers replace and append while the tracer runs.
fw() {	# filters...
	for i in $(seq 30); do
		for v in "$@"; do echo "$v" >"$I/set_ftrace_filter" 2>/dev/null; done
		echo "vfs_read" >>"$I/set_ftrace_filter" 2>/dev/null
	done
}
fw 'schedule*' 'no_such_fn' &
f1=$!
fw 'vfs_write' 'ksys_read' &
f2=$!
fw 'do_sys_open*' 'schedule_timeout' &
f3=$!
wait $f1 $f2 $f3
tried=$((tried + 540))
grep -qE '^(schedule|vfs_|ksys_read|do_sys_open)' $I/set_ftrace_filter ||
	oops "set_ftrace_filter after concurrent writers: $(head -n 3 $I/set_ftrace_filter)"
echo vfs_read >$I/set_ftrace_filter
echo >$I/trace
cat /proc/version >/dev/null
dd if=/proc/version of=/dev/null 2>/dev/null
sleep 0.5
grep -q vfs_read $I/trace || oops "the tracer traces nothing after the concurrent writers"
echo nop >$I/current_tracer
rmdir $I

[ $bad = 0 ] || fail "$bad of $tried inputs mishandled"
echo "$tried inputs tried: every invalid one refused, state unchanged"
