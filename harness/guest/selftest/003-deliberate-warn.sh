# description: harness self-test: a kernel WARN must fail the run
insmod /harness/modules/harness_warn.ko || exit 1
rmmod harness_warn
