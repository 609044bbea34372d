#!/bin/bash
# vmlinux.h generation, ours vs bpftool with the same options on the same
# input (/sys/kernel/btf/vmlinux), output to a file:
#  - the newest bpftool (scripts/build-bpftool.sh; $BPFTOOL_NEWEST, default
#    /var/cache/btf-bench/bpftool-newest/bpftool): its default `format c`
#    (sorted, kfunc prototypes) against btfdump's default;
#  - bpftool 7.1 ($BPFTOOL_71, default Debian's bpftool when it says 7.1)
#    `format c` against `btfdump ... --compat 7.1`;
#  - the floor: $B/bench/dump_c_floor maps the BTF, walks its records once
#    and writes as many bytes as our header has (no ordering, no names, no
#    declarators): the least any tool must do; ours as a multiple of it.
# Fresh processes, alternating ours/peer RUNS times (default 11). Each run's
# CPU time (user + system, of that process alone) and wall time are taken;
# the figure is the median of the paired ratios (ours/peer of each pair) of
# CPU time, wall time beside it, with the medians of each side. CPU time is
# the steadier figure on a shared machine. Rows on stdout, notes (every
# run's times, the load average) on stderr.
cd "$(dirname "$0")/.." || exit 1
B=${B:-build}
runs=${RUNS:-11}
in=${DUMP_C_INPUT:-/sys/kernel/btf/vmlinux}
NB=${BPFTOOL_NEWEST:-/var/cache/btf-bench/bpftool-newest/bpftool}
B71=${BPFTOOL_71:-$(command -v bpftool)}
floor=$B/bench/dump_c_floor
[ -r "$in" ] || { echo "bench_dump_c: no $in, skipped" >&2; exit 0; }
[ -x "$B/btfdump" ] || { echo "bench_dump_c: no $B/btfdump" >&2; exit 1; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT

median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", (b > 0 ? a / b : 0) }'; }
version() { "$1" version 2>/dev/null | sed -n '1s/.* v/v/p'; }

# run OUT CMD...: runs CMD (stdout to OUT); sets cpu and wall (ms)
run() {
	local out=$1 t
	shift
	t=$( { TIMEFORMAT='%3R %3U %3S'; time "$@" >"$out" 2>"$w/err"; } 2>&1) ||
		{ echo "failed: $* ($(head -c 300 "$w/err"))" >&2; return 1; }
	wall=$(awk -v r="${t%% *}" 'BEGIN { printf "%.1f", r * 1000 }')
	cpu=$(echo "$t" | awk '{ printf "%.1f", ($2 + $3) * 1000 }')
}

# pair LABEL NOTE -- OURS... -- PEER...: one table row
pair() {
	local label=$1 note=$2 i same cpu wall
	local -a ours peer c_o c_p w_o w_p r_c r_w
	shift 3
	while [ "$1" != -- ]; do ours+=("$1"); shift; done
	shift
	peer=("$@")
	for ((i = 0; i < runs; i++)); do
		run "$w/ours.h" "${ours[@]}" || return 1
		c_o+=("$cpu") w_o+=("$wall")
		run "$w/peer.h" "${peer[@]}" || return 1
		c_p+=("$cpu") w_p+=("$wall")
		r_c+=("$(ratio "${c_o[i]}" "${c_p[i]}")") r_w+=("$(ratio "${w_o[i]}" "${w_p[i]}")")
	done
	if [ "$compare" = 1 ]; then
		same=$(cmp -s "$w/ours.h" "$w/peer.h" && echo "same output" ||
			echo "output differs in $(diff "$w/ours.h" "$w/peer.h" | grep -c '^[0-9]') hunk(s)")
	else
		same="output not compared"
	fi
	echo "$label: CPU ms ours ${c_o[*]}; peer ${c_p[*]}; ratios ${r_c[*]}" >&2
	echo "$label: wall ms ours ${w_o[*]}; peer ${w_p[*]}" >&2
	awk -v co="$(median "${c_o[@]}")" -v cp="$(median "${c_p[@]}")" \
	    -v wo="$(median "${w_o[@]}")" -v wp="$(median "${w_p[@]}")" \
	    -v rc="$(median "${r_c[@]}")" -v rw="$(median "${r_w[@]}")" \
	    -v n="$runs" -v l="$label" -v s="$same" -v note="$note" 'BEGIN {
		printf "| %s | %.1f ms CPU (%.1f wall) | %.1f ms CPU (%.1f wall) | %.2fx CPU, %.2fx wall | median of %d paired ratios, alternating fresh processes; %s%s |\n",
			l, co, wo, cp, wp, rc, rw, n, s, note }'
}

compare=1
echo "bench_dump_c: load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)" >&2
"$B/btfdump" file "$in" format c >"$w/size.h" || exit 1
if [ -x "$NB" ]; then
	pair "vmlinux.h (format c, sorted + kfuncs) vs newest bpftool $(version "$NB")" \
		" (deliberate: bpftool drops the first sorted type)" -- \
		"$B/btfdump" file "$in" format c -- "$NB" btf dump file "$in" format c || exit 1
else
	echo "bench_dump_c: no newest bpftool at $NB (scripts/build-bpftool.sh), that row skipped" >&2
fi
if [ -n "$B71" ] && [[ $(version "$B71") == v7.1.* ]]; then
	pair "vmlinux.h (format c --compat 7.1) vs bpftool $(version "$B71")" \
		" (deliberate: enum mode() attributes)" -- \
		"$B/btfdump" file "$in" format c --compat 7.1 -- "$B71" btf dump file "$in" format c || exit 1
else
	echo "bench_dump_c: no bpftool 7.1 (BPFTOOL_71), that row skipped" >&2
fi
# the floor: as a "peer", so the ratio is ours as a multiple of it
compare=0
if [ -x "$floor" ] && "$floor" "$in" 1 >/dev/null 2>&1; then
	pair "vmlinux.h floor (map the BTF, walk its records, write $(stat -c %s "$w/size.h") bytes): ours as a multiple of it" \
		" (text of the header's size, not a header)" -- \
		"$B/btfdump" file "$in" format c -- "$floor" "$in" "$(stat -c %s "$w/size.h")" || exit 1
else
	echo "bench_dump_c: no $floor or not raw BTF in $in, floor row skipped" >&2
fi
