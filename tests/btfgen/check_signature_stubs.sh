#!/bin/bash
# A unit may name a type by a stub, a declaration with DW_AT_signature
# (clang++ -fdebug-types-section emits them; in C units only hand-written
# DWARF has them, gcc's C units name type units by DW_FORM_ref_sig8): the
# stub stands for the type its type unit describes. Hand-written DWARF 5:
# two type units with anonymous structs {int a} and {long b}; each compile
# unit lists a stub of one of them at its top level (converted first, by
# lbtfi_dw_type_id) and a typedef T of the stub. btfgen must give the same
# types as from the same units with the structs defined in place (the
# referee), with reuse on and off (--features default,-reuse).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=dwarf_asm.sh
. "$(dirname "$0")/dwarf_asm.sh"

# abbreviations: 1 compile unit, 2 type unit, 3 struct (size), 4 member,
# 5 base type, 6 stub (declaration, signature), 7 typedef
abbrevs() {
	ab 1 0x11 1 0x25 0x08 0x13 0x0b 0x03 0x08 0x11 0x01 0x12 0x07
	ab 2 0x41 1 0x13 0x0b
	ab 3 0x13 1 0x0b 0x0b
	ab 4 0x0d 0 0x03 0x08 0x49 0x13 0x38 0x0b
	ab 5 0x24 0 0x0b 0x0b 0x3e 0x0b 0x03 0x08
	ab 6 0x13 0 0x3c 0x19 0x69 0x20
	ab 7 0x16 0 0x03 0x08 0x49 0x13
	printf '\t.byte 0\n'
}
# struct_def U N SIZE MEMBER BASE: the anonymous struct { BASE MEMBER; }
# (label .LsU_N, its base type .LbU_N) as children of the unit at .LU
struct_def() {
	printf '.Ls%s_%s:\n\t.uleb128 3\n\t.byte %s\n' "$1" "$2" "$3"
	printf '\t.uleb128 4\n\t.string "%s"\n\t.long .Lb%s_%s - .L%s\n\t.byte 0\n\t.byte 0\n' "$4" "$1" "$2" "$1"
	printf '.Lb%s_%s:\n\t.uleb128 5\n\t.byte %s\n\t.byte 5\n\t.string "%s"\n' "$1" "$2" "$3" "$5"
}
# the two structs, by number
def() { if [ "$2" = 1 ]; then struct_def "$1" 1 4 a int; else struct_def "$1" 2 8 b "long int"; fi; }
# gen MODE N1 N2: compile units c1, c2 naming struct N1 and N2; MODE stub:
# by stubs of type units (one per struct), plain: defined in place
gen() {
	local mode=$1 u n
	asm_functions f
	abbrevs
	printf '\t.section .debug_info,"",@progbits\n'
	if [ "$mode" = stub ]; then
		for n in 1 2; do
			printf '.Ltu%s:\n\t.long .Ltu%s_end - .Ltu%s_ver\n.Ltu%s_ver:\n' "$n" "$n" "$n" "$n"
			printf '\t.value 5\n\t.byte 2\n\t.byte 8\n\t.long .Labbrev\n'
			printf '\t.quad 0x%s\n\t.long .Lstu%s_%s - .Ltu%s\n' "$n$n$n$n$n$n$n$n$n$n$n$n$n$n$n$n" "$n" "$n" "$n"
			printf '\t.uleb128 2\n\t.byte 0x0c\n'
			def "tu$n" "$n"
			printf '\t.byte 0\n.Ltu%s_end:\n' "$n"
		done
	fi
	for u in 1 2; do
		n=$2; [ "$u" = 2 ] && n=$3
		printf '.Lc%s:\n\t.long .Lc%s_end - .Lc%s_ver\n.Lc%s_ver:\n' "$u" "$u" "$u" "$u"
		printf '\t.value 5\n\t.byte 1\n\t.byte 8\n\t.long .Labbrev\n'
		printf '\t.uleb128 1\n\t.string "GNU C17 12.2.0"\n\t.byte 0x0c\n\t.string "c%s.c"\n' "$u"
		printf '\t.quad f\n\t.quad .Ltext_end - f\n'
		if [ "$mode" = stub ]; then
			printf '.Lsc%s_%s:\n\t.uleb128 6\n\t.quad 0x%s\n' "$u" "$n" "$n$n$n$n$n$n$n$n$n$n$n$n$n$n$n$n"
		else
			def "c$u" "$n"
		fi
		printf '\t.uleb128 7\n\t.string "T"\n\t.long .Lsc%s_%s - .Lc%s\n' "$u" "$n" "$u"
		printf '\t.byte 0\n.Lc%s_end:\n' "$u"
	done
}

# conv NAME FEATURES: $T/NAME converted, its dump in $T/NAME.FEATURES.txt
conv() {
	"$B/btfgen" --features "$2" -o "$T/$1.btf" "$T/$1" &&
		"$B/btfdump" file "$T/$1.btf" >"$T/$1.$2.txt" && [ -s "$T/$1.$2.txt" ] ||
		{ bad "btfgen or btfdump: $1 with --features $2"; return 1; }
}
for pair in "1 2" "1 1" "2 1"; do
	for mode in stub plain; do
		# (word splitting of $pair wanted: the two struct numbers)
		# shellcheck disable=SC2086
		gen "$mode" $pair >"$T/t.s" && asm_program f && mv "$T/t" "$T/$mode" || exit 1
	done
	readelf --debug-dump=info "$T/stub" 2>/dev/null | grep -q 'DW_AT_signature *: signature: 0x' ||
		{ bad "no DW_AT_signature stub in the program"; exit 1; }
	for feat in default default,-reuse; do
		conv stub "$feat" && conv plain "$feat" || continue
		diff "$T/plain.$feat.txt" "$T/stub.$feat.txt" >&2 ||
			bad "structs $pair: the stubs give other types than the definitions (--features $feat)"
	done
	# and what the referee holds: each unit's T of its own struct
	want=$([ "${pair% *}" = "${pair#* }" ] && echo 1 || echo 2)
	got=$(grep -c "^\[[0-9]*\] TYPEDEF 'T'" "$T/stub.default.txt")
	[ "$got" = "$want" ] || bad "structs $pair: $got TYPEDEF T, expected $want"
done
[ $fail = 0 ] && echo "PASS: a unit's DW_AT_signature stubs converted as their type units' types"
exit $fail
