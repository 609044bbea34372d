#!/bin/bash
# btfgen on BPF objects, against the real things:
#  1. parity with clang-16's own .BTF: every named struct/union/enum/typedef/
#     func/var/decl tag clang emits must have the same canonical signature in
#     btfgen's BTF (tests/btfgen/btfsig.c; ids and order may differ);
#  2. DATASECs: same variables as clang, but with the real section size and
#     each variable's offset from the symbol table (clang leaves sizes 0);
#  3. the running kernel loads btfgen's BTF (BPF_BTF_LOAD), and libbpf opens
#     and loads the object with btfgen's .BTF written in place, creating its
#     maps with BTF key/value type ids;
#  4. pahole 1.24 on the same object: named types listed side by side
#     (pahole's named aggregates that clang also has must be in btfgen's).
# Inputs: tests/btfgen/*.bpf.c and the BPF programs in bpf/.
. "$(dirname "$0")/../lib.sh"
BTFGEN=$B/btfgen SIG=$B/tests/btfgen/btfsig LOAD=$B/tests/btfgen/btfload
need_tools "$BPF_CLANG" llvm-objcopy nm
[ "$(id -u)" -eq 0 ] || { echo "SKIP: kernel load checks need root"; exit 77; }

srcs=$(ls tests/btfgen/*.bpf.c; grep -l 'bpf_helpers.h' bpf/*.c 2>/dev/null)
for src in $srcs; do
	n=$(basename "$src" .c)
	o=$T/$n.o
	bpf_cc -g -O2 "${BPF_INC[@]}" -I"$(dirname "$src")" -c "$src" -o "$o" ||
		{ bad "$src: clang-16 failed"; continue; }
	llvm-objcopy --dump-section .BTF="$T/$n.clang.btf" "$o"
	llvm-objcopy --remove-section .BTF --remove-section .BTF.ext "$o" "$T/$n.dwarf.o"
	if ! "$BTFGEN" -o "$T/$n.btf" "$T/$n.dwarf.o"; then
		bad "$src: btfgen failed"
		continue
	fi
	"$SIG" "$T/$n.clang.btf" | sort -u >"$T/c.sig"
	"$SIG" "$T/$n.btf" | sort -u >"$T/o.sig"

	# 1. signatures (DATASECs and FWDs handled below)
	grep -v -e '^datasec ' -e '^fwd ' "$T/c.sig" >"$T/c.main"
	missing=$(comm -23 "$T/c.main" "$T/o.sig")
	if [ -n "$missing" ]; then
		bad "$src: clang's types missing or different in btfgen's BTF:"
		echo "$missing" | sed 's/^/    clang: /'
		for k in $(echo "$missing" | awk '{print $1 "|" $2}' | sort -u); do
			grep "^${k%%|*} ${k##*|} " "$T/o.sig" | sed 's/^/    ours:  /'
		done
	fi
	# expected difference: clang turns a struct only reached through pointers
	# into a FWD; the DWARF has (and btfgen keeps) the definition
	grep '^fwd ' "$T/c.sig" | while read -r _ kind name; do
		grep -q -e "^fwd $kind $name\$" -e "^$kind $name size=" "$T/o.sig" ||
			{ echo "FAIL: $src: $kind $name (FWD in clang) absent"; echo x >>"$T/fwdfail"; }
	done
	[ -e "$T/fwdfail" ] && { fail=1; rm -f "$T/fwdfail"; }

	# 2. DATASECs: same variables; real sizes and offsets
	grep '^datasec ' "$T/c.sig" | while read -r _ sec _; do
		cv=$(grep "^datasec $sec " "$T/c.sig" | sed 's/.*{//; s/}//; s/@[^;]*//g; s/; /\n/g' | sort)
		ov=$(grep "^datasec $sec " "$T/o.sig" | sed 's/.*{//; s/}//; s/@[^;]*//g; s/; /\n/g' | sort)
		[ "$cv" = "$ov" ] || { echo "FAIL: $src: DATASEC $sec vars differ: clang [$cv] ours [$ov]"; echo x >>"$T/dsfail"; }
	done
	while read -r _ sec size rest; do
		# externs: no storage in the object (libbpf lays these out at load)
		case $sec in .kconfig | .ksyms) continue ;; esac
		want=$(objdump -h "$T/$n.dwarf.o" | awk -v s="$sec" '$2 == s { print $3 }')
		[ "$size" = "size=$((16#${want:-0}))" ] ||
			{ echo "FAIL: $src: DATASEC $sec $size, section size is $((16#${want:-0}))"; echo x >>"$T/dsfail"; }
		for v in $(echo "$rest" | sed 's/[{}]//g; s/; / /g'); do
			name=${v%%@*} off=${v#*@}; off=${off%%+*}
			sym=$(nm --defined-only "$T/$n.dwarf.o" | awk -v s="$name" '$3 == s { print $1 }' | head -1)
			[ -n "$sym" ] && [ "$((16#$sym))" = "$off" ] ||
				{ echo "FAIL: $src: VAR $name at $off in $sec, symbol at 0x$sym"; echo x >>"$T/dsfail"; }
		done
	done < <(grep '^datasec ' "$T/o.sig")
	[ -e "$T/dsfail" ] && { fail=1; rm -f "$T/dsfail"; }
	# DWARF 5 base types clang writes only for DW_OP_convert in location
	# expressions (DW_ATE_unsigned_16, ...): not in clang's BTF, and btfgen
	# drops them too when no type refers to them
	ate_dwarf=$(readelf --debug-dump=info "$T/$n.dwarf.o" 2>/dev/null | grep -c 'DW_AT_name.*: DW_ATE_')
	ate_ours=$(bpftool btf dump file "$T/$n.btf" | grep -c "^\[[0-9]*\] INT 'DW_ATE_")
	ate_clang=$(bpftool btf dump file "$T/$n.clang.btf" | grep -c "^\[[0-9]*\] INT 'DW_ATE_")
	[ "$ate_ours" -le "$ate_clang" ] ||
		bad "$src: $ate_ours DW_ATE_* base types in btfgen's BTF, $ate_clang in clang's (DWARF has $ate_dwarf)"
	extra=$(comm -13 "$T/c.sig" "$T/o.sig" | grep -v '^datasec ' | awk '{print $1, $2}' | sort -u | tr '\n' ',')
	echo "$src: $(wc -l <"$T/c.main") clang signatures matched; datasec sizes/offsets from ELF (clang: 0);" \
		"only in btfgen (DWARF types clang's BTF pruned or made FWD): ${extra:-none};" \
		"DW_ATE_* base types: $ate_dwarf in the DWARF, $ate_ours in btfgen's BTF"

	# 3. kernel and libbpf
	if grep -q -e '^var .* linkage=2 ' -e '^func .* linkage=2 ' "$T/o.sig"; then
		# the kernel takes no extern linkage; libbpf rewrites externs before
		# BPF_BTF_LOAD, which the object load below exercises
		echo "$src: has externs (.kconfig/.ksyms): raw BPF_BTF_LOAD not applicable, libbpf load checked"
	else
		"$LOAD" "$T/$n.btf" || bad "$src: kernel rejected btfgen's BTF"
	fi
	cp "$T/$n.dwarf.o" "$T/$n.inplace.o"
	if "$BTFGEN" --in-place "$T/$n.inplace.o"; then
		"$LOAD" --obj "$T/$n.inplace.o" || bad "$src: libbpf could not load the object with btfgen's .BTF"
	else
		bad "$src: btfgen --in-place failed"
	fi

	# 4. pahole (reference only: 1.24 emits no VARs, FUNCs all static, flattens arrays)
	if command -v pahole >/dev/null &&
		pahole -J --btf_gen_floats --btf_encode_detached="$T/$n.pahole.btf" "$T/$n.dwarf.o" 2>/dev/null; then
		"$SIG" --names "$T/$n.pahole.btf" | sort -u >"$T/p.names"
		"$SIG" --names "$T/$n.btf" | sort -u >"$T/o.names"
		only_p=$(comm -23 "$T/p.names" "$T/o.names" | tr '\n' ',')
		only_o=$(comm -13 "$T/p.names" "$T/o.names" | tr '\n' ',')
		echo "$src: pahole: $(wc -l <"$T/p.names") named types; only pahole: ${only_p:-none}; only btfgen: ${only_o:-none}"
		# a named aggregate/enum pahole has must be in btfgen's with the same
		# size, unless clang's BTF leaves it out too (pahole keeps every type
		# of the DWARF; btfgen keeps a BPF object's types as clang does)
		"$SIG" --names "$T/$n.clang.btf" | sort -u >"$T/c.names"
		comm -23 "$T/p.names" "$T/o.names" | comm -12 - "$T/c.names" | grep -E '^(struct|union|enum) ' &&
			bad "$src: named types pahole and clang have and btfgen lacks (above)"
	fi
done
# 5. a big-endian object (-target bpfeb): BTF in the ELF's byte order, same types
src=tests/btfgen/types.bpf.c
if "$BPF_CLANG" -g -O2 -target bpfeb "${BPF_INC[@]}" -c "$src" -o "$T/be.o"; then
	llvm-objcopy --dump-section .BTF="$T/be.clang.btf" "$T/be.o"
	llvm-objcopy --remove-section .BTF --remove-section .BTF.ext "$T/be.o" "$T/be.dwarf.o"
	if "$BTFGEN" -o "$T/be.btf" "$T/be.dwarf.o"; then
		[ "$(head -c 2 "$T/be.btf" | od -An -tx1 | tr -d ' ')" = eb9f ] || bad "bpfeb: BTF not big-endian"
		"$SIG" "$T/be.clang.btf" | grep -v -e '^datasec ' -e '^fwd ' | sort -u >"$T/bec.sig"
		"$SIG" "$T/be.btf" | sort -u >"$T/beo.sig"
		missing=$(comm -23 "$T/bec.sig" "$T/beo.sig")
		[ -z "$missing" ] || { bad "bpfeb: clang's types missing or different:"; echo "$missing"; }
		echo "$src (bpfeb): big-endian BTF, $(wc -l <"$T/bec.sig") clang signatures matched"
	else
		bad "$src: btfgen failed on the bpfeb object"
	fi
else
	bad "$src: clang-16 -target bpfeb failed"
fi
[ $fail -eq 0 ] && echo "PASS: btfgen matches clang-16's BTF on $(echo $srcs | wc -w) BPF objects (and bpfeb); kernel and libbpf accept it"
exit $fail
