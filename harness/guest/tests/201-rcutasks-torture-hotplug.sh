#!/bin/sh
# description: rcutorture torture_type=tasks with CPU hotplug (onoff_interval) ends with SUCCESS
# timeout: 180
#
# CPU 1 goes offline and online every 2 s while rcutorture runs, so
# holdouts migrate, idle tasks of offline CPUs appear in the scan and the
# grace-period kthread's expedited RCU grace period races with hotplug.
. /harness/lib.sh

[ -e /sys/devices/system/cpu/cpu1/online ] || {
	echo "no hot-pluggable CPU 1"
	exit 77
}
log_mark
modprobe rcutorture torture_type=tasks stat_interval=10 onoff_interval=2000 onoff_holdoff=2 || {
	echo "modprobe rcutorture torture_type=tasks onoff_interval=2000 failed"
	exit 1
}
sleep 40
rmmod rcutorture || { echo "rmmod rcutorture failed"; exit 1; }
for c in /sys/devices/system/cpu/cpu*/online; do
	[ "$(cat "$c")" = 1 ] || echo 1 > "$c"
done
onoff=$(newlog | grep -o "onoff: [0-9]*/[0-9]*:[0-9]*/[0-9]*" | tail -n 1)
res=$(newlog | grep -- "tasks-torture:--- End of test" | tail -n 1)
echo "hotplug ops: ${onoff:-none}"
echo "$res"
case "$res" in
*"End of test: SUCCESS"*) ;;
"") echo "rcutorture printed no End of test line"; exit 1 ;;
*) echo "rcutorture failed: $res"; exit 1 ;;
esac
case "$onoff" in
"" | "onoff: 0/"*) echo "rcutorture did no CPU hotplug ($onoff)"; exit 1 ;;
esac
exit 0
