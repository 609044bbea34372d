#!/bin/bash
# A FUNC's DECL_TAGs in pahole's style (libbtf/dwarf_funcs) come from the
# function's and its parameters' declarations, which may lie in another
# unit. A gcc unit writes no DW_TAG_LLVM_annotation, so for a gcc unit whose
# abstract origins and specifications all point into itself (as its
# abbreviations show) the declarations are not read. This program, with
# DWARF 4 written by hand, has a gcc unit that defines f_tagged with
# DW_AT_specification, and a parameter with DW_AT_abstract_origin, both as
# DW_FORM_ref_addr (the form dwz and LTO use) into a clang unit. That unit
# declares f_tagged with btf_decl_tag annotations: "f_tag" on the function
# and "p_tag" on its parameter. Both must reach the FUNC. A second program
# names its parameter itself (no origin), so only the specification leaves
# the unit: "f_tag" must still reach it. If the gcc unit were trusted
# without looking at its reference forms, or at the specification's, the
# tags would be lost.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=dwarf_asm.sh
. "$(dirname "$0")/dwarf_asm.sh"
P=$B/btfgen-pahole

# abbreviations: 1 gcc unit (producer, language, name, low_pc, high_pc),
# 2 subprogram (specification as ref_addr, low_pc, high_pc), 3 parameter
# (abstract origin as ref_addr, location), 4 base type, 5 clang unit
# (producer, language, name), 6 subprogram declaration (external, name,
# type, declaration), 7 parameter (name, type), 8 DW_TAG_LLVM_annotation
# (name, const_value), 9 parameter (name, type, location).
# gen origin|own: the gcc unit's parameter by its origin, or its own
gen() {
	asm_functions f_tagged
	ab 1 0x11 1 0x25 0x08 0x13 0x0b 0x03 0x08 0x11 0x01 0x12 0x07
	ab 2 0x2e 1 0x47 0x10 0x11 0x01 0x12 0x07
	# (only where used: the units share the table, and its every entry counts)
	[ "$1" = own ] || ab 3 0x05 0 0x31 0x10 0x02 0x18
	ab 4 0x24 0 0x0b 0x0b 0x3e 0x0b 0x03 0x08
	ab 5 0x11 1 0x25 0x08 0x13 0x0b 0x03 0x08
	ab 6 0x2e 1 0x3f 0x19 0x03 0x08 0x49 0x13 0x3c 0x19
	ab 7 0x05 1 0x03 0x08 0x49 0x13
	ab 8 0x6000 0 0x03 0x08 0x1c 0x08
	ab 9 0x05 0 0x03 0x08 0x49 0x13 0x02 0x18
	printf '\t.byte 0\n'
	printf '\t.section .debug_info,"",@progbits\n.Linfo:\n'
	# the gcc unit: the definition, its parameter in rdi (DW_OP_reg5)
	printf '\t.long .Lcu1_end - .Lcu1_ver\n.Lcu1_ver:\n\t.value 4\n\t.long .Labbrev\n\t.byte 8\n'
	printf '\t.uleb128 1\n\t.string "GNU C17 12.2.0 -O2"\n\t.byte 0x1d\n\t.string "def.c"\n'
	printf '\t.quad f_tagged\n\t.quad .Ltext_end - f_tagged\n'
	printf '.Llong1:\n\t.uleb128 4\n\t.byte 8\n\t.byte 5\n\t.string "long int"\n'
	printf '\t.uleb128 2\n\t.long .Ldecl - .Linfo\n\t.quad f_tagged\n\t.quad 4\n'
	if [ "$1" = origin ]; then
		printf '\t.uleb128 3\n\t.long .Ldecl_a - .Linfo\n\t.uleb128 1\n\t.byte 0x55\n'
	else
		printf '\t.uleb128 9\n\t.string "a"\n\t.long .Llong1 - .Linfo\n\t.uleb128 1\n\t.byte 0x55\n'
	fi
	printf '\t.byte 0\n\t.byte 0\n.Lcu1_end:\n'
	# the clang unit: the annotated declaration
	printf '.Lcu2:\n\t.long .Lcu2_end - .Lcu2_ver\n.Lcu2_ver:\n\t.value 4\n\t.long .Labbrev\n\t.byte 8\n'
	printf '\t.uleb128 5\n\t.string "clang version 16.0.6"\n\t.byte 0x1d\n\t.string "decl.c"\n'
	printf '.Llong:\n\t.uleb128 4\n\t.byte 8\n\t.byte 5\n\t.string "long int"\n'
	printf '.Ldecl:\n\t.uleb128 6\n\t.string "f_tagged"\n\t.long .Llong - .Lcu2\n'
	printf '.Ldecl_a:\n\t.uleb128 7\n\t.string "a"\n\t.long .Llong - .Lcu2\n'
	printf '\t.uleb128 8\n\t.string "btf_decl_tag"\n\t.string "p_tag"\n\t.byte 0\n'
	printf '\t.uleb128 8\n\t.string "btf_decl_tag"\n\t.string "f_tag"\n'
	printf '\t.byte 0\n\t.byte 0\n.Lcu2_end:\n'
}

declare -A want=([origin]="f_tag -1 p_tag 0 " [own]="f_tag -1 ")
for v in origin own; do
	gen $v >"$T/t.s" && asm_program f_tagged || continue
	for r in master v1.31; do
		"$P" -J --func_rules=$r --btf_features=$K618 --btf_encode_detached="$T/o.btf" "$T/t" ||
			{ bad "btfgen-pahole --func_rules=$r failed on the $v program"; continue; }
		# each DECL_TAG as "value component_idx" on the FUNC f_tagged
		got=$("$B/btfdump" file "$T/o.btf" | awk '
			/^\[/ { id = substr($1, 2, length($1) - 2) }
			$2 == "FUNC" && $3 == "'"'f_tagged'"'" { f = id }
			$2 == "DECL_TAG" { split($4, t, "="); split($5, c, "="); tag[++n] = $3 " " t[2] " " c[2] }
			END { for (i = 1; i <= n; i++) { split(tag[i], w, " "); if (w[2] == f) print w[1], w[3] } }' |
			tr -d "'" | sort | tr '\n' ' ')
		[ "$got" = "${want[$v]}" ] ||
			bad "$v program, $r rules: DECL_TAGs of f_tagged '$got', expected '${want[$v]}'"
	done
done
[ $fail = 0 ] && echo "PASS: a gcc unit's declarations in a clang unit (DW_FORM_ref_addr) give their DECL_TAGs (2 programs)"
exit $fail
