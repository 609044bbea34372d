#!/bin/bash
# Runs every benchmark (bench/bench_*.sh). Each prints markdown table rows
# ("| what | ours | peer | ratio | notes |") on stdout and commentary on
# stderr. The collected table goes to $B/bench.md (the README quotes figures
# from it by hand, with the date and the machine; nothing here edits it).
# A bench that exits non-zero gets a "failed" row and makes this exit 1.
# Arguments: the benches to run (default: all of bench/bench_*.sh).
set -o pipefail
cd "$(dirname "$0")/.."
B=${B:-build}
mkdir -p "$B"
out=$B/bench.md
{
	echo "Measured by \`make bench\` on $(date -u +%Y-%m-%d), $(nproc) CPUs, kernel $(uname -r)."
	echo
	echo "| benchmark | ours | peer | ratio (ours/peer) | notes |"
	echo "|---|---|---|---|---|"
} >"$out"
[ $# -gt 0 ] || set -- bench/bench_*.sh
failed=()
for b in "$@"; do
	[ -f "$b" ] || continue
	echo "== $b" >&2
	if ! B=$B bash "$b" | tee -a "$out"; then
		echo "| $(basename "$b") | failed | | | see the output above |" >>"$out"
		failed+=("$b")
	fi
done
cat "$out"
echo "results in $out" >&2
if [ ${#failed[@]} -gt 0 ]; then
	echo "FAILED: ${failed[*]}" >&2
	exit 1
fi
