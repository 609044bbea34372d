#!/bin/bash
# pahole master's register check counts the ABI slots each parameter takes
# by the size of its type: up to 8 bytes one register, 9..16 two, larger
# ones in memory. libbtf/dwarf_funcs takes that size from the BTF type the
# parameter already has, when BTF keeps it, and from the DWARF otherwise.
# This program has hand-written DWARF 4 from gcc, where the second
# parameter b (long) of each function comes after a 16-byte first one:
#  - f_u16(const t_u16 a, long b), t_u16 a typedef of a 16-byte union,
#    with b in rdx: the union takes rdi and rsi, so kept. The size is
#    found through const and typedef in BTF. A union is used because a
#    struct would excuse any register;
#  - f_e16(enum e16 a, long b), the enum 16 bytes in DWARF, with b in rdx:
#    kept. BTF has no 16-byte enum (it becomes 4 bytes), so the size must
#    come from the DWARF;
#  - f_bad(const t_u16 a, long b) with b in rsi: an unexpected register,
#    left out.
# ${K618} with master's rules: the FUNCs f_e16 f_u16.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=dwarf_asm.sh
. "$(dirname "$0")/dwarf_asm.sh"
P=$B/btfgen-pahole

# fn NAME TYPE-LABEL REG-OF-B: a function, a in rdi (DWARF reg 5), b in REG
fn() {
	printf '\t.uleb128 2\n\t.string "%s"\n\t.long .Llong - .Lcu\n\t.quad %s\n\t.quad 4\n' "$1" "$1"
	printf '\t.uleb128 3\n\t.string "a"\n\t.long %s - .Lcu\n\t.uleb128 1\n\t.byte 0x55\n' "$2"
	printf '\t.uleb128 3\n\t.string "b"\n\t.long .Llong - .Lcu\n\t.uleb128 1\n\t.byte %s\n\t.byte 0\n' "$3"
}
# abbreviations: 1 unit, 2 subprogram (external, name, type, low_pc,
# high_pc), 3 parameter (name, type, location as an expression), 4 base
# type, 5 union (name, size), 6 enum (name, size, type), 7 typedef, 8 const
gen() {
	asm_functions f_u16 f_e16 f_bad
	ab 1 0x11 1 0x25 0x08 0x13 0x0b 0x03 0x08 0x11 0x01 0x12 0x07
	ab 2 0x2e 1 0x3f 0x19 0x03 0x08 0x49 0x13 0x11 0x01 0x12 0x07
	ab 3 0x05 0 0x03 0x08 0x49 0x13 0x02 0x18
	ab 4 0x24 0 0x0b 0x0b 0x3e 0x0b 0x03 0x08
	ab 5 0x17 0 0x03 0x08 0x0b 0x0b
	ab 6 0x04 0 0x03 0x08 0x0b 0x0b 0x49 0x13
	ab 7 0x16 0 0x03 0x08 0x49 0x13
	ab 8 0x26 0 0x49 0x13
	printf '\t.byte 0\n\t.section .debug_info,"",@progbits\n.Lcu:\n'
	printf '\t.long .Lcu_end - .Lcu_ver\n.Lcu_ver:\n\t.value 4\n\t.long .Labbrev\n\t.byte 8\n'
	printf '\t.uleb128 1\n\t.string "GNU C17 12.2.0 -O2"\n\t.byte 0x1d\n\t.string "sizes.c"\n'
	printf '\t.quad f_u16\n\t.quad .Ltext_end - f_u16\n'
	printf '.Llong:\n\t.uleb128 4\n\t.byte 8\n\t.byte 5\n\t.string "long int"\n'
	printf '.Lu16:\n\t.uleb128 5\n\t.string "u16"\n\t.byte 16\n'
	printf '.Lt_u16:\n\t.uleb128 7\n\t.string "t_u16"\n\t.long .Lu16 - .Lcu\n'
	printf '.Lc_u16:\n\t.uleb128 8\n\t.long .Lt_u16 - .Lcu\n'
	printf '.Le16:\n\t.uleb128 6\n\t.string "e16"\n\t.byte 16\n\t.long .Llong - .Lcu\n'
	# b in rdx (DWARF reg 1: 0x51), or rsi (reg 4: 0x54)
	fn f_u16 .Lc_u16 0x51
	fn f_e16 .Le16 0x51
	fn f_bad .Lc_u16 0x54
	printf '\t.byte 0\n.Lcu_end:\n'
}

gen >"$T/t.s" && asm_program f_u16 || exit 1
"$P" -J --func_rules=master --btf_features=$K618 --btf_encode_detached="$T/o.btf" "$T/t" ||
	{ bad "btfgen-pahole failed"; exit 1; }
got=$("$B/btfdump" file "$T/o.btf" | awk '$2 == "FUNC" { print $3 }' | tr -d "'" | sort | tr '\n' ' ')
[ "$got" = "f_e16 f_u16 " ] || bad "FUNCs '$got', expected 'f_e16 f_u16 '"
[ $fail = 0 ] && echo "PASS: parameters' ABI slots by their types' sizes (BTF's through typedef and const, DWARF's for an enum)"
exit $fail
