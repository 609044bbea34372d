#!/bin/bash
# vmlinux.h generation: ours vs `bpftool btf dump file /sys/kernel/btf/vmlinux
# format c`, same input, same kind of output file, alternating runs in one
# go; median wall time of each and the ratio. Rows on stdout, notes on stderr.
cd "$(dirname "$0")/.."
B=${B:-build}
runs=${RUNS:-11}
in=${DUMP_C_INPUT:-/sys/kernel/btf/vmlinux}
command -v bpftool >/dev/null || { echo "bench_dump_c: no bpftool, skipped" >&2; exit 0; }
[ -r "$in" ] || { echo "bench_dump_c: no $in, skipped" >&2; exit 0; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
# btfdump's command line once it has `format c`, else the library driver
if "$B/btfdump" file "$in" format c >"$w/probe.h" 2>/dev/null; then
	ours=("$B/btfdump" file "$in" format c) what=btfdump
else
	ours=("$B/tests/dump_c/dumpc_driver" "$in") what="lbtf_dump_c driver"
fi
peer=(bpftool btf dump file "$in" format c)

now() { echo "${EPOCHREALTIME/./}"; } # microseconds
t_ours=() t_peer=()
for ((i = 0; i < runs; i++)); do
	a=$(now); "${ours[@]}" >"$w/ours.h" || { echo "ours failed" >&2; exit 1; }; b=$(now)
	"${peer[@]}" >"$w/peer.h" || { echo "bpftool failed" >&2; exit 1; }; c=$(now)
	t_ours+=($((b - a))) t_peer+=($((c - b)))
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
mo=$(median "${t_ours[@]}") mp=$(median "${t_peer[@]}")
same=$(sed -E 's/ __attribute__\(\(mode\((byte|word|HI)\)\)\)//' "$w/ours.h" | cmp -s - "$w/peer.h" && echo "same output" || echo "OUTPUT DIFFERS")
echo "dump_c: $what vs bpftool, $runs alternating runs each, input $in ($(wc -l <"$w/ours.h") lines); $same" >&2
echo "ours runs (us): ${t_ours[*]}" >&2
echo "peer runs (us): ${t_peer[*]}" >&2
awk -v o="$mo" -v p="$mp" -v n="$runs" -v s="$same" 'BEGIN {
	printf "| vmlinux.h (format c) | %.1f ms | %.1f ms | %.2fx | median of %d alternating runs, %s |\n",
		o / 1000, p / 1000, o / p, n, s }'
