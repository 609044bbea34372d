#!/bin/bash
# bench/run.sh with stand-in benches: a failing bench is recorded as failed
# (its row, exit 1) even though its output goes through a pipe, a passing
# bench's rows land in $B/bench.md, and the tracked README.md is not touched.
set -u
cd "$(dirname "$0")/../.." || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/bench_good.sh" <<'S'
echo "| good bench | 1 | 2 | 0.5 | stand-in |"
S
cat >"$tmp/bench_bad.sh" <<'S'
echo "| bad bench | 1 | ? | ? | prints a row, then fails |"
exit 3
S
readme=$(sha1sum README.md)
B=$tmp/b bash bench/run.sh "$tmp/bench_good.sh" "$tmp/bench_bad.sh" >"$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
rc_ok=1
[ $rc -eq 1 ] || { echo "FAIL: bench/run.sh exited $rc with a failing bench (want 1)"; rc_ok=0; }
grep -q '^| good bench | 1 | 2 | 0.5 |' "$tmp/b/bench.md" || { echo "FAIL: the passing bench's row is not in bench.md"; rc_ok=0; }
grep -q '^| bench_bad.sh | failed |' "$tmp/b/bench.md" || { echo "FAIL: the failing bench is not recorded as failed"; rc_ok=0; }
grep -q '^| bench_good.sh | failed |' "$tmp/b/bench.md" && { echo "FAIL: the passing bench is recorded as failed"; rc_ok=0; }
[ "$(sha1sum README.md)" = "$readme" ] || { echo "FAIL: bench/run.sh changed README.md"; rc_ok=0; }
[ $rc_ok = 1 ] && echo ok
[ $rc_ok = 1 ]
