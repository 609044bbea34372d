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

source bench/lib.sh
ours_dump() { "$ours" $flag file $src; }
peer_dump() { bpftool $flag btf dump file $src; }

for fmt in raw json; do
	flag=
	[ $fmt = json ] && flag=-j
	time_pair "$fmt" ours_dump peer_dump
	awk -v f="$fmt" -v o="$o" -v p="$p" -v n="$RUNS" -v s="$same" -v fl="$flag" 'BEGIN {
		printf "| btfdump %s dump of vmlinux BTF vs `bpftool %sbtf dump` | %.4f s | %.4f s | %.3f | median of %d alternating runs, output %s |\n",
			f, fl ? fl " " : "", o, p, o / p, n, s
	}'
done
