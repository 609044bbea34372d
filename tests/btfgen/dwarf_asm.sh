# shellcheck shell=bash
# What the tests that write DWARF by hand in assembly share (sourced after
# ../lib.sh): abbreviations, the program built from the assembly, and the
# feature list of the kernel's 6.18 build for btfgen-pahole.
command -v gcc >/dev/null || skip "gcc not installed"
# shellcheck disable=SC2034 # read by the sourcing test
K618=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs

# ab CODE TAG CHILDREN ATTR FORM...: one abbreviation
ab() {
	printf '\t.uleb128 %s\n\t.uleb128 %s\n\t.byte %s\n' "$1" "$2" "$3"
	shift 3
	printf '\t.uleb128 %s\n' "$@" 0 0
}
# asm_program ENTRY: $T/t.s assembled and linked into $T/t (no libc), or a
# failure recorded
asm_program() {
	gcc -c -o "$T/t.o" "$T/t.s" && gcc -nostdlib -static -Wl,-e,"$1" -o "$T/t" "$T/t.o" ||
		{ bad "gcc: the program"; return 1; }
}
# asm_functions NAME...: the text of global functions of those names (each
# returns its first argument), .Ltext_end after them, then the start of
# .debug_abbrev (.Labbrev)
asm_functions() {
	local f
	printf '\t.text\n'
	for f; do
		printf '\t.globl %s\n\t.type %s, @function\n%s:\n\tmovq %%rdi, %%rax\n\tret\n\t.size %s, .-%s\n' \
			"$f" "$f" "$f" "$f" "$f"
	done
	printf '.Ltext_end:\n\t.section .debug_abbrev,"",@progbits\n.Labbrev:\n'
}
