#!/bin/bash
# btfcheck --target-kernel's rule sets (issue 32): the header, section and
# info-field rules of Linux 7.1 (layout section) and 7.2 (24-bit vlen, 7-bit
# kind) beside the default 6.15-6.18 set, on the raw cases of
# tests/verify/btf_rule_cases.py (the kernel selftests' kind of raw BTF
# test: one field bent, the verdict and the log's last line):
#  - each case's verdict under each rule set, and the default's with no
#    option and with a release before 7.1;
#  - the default set against the running kernel (BPF_BTF_LOAD, as root):
#    it must stay exact;
#  - libbpf 1.8's side: what it writes with a layout (btf__new_empty_opts
#    add_layout, a FUNC_PROTO of 65537 params) is refused by 7.1 for its
#    wide vlen and accepted by 7.2, in both byte orders; every case 7.2
#    accepts libbpf 1.8 parses, except those whose strings come before the
#    types or the layout (the kernel takes any order, libbpf only its own).
# The libbpf part needs libbpf >= 1.8 from scripts/build-libbpf.sh's cache
# (without it, a note and the rest).
. "$(dirname "$0")/../lib.sh"
C=$B/btfcheck
python3 tests/verify/btf_rule_cases.py "$T" >"$T/expect" || { echo "FAIL: case generator"; exit 1; }
n=0
while read -r name rules want; do
	n=$((n + 1))
	got=$("$C" --target-kernel "$rules" "$T/$name.btf" 2>&1)
	[ "$got" = "$T/$name.btf: $want" ] || bad "$name under $rules: want '$want', got '$got'"
	if [ "$rules" = 6.18 ]; then
		for opt in "" "--target-kernel=7.0"; do
			got=$("$C" $opt "$T/$name.btf" 2>&1)
			[ "$got" = "$T/$name.btf: $want" ] ||
				bad "$name with '$opt': want the default's '$want', got '$got'"
		done
	fi
done <"$T/expect"
[ "$n" -ge 50 ] || bad "only $n verdicts checked"

# the default rule set is the running kernel's
if [ "$(id -u)" = 0 ]; then
	for f in "$T"/*.btf; do
		out=$("$C" --kernel "$f" 2>&1)
		case "$out" in
		*"agrees"*) ;;
		*"not compared"*) echo "note: BPF_BTF_LOAD not permitted: not compared"; break ;;
		*) bad "$(basename "$f"): the kernel disagrees: $out" ;;
		esac
	done
else
	echo "note: not root: the default rule set not compared with the kernel"
fi

# libbpf 1.8: what it writes, and what it reads
CACHE=${LIBBPF_CACHE:-/var/cache/btf-bench}
if (need_libbpf18 >/dev/null); then
	need_libbpf18
	build_libbpf18_prog tests/parse/libbpf_layout.c "$T/ref"
	"$T/ref" gen "$T/le.lbtf" && "$T/ref" gen "$T/be.lbtf" be ||
		{ echo "FAIL: libbpf cannot write its BTF"; exit 1; }
	for e in le be; do
		f=$T/$e.lbtf
		got=$("$C" --target-kernel 7.1 "$f" 2>/dev/null)
		[ "$got" = "$f: rejected: [20] Invalid btf_info:d010001 (EINVAL)" ] ||
			bad "$e: libbpf's BTF under 7.1: $got"
		got=$("$C" --target-kernel 7.2 "$f" 2>/dev/null)
		[ "$got" = "$f: OK" ] || bad "$e: libbpf's BTF under 7.2: $got"
	done
	refused=
	while read -r name rules want; do
		[ "$rules:$want" = 7.2:OK ] || continue
		ref=$("$T/ref" parse "$T/$name.btf")
		case "$ref" in ok*) ;; *) refused="$refused $name" ;; esac
	done <"$T/expect"
	[ "$refused" = " hdr32_strs_first layout_strs_between" ] ||
		bad "accepted by 7.2 but not by libbpf 1.8:$refused (expected: the two string orders)"
else
	echo "note: no libbpf >= 1.8 in $CACHE: libbpf's side not checked"
fi
[ $fail = 0 ] && echo "PASS: $n rule-set verdicts, the default the kernel's"
exit $fail
