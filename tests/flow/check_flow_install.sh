#!/bin/bash
# make install puts flowctl in <prefix>/bin and bpf_flow.o in
# <prefix>/lib/flowctl, and the installed flowctl finds that object by itself
# (no B, no FLOW_OBJ) and passes every vector on the running kernel (root).
. "$(dirname "$0")/../lib.sh"
prefix=/opt/flowctl-test
make --no-print-directory -s install B="$B" SAN="${SAN:-}" DESTDIR="$T/root" PREFIX=$prefix >/dev/null ||
	{ echo "FAIL: make install"; exit 1; }
root=$T/root$prefix
test -x "$root/bin/flowctl" || { echo "FAIL: $prefix/bin/flowctl not installed"; exit 1; }
cmp -s "$root/lib/flowctl/bpf_flow.o" "$B/bpf/bpf_flow.o" ||
	{ echo "FAIL: $prefix/lib/flowctl/bpf_flow.o is not $B/bpf/bpf_flow.o"; exit 1; }
echo "ok   installed: bin/flowctl, lib/flowctl/bpf_flow.o"
[ "$(id -u)" = 0 ] || { echo "SKIP: running the installed flowctl needs root"; exit 77; }
out=$(cd / && env -u B -u FLOW_OBJ "$root/bin/flowctl" test) || { echo "FAIL: installed flowctl test"; exit 1; }
tail -1 <<<"$out"
grep -q '^36 vectors, 0 failed$' <<<"$out" || { echo "FAIL: installed flowctl test"; exit 1; }
echo "ok   the installed flowctl loads lib/flowctl/bpf_flow.o and passes"
