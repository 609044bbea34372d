#!/bin/bash
# bench/run.sh with stand-in benches: a failing bench is recorded as failed
# (its row, exit 1) even though its output goes through a pipe, a passing
# bench's rows land in $B/bench.md under one header (date, machine, load),
# the page BENCH_DOC names gets the same, and a run of some benches only
# touches neither README.md nor docs/BENCHMARKS.md.
. "$(dirname "$0")/../lib.sh"
cd "$(dirname "$0")/../.." || exit 1
cat >"$T/bench_good.sh" <<'S'
echo "| good bench | 1 | 2 | 0.5 | stand-in |"
S
cat >"$T/bench_bad.sh" <<'S'
echo "| bad bench | 1 | ? | ? | prints a row, then fails |"
exit 3
S
readme=$(sha1sum README.md)
page=$(sha1sum docs/BENCHMARKS.md 2>/dev/null)
B=$T/b bash bench/run.sh "$T/bench_good.sh" "$T/bench_bad.sh" >"$T/out" 2>&1
rc=$?
cat "$T/out"
rc_ok=1
[ $rc -eq 1 ] || { echo "FAIL: bench/run.sh exited $rc with a failing bench (want 1)"; rc_ok=0; }
grep -q '^| good bench | 1 | 2 | 0.5 |' "$T/b/bench.md" || { echo "FAIL: the passing bench's row is not in bench.md"; rc_ok=0; }
grep -q '^| bench_bad.sh | failed |' "$T/b/bench.md" || { echo "FAIL: the failing bench is not recorded as failed"; rc_ok=0; }
grep -q '^| bench_good.sh | failed |' "$T/b/bench.md" && { echo "FAIL: the passing bench is recorded as failed"; rc_ok=0; }
[ "$(sha1sum README.md)" = "$readme" ] || { echo "FAIL: bench/run.sh changed README.md"; rc_ok=0; }
[ "$(sha1sum docs/BENCHMARKS.md 2>/dev/null)" = "$page" ] || { echo "FAIL: a run of some benches changed docs/BENCHMARKS.md"; rc_ok=0; }
# the page: the header on top (date, machine, load), then one table
BENCH_DOC=$T/doc/BENCHMARKS.md B=$T/b bash bench/run.sh "$T/bench_good.sh" >/dev/null 2>&1 ||
	{ echo "FAIL: bench/run.sh with a passing bench and BENCH_DOC failed"; rc_ok=0; }
doc=$T/doc/BENCHMARKS.md
if [ -f "$doc" ]; then
	grep -qE '^- Date: [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC$' "$doc" || { echo "FAIL: no date on the page"; rc_ok=0; }
	grep -qE "^- Machine: .+, $(nproc) CPUs, [0-9.]+ GiB memory, kernel $(uname -r)\$" "$doc" ||
		{ echo "FAIL: no machine line (CPU, nproc, memory, kernel) on the page"; rc_ok=0; }
	grep -qE '^- Load average \(1, 5, 15 min\): [0-9.]+ [0-9.]+ [0-9.]+ at the start, [0-9.]+ [0-9.]+ [0-9.]+ at the end$' "$doc" ||
		{ echo "FAIL: no load average on the page"; rc_ok=0; }
	[ "$(grep -c '^| benchmark |' "$doc")" = 1 ] || { echo "FAIL: the page has not exactly one table"; rc_ok=0; }
	[ "$(grep -n '^| good bench | 1 | 2 | 0.5 |' "$doc" | cut -d: -f1)" -gt "$(grep -n '^- Load average' "$doc" | cut -d: -f1)" ] 2>/dev/null ||
		{ echo "FAIL: the bench's row is not in the page's table, under the header"; rc_ok=0; }
	cmp -s "$doc" "$T/b/bench.md" || { echo "FAIL: the page differs from $B/bench.md"; rc_ok=0; }
else
	echo "FAIL: BENCH_DOC=$doc was not written"; rc_ok=0
fi
[ $rc_ok = 1 ] && echo ok
[ $rc_ok = 1 ]
