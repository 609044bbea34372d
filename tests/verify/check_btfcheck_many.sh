#!/bin/bash
# btfcheck over many inputs in one command prints, byte for byte, what one
# command per input prints, in turn: the blocks libbtf keeps from one
# object to the next (util/keep.h: .BTF's copy, its type offsets, the
# verifier's work arrays; io's read buffer) carry nothing over. Every BPF
# object the build has made (at least the corpus), smallest first and
# largest first (a block then serves a smaller BTF than the one it was made
# for), in several modes; exit status 1 when one of them is rejected.
# Both streams into one file (2>&1, stdout not a terminal: verdicts are
# buffered, not flushed one by one) hold them in the same order as one
# command each: each input's log and any error after the verdicts before.
. "$(dirname "$0")/../lib.sh"
BC=$B/btfcheck
[ -x "$BC" ] && [ -e "$B/corpus/maps_tc.bpf.o" ] || { echo "FAIL: $BC or $B/corpus missing (build first)"; exit 1; }
# EM_BPF (247) objects under $B, not those of another build inside it
prune=()
for d in "$B"/*/; do
	[ -x "$d/btfcheck" ] && prune+=(-path "${d%/}" -prune -o)
done
objs=()
while IFS= read -r o; do
	[ "$(od -An -tu2 -j18 -N2 "$o" 2>/dev/null | tr -d ' ')" = 247 ] && objs+=("$o")
done < <(find "$B" "${prune[@]}" -name '*.o' -type f -printf '%s %p\n' | sort -n | cut -d' ' -f2-)
[ ${#objs[@]} -ge 7 ] || { echo "FAIL: only ${#objs[@]} BPF objects under $B"; exit 1; }
# shellcheck disable=SC2034 # rev is read through many()'s name reference
mapfile -t rev < <(printf '%s\n' "${objs[@]}" | tac)
n=0
many() { # many ORDER MODE...: one command over the objects in ORDER vs one each
	local -n list=$1
	local o rc want=0
	: >"$T/one.out"; : >"$T/one.err"; : >"$T/one.both"
	for o in "${list[@]}"; do
		"$BC" "${@:2}" "$o" >>"$T/one.out" 2>>"$T/one.err"
		rc=$?
		[ $rc -gt 1 ] && { bad "btfcheck ${*:2} $o: exit $rc"; return; }
		[ $rc -eq 1 ] && want=1
		"$BC" "${@:2}" "$o" >>"$T/one.both" 2>&1
	done
	"$BC" "${@:2}" "${list[@]}" >"$T/many.out" 2>"$T/many.err"
	rc=$?
	"$BC" "${@:2}" "${list[@]}" >"$T/many.both" 2>&1
	n=$((n + 1))
	if [ $rc -ne $want ] || ! cmp -s "$T/one.out" "$T/many.out" || ! cmp -s "$T/one.err" "$T/many.err"; then
		bad "btfcheck ${*:2} over ${#list[@]} objects ($1): exit $rc (one by one: $want), output:"
		diff "$T/one.out" "$T/many.out" | head -5
		diff "$T/one.err" "$T/many.err" | head -5
	fi
	cmp -s "$T/one.both" "$T/many.both" ||
		bad "btfcheck ${*:2} over ${#list[@]} objects ($1), 2>&1: $(diff "$T/one.both" "$T/many.both" | head -5)"
}
for order in objs rev; do
	many $order
	many $order --json --log-level 2
	many $order --min-kernel --log-level 1
	many $order --raw --json
done
# an input that cannot be read, between two: its error after the first
# verdict (and log), before the second's
for mode in "" --log-level=1 --json; do
	: >"$T/one.both"
	for o in "${objs[0]}" "$T/missing.o" "${objs[1]}"; do
		"$BC" $mode "$o" >>"$T/one.both" 2>&1
	done
	"$BC" $mode "${objs[0]}" "$T/missing.o" "${objs[1]}" >"$T/many.both" 2>&1
	cmp -s "$T/one.both" "$T/many.both" ||
		bad "btfcheck $mode with an unreadable input between two, 2>&1: $(diff "$T/one.both" "$T/many.both" | head -5)"
done
[ $fail = 0 ] && echo "ok: $n commands over ${#objs[@]} objects print what one command per object prints (both streams apart and into one)"
exit $fail
