# SPDX-License-Identifier: GPL-2.0
#
# Helpers for guest scripts.  The second serial port (/dev/ttyS1) carries
# results and files to the host: the console interleaves with printk.

DATA=/dev/ttyS1

data_init() {
	stty -F "$DATA" raw -echo 2>/dev/null
}

# data LINE: one line to the host.
data() {
	echo "$*" >"$DATA"
}

# send_file PATH [NAME]: ship a file to the host as base64.
send_file() {
	data "@@FILE ${2:-$(basename "$1")}"
	base64 "$1" >"$DATA"
	data "@@EOF"
}

# kmsg TEXT: a marker in the kernel log, so the host can tell which test
# was running when the kernel complained.
kmsg() {
	echo "HARNESS: $*" >/dev/kmsg
}

fail() {
	echo "$*"
	exit 1
}

skip() {
	echo "$*"
	exit 77
}

# wait_dmesg PATTERN SECONDS: wait until the kernel log matches PATTERN.
wait_dmesg() {
	i=0
	while [ "$i" -lt "$2" ]; do
		dmesg | grep -qE "$1" && return 0
		sleep 1
		i=$((i + 1))
	done
	return 1
}

# now_us: microseconds since boot (busybox date has no %N).
now_us() {
	awk '{ printf "%d\n", $1 * 1000000 }' /proc/uptime
}

VARIANT=$(cut -d' ' -f1 /harness/kernel 2>/dev/null)
KIND=$(cut -d' ' -f2 /harness/kernel 2>/dev/null)
