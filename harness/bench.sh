# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# ./run bench: the same workload on the stock and the patched benchmark
# kernel, one after the other in one run, then one table of ratios.

bench_main() {
	local sel=${1:-} v rc out work round=1 rounds=1 stock_data="" ours_data=""
	# A traced call costs 40 ns; from one boot to the next the same kernel
	# measured 41 or 69 ns (the vCPUs share one host thread, and the host
	# is shared).  Calls are cheap to measure: boot each kernel a few more
	# times for them, alternating, and pool the samples.
	if [ -z "$sel" ] || echo ",$sel," | grep -q ',callcost,'; then
		rounds=${BENCH_CALLCOST_BOOTS:-3}
	fi
	while [ "$round" -le "$rounds" ]; do
		for v in stock ours; do
			VARIANT=$v
			test_kernel bench
			if [ "$round" = 1 ]; then
				out=$R/$v/bench work=$sel
			else
				out=$R/$v/bench-callcost-$round work=callcost
			fi
			rc=0
			boot bench 3600 "$out" ${work:+"harness.bench=$work"} || rc=$?
			[ "$rc" = 0 ] || die "bench: the $v guest failed (exit $rc, console: $out/console.log)"
			grep -q '^@@ DONE' "$out/data.txt" ||
				die "bench: the $v guest did not finish (console: $out/console.log)"
			if [ "$v" = stock ]; then
				stock_data=${stock_data:+$stock_data,}$out/data.txt
			else
				ours_data=${ours_data:+$ours_data,}$out/data.txt
			fi
		done
		round=$((round + 1))
	done
	stage "report: $R/bench.md, $R/bench.json, $R/*.png"
	python3 "$TOP/harness/bench-report.py" "$stock_data" "$ours_data" "$R"
}
