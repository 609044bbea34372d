#!/bin/bash
# BTF build chain for a BPF object: usage btf-chain.sh BUILD_DIR CLANG_OBJ OUT_OBJ
#  1. btfgen --in-place replaces clang's .BTF with one made from the DWARF
#     and carries clang's .BTF.ext (func/line info) over to it
#  2. btfcheck verifies it
# Any failure of any step fails the chain (exit 1) and leaves no OUT_OBJ: there
# is no fallback to clang's BTF. On success it prints one BTF-CHAIN line.
# tests/flow/check_btf_chain.sh runs it with failing btfgen/btfcheck stand-ins.
set -euo pipefail
B=$1 in=$2 out=$3
tmp=$out.tmp
trap 'rm -f "$tmp" "$tmp.log"' EXIT


# run WHAT CMD...: CMD's output goes to the log; on failure print it, fail.
run() {
	local what=$1
	shift
	if ! "$@" >"$tmp.log" 2>&1; then
		echo "  BTF-CHAIN $out: FAILED: $what:" >&2
		sed 's/^/    /' "$tmp.log" >&2
		exit 1
	fi
}

run "copying $in" cp "$in" "$tmp"
run "btfgen --in-place on the object" "$B/btfgen" --in-place "$tmp"
run "btfcheck rejects the .BTF btfgen wrote" "$B/btfcheck" "$tmp"
mv "$tmp" "$out"
echo "  BTF-CHAIN $out: .BTF from btfgen ($(llvm-objcopy --dump-section=.BTF=/dev/stdout "$out" /dev/null | wc -c) bytes), verified by btfcheck"
