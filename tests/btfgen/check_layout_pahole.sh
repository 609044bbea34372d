#!/bin/bash
# The layout section against pahole master's (issue 32): btfgen-pahole
# --btf_features=default,layout and pahole master (1436daf, which writes
# it through its libbpf 1.8) on the same input give the same header shape
# (32 bytes; types, layout, strings) and the same layout section byte for
# byte: on a small object (raw and in place in the ELF) and on a kernel
# module of the Debian 6.1 build (as base BTF). Over --btf_base neither
# writes a layout section.
# Needs pahole master from scripts/build-pahole.sh's cache (else SKIP); the
# module part needs the cached module debug info (else a note).
. "$(dirname "$0")/../lib.sh"
C=${BTF_BENCH_CACHE:-/var/cache/btf-bench}
PM=$C/pahole-1436daf/bin/pahole
P=$B/btfgen-pahole
[ -x "$PM" ] || { echo "SKIP: no pahole master in $C (scripts/build-pahole.sh ... 1436daf)"; exit 77; }
command -v gcc >/dev/null || { echo "SKIP: gcc not installed"; exit 77; }
gcc -g -O1 -c tests/btfgen/layout_sample.c -o "$T/p.o" || { echo "FAIL: gcc"; exit 1; }

# "hdr_len type_len layout_off layout_len str_off" and the layout's bytes (hex)
shape() { python3 -c '
import struct,sys
d=open(sys.argv[1],"rb").read()
h=struct.unpack_from("<HBBIIIIIII",d+bytes(8)); n=h[3]
lo,ll=(h[8],h[9]) if n>=32 else (0,0)
print(n,h[5],lo,ll,h[6],d[n+lo:n+lo+ll].hex())' "$1"; }

# $1 name, $2 input, then more options for both
compare() {
	local n=$1 in=$2 s_pm s_o
	shift 2
	"$PM" -J --btf_features=default,layout --btf_encode_detached="$T/$n.pm" "$@" "$in" >/dev/null 2>&1 ||
		{ bad "$n: pahole master failed"; return; }
	"$P" -J --btf_features=default,layout --btf_encode_detached="$T/$n.o" "$@" "$in" >/dev/null 2>&1 ||
		{ bad "$n: btfgen-pahole failed"; return; }
	s_pm=$(shape "$T/$n.pm") s_o=$(shape "$T/$n.o")
	read -r hl tl lo ll so lay <<<"$s_o"
	if [ $# -eq 0 ]; then
		[ "$hl $lo $so" = "32 $tl $((tl + ll))" ] && [ "$ll" -gt 0 ] ||
			bad "$n: ours is not types, layout, strings under a 32-byte header: $hl $tl $lo $ll $so"
		[ "${s_pm%% *}" = 32 ] || bad "$n: pahole master's header is ${s_pm%% *} bytes"
		[ "${s_pm##* }" = "$lay" ] || bad "$n: the layout section differs from pahole master's"
	else
		[ "$ll" = 0 ] || bad "$n: split BTF with a layout section ($ll bytes)"
		read -r _ _ _ pll _ <<<"$s_pm"
		[ "$pll" = 0 ] || bad "$n: pahole master wrote a layout section for split BTF"
	fi
	echo "$n: layout ${ll} bytes, as pahole master"
}
compare small "$T/p.o"
compare split "$T/p.o" --btf_base="$T/small.pm"
# in place, in the ELF's .BTF
cp "$T/p.o" "$T/pm.o" && cp "$T/p.o" "$T/o.o"
"$PM" -J --btf_features=default,layout "$T/pm.o" >/dev/null 2>&1 || bad "pahole master -J in place failed"
"$P" -J --btf_features=default,layout "$T/o.o" >/dev/null 2>&1 || bad "btfgen-pahole -J in place failed"
objcopy --dump-section .BTF="$T/pm.sec" "$T/pm.o" && objcopy --dump-section .BTF="$T/o.sec" "$T/o.o" ||
	bad "no .BTF section to compare"
[ "$(shape "$T/pm.sec" | awk '{ print $1, $NF }')" = "$(shape "$T/o.sec" | awk '{ print $1, $NF }')" ] ||
	bad "in place: the header length or the layout section differs from pahole master's"
KO=$C/modules-6.1.0-57-amd64/usr/lib/debug/lib/modules/6.1.0-57-amd64/kernel/net/key/af_key.ko
if [ -r "$KO" ]; then
	compare af_key "$KO"
else
	echo "note: no $KO: no kernel module compared"
fi
[ $fail = 0 ] && echo "PASS: the layout section is pahole master's, byte for byte"
exit $fail
