#!/bin/bash
# BTF of 2026's format (issue 32): a layout section in the header, kinds
# sized by it, 24-bit vlen, 7-bit kinds; differential against libbpf master
# (1.8) and bpftool v7.8:
#  - BTF written by libbpf's btf__new_empty_opts(add_layout) (every kind, a
#    FUNC_PROTO of 65537 params), in both byte orders, raw and in an ELF
#    .BTF, split over it with and without a layout of its own: libbtf
#    parses what libbpf parses, and btfdump's raw, JSON and C output is
#    bpftool's byte for byte;
#  - mutated copies (tests/parse/btf_layout_mut.py: unknown kinds sized by
#    the layout, kind 0, 7-bit kinds, layouts that cannot size a kind, the
#    section's bounds, shorter headers): the same verdict as libbpf's
#    btf__new, and the same dumps where it accepts (bpftool prints unknown
#    kinds as `UNKNOWN 'name'`; its C dump refuses BTF with one, and so
#    does btfdump, with nothing on stdout).
# Needs libbpf >= 1.8 from scripts/build-libbpf.sh's cache (else SKIP); the
# dump comparison needs bpftool >= v7.8 from scripts/build-bpftool.sh's.
. "$(dirname "$0")/../lib.sh"
CACHE=${LIBBPF_CACHE:-/var/cache/btf-bench}
D=$B/btfdump
need_libbpf18
build_libbpf18_prog tests/parse/libbpf_layout.c "$T/ref"
BT=$CACHE/bpftool-newest/bpftool
if [ -x "$BT" ] && "$BT" version 2>/dev/null | awk '/^bpftool v/ { split(substr($2, 2), v, "."); exit !(v[1] > 7 || (v[1] == 7 && v[2] >= 8)) }'; then
	:
else
	echo "note: no bpftool >= v7.8 in $CACHE (scripts/build-bpftool.sh): dumps not compared"
	BT=
fi

"$T/ref" gen "$T/le.btf" && "$T/ref" gen "$T/be.btf" be &&
	"$T/ref" split "$T/split.btf" plain "$T/le.btf" &&
	"$T/ref" split "$T/split_layout.btf" layout "$T/le.btf" &&
	"$T/ref" split "$T/split2.btf" plain "$T/split.btf" "$T/le.btf" ||
	{ echo "FAIL: libbpf cannot write the reference BTF"; exit 1; }
mkdir "$T/mut"
python3 tests/parse/btf_layout_mut.py "$T/le.btf" "$T/mut" || { echo "FAIL: mutator"; exit 1; }

# the same verdict as libbpf, and where both accept, bpftool's dumps
# ($1 the file, then btfdump's base option and bpftool's, if any)
compare() {
	local f=$1 n ref ours=0
	n=$(basename "$f" .btf)
	shift
	ref=$("$T/ref" parse "$f" "${@:2:1}")
	"$D" file "$f" "$@" >"$T/$n.raw" 2>"$T/$n.err" || ours=$?
	case "$ref:$ours" in
	ok*:0) ;;
	error*:0) bad "$n: libbpf refuses it ($ref), btfdump dumps it"; return ;;
	error*:*)
		[ -s "$T/$n.raw" ] && bad "$n: refused, yet something on stdout"
		grep -q "$n" "$T/$n.err" || bad "$n: the error does not name the file"
		return 0 ;;
	ok*:*) bad "$n: libbpf parses it ($ref), btfdump refuses it (exit $ours): $(cat "$T/$n.err")"; return ;;
	*) bad "$n: libbpf says '$ref'"; return ;;
	esac
	[ -n "$BT" ] || return 0
	local b=() rc_b rc_o
	[ $# -gt 0 ] && b=(-B "$2")
	"$BT" btf dump file "$f" "${b[@]}" >"$T/$n.braw" 2>/dev/null
	cmp -s "$T/$n.raw" "$T/$n.braw" || bad "$n: raw dump differs from bpftool's"
	"$BT" -j btf dump file "$f" "${b[@]}" >"$T/$n.bjson" 2>/dev/null
	"$D" -j file "$f" "$@" >"$T/$n.json" 2>/dev/null
	cmp -s "$T/$n.json" "$T/$n.bjson" || bad "$n: JSON dump differs from bpftool's"
	"$BT" btf dump file "$f" "${b[@]}" format c unsorted >"$T/$n.bc" 2>/dev/null
	rc_b=$?
	"$D" file "$f" "$@" format c --unsorted >"$T/$n.c" 2>"$T/$n.cerr"
	rc_o=$?
	cmp -s "$T/$n.c" "$T/$n.bc" || bad "$n: C dump differs from bpftool's"
	[ $((rc_b == 0)) = $((rc_o == 0)) ] || bad "$n: C dump exits $rc_o, bpftool $rc_b"
	echo "$n: $ref, dumps as bpftool's"
}

compare "$T/le.btf"
compare "$T/be.btf"
compare "$T/split.btf" --base "$T/le.btf"
compare "$T/split_layout.btf" --base "$T/le.btf"
# the wide vlen is read whole: 65537 params, not 1
grep -q "^\[20\] FUNC_PROTO '(anon)' ret_type_id=0 vlen=65537$" "$T/le.raw" ||
	bad "le.btf: FUNC_PROTO [20] not read with its 24-bit vlen"
[ "$(grep -c "^	'(anon)' type_id=1$" "$T/le.raw")" = 65537 ] ||
	bad "le.btf: not 65537 params under FUNC_PROTO [20]"
for f in "$T"/mut/*.btf; do
	compare "$f"
done
# the cases the mutator means to be refused are (by both)
for n in bad_past_layout bad_info_sz bad_elem_sz bad_layout_off_unaligned \
	bad_layout_len_partial bad_layout_in_types bad_layout_past_strs bad_hdr24_unknown; do
	[ -s "$T/$n.err" ] || bad "$n: accepted"
done
grep -q "^\[21\] UNKNOWN 'newkind'$" "$T/unknown37.raw" ||
	bad "unknown37: kind 37 not read as a kind of its own (5 bits make it a UNION)"
grep -q "^\[22\] INT 'after_int'" "$T/unknown_wide_vlen.raw" ||
	bad "unknown_wide_vlen: the type after the unknown kind is not where its layout puts it"

# split over split: libbpf and libbtf count the same ids, the types of the
# second split resolve their names through both strings sections
ref=$("$T/ref" parse "$T/split2.btf" "$T/split.btf" "$T/le.btf")
[ "$ref" = "ok 27" ] || bad "libbpf: split over split: $ref"

# in an ELF .BTF section, of either byte order: the same as raw
echo 'int x;' >"$T/x.c"
gcc -c "$T/x.c" -o "$T/x.o" || { echo "FAIL: gcc"; exit 1; }
for e in le be; do
	objcopy --add-section .BTF="$T/$e.btf" "$T/x.o" "$T/$e.o" ||
		{ bad "objcopy: cannot add .BTF"; continue; }
	"$D" file "$T/$e.o" >"$T/$e.elf.raw" || bad "$e.o: btfdump refuses its .BTF"
	cmp -s "$T/$e.elf.raw" "$T/$e.raw" || bad "$e.o: .BTF dump differs from the raw file's"
done

[ $fail = 0 ] && echo "PASS: layout section, unknown and wide kinds as libbpf 1.8 and bpftool v7.8"
exit $fail
