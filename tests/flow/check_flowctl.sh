#!/bin/bash
# flowctl end to end, in a named netns of our own and a private bpffs mount:
# attach (link, then PROG_ATTACH), show (checked against bpftool net), send
# frames through a napi-frags tap, dump last_dissection (btfdump's typed text
# equal to bpftool map dump, the --hex bytes equal to bpftool's; a btfdump that
# fails on maps fails the dump), recording off by default and on with --record,
# exclusivity errors, detach, netns deletion with a pinned link, and nothing
# left attached or pinned afterwards.
. "$(dirname "$0")/../lib.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (netns, bpffs, BPF)"; exit 77; }
command -v bpftool >/dev/null || { echo "SKIP: bpftool missing"; exit 77; }
# shellcheck source=../../scripts/flow-sandbox.sh
source "$(dirname "$0")/../../scripts/flow-sandbox.sh"
flow_sandbox flowtest f
fails=0

check() {	# check DESCRIPTION COMMAND...: run, report, count failures
	local what=$1
	shift
	if "$@"; then echo "ok   $what"; else echo "FAIL $what"; fails=$((fails + 1)); fi
}

ip netns add "$NS" || { echo "FAIL: cannot create netns"; exit 1; }
fl() { "$B/flowctl" "$@"; }

# --- load-time configuration of the CONTINUE source address
check "--continue-from 0.0.0.7: the sctp vector (from 0.0.0.7) returns CONTINUE" \
	grep -q '"retval":129' <<<"$(fl test --vector sctp --continue-from 0.0.0.7 --json)"
check "--continue-from none: 127.0.0.127 is dissected (OK)" \
	grep -q '"retval":0' <<<"$(fl test --vector ipip-encap-dissector-continue --continue-from none --json)"
check "--continue-from rejects a bad address" bash -c "! '$B/flowctl' test --continue-from 1.2.3 2>/dev/null"

# --- the default attach records nothing
check "attach with a link, recording off by default" bash -c \
	"'$B/flowctl' attach --netns '$NS' --pin '$PIN' | grep -q 'recording off'"
check "show says recording off" grep -q "recording off" <<<"$(fl show --netns "$NS")"
check "send the vectors (recording off)" fl send --netns "$NS"
check "nothing recorded by the default attach" \
	grep -q '^Found 0 elements' <<<"$(fl dump --pin "$PIN" --hex)"
check "detach" fl detach --netns "$NS" --pin "$PIN"
check "--record=0 refused" bash -c "! '$B/flowctl' attach --netns '$NS' --pin '$PIN' --record=0 2>/dev/null"

# --- link attach, recording every dissection
check "attach with a link, --record=1" fl attach --netns "$NS" --pin "$PIN" --record=1
check "pins: link prog last_dissection (one program: no jump table)" \
	test -e "$PIN/link" -a -e "$PIN/prog" -a -e "$PIN/last_dissection" -a ! -e "$PIN/jmp_table"
show=$(fl show --netns "$NS")
echo "     $show"
id=$(sed -n 's/.*prog id \([0-9]*\).*/\1/p' <<<"$show")
check "show reports a link" grep -q "link id" <<<"$show"
check "show reports recording every dissection" grep -q "recording every dissection" <<<"$show"
net=$(ip netns exec "$NS" bpftool -j net show)
check "bpftool net show in the netns names the same prog id ($id)" \
	grep -q "\"flow_dissector\":\[{\?\"id\":${id}[],}]" <<<"$net"
btfid=$(sed -n 's/.*maps btf id \([0-9]*\).*/\1/p' <<<"$show")
check "the kernel holds the object's BTF as built (btf id $btfid vs $B/bpf/bpf_flow.o)" \
	diff <(bpftool btf dump id "$btfid") <(bpftool btf dump file "$B/bpf/bpf_flow.o")
check "second attach refused" bash -c "! '$B/flowctl' attach --netns '$NS' --pin '$DIR/bpffs/g' 2>/dev/null"
check "second attach left no pins" test ! -e "$DIR/bpffs/g"

# --- real frames
check "send the vectors through a napi-frags tap" fl send --netns "$NS"
dump=$(fl dump --pin "$PIN")
# bpftool's view of the same map as "key value" hex lines, sorted
bpftool -j map dump pinned "$PIN/last_dissection" | python3 -c '
import json, sys
for e in json.load(sys.stdin):
    print("".join(b[2:] for b in e["key"]), "".join(b[2:] for b in e["value"]))' | sort >"$DIR/bpftool.txt"
check "bpftool sees several entries" test "$(wc -l <"$DIR/bpftool.txt")" -gt 5
# flowctl's raw bytes (--hex, no btfdump)
hex=$(fl dump --pin "$PIN" --hex)
sed -n 's/^key: \(.*\)  value: *\(.*\)$/\1 \2/p' <<<"$hex" |
	awk '{k=$1$2$3$4; v=""; for (i = 5; i <= NF; i++) v = v $i; print k, v}' |
	sort >"$DIR/ours.txt"
check "flowctl dump --hex equals bpftool map dump" diff "$DIR/ours.txt" "$DIR/bpftool.txt"
check "flowctl dump (btfdump map) text equals bpftool map dump" \
	diff <(echo "$dump") <(bpftool map dump pinned "$PIN/last_dissection")
# gre-teb-vlan-ipv4's inner addresses and UDP ports, decoded
check "flowctl dump --net decodes addresses and ports" bash -c "
	'$B/flowctl' dump --pin '$PIN' --net | tr -d ' \n' |
	grep -q '\"sport\":4789,\"dport\":4790,\"\":{\"\":{\"ipv4_src\":\"192.168.0.1\",\"ipv4_dst\":\"192.168.0.2\"'"
# a btfdump that fails on maps (and works otherwise): the dump fails, prints nothing
printf '#!/bin/sh\n[ "$1" = map ] && { echo "stand-in: map fails" >&2; exit 1; }\nexec "%s" "$@"\n' \
	"$(realpath "$B/btfdump")" >"$DIR/btfdump-nomap"
chmod +x "$DIR/btfdump-nomap"
check "flowctl dump fails when btfdump map fails" \
	bash -c "! BTFDUMP='$DIR/btfdump-nomap' '$B/flowctl' dump --pin '$PIN' >'$DIR/nomap.out' 2>/dev/null"
check "... and prints nothing on stdout" test ! -s "$DIR/nomap.out"
check "ipv4-frag entry (80/8080 = key 00 50 1f 90) recorded" \
	bash -c "bpftool map lookup pinned '$PIN/last_dissection' key 0x90 0x1f 0x50 0x00 >/dev/null"

# --- detach
check "detach" fl detach --netns "$NS" --pin "$PIN"
check "nothing attached after detach" grep -q "no flow dissector" <<<"$(fl show --netns "$NS")"
check "pins removed" test ! -e "$PIN"

# --- PROG_ATTACH
check "attach with BPF_PROG_ATTACH" fl attach --netns "$NS" --pin "$PIN" --prog-attach --record=1
check "show reports PROG_ATTACH" grep -q "BPF_PROG_ATTACH" <<<"$(fl show --netns "$NS")"
check "link refused while prog attached" \
	bash -c "! '$B/flowctl' attach --netns '$NS' --pin '$DIR/bpffs/g' 2>/dev/null"
check "send ip-gre after flowctl exited" fl send --netns "$NS" --vector ip-gre
# thoff 58: through GRE into the inner IPv4 header and its TCP ports, by the
# program flowctl attached and left behind
check "dissected after the loader's exit (ip-gre: thoff 58, ports 80/8080)" bash -c \
	"bpftool -j map lookup pinned '$PIN/last_dissection' key 0x90 0x1f 0x50 0x00 | grep -q '\"thoff\":58,.*\"sport\":80,\"dport\":8080'"
check "detach" fl detach --netns "$NS" --pin "$PIN"
check "nothing attached" grep -q "no flow dissector" <<<"$(fl show --netns "$NS")"

# --- netns deletion with a pinned link
check "attach again" fl attach --netns "$NS" --pin "$PIN"
linkid=$(fl show --netns "$NS" | sed -n 's/.*link id \([0-9]*\).*/\1/p')
ip netns del "$NS"
ino=1
for _ in $(seq 200); do	# up to 20 s: netns cleanup is a workqueue
	ino=$(bpftool -j link show id "$linkid" | grep -o '"netns_ino":[0-9]*' | cut -d: -f2)
	[ "$ino" = 0 ] && break
	sleep 0.1
done
check "link $linkid auto-detached after netns deletion (netns_ino 0)" test "$ino" = 0
rm -f "$PIN"/* && rmdir "$PIN"
check "link gone once unpinned" bash -c "! bpftool link show id $linkid >/dev/null 2>&1"

echo "$fails failure(s)"
[ "$fails" = 0 ]
