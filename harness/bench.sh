# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# ./run bench: the same workload on the stock and the patched benchmark
# kernel, one after the other in one run, then one table of ratios.

bench_main() {
	local sel=${1:-} v rc out i boots=${BENCH_CALLCOST_BOOTS:-3}
	local stock_data ours_data
	bench_boot() {
		rc=0
		boot bench 3600 "$out" ${1:+"harness.bench=$1"} || rc=$?
		[ "$rc" = 0 ] || die "bench: the $v guest failed (exit $rc, console: $out/console.log)"
		grep -q '^@@ DONE' "$out/data.txt" ||
			die "bench: the $v guest did not finish (console: $out/console.log)"
	}
	for v in stock ours; do
		VARIANT=$v
		test_kernel bench
		out=$R/$v/bench
		bench_boot "$sel"
	done
	stock_data=$R/stock/bench/data.txt
	ours_data=$R/ours/bench/data.txt
	# A traced call costs 40 ns; from one boot to the next the same kernel
	# measured 41 or 69 ns (the vCPUs share one host thread, and the host
	# is shared).  Calls are cheap to measure: boot each kernel a few more
	# times, alternating, and pool the samples.
	if [ -z "$sel" ] || echo ",$sel," | grep -q ',callcost,'; then
		i=2
		while [ "$i" -le "$boots" ]; do
			for v in stock ours; do
				VARIANT=$v
				test_kernel bench
				out=$R/$v/bench-callcost-$i
				bench_boot callcost
				eval "${v}_data=\$${v}_data,$out/data.txt"
			done
			i=$((i + 1))
		done
	fi
	stage "report: $R/bench.md, $R/bench.json, $R/*.png"
	python3 "$TOP/harness/bench-report.py" "$stock_data" "$ours_data" "$R"
}
