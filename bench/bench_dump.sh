#!/bin/bash
# btfdump vs bpftool on /sys/kernel/btf/vmlinux: raw text and JSON dumps,
# same run, alternating ours/peer, RUNS (default 9, at least 5) runs each;
# prints the median wall times and their ratio as markdown table rows.
# Output goes to /dev/null for both (the formatting work is the same; the
# outputs are first checked to be byte-identical).
cd "$(dirname "$0")/.."
B=${B:-build}
RUNS=${RUNS:-9}
[ "$RUNS" -lt 5 ] && RUNS=5
src=/sys/kernel/btf/vmlinux
ours=$B/btfdump
if ! command -v bpftool >/dev/null || [ ! -r $src ] || [ ! -x "$ours" ]; then
	echo "SKIP: needs bpftool, $src and $ours" >&2
	exit 0
fi
# (a /dev/null replaced by a regular file would turn this into a file-write benchmark)
[ -c /dev/null ] || { echo "SKIP: /dev/null is not the null device on this machine" >&2; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# wall time of one command in seconds, output discarded
wall() {
	local s=$EPOCHREALTIME
	"$@" >/dev/null 2>&1
	local e=$EPOCHREALTIME
	awk -v a="$s" -v b="$e" 'BEGIN { printf "%.6f\n", b - a }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

for fmt in raw json; do
	flag=
	[ $fmt = json ] && flag=-j
	same=identical
	"$ours" $flag file $src >"$tmp/ours" 2>/dev/null
	bpftool $flag btf dump file $src >"$tmp/peer" 2>/dev/null
	cmp -s "$tmp/ours" "$tmp/peer" || same="DIFFERENT"
	: >"$tmp/t_ours"; : >"$tmp/t_peer"
	for ((i = 0; i < RUNS; i++)); do
		wall "$ours" $flag file $src >>"$tmp/t_ours"
		wall bpftool $flag btf dump file $src >>"$tmp/t_peer"
	done
	o=$(median <"$tmp/t_ours")
	p=$(median <"$tmp/t_peer")
	echo "$fmt: ours $(tr '\n' ' ' <"$tmp/t_ours")" >&2
	echo "$fmt: peer $(tr '\n' ' ' <"$tmp/t_peer")" >&2
	awk -v f="$fmt" -v o="$o" -v p="$p" -v n="$RUNS" -v s="$same" -v fl="$flag" 'BEGIN {
		printf "| btfdump %s dump of vmlinux BTF vs `bpftool %sbtf dump` | %.4f s | %.4f s | %.3f | median of %d alternating runs, output %s |\n",
			f, fl ? fl " " : "", o, p, o / p, n, s
	}'
done
