#!/bin/bash
# btfdump map vs `bpftool map dump` on live maps of N (default 20000)
# entries of a 152-byte struct: one typed by BTF, one without BTF (hex),
# plain text and JSON. Same run, alternating ours/peer, RUNS (default 5)
# runs each; median wall times and their ratio as markdown table rows. The
# outputs are first checked to be byte-identical. Needs root (maps live in
# a bpffs mounted for the run, removed afterwards).
cd "$(dirname "$0")/.."
B=${B:-build}
RUNS=${RUNS:-5}
N=${N:-20000}
T=$B/tests/mapdump
if [ "$(id -u)" != 0 ] || ! command -v bpftool >/dev/null || [ ! -x "$T/map_fixture" ]; then
	echo "SKIP: needs root, bpftool and $T/map_fixture" >&2
	exit 0
fi
# btfdump's own `map` command once main dispatches it, else the test driver
ours=$T/map_driver
tmp=$(mktemp -d /tmp/btfdump-bench-map.XXXXXX)
mkdir "$tmp/fs"
trap 'rm -f "$tmp"/fs/big_* 2>/dev/null; umount "$tmp/fs" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP PIPE
mount -t bpf bpf "$tmp/fs" || exit 0
"$T/map_fixture" --big "$N" "$T/maps.bpf.o" "$tmp/fs" || exit 1
if "$B/btfdump" map pinned "$tmp/fs/big_hex" >/dev/null 2>&1; then
	ours=$B/btfdump
fi
echo "ours: $ours" >&2
# ours [-j] pinned PATH
run_ours() {
	if [ "$ours" = "$B/btfdump" ]; then
		"$ours" ${1:+"$1"} map "${@:2}"
	else
		"$ours" ${1:+"$1"} "${@:2}"
	fi
}

source bench/lib.sh
ours_map() { run_ours "$flag" pinned "$pin"; }
peer_map() { bpftool $flag map dump pinned "$pin"; }

for m in big_btf big_hex; do
	for flag in "" -j; do
		pin=$tmp/fs/$m
		time_pair "$m $flag" ours_map peer_map
		what="typed by BTF"
		[ $m = big_hex ] && what="without BTF (hex)"
		awk -v w="$what" -v o="$o" -v p="$p" -v n="$RUNS" -v s="$same" -v fl="$flag" -v N="$N" 'BEGIN {
			printf "| btfdump map %sdump, hash of %d entries %s, vs `bpftool %smap dump` | %.4f s | %.4f s | %.3f | median of %d alternating runs, output %s |\n",
				fl ? fl " " : "", N, w, fl ? fl " " : "", o, p, o / p, n, s
		}'
	done
done
