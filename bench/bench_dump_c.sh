#!/bin/bash
# vmlinux.h generation, ours vs bpftool with the same options on the same
# input (/sys/kernel/btf/vmlinux), output to a file:
#  - the newest bpftool (scripts/build-bpftool.sh; $BPFTOOL_NEWEST, default
#    /var/cache/btf-bench/bpftool-newest/bpftool): its default `format c`
#    (sorted, kfunc prototypes) against btfdump's default;
#  - Debian's bpftool 7.1 `format c` against `btfdump ... --compat 7.1`.
# Fresh processes, alternating ours/peer RUNS times (default 11); the figure
# is the median of the paired ratios (ours/peer of each pair), with the
# medians of each side's wall time. Rows on stdout, notes on stderr.
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
runs=${RUNS:-11}
in=${DUMP_C_INPUT:-/sys/kernel/btf/vmlinux}
NB=${BPFTOOL_NEWEST:-/var/cache/btf-bench/bpftool-newest/bpftool}
[ -r "$in" ] || { echo "bench_dump_c: no $in, skipped" >&2; exit 0; }
[ -x "$B/btfdump" ] || { echo "bench_dump_c: no $B/btfdump" >&2; exit 1; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

now() { echo "${EPOCHREALTIME/./}"; } # microseconds
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

# pair LABEL NOTE -- OURS... -- PEER...: one table row
pair() {
	local label=$1 note=$2 a b c i same
	local -a ours peer t_o t_p ratios
	shift 3
	while [ "$1" != -- ]; do ours+=("$1"); shift; done
	shift
	peer=("$@")
	for ((i = 0; i < runs; i++)); do
		a=$(now); "${ours[@]}" >"$w/ours.h" || { echo "ours failed: ${ours[*]}" >&2; return 1; }; b=$(now)
		"${peer[@]}" >"$w/peer.h" 2>/dev/null || { echo "peer failed: ${peer[*]}" >&2; return 1; }; c=$(now)
		t_o+=($((b - a))) t_p+=($((c - b)))
		ratios+=("$(awk -v o=$((b - a)) -v p=$((c - b)) 'BEGIN { printf "%.4f", o / p }')")
	done
	same=$(cmp -s "$w/ours.h" "$w/peer.h" && echo "same output" ||
		echo "output differs in $(diff "$w/ours.h" "$w/peer.h" | grep -c '^[0-9]') hunk(s)")
	echo "$label: ours ${t_o[*]} us; peer ${t_p[*]} us; ratios ${ratios[*]}" >&2
	awk -v o="$(median "${t_o[@]}")" -v p="$(median "${t_p[@]}")" -v r="$(median "${ratios[@]}")" \
	    -v n="$runs" -v l="$label" -v s="$same" -v note="$note" 'BEGIN {
		printf "| %s | %.1f ms | %.1f ms | %.2fx | median of %d paired ratios, alternating fresh processes; %s%s |\n",
			l, o / 1000, p / 1000, r, n, s, note }'
}

if [ -x "$NB" ]; then
	pair "vmlinux.h (format c, sorted + kfuncs) vs newest bpftool $("$NB" version | sed -n '1s/bpftool //p')" \
		" (deliberate: bpftool drops the first sorted type)" -- \
		"$B/btfdump" file "$in" format c -- "$NB" btf dump file "$in" format c || exit 1
else
	echo "bench_dump_c: no newest bpftool at $NB (scripts/build-bpftool.sh), that row skipped" >&2
fi
if command -v bpftool >/dev/null; then
	pair "vmlinux.h (format c --compat 7.1) vs bpftool $(bpftool version | sed -n '1s/bpftool //p')" \
		" (deliberate: enum mode() attributes)" -- \
		"$B/btfdump" file "$in" format c --compat 7.1 -- bpftool btf dump file "$in" format c || exit 1
fi
