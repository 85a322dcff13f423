#!/bin/sh
# description: invalid rcutasks parameter values are refused with EINVAL and leave the state untouched
# timeout: 30
# variant: ours

d=/sys/module/rcutasks/parameters
[ -d $d ] || { echo "no $d"; exit 1; }
fail=0
check_refused() {	# file value
	before=$(cat $d/$1)
	if echo "$2" > $d/$1 2>/dev/null; then
		echo "$1: '$2' accepted"
		fail=1
	fi
	after=$(cat $d/$1)
	if [ "$before" != "$after" ]; then
		echo "$1: changed from $before to $after by refused '$2'"
		fail=1
	fi
}
check_accepted() {	# file value
	if ! echo "$2" > $d/$1; then
		echo "$1: '$2' refused"
		fail=1
	elif [ "$(cat $d/$1)" != "$2" ]; then
		echo "$1: '$2' read back as $(cat $d/$1)"
		fail=1
	fi
}
smin=$(cat $d/backoff_min_us)
smax=$(cat $d/backoff_max_us)
sstall=$(cat $d/stall_timeout_ms)
sbatch=$(cat $d/batch_ms)
sival=$(cat $d/gp_interval_ms)

for v in -1 abc 5 86400001 4294967296 "" 0x10; do
	check_refused stall_timeout_ms "$v"
done
# backoff_min_us 1..9 would poll a holdout every few us: refused.
for v in 0 1 9 1001 -3 x; do
	check_refused backoff_min_us "$v"
done
# backoff_max_us=1 used to make a 1 us poll loop: refused now.
for v in 0 1 999 1000001 y; do
	check_refused backoff_max_us "$v"
done
for v in -1 1001 z 4294967296; do
	check_refused batch_ms "$v"
done
for v in 0 9 10001 -5 q; do
	check_refused gp_interval_ms "$v"
done
check_accepted stall_timeout_ms 0
check_accepted stall_timeout_ms 10
# Each bound has its own range: the order of the writes does not matter.
check_accepted backoff_max_us 1000
check_accepted backoff_min_us 1000
check_accepted backoff_min_us 10
check_accepted backoff_max_us 1000000
check_accepted backoff_max_us 1000
check_accepted batch_ms 0
check_accepted batch_ms 1000
check_accepted gp_interval_ms 10
check_accepted gp_interval_ms 10000
echo "$sbatch" > $d/batch_ms
echo "$sival" > $d/gp_interval_ms
# A grace period still works with the new back-off values (with the stall
# timeout back to its old value: 10 ms would report every busy reader).
echo "$sstall" > $d/stall_timeout_ms
stats=/sys/kernel/debug/rcu_tasks/stats
g0=$(awk '$1 == "gps" {print $2}' $stats)
modprobe rcutorture torture_type=tasks nreaders=1 nfakewriters=0 stat_interval=0 fwd_progress=0 2>/dev/null && sleep 3 && rmmod rcutorture
g1=$(awk '$1 == "gps" {print $2}' $stats)

echo "$smin" > $d/backoff_min_us
echo "$smax" > $d/backoff_max_us
echo "$sstall" > $d/stall_timeout_ms
[ "$(cat $d/batch_ms)/$(cat $d/gp_interval_ms)" = "$sbatch/$sival" ] || {
	echo "could not restore batch_ms/gp_interval_ms"
	fail=1
}
[ "$(cat $d/backoff_min_us)/$(cat $d/backoff_max_us)/$(cat $d/stall_timeout_ms)" = "$smin/$smax/$sstall" ] || {
	echo "could not restore the parameters"
	fail=1
}
[ "$g1" -gt "$g0" ] || { echo "no grace period completed with the changed parameters"; fail=1; }
[ $fail -eq 0 ] || { echo "parameter validation failed"; exit 1; }
echo "all invalid values refused, state untouched"
exit 0
