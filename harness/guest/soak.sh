#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Soak: rcutorture torture_type=tasks (with CPU hotplug) and the trampoline
# churn, together, for harness.soak=MINUTES.  Reports grace periods, swaps,
# callbacks, churn rounds, leaks; the host's verdict adds the splats.
. /harness/lib.sh
# Marked as run-tests.sh marks a test: the host's verdict charges a kernel
# report between the two lines to "soak", and ./run mutants counts a hang
# after "begin soak" as the soak's.  The trap ends it on every way out.
kmsg "begin soak"
trap 'kmsg "end soak rc=$?"' EXIT
RS=/sys/kernel/debug/rcu_tasks/stats
rstat() { awk -v k="$1" '$1 == k { print $2 }' $RS; }
min=$(sed -n 's/.*harness\.soak=\([0-9]*\).*/\1/p' /proc/cmdline)
min=${min:-30}
end=$(($(cut -d. -f1 /proc/uptime) + min * 60))
g0=$(rstat gps); c0=$(rstat cbs_invoked); s0=$(tramp_stat swaps)
a0=$(tramp_stat allocated); f0=$(tramp_stat freed)
log_mark
result() {
	data "@@ $1 soak: $2"
	echo "harness: soak: $1 $2"
}
echo "harness: soak: $min minutes of rcutorture tasks + churn"
modprobe rcutorture torture_type=tasks onoff_interval=3000 onoff_holdoff=5 \
	stat_interval=60 || { result FAIL "modprobe rcutorture failed"; exit 1; }
rounds=0
bad=0
while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
	dmesg | grep -q 'ftrace_churn: FAIL' && break
	if ! modprobe ftrace-churn nr_churners=2 nr_callers=2 nr_refilters=1000; then
		bad=$((bad + 1))
		echo "harness: soak: churn round $rounds failed to load"
	fi
	rmmod ftrace-churn 2>/dev/null
	rounds=$((rounds + 1))
	[ $((rounds % 10)) = 0 ] &&
		echo "harness: soak: $rounds churn rounds, $(($(tramp_stat swaps) - s0)) swaps, $(($(rstat gps) - g0)) GPs"
done
rmmod rcutorture
tramp_wait_retired
torture=$(newlog | grep -- "tasks-torture:--- End of test" | tail -n 1)
npass=$(newlog | grep -c 'ftrace_churn: PASS')
nfail=$(newlog | grep -c 'ftrace_churn: FAIL')
leaks=na
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	sleep 1
	echo scan >/sys/kernel/debug/kmemleak
	leaks=$(grep -c '^unreferenced object' /sys/kernel/debug/kmemleak)
	[ "$leaks" = 0 ] || head -n 40 /sys/kernel/debug/kmemleak
fi
areas=$(tramp_areas)
alloc=$(($(tramp_stat allocated) - a0))
freed=$(($(tramp_stat freed) - f0))
sum="$min min: $(($(rstat gps) - g0)) GPs, $(($(rstat cbs_invoked) - c0)) callbacks invoked, $rounds churn rounds ($npass passed, $nfail failed), $(($(tramp_stat swaps) - s0)) swaps, $alloc trampolines allocated, $freed freed, $(tramp_stat retiring) retiring, kmemleak $leaks, $areas trampoline areas for $(tramp_stat live) live"
echo "$torture"
case "$torture" in
*"End of test: SUCCESS"*) ;;
*) result FAIL "rcutorture: ${torture:-no End of test line}; $sum"; exit 1 ;;
esac
if [ $bad != 0 ] || [ "$nfail" != 0 ] || [ "$npass" != "$rounds" ] ||
	[ "$alloc" != "$freed" ] || [ "$(tramp_stat retiring)" != 0 ] ||
	[ "$areas" != "$(tramp_stat live)" ] ||
	{ [ "$leaks" != na ] && [ "$leaks" != 0 ]; }; then
	result FAIL "$sum"
	exit 1
fi
result PASS "$sum"
