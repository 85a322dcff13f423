#!/bin/sh
# description: an unprivileged user can neither read nor change the tracing state, the stats, the parameters or the trampoline addresses
# timeout: 120
# variant: ours
#
# Every check runs twice: as root, where it must work (so that the file
# exists and the check means something), and as nobody, where it must not.
. /harness/lib.sh
T=/sys/kernel/tracing
D=/sys/kernel/debug
P=/sys/module/rcutasks/parameters
bad=0
checks=0
as_nobody() { su -s /bin/sh nobody -c "$1" >/dev/null 2>&1; }
check() {	# what command (as root it must leave the state as it was)
	checks=$((checks + 1))
	if ! sh -c "$2" >/dev/null 2>&1; then
		echo "root cannot $1: the check would prove nothing"
		bad=$((bad + 1))
	elif as_nobody "$2"; then
		echo "nobody can $1"
		bad=$((bad + 1))
	fi
}
[ "$(su -s /bin/sh nobody -c 'id -u')" = 65534 ] || fail "cannot run as nobody"

# A live per-ops trampoline, so that kallsyms has one to hide.
mkdir -p $T/instances/perm
echo 'schedule*' >$T/instances/perm/set_ftrace_filter
echo function >$T/instances/perm/current_tracer
sleep 1

check "read trace_stat/ftrace_tramp" "cat $T/trace_stat/ftrace_tramp"
check "list the tracefs instances" "ls $T/instances"
check "write set_ftrace_filter" "echo 'schedule*' >$T/instances/perm/set_ftrace_filter"
check "write current_tracer" "echo function >$T/instances/perm/current_tracer"
check "read the rcu_tasks stats" "cat $D/rcu_tasks/stats"
check "write fail_ftrace_tramp" "echo 0 >$D/fail_ftrace_tramp/probability"
for f in stall_timeout_ms backoff_min_us backoff_max_us; do
	v=$(cat $P/$f)
	check "write $f" "echo $v >$P/$f"
	[ "$(cat $P/$f)" = "$v" ] || { echo "$f changed"; bad=$((bad + 1)); }
done
check "load a module" "modprobe rcu_tasks_test && rmmod rcu_tasks_test"
check "open the ftrace_tramp tracepoints with perf" \
	"perf stat -e ftrace_tramp:ftrace_tramp_alloc -a true"
check "open the rcu_tasks tracepoints with perf" \
	"perf stat -e rcu_tasks:rcu_tasks_gp_end -a true"
# Trampoline addresses: root sees them, nobody sees zeros.
check "see a trampoline address in kallsyms" \
	"grep -E '^[0-9a-f]*[1-9a-f][0-9a-f]* t ftrace_trampoline' /proc/kallsyms"

[ "$(cat $T/instances/perm/current_tracer)" = function ] || {
	echo "current_tracer changed"
	bad=$((bad + 1))
}
grep -q '^schedule' $T/instances/perm/set_ftrace_filter || {
	echo "set_ftrace_filter changed"
	bad=$((bad + 1))
}
echo nop >$T/instances/perm/current_tracer
rmdir $T/instances/perm
[ $bad = 0 ] || fail "$bad permission check(s) failed"
echo "$checks checks: root may, nobody may not"
