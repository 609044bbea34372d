# Sourced (not run) by bench/bench_*.sh: timing ours against the peer.

# wall time of one command in seconds, its output discarded
wall() {
	local s=$EPOCHREALTIME
	"$@" >/dev/null 2>&1
	local e=$EPOCHREALTIME
	awk -v a="$s" -v b="$e" 'BEGIN { printf "%.6f\n", b - a }'
}

# median of the numbers on stdin, one a line
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# time_pair LABEL OURS PEER: OURS and PEER are commands (functions) with the
# same job. Their outputs are compared once (same=identical or DIFFERENT),
# then they run RUNS times each, alternating; o and p are set to the median
# wall times in seconds, all times go to stderr. Uses the work dir $tmp.
time_pair() {
	local i # (no locals named like the callers' variables: the commands see them)
	same=identical
	"$2" >"$tmp/ours" 2>/dev/null
	"$3" >"$tmp/peer" 2>/dev/null
	cmp -s "$tmp/ours" "$tmp/peer" || same=DIFFERENT
	: >"$tmp/t_ours"; : >"$tmp/t_peer"
	for ((i = 0; i < RUNS; i++)); do
		wall "$2" >>"$tmp/t_ours"
		wall "$3" >>"$tmp/t_peer"
	done
	o=$(median <"$tmp/t_ours")
	p=$(median <"$tmp/t_peer")
	echo "$1: ours $(tr '\n' ' ' <"$tmp/t_ours")" >&2
	echo "$1: peer $(tr '\n' ' ' <"$tmp/t_peer")" >&2
}
