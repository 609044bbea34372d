#!/bin/bash
# make demo: the whole chain on this machine, end to end.
#   build (clang -g, DWARF) -> btfgen writes .BTF -> btfcheck verifies it ->
#   flowctl loads it (BPF_BTF_LOAD, maps with BTF ids) -> test vectors through
#   BPF_PROG_TEST_RUN -> attach in a fresh netns -> frames through a tap ->
#   last_dissection printed by btfdump -> detach and clean up.
# Without root only the offline part runs; the script says what it skipped.
B=${B:-build}
OBJ=$B/bpf/bpf_flow.o
step() { printf '\n== %s\n' "$*"; }

step "1. build: $OBJ (clang-16 -g -O2 -target bpf; clang's .BTF/.BTF.ext removed)"
work=$(mktemp -d)
bash bpf/btf-chain.sh "$B" "$B/bpf/bpf_flow.clang.o" "$work/bpf_flow.o"
rm -rf "$work"
echo "sections of $OBJ:"
llvm-objdump -h "$OBJ" | awk '/BTF|debug_info|maps|rodata/ {print "   ", $2, $3}'

step "2. the object's BTF, printed by btfdump (first types)"
"$B/btfdump" file "$OBJ" 2>&1 | head -12
echo "    ..."
"$B/btfdump" file "$OBJ" 2>&1 | grep -E "STRUCT 'bpf_flow_keys'|DATASEC|FUNC '" | head -12

step "3. btfcheck: verify it as the kernel's BPF_BTF_LOAD would"
"$B/btfcheck" "$OBJ"; echo "    (btfcheck exit status $?)"

if [ "$(id -u)" != 0 ]; then
	step "SKIPPED: steps 4-8 (load, test_run, attach, tap, map dump) need root:"
	echo "    loading BPF programs, creating a netns, a tap device and a bpffs mount."
	exit 0
fi

step "4. load with BPF_BTF_LOAD + BPF_PROG_TEST_RUN over the test vectors"
"$B/flowctl" test | tail -12
source "$(dirname "$0")/flow-sandbox.sh"
flow_sandbox flowdemo flow

step "5. attach in a fresh netns ($NS) with a netns bpf_link"
ip netns add "$NS" || exit 1
"$B/flowctl" attach --netns "$NS" --pin "$PIN" --record=1 || exit 1
"$B/flowctl" show --netns "$NS"
ip netns exec "$NS" bpftool net show | sed 's/^/    bpftool: /'

step "6. the vectors as real frames through a napi-frags tap in $NS"
"$B/flowctl" send --netns "$NS"

step "7. last_dissection, printed by btfdump map through the map's BTF (as bpftool prints it)"
"$B/flowctl" dump --netns "$NS" | head -30
echo "    ... ($(bpftool map dump pinned "$PIN/last_dissection" | grep -c '"key"') entries)"
echo "  the same map with --net (byte order and addresses decoded), first entries:"
"$B/flowctl" dump --netns "$NS" --net | head -48

step "8. detach and clean up"
"$B/flowctl" detach --netns "$NS" --pin "$PIN"
"$B/flowctl" show --netns "$NS"
