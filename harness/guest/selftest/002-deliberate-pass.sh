# description: harness self-test: a passing test is reported as PASS
[ -d /sys/kernel/tracing ] || exit 1
