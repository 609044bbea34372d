#!/bin/bash
# Cross-endian DWARF: each BPF source compiled by clang-16 for -target bpfel
# and -target bpfeb (clang's .BTF removed) goes through btfgen. Both give the
# same types (btfsig signatures, ids and order aside), each blob in its ELF's
# byte order; both blobs verify with btfcheck (objects with externs aside:
# their linkage is for libbpf, not BPF_BTF_LOAD): this host's order as this
# kernel does, the other as a kernel of that order would, saying so.
. "$(dirname "$0")/../lib.sh"
BTFGEN=$B/btfgen SIG=$B/tests/btfgen/btfsig CHECK=$B/btfcheck
need_tools "$BPF_CLANG" llvm-objcopy
# the target whose byte order is this host's
[ "$(printf '\001\000' | od -An -tu2 | tr -d ' ')" = 1 ] && host=bpfel other=bpfeb || host=bpfeb other=bpfel
magic() { head -c 2 "$1" | od -An -tx1 | tr -d ' '; }

srcs="tests/btfgen/types.bpf.c tests/btfgen/maps.bpf.c tests/btfgen/externs.bpf.c tests/dump/kinds.bpf.c bpf/bpf_flow.c"
n_ok=0
for src in $srcs; do
	n=$(basename "$src" .c)
	for target in bpfel bpfeb; do
		o=$T/$n.$target
		"$BPF_CLANG" -g -O2 -target $target "${BPF_INC[@]}" -I"$(dirname "$src")" -c "$src" -o "$o.o" ||
			{ bad "$src: clang-16 -target $target failed"; continue 2; }
		llvm-objcopy --remove-section .BTF --remove-section .BTF.ext "$o.o" "$o.dwarf.o"
		"$BTFGEN" -o "$o.btf" "$o.dwarf.o" || { bad "$src: btfgen failed on the $target object"; continue 2; }
		"$SIG" "$o.btf" | sort >"$o.sig"
	done
	[ "$(magic "$T/$n.bpfel.btf")" = 9feb ] || bad "$src: the bpfel blob is not little-endian"
	[ "$(magic "$T/$n.bpfeb.btf")" = eb9f ] || bad "$src: the bpfeb blob is not big-endian"
	if ! diff "$T/$n.bpfel.sig" "$T/$n.bpfeb.sig" >"$T/diff"; then
		bad "$src: bpfel and bpfeb give different types (< bpfel, > bpfeb):"
		head -20 "$T/diff"
	fi
	if grep -q -e '^var .* linkage=2 ' -e '^func .* linkage=2 ' "$T/$n.$host.sig"; then
		echo "$src: has externs: btfcheck not applicable (libbpf rewrites them before loading)"
	else
		"$CHECK" "$T/$n.$host.btf" || bad "$src: btfcheck rejects btfgen's $host blob (this host's byte order)"
		"$CHECK" "$T/$n.$other.btf" 2>"$T/err" || bad "$src: btfcheck rejects btfgen's $other blob"
		grep -q 'endian BTF, the opposite of this' "$T/err" ||
			{ bad "$src: btfcheck does not say the $other blob has the other byte order:"; cat "$T/err"; }
	fi
	echo "$src: bpfel = bpfeb, $(wc -l <"$T/$n.bpfel.sig") signatures"
	n_ok=$((n_ok + 1))
done
[ $fail -eq 0 ] && echo "PASS: $n_ok BPF objects give the same types from big- and little-endian DWARF; both verify"
exit $fail
