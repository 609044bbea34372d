#!/bin/bash
# Runs every benchmark (bench/bench_*.sh). Each prints markdown table rows
# ("| what | ours | peer | ratio | notes |") on stdout and commentary on
# stderr. The rows are collected under one header saying when and where
# they were measured (date, CPU model, CPUs, memory, kernel, load average at
# the start and the end) into $B/bench.md and, for a run of every bench,
# into docs/BENCHMARKS.md: the project's one page of figures, which nothing
# else quotes, so a figure can neither go stale elsewhere nor contradict
# another. A run of some benches only (arguments) leaves docs/ alone unless
# BENCH_DOC names where to write (BENCH_DOC= writes no page).
# A bench that exits non-zero gets a "failed" row and makes this exit 1.
# Arguments: the benches to run (default: all of bench/bench_*.sh).
set -o pipefail
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
mkdir -p "$B"
out=$B/bench.md
rows=$B/bench.rows
if [ $# -gt 0 ]; then
	doc=${BENCH_DOC-}
else
	doc=${BENCH_DOC-docs/BENCHMARKS.md}
	set -- bench/bench_*.sh
fi

# the machine, in one line: CPU model, online CPUs, memory, kernel
machine() {
	local cpu mem
	cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
	mem=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
	echo "${cpu:-$(uname -m)}, $(nproc) CPUs, ${mem:-unknown} memory, kernel $(uname -r)"
}
loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }

started=$(date -u '+%Y-%m-%d %H:%M UTC')
load_start=$(loadavg)
: >"$rows"
failed=()
ran=()
for b in "$@"; do
	[ -f "$b" ] || continue
	ran+=("$(basename "$b")")
	echo "== $b" >&2
	if ! B=$B bash "$b" | tee -a "$rows"; then
		echo "| $(basename "$b") | failed | | | see the output above |" >>"$rows"
		failed+=("$b")
	fi
done
load_end=$(loadavg)
{
	echo "# Benchmarks"
	echo
	echo "Written by \`make bench\` (bench/run.sh); not edited by hand. The method of each"
	echo "row is in the header comment of its bench/bench_*.sh. Single runs on a shared"
	echo "machine move by 10-20%: compare ratios measured in the same run."
	echo
	echo "- Date: $started"
	echo "- Machine: $(machine)"
	echo "- Load average (1, 5, 15 min): $load_start at the start, $load_end at the end"
	echo "- Benches: ${ran[*]:-none}${failed[*]:+ (failed: ${failed[*]})}"
	echo
	echo "| benchmark | ours | peer | ratio (ours/peer) | notes |"
	echo "|---|---|---|---|---|"
	cat "$rows"
} >"$out.tmp" && mv "$out.tmp" "$out" || { echo "bench/run.sh: cannot write $out" >&2; exit 1; }
rm -f "$rows"
cat "$out" || exit 1
echo "results in $out" >&2
if [ -n "$doc" ]; then
	mkdir -p "$(dirname "$doc")" && cp "$out" "$doc.tmp" && mv "$doc.tmp" "$doc" ||
		{ echo "bench/run.sh: cannot write $doc" >&2; rm -f "$doc.tmp"; exit 1; }
	echo "page written: $doc" >&2
fi
if [ ${#failed[@]} -gt 0 ]; then
	echo "FAILED: ${failed[*]}" >&2
	exit 1
fi
