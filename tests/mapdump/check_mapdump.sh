#!/bin/bash
# btfdump map vs bpftool map dump/lookup on live maps this test creates:
# BTF-typed maps of many kinds (from maps.bpf.c, built with clang-16 -g),
# global-data maps (DATASEC), maps without BTF (hex layouts), per-CPU maps,
# maps typed by handmade BTF (FLOAT, TYPE_TAG), pairs sharing a name.
# Output must equal bpftool's byte for byte (plain, -j, -p), except where
# we print more than bpftool (floats, type tags), which is checked against
# expected values. The maps live in a bpffs mounted for this test only.
. "$(dirname "$0")/../lib.sh"
M=$B/tests/mapdump # the built driver, fixture and object
DRIVER=$M/map_driver

[ "$(id -u)" = 0 ] || skip "needs root to create BPF maps"
command -v bpftool >/dev/null || skip "bpftool not installed"
command -v jq >/dev/null || skip "jq not installed"
for f in "$DRIVER" "$M/map_fixture" "$M/maps.bpf.o"; do
	[ -x "$f" ] || [ -f "$f" ] || { echo "missing $f (make check builds it)"; exit 1; }
done

work=$T
mnt=$work/bpffs
mkdir "$mnt"
cleanup() {
	# unpinning frees the maps (nothing else holds them)
	rm -f "$mnt"/dup_* "$mnt"/md_* "$mnt"/nb_* "$mnt"/maps_* "$mnt"/big_* 2>/dev/null
	umount "$mnt" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE # a killed run cleans up too
mount -t bpf bpf "$mnt" || skip "cannot mount a bpffs"

tag=$(( $$ % 100000 ))
echo "fixture tag $tag (names the shared-name maps, seeds the random maps)"
"$M/map_fixture" "$M/maps.bpf.o" "$mnt" "$tag" || { echo "FAIL: fixture"; exit 1; }

fails=0 checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# same stdout and same exit status (0 vs non-zero) as bpftool
same() { # label, bpftool args..., --, our args...
	local label=$1; shift
	local peer=() ours=()
	while [ "$1" != -- ]; do peer+=("$1"); shift; done
	shift
	ours=("$@")
	bpftool "${peer[@]}" >"$work/peer" 2>"$work/peer.err"; local rp=$?
	"${ours[@]}" >"$work/ours" 2>"$work/ours.err"; local ro=$?
	checks=$((checks + 1))
	if [ ! -s "$work/peer" ]; then
		fail "$label: bpftool printed nothing: $(head -1 "$work/peer.err")"
	elif ! cmp -s "$work/peer" "$work/ours"; then
		fail "$label: output differs from bpftool"
		diff "$work/peer" "$work/ours" | head -20
	elif [ $((rp != 0)) != $((ro != 0)) ]; then
		fail "$label: exit status $ro, bpftool $rp"
	fi
}

# ---- dumps: every map except those where we print more than bpftool ------
extended="md_float md_tagged"
nmaps=0
for pin in "$mnt"/*; do
	m=${pin##*/}
	case " $extended maps.debug progs.debug " in *" $m "*) continue ;; esac
	nmaps=$((nmaps + 1))
	for fmt in "" -j -p; do
		same "dump $m $fmt" $fmt map dump pinned "$pin" -- "$DRIVER" $fmt pinned "$pin"
	done
done
[ $nmaps -ge 25 ] || fail "only $nmaps maps were created"

# thousands of elements: batched reads (several batches, hash buckets of
# several elements) in bpftool's order
"$M/map_fixture" --big 3000 "$M/maps.bpf.o" "$mnt" || fail "big map fixture"
for m in big_btf big_hex; do
	for fmt in "" -j; do
		same "dump $m $fmt" $fmt map dump pinned "$mnt/$m" -- "$DRIVER" $fmt pinned "$mnt/$m"
	done
done

# by id, and `map dump` spelled like bpftool
id=$(bpftool -j map show pinned "$mnt/md_hash" | jq .id)
same "dump id" map dump id "$id" -- "$DRIVER" dump id "$id"

# name handles matching two maps: headers and a root array
for n in "mdd$tag" "mdb$tag" "mdm$tag"; do
	for fmt in "" -j -p; do
		same "dump name $n $fmt" $fmt map dump name "$n" -- "$DRIVER" $fmt name "$n"
	done
done

# ---- lookups (found, not found, per-CPU, hex keys) -------------------------
lookups=(
	"md_hash|1 0 0 0" "md_hash|9 0 0 0" "md_array|1 0 0 0" "md_pc_hash|0x34 0x12 7 0"
	"md_lru|2 0 0 0 0 0 0 0" "nb_4_8|0 1 2 3" "nb_4_8|7 7 7 7" "nb_pc_20|1 0 0 0"
	"nb_12_16|hex 01 11 12 13 14 15 16 17 18 19 1a 1b"
	"maps_data|0 0 0 0" "maps_rodata|0 0 0 0" "md_lru_pc|8 0 0 0" "nb_outer|1 0 0 0"
)
for spec in "${lookups[@]}"; do
	m=${spec%%|*} k=${spec#*|}
	for fmt in "" -j -p; do
		same "lookup $m [$k] $fmt" $fmt map lookup pinned "$mnt/$m" key $k -- \
			"$DRIVER" $fmt pinned "$mnt/$m" --lookup $k
	done
done
# the key may also come as one word
same "lookup one-word key" map lookup pinned "$mnt/md_hash" key 0 0 0 0 -- \
	"$DRIVER" pinned "$mnt/md_hash" --lookup "0 0 0 0"

# bpftool's own words, options after them, through the btfdump program
same "btfdump map lookup ... key (bpftool's words)" map lookup pinned "$mnt/md_hash" key 1 0 0 0 -- \
	"$B/btfdump" map lookup pinned "$mnt/md_hash" key 1 0 0 0
same "btfdump map lookup ... key ... -j" -j map lookup pinned "$mnt/md_hash" key 1 0 0 0 -- \
	"$B/btfdump" map lookup pinned "$mnt/md_hash" key 1 0 0 0 -j
same "btfdump map dump ... -p" -p map dump pinned "$mnt/md_hash" -- \
	"$B/btfdump" map dump pinned "$mnt/md_hash" -p

# ---- beyond bpftool: FLOAT and TYPE_TAG ------------------------------------
expect() { # label, file, fixed string
	checks=$((checks + 1))
	grep -qF -- "$3" "$2" || { fail "$1: no '$3' in output"; head -30 "$2"; }
}
bpftool map dump pinned "$mnt/md_float" >"$work/peer"
expect "bpftool cannot print floats" "$work/peer" '"f": (unsupported-kind'
"$DRIVER" pinned "$mnt/md_float" >"$work/ours"
for s in '"f": 1.5,' '"d": -2.25,' '"neg": -0.1,' '"big": 1e+300' '"d": 3.141592653589793,' \
	 '"neg": 1e-08,' '"big": -0'; do
	expect "float plain" "$work/ours" "$s"
done
"$DRIVER" -j pinned "$mnt/md_tagged" >"$work/ours"
expect "type tag -j" "$work/ours" '"formatted":{"key":3,"value":{"a":-1,"t":99,"f":0.5}}'
bpftool -j map dump pinned "$mnt/md_tagged" >"$work/peer"
expect "bpftool cannot print type tags" "$work/peer" '"t":(unsupported-kind'
# hex parts of those entries still equal bpftool's
checks=$((checks + 1))
[ "$(jq -c '.[].key, .[].value' "$work/ours")" = "$(sed 's/(unsupported-kind/0/' "$work/peer" | jq -c '.[].key, .[].value')" ] ||
	fail "type tag -j: hex bytes differ from bpftool"

# ---- valid JSON ------------------------------------------------------------
for m in md_hash md_flow md_float md_tagged md_pc_hash maps_data md_esc md_random md_random_pc; do
	for fmt in "" -j; do
		checks=$((checks + 1))
		"$DRIVER" $fmt pinned "$mnt/$m" --valid-json --net >"$work/ours" &&
			jq -e . "$work/ours" >/dev/null || fail "--valid-json $m $fmt: not valid JSON"
	done
done
"$DRIVER" -j pinned "$mnt/md_hash" --valid-json >"$work/ours"
v='.[] | select(.formatted.key == 0) | .formatted.value'
for pair in 'bf1|-3' 'bf2|13' 'bf3|2748' 'bf4|-5' 'bf5|8589934591' 'e8|3' \
	    's128|"-92233720368547758081"' 'u128|"18446744073709551621"' 'p|4660' \
	    'ax|11' 'ua|65538' 'name|"hello"'; do
	f=${pair%%|*} want=${pair#*|}
	checks=$((checks + 1))
	got=$(jq -c "$v | .[\"$f\"]" "$work/ours")
	[ "$got" = "$want" ] || fail "--valid-json .$f = $got, want $want"
done
"$DRIVER" pinned "$mnt/md_esc" --valid-json >"$work/ours"
checks=$((checks + 1))
[ "$(jq -r '.[0].value.s' "$work/ours")" = "a\\b'c" ] || fail "--valid-json string escaping"

# ---- --net: host order and flow-key addresses ------------------------------
"$DRIVER" pinned "$mnt/md_hash" --net >"$work/ours"
expect "net be16" "$work/ours" '"port": 8080,'
expect "net be32" "$work/ours" '"addr": 167772161,'
"$DRIVER" pinned "$mnt/md_flow" --net >"$work/ours"
for s in '"ipv4_src": "192.168.0.1"' '"ipv4_dst": "127.0.0.127"' '"ipv6_src": "2001:db8::1"' \
	 '"ipv6_dst": "fe80::2"' '"sport": 12345,' '"dport": 5353,' '"n_proto": 34525,' \
	 '"flow_label": 48879'; do
	expect "net flow keys" "$work/ours" "$s"
done
checks=$((checks + 1))
grep -q '"ipv4_src": "32.1.13.184"' "$work/ours" && fail "net: IPv6 flow keys show an IPv4 arm"

# ---- errors: one line on stderr, non-zero exit -----------------------------
for args in "id 4000000000" "pinned $mnt/nope" "name nosuchmap$tag" "pinned $mnt/md_hash --lookup 1 2" "bogus 1"; do
	checks=$((checks + 1))
	if "$DRIVER" $args >"$work/ours" 2>"$work/ours.err"; then
		fail "'$args' succeeded"
	elif [ "$(wc -l <"$work/ours.err")" -lt 1 ]; then
		fail "'$args': no message"
	fi
done

# ---- the btfdump program itself, once its main dispatches `map` -----------
if [ -x "$B/btfdump" ] && "$B/btfdump" map pinned "$mnt/nb_4_8" >/dev/null 2>&1; then
	for fmt in "" -j -p; do
		same "btfdump $fmt map md_hash" $fmt map dump pinned "$mnt/md_hash" -- "$B/btfdump" $fmt map pinned "$mnt/md_hash"
		same "btfdump $fmt map nb_pc_20" $fmt map dump pinned "$mnt/nb_pc_20" -- "$B/btfdump" $fmt map pinned "$mnt/nb_pc_20"
	done
else
	echo "note: $B/btfdump does not dispatch 'map' yet; tested through $DRIVER"
fi

echo "$checks checks, $fails failed"
[ $fails -eq 0 ]
