# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# ./run bench: the same workload on the stock and the patched benchmark
# kernel, one after the other in one run, then one table of ratios.

bench_main() {
	local sel=${1:-} v rc out
	for v in stock ours; do
		VARIANT=$v
		test_kernel bench
		out=$R/$v/bench
		rc=0
		boot bench 3600 "$out" ${sel:+"harness.bench=$sel"} || rc=$?
		[ "$rc" = 0 ] || die "bench: the $v guest failed (exit $rc, console: $out/console.log)"
		grep -q '^@@ DONE' "$out/data.txt" ||
			die "bench: the $v guest did not finish (console: $out/console.log)"
	done
	stage "report: $R/bench.md, $R/bench.json, $R/*.png"
	python3 "$TOP/harness/bench-report.py" "$R/stock/bench/data.txt" \
		"$R/ours/bench/data.txt" "$R"
}
