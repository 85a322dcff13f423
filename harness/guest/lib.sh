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
	# %.0f: the guest's awk (busybox) converts %d through a 32-bit int,
	# which overflows after 35 minutes of uptime.
	awk '{ printf "%.0f\n", $1 * 1000000 }' /proc/uptime
}

VARIANT=$(cut -d' ' -f1 /harness/kernel 2>/dev/null)
KIND=$(cut -d' ' -f2 /harness/kernel 2>/dev/null)

# Trampoline accounting, from trace_stat/ftrace_tramp.
TRAMP_ST=/sys/kernel/tracing/trace_stat/ftrace_tramp
tramp_stat() {
	awk -v k="$1" '$1 == k { print $2 }' $TRAMP_ST
}

# tramp_areas: trampoline memory areas that exist, from /proc/vmallocinfo
# (their allocation site), independent of our own counters.  The only leak
# check for them: on a KASAN kernel execmem defers kmemleak registration
# (VM_DEFER_KMEMLEAK), so kmemleak never sees a trampoline.
tramp_areas() {
	grep -c ' arch_ftrace_alloc_trampoline+' /proc/vmallocinfo
}

# tramp_areas_check: at rest, one area per live trampoline.
tramp_areas_check() {
	areas=$(tramp_areas)
	[ "$areas" = "$(tramp_stat live)" ] ||
		fail "$areas trampoline areas in vmallocinfo, $(tramp_stat live) live trampolines"
}

# tramp_wait_retired [SECONDS]: wait until no trampoline is retiring any
# more, SECONDS (default 60) at most.
tramp_wait_retired() {
	# Its own counter: callers loop on i (the bench's instance_disable
	# did, and never ended on ours).
	twr_tenths=0
	while [ "$(tramp_stat retiring)" != 0 ] && [ $twr_tenths -lt $((${1:-60} * 10)) ]; do
		sleep 0.1
		twr_tenths=$((twr_tenths + 1))
	done
}

# churn_field LINE NAME: the value of NAME=... in an ftrace-churn line.
churn_field() {
	echo "$1" | sed -n "s/.* $2=\([0-9]*\).*/\1/p"
}

# tramp_mark: remember the counters, for tramp_settled.
tramp_mark() {
	[ -r $TRAMP_ST ] || fail "no $TRAMP_ST"
	TA0=$(tramp_stat allocated)
	TF0=$(tramp_stat freed)
	TS0=$(tramp_stat swaps)
	TL0=$(tramp_stat live)
}

# tramp_settled: once the grace periods have run (60 s at most), every
# trampoline allocated since tramp_mark must be freed and nothing may be
# pending.  Sets TRAMP_ALLOCATED and TRAMP_SWAPS (since tramp_mark).
tramp_settled() {
	tramp_wait_retired
	TRAMP_ALLOCATED=$(($(tramp_stat allocated) - TA0))
	TRAMP_SWAPS=$(($(tramp_stat swaps) - TS0))
	freed=$(($(tramp_stat freed) - TF0))
	[ "$(tramp_stat retiring)" = 0 ] ||
		fail "$(tramp_stat retiring) trampolines still retiring after 60 s"
	[ "$(tramp_stat live)" = "$TL0" ] ||
		fail "live trampolines $TL0 before, $(tramp_stat live) after"
	[ "$TRAMP_ALLOCATED" = "$freed" ] ||
		fail "allocated $TRAMP_ALLOCATED but freed $freed"
	[ "$(tramp_stat bytes_pending)" = 0 ] ||
		fail "bytes_pending $(tramp_stat bytes_pending) at rest"
	tramp_areas_check
}

# kmemleak_clean: no unreferenced object after two scans (a no-op on a
# kernel without kmemleak).  kmemleak reports no object younger than 5 s,
# so the second scan comes 6 s after the first.
kmemleak_clean() {
	[ -w /sys/kernel/debug/kmemleak ] || return 0
	echo scan >/sys/kernel/debug/kmemleak
	sleep 6
	echo scan >/sys/kernel/debug/kmemleak
	leaks=$(grep -c '^unreferenced object' /sys/kernel/debug/kmemleak)
	[ "$leaks" = 0 ] || {
		head -n 40 /sys/kernel/debug/kmemleak
		fail "kmemleak: $leaks leaks"
	}
	echo "kmemleak: 0 leaks"
}

# kmemleak_forget: report only what leaks from here on.
kmemleak_forget() {
	[ -w /sys/kernel/debug/kmemleak ] || return 0
	echo scan >/sys/kernel/debug/kmemleak
	echo clear >/sys/kernel/debug/kmemleak
}

# log_mark: put a mark in the kernel log; newlog then prints only what the
# kernel logged after it (no dmesg -c: other tests read the boot log).
log_mark() {
	LOG_MARK="harness-mark-$$-$(cut -d' ' -f1 /proc/uptime)"
	echo "$LOG_MARK" >/dev/kmsg
}
newlog() {
	dmesg | sed -n "/$LOG_MARK/,\$p"
}

# rtt_load: load the rcu_tasks_test helper module, or skip the test.
rtt_load() {
	modprobe rcu_tasks_test 2>/dev/null ||
		skip "module rcu_tasks_test not available (CONFIG_RCU_TASKS_TEST=m?)"
}
