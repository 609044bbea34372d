#!/bin/bash
# btfcheck's object mode against libbpf itself: for every corpus object
# ($B/corpus/*.bpf.o, the linked $B/corpus/link.o) and broken copies of each
# (tests/verify/btf_patch.py: a bad member type id, a bad struct name, a
# member past its struct, a DATASEC entry past its section), libbpf's own
# open + load on the running kernel (tests/verify/libbpf_btf.c) and
# `btfcheck --json` must give the same verdict, errno and last log line (or
# the same open failure), and the BTF libbpf loaded must be byte-identical
# to libbtf's lbtf_object_btf(). Then --raw: a rejection libbpf's fixups
# cure carries one hint line, one they do not cure none. All cases in one
# command give the records they give one command each. Objects without .BTF
# (tests/verify/nobtf.bpf.c built without -g, and corpus objects with .BTF
# removed) are judged as libbpf 1.1 judges them: opened and loaded without
# BTF, or refused for a .maps section or an extern; every errno by name.
. "$(dirname "$0")/../lib.sh"
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: libbpf's reference load needs root (BPF_BTF_LOAD)"
	exit 77
fi
REF=$B/tests/verify/libbpf_btf BC=$B/btfcheck

objs=("$B"/corpus/*.bpf.o "$B/corpus/link.o")
[ ${#objs[@]} -ge 7 ] || bad "corpus objects missing: ${objs[*]}"
for o in "${objs[@]}"; do
	[ -f "$o" ] || bad "$o missing"
done
mapfile -t broken < <(python3 tests/verify/btf_patch.py "$T" "${objs[@]}")
# without .BTF: plain (libbpf loads it), with .maps, with an extern
nobtf=()
for v in plain WITH_MAPS WITH_EXTERN; do
	bpf_cc -O2 "${BPF_INC[@]}" -D"$v" \
		-c tests/verify/nobtf.bpf.c -o "$T/nobtf.$v.o" || bad "nobtf.bpf.c -D$v does not build"
	nobtf+=("$T/nobtf.$v.o")
done
for o in "$B/corpus/maps_tc.bpf.o" "$B/corpus/tailcall_xdp.bpf.o"; do
	s=$T/$(basename "$o" .o).stripped.o
	llvm-objcopy --remove-section=.BTF --remove-section=.BTF.ext "$o" "$s" || bad "strip $o"
	nobtf+=("$s")
done
cases=("${objs[@]}" "${broken[@]}" "${nobtf[@]}")
[ ${#broken[@]} -ge 20 ] || bad "only ${#broken[@]} broken variants: ${broken[*]}"

# one reference line pair and one btfcheck record per case, compared at once
: >"$T/pairs"
for f in "${cases[@]}"; do
	"$REF" "$f" >"$T/ref" 2>"$T/ref.err"; rc=$?
	[ $rc = 0 ] || { bad "$f: libbpf_btf exit $rc $(head -c 300 "$T/ref.err")"; continue; }
	"$BC" --json "$f" >"$T/bc" 2>/dev/null
	cat "$T/bc" >>"$T/each"
	printf '%s\t%s\t%s\n' "$f" "$(tr '\n' '|' <"$T/ref")" "$(cat "$T/bc")" >>"$T/pairs"
done
# all cases in one command (of several sizes: the inputs before the last
# are read into one reused buffer, the last is mapped): the same records
"$BC" --json "${cases[@]}" >"$T/all" 2>/dev/null
cmp -s "$T/each" "$T/all" ||
	bad "one command over ${#cases[@]} cases differs from one command each: $(diff "$T/each" "$T/all" | head -c 600)"
python3 tests/verify/object_mode_pairs.py "$T/pairs" || fail=1

# --raw: clang's object as stored (DATASEC size 0) is rejected, with the hint
o=$B/corpus/maps_tc.bpf.o
"$BC" --raw "$o" >"$T/err" 2>/dev/null; rc=$?
[ $rc = 1 ] || bad "--raw $o: exit $rc, want 1"
[ "$(grep -c "hint: libbpf's fixups before loading (.*datasec_size.*) cure this" "$T/err")" = 1 ] ||
	bad "--raw $o: no hint line: $(cat "$T/err")"
"$BC" --raw --json "$o" >"$T/out" 2>/dev/null
grep -q '"mode":"raw".*"hint":"libbpf' "$T/out" || bad "--raw --json: no hint: $(cat "$T/out")"
c=$T/maps_tc.bpf.name.o
"$BC" --raw "$c" >"$T/err" 2>/dev/null; rc=$?
[ $rc = 1 ] || bad "--raw $c: exit $rc"
grep -q "hint:" "$T/err" && bad "--raw $c: a hint where libbpf's fixups do not help: $(cat "$T/err")"
"$BC" "$o" >"$T/err"; rc=$?
[ $rc = 0 ] && grep -q "OK \[BPF object: the BTF libbpf loads; fixups: datasec_size" "$T/err" ||
	bad "object mode on $o: exit $rc, $(cat "$T/err")"
# the text verdict of an object without .BTF, and a refusal by name
"$BC" "$T/nobtf.plain.o" >"$T/out"; rc=$?
[ $rc = 0 ] && grep -q "OK \[BPF object without .BTF: libbpf opens and loads it without BTF\]" "$T/out" ||
	bad "nobtf.plain.o: exit $rc: $(cat "$T/out")"
"$BC" "$T/nobtf.WITH_MAPS.o" >"$T/out"; rc=$?
[ $rc = 1 ] && grep -q "libbpf needs BTF for its .maps section.*(ENOENT)$" "$T/out" ||
	bad "nobtf.WITH_MAPS.o: exit $rc: $(cat "$T/out")"
exit $fail
