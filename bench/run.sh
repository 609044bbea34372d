#!/bin/bash
# Runs every benchmark (bench/bench_*.sh). Each prints markdown table rows
# ("| what | ours | peer | ratio | notes |") on stdout and commentary on
# stderr. The collected table goes to $B/bench/results.md and replaces the
# section between the BENCH markers in README.md.
cd "$(dirname "$0")/.."
B=${B:-build}
mkdir -p "$B/bench"
out=$B/bench/results.md
{
	echo "Measured by \`make bench\` on $(date -u +%Y-%m-%d), $(nproc) CPUs, kernel $(uname -r)."
	echo
	echo "| benchmark | ours | peer | ratio (ours/peer) | notes |"
	echo "|---|---|---|---|---|"
} >"$out"
for b in bench/bench_*.sh; do
	[ -f "$b" ] || continue
	echo "== $b" >&2
	B=$B bash "$b" | tee -a "$out" || echo "| $(basename "$b") | failed | | | |" >>"$out"
done
cat "$out"
if grep -q '<!-- BENCH:BEGIN -->' README.md; then
	awk -v f="$out" '
		/<!-- BENCH:BEGIN -->/ { print; while ((getline l < f) > 0) print l; skip=1; next }
		/<!-- BENCH:END -->/ { skip=0 }
		!skip { print }' README.md >README.md.tmp && mv README.md.tmp README.md
fi
