#!/bin/bash
# The BTF build chain of bpf_flow.o: the built object carries one .BTF (and
# clang's .BTF.ext carried over to it) made by btfgen and accepted by
# btfcheck (btfgen failing on the
# object fails this test), and the loader works with it and with clang's own
# BTF; the kernel accepts both (BPF_BTF_LOAD) and every vector passes.
. "$(dirname "$0")/../lib.sh"
OBJ=$B/bpf/bpf_flow.o
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root to load BPF programs"; exit 77; }
fails=0
check() {
	local what=$1
	shift
	if "$@"; then echo "ok   $what"; else echo "FAIL $what"; fails=$((fails + 1)); fi
}
sections=$(llvm-objdump -h "$OBJ")
check "$OBJ has .BTF" grep -q ' \.BTF ' <<<"$sections"
check "$OBJ has .BTF.ext, no .rel.BTF" bash -c "grep -q ' \.BTF\.ext ' <<<'$sections' && ! grep -q ' \.rel\.BTF ' <<<'$sections'"
check "$OBJ keeps its DWARF" grep -q ' \.debug_info ' <<<"$sections"
# what btfgen makes of the DWARF, again, must be what the object holds; a
# btfgen failure here is a failure of the test (the chain has no fallback)
cp "$B/bpf/bpf_flow.clang.o" "$T/gen.o"
if "$B/btfgen" --in-place "$T/gen.o" >"$T/gen.log" 2>&1; then
	echo "ok   btfgen --in-place on the flow object"
	llvm-objcopy --dump-section=.BTF="$T/gen.btf" "$T/gen.o" "$T/junk.o"
	llvm-objcopy --dump-section=.BTF="$T/obj.btf" "$OBJ" "$T/junk.o"
	check "the object's .BTF is btfgen's ($(stat -c %s "$T/obj.btf") bytes)" \
		bash -c "[ -s '$T/gen.btf' ] && cmp -s '$T/gen.btf' '$T/obj.btf'"
	check "btfcheck accepts btfgen's BTF" "$B/btfcheck" "$T/gen.o"
	check "bpftool reads btfgen's BTF, struct bpf_flow_keys size 56" bash -c \
		"bpftool btf dump file '$T/gen.o' | grep -q \"STRUCT 'bpf_flow_keys' size=56 vlen=13\""
else
	echo "FAIL btfgen --in-place on the flow object:"
	sed 's/^/     /' "$T/gen.log"
	fails=$((fails + 1))
fi
check "flowctl test on the built object" bash -o pipefail -c "'$B/flowctl' test --obj '$OBJ' | tail -1"
llvm-objcopy --remove-section=.BTF.ext --remove-section=.rel.BTF.ext \
	"$B/bpf/bpf_flow.clang.o" "$T/clang.o"
check "flowctl test on the object with clang's own BTF (for comparison)" \
	bash -o pipefail -c "'$B/flowctl' test --obj '$T/clang.o' | tail -1"
echo "$fails failure(s)"
[ "$fails" = 0 ]
