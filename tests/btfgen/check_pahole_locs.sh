#!/bin/bash
# The register a parameter arrives in, read from its location list
# (libbtf/dwarf_funcs: funcs_abi.c for pahole master's rules, funcs.c for
# v1.31's), on hand-written DWARF 4 (.debug_loc) and 5 (.debug_loclists):
# the first parameter of each function is long, expected in rdi (reg5).
#  - f_unexp: a constant first, then DW_OP_entry_value(rsi): the register
#    is rsi, met in the second expression; both rules leave the function
#    out (an unexpected register);
#  - f_late_ok: a constant, then entry_value(rdi), then entry_value(rsi):
#    the first register met (rdi) is the one: kept by both;
#  - f_first_bad: rsi as the whole first expression, then entry_value(rdi):
#    master takes rsi (left out), v1.31 stops at the expected rdi (kept).
#  - zz_two: two static functions of that name (the greatest name: not
#    left out for its two addresses), the first described at the second
#    symbol's address with parameter "second", the other at the first
#    symbol's with (first, other). Master's FUNC is its first copy at one
#    of its symbols: (second), also when a name's first symbol does not say
#    where its other copies are; without consistent_func (which leaves the
#    name out, its prototypes differing).
# A reading that stops at the first expression, or takes the last register,
# gets f_unexp or f_late_ok wrong. The local symbols f_late_ok.cold and
# f_first_bad.part.0 (pieces, not clones: no functions) must not make
# their names' symbols sit at two addresses. When pahole v1.31 and master (1436daf)
# are cached (scripts/build-pahole.sh), the FUNCs are also theirs.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
P=$B/btfgen-pahole
command -v gcc >/dev/null || skip "gcc not installed"
FUNCS="f_unexp f_late_ok f_first_bad"
# the copies of zz_two, at symbols zz_two and zz_twX (renamed zz_two once
# assembled: two local symbols of one name): "symbol parameter..."
ZZ=("zz_twX second" "zz_two first other")

# gen VERSION: the program's assembly, its DWARF by hand
gen() {
	local v=$1 f
	printf '\t.text\n'
	for f in $FUNCS; do
		printf '\t.globl %s\n\t.type %s, @function\n%s:\n\tmovq %%rdi, %%rax\n\tret\n\t.size %s, .-%s\n' \
			"$f" "$f" "$f" "$f" "$f"
	done
	# pieces of functions at other addresses, which are no functions (a
	# name's symbols at two addresses would leave it out)
	for f in f_late_ok.cold f_first_bad.part.0 zz_two zz_twX; do
		printf '\t.type %s, @function\n%s:\n\tret\n\t.size %s, .-%s\n' "$f" "$f" "$f" "$f"
	done
	# abbreviations: 1 unit (producer, language, name, low_pc, high_pc),
	# 2 subprogram (external, name, type, low_pc, high_pc), 3 parameter
	# (name, type, location as a list), 4 base type
	printf '.Ltext_end:\n\t.section .debug_abbrev,"",@progbits\n.Labbrev:\n'
	printf '\t.uleb128 %s\n' 1 0x11 && printf '\t.byte 1\n'
	printf '\t.uleb128 %s\n' 0x25 0x08 0x13 0x0b 0x03 0x08 0x11 0x01 0x12 0x07 0 0
	printf '\t.uleb128 %s\n' 2 0x2e && printf '\t.byte 1\n'
	printf '\t.uleb128 %s\n' 0x3f 0x19 0x03 0x08 0x49 0x13 0x11 0x01 0x12 0x07 0 0
	printf '\t.uleb128 %s\n' 3 0x05 && printf '\t.byte 0\n'
	printf '\t.uleb128 %s\n' 0x03 0x08 0x49 0x13 0x02 0x17 0 0
	printf '\t.uleb128 %s\n' 4 0x24 && printf '\t.byte 0\n'
	printf '\t.uleb128 %s\n' 0x0b 0x0b 0x3e 0x0b 0x03 0x08 0 0 0
	printf '\t.section .debug_info,"",@progbits\n.Lcu:\n\t.long .Lcu_end - .Lcu_ver\n.Lcu_ver:\n\t.value %s\n' "$v"
	if [ "$v" = 5 ]; then
		printf '\t.byte 1\n\t.byte 8\n\t.long .Labbrev\n'
	else
		printf '\t.long .Labbrev\n\t.byte 8\n'
	fi
	printf '\t.uleb128 1\n\t.string "GNU C17 12.2.0 -O2"\n\t.byte 0x1d\n\t.string "locs.c"\n'
	printf '\t.quad f_unexp\n\t.quad .Ltext_end - f_unexp\n'
	printf '.Llong:\n\t.uleb128 4\n\t.byte 8\n\t.byte 5\n\t.string "long int"\n'
	for f in $FUNCS; do
		printf '\t.uleb128 2\n\t.string "%s"\n\t.long .Llong - .Lcu\n\t.quad %s\n\t.quad 4\n' "$f" "$f"
		printf '\t.uleb128 3\n\t.string "a"\n\t.long .Llong - .Lcu\n\t.long .Lloc_%s\n\t.byte 0\n' "$f"
	done
	for z in "${ZZ[@]}"; do
		read -r -a w <<<"$z"
		printf '\t.uleb128 2\n\t.string "zz_two"\n\t.long .Llong - .Lcu\n\t.quad %s\n\t.quad 1\n' "${w[0]}"
		for f in "${w[@]:1}"; do
			printf '\t.uleb128 3\n\t.string "%s"\n\t.long .Llong - .Lcu\n\t.long .Lloc_%s\n' "$f" "$f"
		done
		printf '\t.byte 0\n'
	done
	printf '\t.byte 0\n.Lcu_end:\n'
	if [ "$v" = 5 ]; then
		printf '\t.section .debug_loclists,"",@progbits\n\t.long .Lll_end - .Lll_start\n'
		printf '.Lll_start:\n\t.value 5\n\t.byte 8\n\t.byte 0\n\t.long 0\n'
	else
		printf '\t.section .debug_loc,"",@progbits\n'
	fi
	# DW_OP_lit0 DW_OP_stack_value: 0x30 0x9f; DW_OP_entry_value(DW_OP_reg4)
	# DW_OP_stack_value: 0xa3 1 0x54 0x9f; DW_OP_reg4 (rsi): 0x54; reg5 (rdi): 0x55
	printf '.Lloc_f_unexp:\n'
	entry "$v" 0 0x30 0x9f
	entry "$v" 1 0xa3 1 0x54 0x9f
	end_list "$v"
	printf '.Lloc_f_late_ok:\n'
	entry "$v" 0 0x30 0x9f
	entry "$v" 1 0xa3 1 0x55 0x9f
	entry "$v" 2 0xa3 1 0x54 0x9f
	end_list "$v"
	printf '.Lloc_f_first_bad:\n'
	entry "$v" 0 0x54
	entry "$v" 1 0xa3 1 0x55 0x9f
	end_list "$v"
	# zz_two's parameters where the ABI has them
	for f in second:0x55 first:0x55 other:0x54; do
		printf '.Lloc_%s:\n' "${f%:*}"
		entry "$v" 0 "${f#*:}"
		end_list "$v"
	done
	[ "$v" = 4 ] || printf '.Lll_end:\n'
}
# entry VERSION START EXPRESSION-BYTES...: one entry of a list, over
# [START, START + 1) from the unit's base
entry() {
	local v=$1 s=$2
	shift 2
	if [ "$v" = 5 ]; then # DW_LLE_offset_pair
		printf '\t.byte 4\n\t.uleb128 %d\n\t.uleb128 %d\n\t.uleb128 %d\n' "$s" $((s + 1)) $#
	else
		printf '\t.quad %d\n\t.quad %d\n\t.value %d\n' "$s" $((s + 1)) $#
	fi
	printf '\t.byte %s\n' "$(IFS=,; echo "$*")"
}
end_list() { if [ "$1" = 5 ]; then printf '\t.byte 0\n'; else printf '\t.quad 0\n\t.quad 0\n'; fi; }
# funcs FILE: its FUNCs' names, sorted, zz_two's with its parameters' names
funcs() {
	"$B/btfdump" file "$1" | awk '
		/^\[/ { id = substr($1, 2, length($1) - 2) }
		/^\t/ { params[id] = params[id] "," $1 }
		$2 == "FUNC" { f[++n] = $3; split($4, a, "="); proto[n] = a[2] }
		END { for (i = 1; i <= n; i++) print f[i] (f[i] == "'"'zz_two'"'" ? params[proto[i]] : "") }' |
		tr -d "'" | sort | tr '\n' ' '
}

K618=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs
# shellcheck disable=SC2034 # read as ${!fl}
NOCONS=${K618/,consistent_func/}
# the FUNCs expected of each feature list and rules (pahole master: 1436daf)
declare -A want=(
	[K618:master]="f_late_ok "
	[K618:v1.31]="f_first_bad f_late_ok "
	[NOCONS:master]="f_late_ok zz_two,second "
	[NOCONS:v1.31]="f_first_bad f_late_ok f_unexp zz_two,second "
)
C=${BTF_BENCH_CACHE:-/var/cache/btf-bench}
compared=
for v in 4 5; do
	gen "$v" >"$T/t$v.s" && gcc -c -o "$T/t$v.o" "$T/t$v.s" &&
		objcopy --redefine-sym zz_twX=zz_two "$T/t$v.o" &&
		gcc -nostdlib -static -Wl,-e,f_unexp -o "$T/t$v" "$T/t$v.o" ||
		{ bad "gcc: the DWARF $v program"; continue; }
	[ "$(readelf -sW "$T/t$v" | awk '$4 == "FUNC" && $8 == "zz_two"' | wc -l)" = 2 ] ||
		bad "DWARF $v program: not two zz_two symbols"
	for fl in K618 NOCONS; do
		for r in master v1.31; do
			"$P" -J --func_rules=$r --btf_features="${!fl}" --btf_encode_detached="$T/o.btf" "$T/t$v" ||
				{ bad "btfgen-pahole --func_rules=$r failed on DWARF $v"; continue; }
			got=$(funcs "$T/o.btf")
			[ "$got" = "${want[$fl:$r]}" ] ||
				bad "DWARF $v, $fl, $r rules: FUNCs '$got', expected '${want[$fl:$r]}'"
		done
		for pv in v1.31:v1.31 1436daf:master; do
			pb=$C/pahole-${pv%%:*}/bin/pahole
			[ -x "$pb" ] || continue
			compared="$compared ${pv%%:*}"
			rm -f "$T/p.btf"
			"$pb" -J --btf_features="${!fl}" --btf_encode_detached="$T/p.btf" "$T/t$v" >/dev/null 2>&1 ||
				{ bad "pahole ${pv%%:*} failed on DWARF $v"; continue; }
			got=$(funcs "$T/p.btf")
			[ "$got" = "${want[$fl:${pv#*:}]}" ] ||
				bad "pahole ${pv%%:*} on DWARF $v, $fl: FUNCs '$got', expected '${want[$fl:${pv#*:}]}'"
		done
	done
done
[ -n "$compared" ] && echo "(the same FUNCs as pahole$(echo "$compared" | tr ' ' '\n' | sort -u | tr '\n' ' '))"
[ $fail = 0 ] && echo "PASS: parameters' registers from location lists, a name's copies at its symbols (DWARF 4 and 5)"
exit $fail
