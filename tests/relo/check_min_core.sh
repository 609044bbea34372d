#!/bin/bash
# btfgen --min-core: the minimal BTF of a target for a set of objects must
# make libbpf (1.8, as relo_oracle) resolve every relocation of
# every object exactly as the target's whole BTF does (target_type_id aside:
# it gives the new, renumbered ids), and btfcheck --target-btf must agree
# with libbpf on it too; it is no larger than the newest bpftool's (v7.8,
# scripts/build-bpftool.sh's cache) gen min_core_btf output where that one
# is right. Targets: the CO-RE test layouts (tests/relo/lib.sh), the real
# kernels of real_targets and btfgen's BTF of Debian 6.1. Then the command
# line's errors.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: libbpf's load (the oracle) needs root"; exit 77; }
need_oracle
command -v jq >/dev/null || { echo "SKIP: jq missing"; exit 77; }
OBJ=$B/relo/cases.bpf.o
for f in "$OBJ" "$B/btfcheck" "$B/btfgen"; do
	[ -e "$f" ] || { echo "FAIL: $f missing (build first)"; exit 1; }
done
BPFTOOL=${BTF_BENCH_CACHE:-/var/cache/btf-bench}/bpftool-newest/bpftool
[ -x "$BPFTOOL" ] || { echo "note: no $BPFTOOL (scripts/build-bpftool.sh): sizes not compared"; BPFTOOL=; }
all_targets same moved gone prune split
objs=$(relo_objs)
# the (section, relo#) of an object's target_type_id relocations
type_ids() {
	"$B/btfcheck" --json --target-btf "$2" "$1" | jq -r 'select(.relocations) |
		.relocations[] | select(.kind == "target_type_id") | "\(.section) \(.relo) "'
}
drop() { # drop FILE-OF-PREFIXES < lines (FILENAME, not NR == FNR: that
	# would take every line for a prefix when the file is empty)
	awk 'FILENAME == ARGV[1] { skip[$1 " " $2] = 1; next } !(($1 " " $2) in skip)' "$1" -
}
total=0 n=0 sizes='' bpftool_wrong_split=0
for t in $targets; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # the object list
	if ! "$B/btfgen" --min-core --target-btf "$t" -o "$T/min$n.btf" $objs; then
		bad "btfgen --min-core on $t"
		continue
	fi
	full=$(stat -c %s "$t") min=$(stat -c %s "$T/min$n.btf")
	[ "$min" -lt "$full" ] || bad "$t: minimal BTF ($min bytes) not smaller than the whole ($full)"
	# no larger than bpftool's, where bpftool's is right (it keeps only the
	# first matching candidate of each relocation: wrong when a later
	# relocation needs the second one, the split target)
	k=0
	for o in $objs; do # libbpf on the whole BTF, target_type_id dropped
		k=$((k + 1))
		type_ids "$o" "$t" >"$T/tids$k"
		theirs "$o" "$t" | drop "$T/tids$k" >"$T/full$k" || bad "oracle $o / $t"
	done
	bt=
	# shellcheck disable=SC2086
	[ -n "$BPFTOOL" ] && "$BPFTOOL" gen min_core_btf "$t" "$T/bpftool$n.btf" $objs 2>/dev/null &&
		bt=$(stat -c %s "$T/bpftool$n.btf")
	bpftool_right=${bt:+yes}
	k=0
	for o in $objs; do
		[ -n "$bt" ] || break
		k=$((k + 1))
		theirs "$o" "$T/bpftool$n.btf" | drop "$T/tids$k" | cmp -s - "$T/full$k" ||
			bpftool_right=
	done
	if [ -n "$bpftool_right" ]; then
		[ "$min" -le "$bt" ] || bad "$t: $min bytes, bpftool gen min_core_btf $bt"
		sizes="$sizes $(basename "$t") $min/$bt"
	else
		echo "note: $(basename "$t"): bpftool gen min_core_btf's output ${bt:-(none)} bytes resolves otherwise than the whole BTF; ours $min"
		case $t in *split.btf) bpftool_wrong_split=1 ;; esac
	fi
	k=0
	for o in $objs; do
		k=$((k + 1))
		theirs "$o" "$T/min$n.btf" >"$T/theirs" || bad "oracle $o / min of $t"
		drop "$T/tids$k" <"$T/theirs" >"$T/min"
		if ! cmp -s "$T/full$k" "$T/min"; then
			bad "$(basename "$o"): libbpf resolves differently with the minimal BTF of $t"
			diff "$T/full$k" "$T/min" | head -6 | sed 's/^/    (< full, > minimal) /'
		fi
		ours "$o" "$T/min$n.btf" >"$T/ours"
		cmp -s "$T/ours" "$T/theirs" || bad "$(basename "$o"): btfcheck and libbpf differ on the minimal BTF of $t"
		total=$((total + $(wc -l <"$T/full$k")))
	done
done
[ "$total" -gt 200 ] || bad "only $total relocations compared"
[ -z "$BPFTOOL" ] || [ $bpftool_wrong_split = 1 ] ||
	bad "premise: bpftool's minimal BTF of the split target resolves otherwise"
echo "bytes (ours/bpftool's):$sizes"
# objects that need nothing of the target (none of cases.bpf.o's types is a
# kernel's): a BTF without types, which libbpf takes as btf_custom_path
# (bpftool writes one too; only BPF_BTF_LOAD would refuse it)
if "$B/btfgen" --min-core --target-btf /sys/kernel/btf/vmlinux -o "$T/none.btf" "$OBJ"; then
	[ "$(od -An -tu4 -j12 -N4 "$T/none.btf" | tr -d ' ')" = 0 ] ||
		bad "nothing needed: the minimal BTF has types"
	type_ids "$OBJ" /sys/kernel/btf/vmlinux >"$T/tids"
	theirs "$OBJ" /sys/kernel/btf/vmlinux | drop "$T/tids" >"$T/full"
	theirs "$OBJ" "$T/none.btf" | drop "$T/tids" | cmp -s - "$T/full" ||
		bad "nothing needed: libbpf resolves otherwise with the empty BTF"
else
	bad "nothing needed: no minimal BTF written"
fi
# the command line
"$B/btfgen" --min-core -o "$T/x.btf" "$OBJ" 2>"$T/err"
rc=$?
[ $rc = 2 ] || bad "--min-core without --target-btf: exit $rc, want 2"
"$B/btfgen" --min-core --target-btf "$T/same.btf" -o "$T/x.btf" "$T/same.btf" 2>"$T/err"
rc=$?
[ $rc = 4 ] && grep -q 'not a BPF object' "$T/err" || bad "a non-object: exit $rc"
[ ! -e "$T/x.btf" ] || bad "a failed run left its output"
"$B/btfgen" --min-core --target-btf "$T/same.btf" -o "$OBJ" "$OBJ" 2>"$T/err"
rc=$?
[ $rc = 2 ] || bad "output over an input: exit $rc, want 2"
[ $fail = 0 ] && echo "PASS: minimal BTF of $n targets: libbpf resolves $total relocations as with the whole BTF, btfcheck agrees, no larger than bpftool's"
exit $fail
