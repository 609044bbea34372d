#!/bin/bash
# scripts/run-tests.sh with stand-in tests: two tests of the same file name in
# different directories get one log each (named by path), and pass, skip and
# fail are counted and reported as such (exit 1 when one fails).
. "$(dirname "$0")/../lib.sh"
runner=$(cd "$(dirname "$0")/../.." && pwd)/scripts/run-tests.sh
cd "$T" || exit 1
mkdir -p a b c d build/tests/e
echo 'echo output of a; exit 0' >a/check_same.sh
echo 'echo output of b; exit 0' >b/check_same.sh
echo 'echo "SKIP: stand-in skips"; exit 77' >c/check_skip.sh
echo 'echo output of d; exit 1' >d/check_fail.sh
printf '#!/bin/sh\necho output of e\n' >build/tests/e/test_bin && chmod +x build/tests/e/test_bin
B=build bash "$runner" a/check_same.sh b/check_same.sh c/check_skip.sh d/check_fail.sh build/tests/e/test_bin >out 2>&1
rc=$?
cat out
ok=1
bad() { echo "FAIL: $*"; ok=0; }
[ $rc -eq 1 ] || bad "runner exited $rc with one failing test (want 1)"
grep -qx 'output of a' build/test-logs/a/check_same.sh.log || bad "a/check_same.sh has no log of its own"
grep -qx 'output of b' build/test-logs/b/check_same.sh.log || bad "b/check_same.sh has no log of its own"
grep -qx 'output of e' build/test-logs/tests/e/test_bin.log || bad "build/tests/e/test_bin is not logged as tests/e/test_bin"
grep -q '^SKIP  c/check_skip.sh: stand-in skips' out || bad "the skip is not reported with its reason"
grep -q '^FAIL  d/check_fail.sh' out || bad "the failure is not reported"
grep -qx '3 passed, 1 failed, 1 skipped' out || bad "wrong summary line"
[ $ok = 1 ] && echo ok
[ $ok = 1 ]
