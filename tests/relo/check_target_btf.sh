#!/bin/bash
# btfcheck --target-btf against libbpf 1.8 built from its source (it
# resolves CO-RE relocations with btf_custom_path and logs every decision):
# every relocation of cases.bpf.o and of the corpus objects, on targets
# where fields moved, vanished, were renamed (___flavor), changed size or
# type, where two candidates disagree (ambiguity), where a candidate is
# dropped after one relocation, where libbpf 1.1 and 1.8 differ (an array
# field's load size, "signed" of an enum, a struct_ops program that no map
# created by default uses: struct_ops.bpf.c), and real kernels (real_targets:
# the running one, Debian's 6.1 and any other cached, edited copies, and
# btfgen's BTF of 6.1); each relocation's value, poisoning and failure must
# be libbpf's. btfcheck --libbpf 1.1 against the system's libbpf 1.1 on the
# same targets. Then the verdicts, the summary line, the exit status and
# --json's shape.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: libbpf's load (the oracle) needs root"; exit 77; }
need_oracle
command -v jq >/dev/null || { echo "SKIP: jq missing"; exit 77; }
OBJ=$B/relo/cases.bpf.o
for f in "$OBJ" "$B/btfcheck"; do
	[ -e "$f" ] || { echo "FAIL: $f missing (build first)"; exit 1; }
done

need_oracle_11
all_targets same moved gone ambig prune signed

objs=$(relo_objs)
# compare LIBBPF_ORACLE [BTFCHECK_OPTION...]: every object on every target;
# the relocations compared in $total, the targets in $ntargets
compare() {
	local oracle=$1 t o
	shift
	total=0 ntargets=0
	for t in $targets; do
		ntargets=$((ntargets + 1))
		for o in $objs; do
			ours "$o" "$t" "$@" >"$T/ours" || bad "btfcheck $* on $o / $t"
			ORACLE=$oracle theirs "$o" "$t" >"$T/theirs" || bad "relo_oracle on $o / $t"
			if ! cmp -s "$T/ours" "$T/theirs"; then
				bad "$(basename "$o") on $t: btfcheck $* and libbpf differ"
				diff "$T/theirs" "$T/ours" | head -10 |
					sed 's/^/    (< libbpf, > btfcheck) /'
			fi
			total=$((total + $(wc -l <"$T/theirs")))
		done
	done
}
compare "$ORACLE_11" --libbpf 1.1
total11=$total
[ "$total11" -gt 400 ] || bad "libbpf 1.1: only $total11 relocations compared"
compare "$ORACLE"
[ "$total" -gt 400 ] || bad "only $total relocations compared"
[ "$ntargets" -ge 10 ] || bad "only $ntargets targets"

# what the targets are made to show, as libbpf showed it above
grep -qx 'raw_tp 7 poison' <(theirs "$OBJ" "$T/moved.btf") ||
	bad "premise: libbpf poisons the signed field whose load size changes"
grep -qx 'raw_tp 6 value 52 mem 2->4' <(theirs "$OBJ" "$T/moved.btf") ||
	bad "premise: libbpf widens the unsigned field's load"
grep -qx 'raw_tp 0 fail' <(theirs "$OBJ" "$T/ambig.btf") ||
	bad "premise: libbpf fails on the offset ambiguity"
grep -qx 'raw_tp 1 value 8' <(theirs "$OBJ" "$T/prune.btf") ||
	bad "premise: libbpf drops the candidate that did not match an earlier relocation"
grep -qx 'raw_tp 10 value 0' <(theirs "$OBJ" "$T/gone.btf") ||
	bad "premise: the ___flavor struct finds the renamed field"
# where 1.8 and 1.1 differ, each as its libbpf said above
grep -qx 'raw_tp/corners 0 value 68' <(theirs "$OBJ" "$T/moved.btf") ||
	bad "premise: libbpf 1.8 checks an array field's element size"
grep -qx 'raw_tp/corners 0 poison' <(ORACLE=$ORACLE_11 theirs "$OBJ" "$T/moved.btf") ||
	bad "premise: libbpf 1.1 checks an array field's whole size"
grep -qx 'raw_tp 31 value 0' <(theirs "$OBJ" "$T/signed.btf") ||
	bad "premise: libbpf 1.8 says an unsigned enum is unsigned"
grep -qx 'raw_tp 31 value 1' <(ORACLE=$ORACLE_11 theirs "$OBJ" "$T/signed.btf") ||
	bad "premise: libbpf 1.1 reads the word after the enum"
SO=$B/relo/struct_ops.bpf.o
! grep -q '^struct_ops/cc_unused ' <(theirs "$SO" "$T/same.btf") &&
	grep -q '^struct_ops/cc_used ' <(theirs "$SO" "$T/same.btf") ||
	bad "premise: libbpf 1.8 skips a struct_ops program only a ?.struct_ops map uses"
grep -q '^struct_ops/cc_unused ' <(ORACLE=$ORACLE_11 theirs "$SO" "$T/same.btf") ||
	bad "premise: libbpf 1.1 relocates every struct_ops program"

# verdicts, summary and exit status
"$B/btfcheck" --target-btf "$T/same.btf" "$OBJ" >"$T/same.txt"
rc=$?
[ $rc = 0 ] || bad "same layout: exit $rc, want 0"
grep -q "cases.bpf.o: on $T/same.btf: loads (" "$T/same.txt" || bad "same layout: no 'loads' verdict"
grep -q 'struct rec___v2::renamed: poisoned (guarded by an existence check)' "$T/same.txt" ||
	bad "the guarded flavor read is not reported as guarded"
"$B/btfcheck" --target-btf "$T/same.btf" --target-btf "$T/moved.btf" --target-btf "$T/ambig.btf" \
	"$OBJ" >"$T/three.txt"
rc=$?
[ $rc = 1 ] || bad "moved/ambig: exit $rc, want 1"
grep -q "cases.bpf.o: loads on 1 of 3 targets; fails on $T/moved.btf: struct rec::s16f: load/store size 2 -> 4" \
	"$T/three.txt" || { bad "summary line"; tail -1 "$T/three.txt"; }
grep -q "; $T/ambig.btf: struct rec::a: field offset ambiguity" "$T/three.txt" ||
	bad "summary: the ambiguity"
grep -q 'raw_tp #0 insn 4 byte_off struct rec::a: FAILS: field offset ambiguity: \[.*\] at bit 0, \[.*\] at bit 64 (EINVAL)' \
	"$T/three.txt" || bad "the failing relocation's line"
# a directory of targets: its files in name order
mkdir "$T/dir" && cp "$T/same.btf" "$T/dir/a.btf" && cp "$T/gone.btf" "$T/dir/b.btf"
"$B/btfcheck" --quiet --target-btf "$T/dir" "$OBJ" >"$T/dir.txt"
[ "$(grep -c ': on ' "$T/dir.txt")" = 2 ] || bad "a directory target: want 2 verdicts"
grep -q "loads on 1 of 2 targets; fails on $T/dir/b.btf: struct rec::a: field not found" "$T/dir.txt" ||
	bad "directory summary"
! grep -qE $'^\t[^ ]+ #[0-9]+ insn ' "$T/dir.txt" || bad "--quiet printed relocations"
grep -qE $'^\t[^ ]+ #[0-9]+ insn ' "$T/same.txt" || bad "no relocation lines without --quiet"
# --json: one object per object x target, then the summary
"$B/btfcheck" --json --target-btf "$T/same.btf" --target-btf "$T/gone.btf" "$OBJ" >"$T/j"
[ "$(jq -s length "$T/j")" = 3 ] || bad "--json: want 3 lines"
[ "$(jq -rs '.[1].verdict' "$T/j")" = poisoned ] || bad "--json: gone's verdict"
[ "$(jq -rs '.[2].loads_on' "$T/j")" = 1 ] || bad "--json: summary"
[ "$(jq -rs '.[0].relocations[0].path' "$T/j")" = "struct rec::a" ] || bad "--json: path"
[ "$(jq -rs '.[0].libbpf' "$T/j")" = 1.8 ] || bad "--json: the rules are not said to be 1.8's"
[ "$("$B/btfcheck" --libbpf 1.1 --json --target-btf "$T/same.btf" "$OBJ" | jq -rs '.[0].libbpf')" = 1.1 ] ||
	bad "--json --libbpf 1.1: the rules are not said to be 1.1's"
# bad targets and objects: named, exit 4/5
printf 'not btf' >"$T/junk.btf"
"$B/btfcheck" --target-btf "$T/junk.btf" "$OBJ" 2>"$T/err" >/dev/null
rc=$?
[ $rc = 4 ] && grep -q "junk.btf" "$T/err" || bad "junk target: exit $rc, $(cat "$T/err")"
"$B/btfcheck" --target-btf "$T/nonexistent" "$OBJ" 2>"$T/err" >/dev/null
rc=$?
[ $rc = 5 ] && grep -q "nonexistent" "$T/err" || bad "missing target: exit $rc"
"$B/btfcheck" --target-btf "$T/same.btf" "$T/same.btf" 2>"$T/err" >/dev/null
rc=$?
[ $rc = 4 ] && grep -q "not a BPF object" "$T/err" || bad "a non-object: exit $rc, $(cat "$T/err")"
"$B/btfcheck" --libbpf 1.5 --target-btf "$T/same.btf" "$OBJ" 2>"$T/err" >/dev/null
rc=$?
[ $rc = 2 ] && grep -q "bad --libbpf '1.5'" "$T/err" || bad "--libbpf 1.5: exit $rc, $(cat "$T/err")"
[ $fail = 0 ] && echo "PASS: $total relocations (of $(echo "$objs" | wc -w) objects) over $ntargets targets agree with libbpf 1.8, $total11 with libbpf 1.1 (--libbpf 1.1); verdicts, summary, --json"
exit $fail
