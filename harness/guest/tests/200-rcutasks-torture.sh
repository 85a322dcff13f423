#!/bin/sh
# description: rcutorture torture_type=tasks runs 30 s and ends with SUCCESS
# timeout: 150
#
# The peer test: mainline's rcutorture, unmodified, against whichever
# Tasks RCU the kernel has.  Passes on stock too.
. /harness/lib.sh

log_mark
modprobe rcutorture torture_type=tasks stat_interval=10 || {
	echo "modprobe rcutorture torture_type=tasks failed"
	exit 1
}
sleep 30
rmmod rcutorture || { echo "rmmod rcutorture failed"; exit 1; }
res=$(newlog | grep -- "tasks-torture:--- End of test" | tail -n 1)
echo "$res"
case "$res" in
*"End of test: SUCCESS"*) exit 0 ;;
"") echo "rcutorture printed no End of test line"; exit 1 ;;
*) echo "rcutorture failed: $res"; exit 1 ;;
esac
