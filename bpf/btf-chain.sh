#!/bin/bash
# BTF build chain for a BPF object: usage btf-chain.sh BUILD_DIR CLANG_OBJ OUT_OBJ
#  1. remove clang's own .BTF/.BTF.ext (the object keeps its DWARF)
#  2. btfgen --in-place writes .BTF from the DWARF
#  3. btfcheck verifies it; a rejection fails the build
# Until btfgen/btfcheck are implemented (they exit 2 saying "not implemented"),
# the object keeps clang's .BTF as an interim, and the output says so.
set -e
B=$1 in=$2 out=$3
tmp=$out.tmp
trap 'rm -f "$tmp" "$tmp.log"' EXIT

not_implemented() { grep -q "not implemented" "$1"; }

llvm-objcopy --remove-section=.BTF --remove-section=.rel.BTF \
	--remove-section=.BTF.ext --remove-section=.rel.BTF.ext "$in" "$tmp"
source=btfgen
if ! "$B/btfgen" --in-place "$tmp" >"$tmp.log" 2>&1; then
	if not_implemented "$tmp.log"; then
		echo "  BTF-CHAIN $out: INTERIM: btfgen not implemented yet, keeping clang's .BTF"
	else
		echo "  BTF-CHAIN $out: INTERIM: btfgen failed, keeping clang's .BTF:"
		sed 's/^/    /' "$tmp.log"
	fi
	llvm-objcopy --remove-section=.BTF.ext --remove-section=.rel.BTF.ext "$in" "$tmp"
	source=clang
fi
if "$B/btfcheck" "$tmp" >"$tmp.log" 2>&1; then
	echo "  BTF-CHAIN $out: .BTF from $source, verified by btfcheck"
elif not_implemented "$tmp.log"; then
	echo "  BTF-CHAIN $out: INTERIM: .BTF from $source, NOT verified (btfcheck not implemented yet)"
elif [ $source = clang ]; then
	# clang leaves DATASEC sizes and variable offsets at 0 for libbpf to fill
	# in before BPF_BTF_LOAD, so its raw .BTF is not kernel-loadable as is.
	echo "  BTF-CHAIN $out: INTERIM: .BTF from clang, which btfcheck rejects as it stands" \
		"(clang leaves DATASEC sizes for libbpf to fix up before loading):"
	sed 's/^/    /' "$tmp.log"
else
	echo "  BTF-CHAIN $out: btfcheck rejects the .BTF from $source:" >&2
	sed 's/^/    /' "$tmp.log" >&2
	exit 1
fi
mv "$tmp" "$out"
