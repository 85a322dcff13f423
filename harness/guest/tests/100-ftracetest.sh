# description: the ftracetest subset in /harness/ftracetest.list passes (KTAP sent to the host)
# timeout: 2400
. /harness/lib.sh
cd /harness/ftrace || fail "no ftracetest in the initramfs"
# harness.ftracetest=a.tc,b.tc on the command line (RUN_APPEND) overrides
# the list, to time or debug a few tests.
only=$(sed -n 's/.*harness\.ftracetest=\([^ ]*\).*/\1/p' /proc/cmdline | tr ',' ' ')
list=""
for t in ${only:-$(grep -v '^#' /harness/ftracetest.list)}; do
	list="$list test.d/$t"
done
# shellcheck disable=SC2086
./ftracetest -K -l /tmp/ftracetest-logs $list 2>&1 | tee /tmp/ftracetest.tap |
	while read -r line; do
		echo "ftracetest: [$(cut -d' ' -f1 /proc/uptime)] $line"
	done >/dev/console
send_file /tmp/ftracetest.tap
total=$(grep -cE '^(not )?ok ' /tmp/ftracetest.tap)
bad=$(grep -E '^not ok ' /tmp/ftracetest.tap)
[ "$total" -gt 0 ] || fail "ftracetest ran no test: $(tail -n 1 /tmp/ftracetest.tap)"
if [ -n "$bad" ]; then
	# What a failed test printed: ftracetest keeps its log (and only a
	# failed test's); the end of each goes to the host.
	for l in /tmp/ftracetest-logs/*-log.*; do
		[ -f "$l" ] || continue
		echo "=== $l"
		tail -n 80 "$l"
	done >/tmp/ftracetest-failed.log
	send_file /tmp/ftracetest-failed.log
fi
[ -z "$bad" ] || fail "$(echo "$bad" | wc -l) of $total failed: $(echo "$bad" | head -n 3 | tr '\n' ';')"
echo "$total ftracetest tests ok"
