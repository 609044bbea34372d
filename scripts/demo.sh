#!/bin/bash
# make demo: the whole chain on this machine, end to end, ending with a
# summary of the facts it checked (each one tested here, not assumed):
#   build (clang -g, DWARF) -> btfgen writes .BTF -> btfcheck verifies it ->
#   flowctl loads it (BPF_BTF_LOAD, maps with BTF ids) -> test vectors through
#   BPF_PROG_TEST_RUN -> attach in a fresh netns, recording on -> frames
#   through a tap -> last_dissection printed by btfdump, equal to bpftool's
#   map dump -> detach and clean up.
# Without root only the offline part runs; the summary says what it skipped.
# Exit status 1 if any fact failed.
B=${B:-build}
OBJ=$B/bpf/bpf_flow.o
step() { printf '\n== %s\n' "$*"; }
facts=() failed=0
# fact TEXT COMMAND...: run the check, remember its verdict for the summary
fact() {
	local what=$1
	shift
	if "$@"; then
		facts+=("ok    $what")
	else
		facts+=("FAIL  $what")
		failed=$((failed + 1))
	fi
}
summary() {
	step "Summary: what this demo checked on $(uname -r)"
	printf '  %s\n' "${facts[@]}"
	[ "$failed" = 0 ] && echo "  all ${#facts[@]} facts hold" || echo "  $failed fact(s) FAILED"
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

step "1. build: $OBJ (clang-16 -g -O2 -target bpf; clang's .BTF/.BTF.ext removed, btfgen, btfcheck)"
echo "sections of $OBJ:"
llvm-objdump -h "$OBJ" | awk '/BTF|debug_info|maps|rodata/ {print "   ", $2, $3}'
# the chain once more into a scratch file: its .BTF must be the object's
bash bpf/btf-chain.sh "$B" "$B/bpf/bpf_flow.clang.o" "$work/again.o" >"$work/chain.log" 2>&1
llvm-objcopy --dump-section=.BTF="$work/obj.btf" "$OBJ" "$work/junk.o"
llvm-objcopy --dump-section=.BTF="$work/again.btf" "$work/again.o" "$work/junk.o" 2>/dev/null
fact "the object's .BTF ($(stat -c %s "$work/obj.btf") bytes) is what btfgen writes from its DWARF" \
	cmp -s "$work/obj.btf" "$work/again.btf"

step "2. the object's BTF, printed by btfdump (first types)"
"$B/btfdump" file "$OBJ" 2>&1 | head -12
echo "    ..."
"$B/btfdump" file "$OBJ" 2>&1 | grep -E "STRUCT 'bpf_flow_keys'|DATASEC|FUNC '" | head -12

step "3. btfcheck: verify it as the kernel's BPF_BTF_LOAD would"
"$B/btfcheck" "$OBJ"
fact "btfcheck accepts the object's BTF" "$B/btfcheck" "$OBJ" 2>/dev/null

if [ "$(id -u)" != 0 ]; then
	step "SKIPPED: steps 4-8 (load, test_run, attach, tap, map dump) need root:"
	echo "    loading BPF programs, creating a netns, a tap device and a bpffs mount."
	facts+=("skip  kernel BTF id, vectors, map dump vs bpftool: need root")
	summary
	exit $((failed > 0))
fi

step "4. load with BPF_BTF_LOAD + BPF_PROG_TEST_RUN over the test vectors"
"$B/flowctl" test >"$work/test.log"
rc=$?
tail -12 "$work/test.log"
fact "vectors through BPF_PROG_TEST_RUN: $(tail -1 "$work/test.log")" test "$rc" = 0
# shellcheck source=flow-sandbox.sh
source "$(dirname "$0")/flow-sandbox.sh"
flow_sandbox flowdemo flow
trap 'rm -rf "$work"; flow_sandbox_cleanup' EXIT

step "5. attach in a fresh netns ($NS) with a netns bpf_link, recording every dissection"
ip netns add "$NS" || exit 1
"$B/flowctl" attach --netns "$NS" --pin "$PIN" --record=1 || exit 1
show=$("$B/flowctl" show --netns "$NS")
echo "$show"
ip netns exec "$NS" bpftool net show | sed 's/^/    bpftool: /'
btfid=$(sed -n 's/.*maps btf id \([0-9]*\).*/\1/p' <<<"$show")
fact "the kernel holds the object's BTF as btf id $btfid (bpftool btf dump id = file)" \
	diff -q <(bpftool btf dump id "$btfid") <(bpftool btf dump file "$OBJ")

step "6. the vectors as real frames through a napi-frags tap in $NS"
"$B/flowctl" send --netns "$NS"

step "7. last_dissection, printed by btfdump map through the map's BTF (as bpftool prints it)"
"$B/flowctl" dump --netns "$NS" >"$work/dump.txt"
rc=$?
head -30 "$work/dump.txt"
n=$(bpftool map dump pinned "$PIN/last_dissection" | grep -c '"key"')
echo "    ... ($n entries)"
fact "flowctl dump printed last_dissection with its BTF types ($n entries, btfdump map)" \
	bash -c "[ $rc = 0 ] && grep -q '\"value\": {' '$work/dump.txt' && [ $n -gt 5 ]"
fact "that text equals bpftool map dump of the same map" \
	diff -q "$work/dump.txt" <(bpftool map dump pinned "$PIN/last_dissection")
echo "  the same map with --net (byte order and addresses decoded), first entries:"
"$B/flowctl" dump --netns "$NS" --net | head -48

step "8. detach and clean up"
"$B/flowctl" detach --netns "$NS" --pin "$PIN"
"$B/flowctl" show --netns "$NS"
summary
exit $((failed > 0))
