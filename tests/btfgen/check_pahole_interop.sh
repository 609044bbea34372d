#!/bin/bash
# btfgen's BTF mixes with pahole v1.31's, on the Debian 6.1 kernel with the
# 6.18 kernel's BTF flags:
#  - vmlinux: btfgen-pahole's BTF is pahole's type graph: every type of one
#    has exactly one equal type (canonical form, tests/scripts/
#    btf_graph_diff.py) in the other;
#  - modules (virtio_net, af_key, fat), in all four base/encoder pairings:
#    each encoder's module BTF over the other's vmlinux BTF is no larger than
#    over its own (2% slack), btfgen-pahole's over pahole's vmlinux is
#    pahole's type graph, and btfgen's own mode (--base) over pahole's
#    vmlinux is no larger than pahole's module;
#  - btfgen's modules (own mode and btfgen-pahole) over either vmlinux
#    repeat no type of it (no split type has an equal base type);
#  - distilled_base (the out-of-tree module path), in place over pahole's
#    vmlinux: btfgen-pahole's .BTF and .BTF.base no larger than pahole's.
# Needs the Debian vmlinux and modules with DWARF (make bench caches them in
# /var/cache/btf-bench) and pahole v1.31 (scripts/build-pahole.sh).
. "$(dirname "$0")/../lib.sh"
CACHE=${BTF_BENCH_CACHE:-/var/cache/btf-bench}
PAHOLE=${PAHOLE_V131:-$CACHE/pahole-v1.31/bin/pahole}
GRAPH_DIFF=$(dirname "$0")/../scripts/btf_graph_diff.py
vmlinux=$(ls "$CACHE"/vmlinux-* 2>/dev/null | head -1)
[ -n "$vmlinux" ] || { echo "SKIP: no cached Debian vmlinux with DWARF (make bench fetches one)"; exit 77; }
[ -x "$PAHOLE" ] || { echo "SKIP: no pahole v1.31 at $PAHOLE (scripts/build-pahole.sh builds it)"; exit 77; }
ver=${vmlinux##*/vmlinux-}
mods=$CACHE/modules-$ver/usr/lib/debug/lib/modules/$ver/kernel
command -v bpftool >/dev/null || { echo "SKIP: bpftool not installed"; exit 77; }

K618=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs
FLAGS=(-J "--btf_features=$K618" --btf_features=attributes --lang_exclude=rust)
# encode ENCODER OUT INPUT [BASE]: detached BTF (pahole v1.31 does not
# truncate an existing output: there is none)
encode() {
	local tool=$1 out=$2 in=$3 base=${4:-}
	local rules=()
	# (the peer is v1.31: its function set, not master's default)
	[ "$tool" = pahole ] && tool=$PAHOLE || { tool=$B/btfgen-pahole; rules=(--func_rules=v1.31); }
	rm -f "$out"
	"$tool" "${FLAGS[@]}" "${rules[@]}" -j2 ${base:+--btf_base "$base"} --btf_encode_detached="$out" "$in" >"$T/err" 2>&1 ||
		{ bad "$(basename "$tool") failed on $in: $(tail -3 "$T/err")"; return 1; }
}
# same_graph A B WHAT [BASE]: the canonical-form comparison
same_graph() {
	bpftool -j btf dump file "$1" ${4:+--base "$4"} >"$T/a.json" &&
		bpftool -j btf dump file "$2" ${4:+--base "$4"} >"$T/b.json" ||
		{ bad "$3: bpftool cannot dump"; return; }
	python3 "$GRAPH_DIFF" "$T/a.json" "$T/b.json" --show 3 >"$T/diff" ||
		bad "$3: the type graphs differ: $(tail -12 "$T/diff")"
}

encode pahole "$T/vmlinux.p" "$vmlinux" && encode btfgen "$T/vmlinux.g" "$vmlinux" || exit 1
same_graph "$T/vmlinux.p" "$T/vmlinux.g" "vmlinux (pahole v1.31, btfgen-pahole)"
cp "$T/a.json" "$T/base-p.json" && cp "$T/b.json" "$T/base-g.json" || bad "no vmlinux JSON dumps"

size() { stat -c %s "$1"; }
# within A B: A is at most 2% larger than B
within() { [ $(($1 * 100)) -le $(($2 * 102)) ]; }
for m in drivers/net/virtio_net.ko net/key/af_key.ko fs/fat/fat.ko; do
	ko=$mods/$m n=$(basename "$m" .ko)
	[ -f "$ko" ] || { bad "$ko missing from the module cache"; continue; }
	for enc in pahole btfgen; do
		for base in p g; do
			encode $enc "$T/$n.$enc.$base" "$ko" "$T/vmlinux.$base" || continue 2
		done
	done
	"$B/btfgen" -j1 --base "$T/vmlinux.p" -o "$T/$n.own.p" "$ko" || { bad "btfgen --base failed on $ko"; continue; }
	pp=$(size "$T/$n.pahole.p") gg=$(size "$T/$n.btfgen.g")
	within "$(size "$T/$n.btfgen.p")" "$pp" ||
		bad "$n: btfgen-pahole over pahole's vmlinux: $(size "$T/$n.btfgen.p") B, pahole's own $pp B"
	within "$(size "$T/$n.pahole.g")" "$pp" ||
		bad "$n: pahole over btfgen-pahole's vmlinux: $(size "$T/$n.pahole.g") B, over its own $pp B"
	within "$(size "$T/$n.btfgen.g")" "$(size "$T/$n.btfgen.p")" ||
		bad "$n: btfgen-pahole over its own vmlinux larger than over pahole's"
	within "$(size "$T/$n.own.p")" "$pp" ||
		bad "$n: btfgen --base pahole's vmlinux: $(size "$T/$n.own.p") B, pahole's module $pp B"
	same_graph "$T/$n.pahole.p" "$T/$n.btfgen.p" "$n over pahole's vmlinux (pahole, btfgen-pahole)" "$T/vmlinux.p"
	for split in own.p btfgen.p btfgen.g; do
		bpftool -j btf dump file "$T/$n.$split" --base "$T/vmlinux.${split#*.}" >"$T/$n.$split.json" ||
			bad "$n ($split): bpftool cannot dump it"
	done
	echo "$n: pahole/pahole $pp B, btfgen/pahole $(size "$T/$n.btfgen.p") B, pahole/btfgen $(size "$T/$n.pahole.g") B, btfgen/btfgen $gg B, btfgen --base/pahole $(size "$T/$n.own.p") B"
done
# distilled_base, in place (a copy of virtio_net.ko per encoder)
for enc in pahole btfgen; do
	cp "$mods/drivers/net/virtio_net.ko" "$T/d.$enc.ko"
	if [ $enc = pahole ]; then tool=("$PAHOLE"); else tool=("$B/btfgen-pahole" --func_rules=v1.31); fi
	"${tool[@]}" -J "--btf_features=$K618,distilled_base" --btf_features=attributes --lang_exclude=rust \
		--btf_base "$T/vmlinux.p" "$T/d.$enc.ko" >"$T/err" 2>&1 &&
		objcopy --dump-section .BTF="$T/d.$enc.btf" --dump-section .BTF.base="$T/d.$enc.base" \
			"$T/d.$enc.ko" "$T/junk.o" 2>>"$T/err" || bad "distilled_base by $enc failed: $(tail -3 "$T/err")"
done
for sec in btf base; do
	[ -s "$T/d.btfgen.$sec" ] && within "$(size "$T/d.btfgen.$sec")" "$(size "$T/d.pahole.$sec")" ||
		bad "distilled_base: btfgen-pahole's .${sec} $(size "$T/d.btfgen.$sec" 2>/dev/null) B, pahole's $(size "$T/d.pahole.$sec" 2>/dev/null) B"
done
echo "virtio_net distilled: .BTF $(size "$T/d.pahole.btf")/$(size "$T/d.btfgen.btf") B, .BTF.base $(size "$T/d.pahole.base")/$(size "$T/d.btfgen.base") B (pahole/btfgen)"
# (the base refined once with all its modules)
for b in p g; do
	python3 "$GRAPH_DIFF" --repeats "$T/base-$b.json" "$T"/*."$b".json >"$T/rep" ||
		bad "modules repeat types of their base: $(grep -B3 'repeating a base type: [1-9]' "$T/rep" | head -12)"
done
[ $fail = 0 ] && echo "PASS: btfgen-pahole's BTF is pahole v1.31's type graph; modules mix both ways"
exit $fail
