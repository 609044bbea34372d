#!/bin/bash
# btfgen --layout and pahole mode's --btf_features=layout (issue 32): base
# BTF with a layout section as libbpf 1.8's btf__new_empty_opts(add_layout)
# and pahole master write it (a 32-byte header; types, layout, strings):
#  - the layout section is byte for byte libbpf master's (its own BTF from
#    tests/parse/libbpf_layout.c), and libbpf master parses the output, raw
#    and in place in the ELF, with as many types as btfdump sees;
#  - the types and strings are those written without --layout;
#  - with --base it is refused (btfgen) or left out (pahole mode, as pahole).
# Needs libbpf >= 1.8 from scripts/build-libbpf.sh's cache (else SKIP).
. "$(dirname "$0")/../lib.sh"
G=$B/btfgen P=$B/btfgen-pahole D=$B/btfdump
need_libbpf18
build_libbpf18_prog tests/parse/libbpf_layout.c "$T/ref"
"$T/ref" gen "$T/libbpf.btf" || { echo "FAIL: libbpf cannot write its BTF"; exit 1; }

gcc -g -O1 -c tests/btfgen/layout_sample.c -o "$T/p.o" || { echo "FAIL: gcc"; exit 1; }

# header fields and sections of a raw blob: "hdr_len type_len layout_off layout_len str_off str_len"
hdr() { python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(); h=struct.unpack_from("<HBBIIIII",d); n=h[3]; l=struct.unpack_from("<II",d,24) if n>=32 else (0,0); print(n,h[5],l[0],l[1],h[6],h[7])' "$1"; }
# a section's bytes: sec FILE type|layout|str
sec() { python3 -c '
import struct,sys
d=open(sys.argv[1],"rb").read(); h=struct.unpack_from("<HBBIIIII",d); n=h[3]
l=struct.unpack_from("<II",d,24) if n>=32 else (0,0)
o,ln={"type":(h[4],h[5]),"layout":l,"str":(h[6],h[7])}[sys.argv[2]]
sys.stdout.buffer.write(d[n+o:n+o+ln])' "$1" "$2"; }

"$G" -o "$T/plain.btf" "$T/p.o" || bad "btfgen without --layout failed"
"$G" --layout -o "$T/lay.btf" "$T/p.o" || bad "btfgen --layout failed"
read -r hl tl lo ll so _ <<<"$(hdr "$T/lay.btf")"
[ "$hl" = 32 ] && [ "$ll" = 80 ] && [ "$lo" = "$tl" ] && [ "$so" = $((tl + ll)) ] ||
	bad "layout output header: hdr_len $hl type_len $tl layout $lo+$ll strings at $so"
read -r hl _ _ ll _ _ <<<"$(hdr "$T/plain.btf")"
[ "$hl" = 24 ] && [ "$ll" = 0 ] || bad "output without --layout has hdr_len $hl, layout_len $ll"
cmp -s <(sec "$T/lay.btf" layout) <(sec "$T/libbpf.btf" layout) ||
	bad "layout section differs from libbpf 1.8's"
for s in type str; do
	cmp -s <(sec "$T/lay.btf" $s) <(sec "$T/plain.btf" $s) || bad "$s section differs with --layout"
done
n=$("$D" file "$T/lay.btf" | grep -c '^\[')
ref=$("$T/ref" parse "$T/lay.btf")
[ "$ref" = "ok $((n + 1))" ] || bad "libbpf 1.8 on the --layout output: '$ref', btfdump sees $n types"
"$D" file "$T/plain.btf" >"$T/plain.txt" && "$D" file "$T/lay.btf" >"$T/lay.txt" &&
	cmp -s "$T/plain.txt" "$T/lay.txt" || bad "btfdump reads other types with --layout"

# in place: the ELF's .BTF, read by libbpf
cp "$T/p.o" "$T/ip.o"
"$G" --in-place --layout "$T/ip.o" || bad "btfgen --in-place --layout failed"
ref=$("$T/ref" parse "$T/ip.o")
[ "$ref" = "ok $((n + 1))" ] || bad "libbpf 1.8 on the in-place --layout ELF: '$ref'"

# split BTF gets none
"$G" --layout --base "$T/plain.btf" -o "$T/split.btf" "$T/p.o" 2>"$T/err"
rc=$?
[ $rc = 2 ] && grep -q -- '--layout' "$T/err" || bad "--layout --base: exit $rc, $(cat "$T/err")"

# pahole mode, as pahole master: layout for base BTF, ignored with --btf_base
"$P" --btf_features=default,layout --btf_encode_detached="$T/pa.btf" "$T/p.o" ||
	bad "btfgen-pahole --btf_features=default,layout failed"
read -r _ _ _ ll _ _ <<<"$(hdr "$T/pa.btf")"
[ "$ll" = 80 ] || bad "pahole mode: layout_len $ll with the layout feature"
"$P" --btf_features=default --btf_encode_detached="$T/pd.btf" "$T/p.o" ||
	bad "btfgen-pahole --btf_features=default failed"
read -r _ _ _ ll _ _ <<<"$(hdr "$T/pd.btf")"
[ "$ll" = 0 ] || bad "pahole mode: layout_len $ll without the layout feature"
"$P" --btf_features=default,layout --btf_base "$T/pd.btf" --btf_encode_detached="$T/ps.btf" "$T/p.o" ||
	bad "btfgen-pahole layout with --btf_base failed"
read -r _ _ _ ll _ _ <<<"$(hdr "$T/ps.btf")"
[ "$ll" = 0 ] || bad "pahole mode: split BTF got a layout section ($ll bytes)"

[ $fail = 0 ] && echo "PASS: --layout output as libbpf 1.8 writes and reads it"
exit $fail
