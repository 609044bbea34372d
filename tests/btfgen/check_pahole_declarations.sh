#!/bin/bash
# In pahole's style a subprogram DIE that is a declaration gives no FUNC.
# libbtf/dwarf_funcs can tell most declarations from their abbreviation
# alone (DW_AT_declaration as DW_FORM_flag_present) and then skips reading
# their attributes. This program has hand-written DWARF 4 from gcc with
# three functions that all have symbols:
#  - f_decl: only a declaration (flag_present), so no FUNC;
#  - f_flag0: DW_AT_declaration as DW_FORM_flag with value 0, a definition,
#    so a FUNC. The form must be looked at;
#  - f_twice: an abbreviation with DW_AT_declaration twice, flag_present
#    and then DW_FORM_flag 0. The last one counts, as when the attributes
#    are read, so a FUNC.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=dwarf_asm.sh
. "$(dirname "$0")/dwarf_asm.sh"
P=$B/btfgen-pahole

# abbreviations: 1 unit, 2 declaration (external, name, type, declaration
# flag_present), 3 subprogram (external, name, type, declaration as a
# flag, low_pc, high_pc), 4 the same with declaration flag_present then
# as a flag, 5 base type
gen() {
	asm_functions f_decl f_flag0 f_twice
	ab 1 0x11 1 0x25 0x08 0x13 0x0b 0x03 0x08 0x11 0x01 0x12 0x07
	ab 2 0x2e 0 0x3f 0x19 0x03 0x08 0x49 0x13 0x3c 0x19
	ab 3 0x2e 0 0x3f 0x19 0x03 0x08 0x49 0x13 0x3c 0x0c 0x11 0x01 0x12 0x07
	ab 4 0x2e 0 0x3f 0x19 0x03 0x08 0x49 0x13 0x3c 0x19 0x3c 0x0c 0x11 0x01 0x12 0x07
	ab 5 0x24 0 0x0b 0x0b 0x3e 0x0b 0x03 0x08
	printf '\t.byte 0\n\t.section .debug_info,"",@progbits\n.Lcu:\n'
	printf '\t.long .Lcu_end - .Lcu_ver\n.Lcu_ver:\n\t.value 4\n\t.long .Labbrev\n\t.byte 8\n'
	printf '\t.uleb128 1\n\t.string "GNU C17 12.2.0 -O2"\n\t.byte 0x1d\n\t.string "decls.c"\n'
	printf '\t.quad f_decl\n\t.quad .Ltext_end - f_decl\n'
	printf '.Llong:\n\t.uleb128 5\n\t.byte 8\n\t.byte 5\n\t.string "long int"\n'
	printf '\t.uleb128 2\n\t.string "f_decl"\n\t.long .Llong - .Lcu\n'
	printf '\t.uleb128 3\n\t.string "f_flag0"\n\t.long .Llong - .Lcu\n\t.byte 0\n\t.quad f_flag0\n\t.quad 4\n'
	printf '\t.uleb128 4\n\t.string "f_twice"\n\t.long .Llong - .Lcu\n\t.byte 0\n\t.quad f_twice\n\t.quad 4\n'
	printf '\t.byte 0\n.Lcu_end:\n'
}

gen >"$T/t.s" && asm_program f_decl || exit 1
for r in master v1.31; do
	"$P" -J --func_rules=$r --btf_features=$K618 --btf_encode_detached="$T/o.btf" "$T/t" ||
		{ bad "btfgen-pahole --func_rules=$r failed"; continue; }
	got=$("$B/btfdump" file "$T/o.btf" | awk '$2 == "FUNC" { print $3 }' | tr -d "'" | sort | tr '\n' ' ')
	[ "$got" = "f_flag0 f_twice " ] || bad "$r rules: FUNCs '$got', expected 'f_flag0 f_twice '"
done
[ $fail = 0 ] && echo "PASS: declarations told by their abbreviation's form, the last DW_AT_declaration counting"
exit $fail
