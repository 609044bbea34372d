#!/bin/bash
# BTF build chain for a BPF object: usage btf-chain.sh BUILD_DIR CLANG_OBJ OUT_OBJ
#  1. strip_clang_btf: remove clang's own .BTF and .BTF.ext (the object keeps
#     its DWARF)
#  2. btfgen --in-place writes .BTF from the DWARF
#  3. btfcheck verifies it
# Any failure of any step fails the chain (exit 1) and leaves no OUT_OBJ: there
# is no fallback to clang's BTF. On success it prints one BTF-CHAIN line.
# tests/flow/check_btf_chain.sh runs it with failing btfgen/btfcheck stand-ins.
set -euo pipefail
B=$1 in=$2 out=$3
tmp=$out.tmp
trap 'rm -f "$tmp" "$tmp.log"' EXIT

# The one place clang's BTF leaves the object. .BTF.ext goes too because
# btfgen does not yet carry a .BTF.ext over to the types it writes (issue 15);
# when it does, keep .BTF.ext here and let btfgen remap it.
strip_clang_btf() {
	llvm-objcopy --remove-section=.BTF --remove-section=.rel.BTF \
		--remove-section=.BTF.ext --remove-section=.rel.BTF.ext "$1" "$2"
}

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

run "llvm-objcopy (removing clang's BTF) on $in" strip_clang_btf "$in" "$tmp"
run "btfgen --in-place on the object" "$B/btfgen" --in-place "$tmp"
run "btfcheck rejects the .BTF btfgen wrote" "$B/btfcheck" "$tmp"
mv "$tmp" "$out"
echo "  BTF-CHAIN $out: .BTF from btfgen ($(llvm-objcopy --dump-section=.BTF=/dev/stdout "$out" /dev/null | wc -c) bytes), verified by btfcheck"
