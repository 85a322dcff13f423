# description: rcutorture torture_type=tasks for 30 s ends with SUCCESS
# timeout: 180
. /harness/lib.sh
dmesg -c >/dev/null
modprobe rcutorture torture_type=tasks stat_interval=10 || fail "modprobe rcutorture failed"
sleep 30
rmmod rcutorture || fail "rmmod rcutorture failed"
dmesg | grep -E 'End of test|rtc:|Reader Pipe' | tail -n 4
dmesg | grep -q 'tasks-torture:.*End of test: SUCCESS' ||
	fail "rcutorture did not report SUCCESS: $(dmesg | grep 'End of test' | tail -n 1)"
