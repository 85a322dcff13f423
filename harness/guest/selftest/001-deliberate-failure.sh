# description: harness self-test: a test that fails must be reported as FAIL
echo "this test fails on purpose"
exit 1
