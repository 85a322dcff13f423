# description: the ftrace startup selftests (CONFIG_FTRACE_STARTUP_TEST) passed at boot
# timeout: 30
. /harness/lib.sh
[ "$KIND" = test ] || skip "startup selftests are only built into the test kernel"
log=$(dmesg | grep -E 'Testing (tracer|dynamic ftrace|ftrace)')
echo "$log"
passed=$(echo "$log" | grep -c 'PASSED')
if echo "$log" | grep -qE 'FAILED|failed'; then
	fail "startup selftest failed: $(echo "$log" | grep -E 'FAILED|failed' | head -n 1)"
fi
[ "$passed" -ge 3 ] || fail "only $passed startup selftests reported PASSED (expected the function, graph and dynamic ones)"
echo "$passed startup selftests passed"
