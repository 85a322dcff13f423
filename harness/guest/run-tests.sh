#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run every test script of a folder (or those matching harness.tests=GLOB,
# or any of GLOB1,GLOB2,...),
# each under its own timeout, and report PASS/FAIL/SKIP to the host.
#
# A test is a shell script with a "# description:" line and optional
# "# timeout: SECONDS" (default 300) and "# variant: ours" (skipped on the
# stock kernel) lines.  Exit 0 passes, 77 skips, anything else fails; the
# last line it prints is the reason.
. /harness/lib.sh
glob=$(sed -n 's/.*harness\.tests=\([^ ]*\).*/\1/p' /proc/cmdline)
# harness.timeout=SECONDS raises every test's timeout to at least SECONDS,
# for runs made longer on purpose (harness.churn=100000).
min_tmo=$(sed -n 's/.*harness\.timeout=\([0-9]*\).*/\1/p' /proc/cmdline)
cd /tmp || exit 1
for t in "$1"/*.sh; do
	name=$(basename "$t" .sh)
	name=${name#[0-9][0-9][0-9]-}
	if [ -n "$glob" ]; then
		match=0
		set -f
		IFS=,
		for g in $glob; do
			# shellcheck disable=SC2254 # a glob, on purpose
			case "$name" in $g) match=1 ;; esac
		done
		unset IFS
		set +f
		[ $match = 1 ] || continue
	fi
	tmo=$(sed -n 's/^# timeout: *\([0-9]*\).*/\1/p' "$t")
	tmo=${tmo:-300}
	[ -n "$min_tmo" ] && [ "$min_tmo" -gt "$tmo" ] && tmo=$min_tmo
	want=$(sed -n 's/^# variant: *\([a-z]*\).*/\1/p' "$t")
	if [ -n "$want" ] && [ "$want" != "$VARIANT" ]; then
		data "@@ SKIP $name: only on the $want kernel"
		continue
	fi
	echo "harness: --- $name (timeout ${tmo}s)"
	kmsg "begin $name"
	start=$(now_us)
	# The test runs in its own session so that a timeout kills all it
	# started; before that, the blocked tasks go to the console (sysrq w).
	setsid sh "$t" >/tmp/test.log 2>&1 &
	pid=$!
	(
		sleep "$tmo"
		echo "harness: $name timed out; blocked tasks:"
		echo w >/proc/sysrq-trigger
		kill -KILL -"$pid" "$pid"
	) &
	watchdog=$!
	wait "$pid"
	rc=$?
	kill "$watchdog" 2>/dev/null
	ms=$((($(now_us) - start) / 1000))
	kmsg "end $name rc=$rc"
	sed "s/^/[$name] /" /tmp/test.log
	reason=$(grep -v '^[[:space:]]*$' /tmp/test.log | tail -n 1)
	case $rc in
	0) data "@@ PASS $name (${ms} ms)" ;;
	77) data "@@ SKIP $name: $reason" ;;
	137) data "@@ FAIL $name: timed out after ${tmo}s" ;;
	*) data "@@ FAIL $name: ${reason:-exit $rc} (exit $rc)" ;;
	esac
done
# Leaks are reported by a scan at the end; the host reads them off the
# console, so print whatever the scan found.
if [ -w /sys/kernel/debug/kmemleak ]; then
	echo scan >/sys/kernel/debug/kmemleak
	sleep 6
	echo scan >/sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak
fi
# Stay alive if the self-test asked for a hang, so the host must time out.
if grep -q 'harness\.hang=1' /proc/cmdline; then
	echo "harness: hanging on purpose (self-test)"
	while :; do sleep 60; done
fi
