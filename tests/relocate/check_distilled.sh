#!/bin/bash
# A module's own distilled base (.BTF.base, pahole's distilled_base and
# btfgen --distilled-base), read by btfdump and btfcheck, against bpftool
# v7.8 (libbpf's btf__relocate) built by scripts/build-bpftool.sh:
#  - `btfdump [-j] file M.ko` and `bpftool [-j] btf dump file M.ko`: .BTF
#    over .BTF.base, the same bytes; with `--base BASE` / `-B BASE`: .BTF
#    relocated onto BASE, the same bytes. For a small "kernel" and module
#    made here, and for Debian 6.1 modules (af_key, virtio_net) over its
#    vmlinux when /var/cache/btf-bench has them, encoded by btfgen-pahole
#    and by pahole v1.31 (when built there);
#  - bases a module does not fit, where both refuse: a struct the module
#    embeds of another size, two structs of its name and size (ambiguous),
#    an INT of another encoding, a FWD against a struct with bitfields (a
#    libbpf quirk: it reads the struct's kind flag); and one that fits
#    though a pointed-to struct has another size. btfdump names the file and
#    the type, exits 4;
#  - btfcheck M.ko: verified over .BTF.base (the kernel's module path before
#    it relocates), OK, says relocation was not checked; with --base: OK and
#    relocated, or rejected (exit 1) with the relocation's reason, also in
#    --json; a .BTF.base that is no distilled base (a whole base's PTRs, a
#    split blob) is rejected; --min-kernel says 6.11, the first module
#    loader that reads .BTF.base.
# SKIP when the built bpftool is not there.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
BT=${BPFTOOL_NEWEST:-/var/cache/btf-bench/bpftool-newest/bpftool}
CACHE=${BTF_BENCH:-/var/cache/btf-bench}
[ -x "$BT" ] || { echo "SKIP: no bpftool at $BT (scripts/build-bpftool.sh builds it)"; exit 77; }
FEATS=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs,distilled_base

# same LABEL KO [BASE]: btfdump and bpftool agree, raw and JSON
same() {
	local label=$1 ko=$2 base=${3:-} j
	for j in "" -j; do
		if [ -n "$base" ]; then
			"$BT" $j -B "$base" btf dump file "$ko" >"$T/want" 2>"$T/werr"
			"$B/btfdump" $j file "$ko" --base "$base" >"$T/got" 2>"$T/gerr"
		else
			"$BT" $j btf dump file "$ko" >"$T/want" 2>"$T/werr"
			"$B/btfdump" $j file "$ko" >"$T/got" 2>"$T/gerr"
		fi
		[ -s "$T/want" ] || { bad "$label$j: bpftool printed nothing: $(cat "$T/werr")"; continue; }
		cmp -s "$T/want" "$T/got" ||
			bad "$label$j: btfdump differs from bpftool: $(cat "$T/gerr"; diff "$T/want" "$T/got" | head -5)"
	done
}

# refused LABEL KO BASE WORDS: both refuse; btfdump exits 4 naming KO and WORDS
refused() {
	local label=$1 ko=$2 base=$3 words=$4 rc
	"$BT" -B "$base" btf dump file "$ko" >/dev/null 2>&1 && bad "$label: bpftool relocates it"
	"$B/btfdump" file "$ko" --base "$base" >"$T/out" 2>"$T/err"
	rc=$?
	[ $rc = 4 ] && [ ! -s "$T/out" ] && grep -qF "$ko: " "$T/err" && grep -qF "$words" "$T/err" ||
		bad "$label: btfdump exit $rc, wanted 4 and '$words': $(cat "$T/err")"
}

# ---- a small kernel and module ----------------------------------------------
cat >"$T/types.h" <<'EOF'
typedef unsigned long long u64;
struct list_head { struct list_head *next, *prev; };
struct ops { int (*probe)(void); OPS_EXTRA };
struct device { const char *name; struct list_head node; int refs; DEVICE_EXTRA };
struct module { char name[56]; int refcnt; };
EOF
cat >"$T/k.c" <<'EOF'
#include "types.h"
struct device kdev;
struct module kmod;
struct ops kops;
EOF
cat >"$T/m.c" <<'EOF'
#include "types.h"
struct module __attribute__((section(".gnu.linkonce.this_module"))) __this_module = { "m", 1 };
struct my_dev { struct device dev; struct list_head *peers; struct ops *ops; const u64 limits[4]; };
int my_probe(struct my_dev *d) { return d->dev.refs; }
EOF
# a second unit with another struct list_head of the same size
cat >"$T/k2.c" <<'EOF'
struct list_head { void *first, *second; };
struct list_head k2_list;
EOF
kernel() { # NAME OPS_EXTRA DEVICE_EXTRA [more objects]: $T/NAME.btf
	local name=$1 ops=$2 dev=$3
	shift 3
	gcc -g -O0 -DOPS_EXTRA="$ops" -DDEVICE_EXTRA="$dev" -c "$T/k.c" -o "$T/$name.o" &&
		if [ $# -gt 0 ]; then ld -r -o "$T/$name.all.o" "$T/$name.o" "$@" && mv "$T/$name.all.o" "$T/$name.o"; fi &&
		"$B/btfgen" -o "$T/$name.btf" "$T/$name.o" || { echo "FAIL: cannot build kernel $name"; exit 1; }
}
kernel base "" ""
kernel bigdev "" "long pad;"     # the struct device it embeds is larger
kernel bigops "long pad;" ""     # only a pointer reaches struct ops
gcc -g -O0 -c "$T/k2.c" -o "$T/k2.o" || exit 1
kernel twolists "" "" "$T/k2.o"   # two struct list_head of 16 bytes
gcc -g -O2 -DOPS_EXTRA= -DDEVICE_EXTRA= -c "$T/m.c" -o "$T/m.ko" || { echo "FAIL: cannot build the module"; exit 1; }
"$B/btfgen-pahole" -J --btf_base "$T/base.btf" --btf_features=$FEATS "$T/m.ko" ||
	{ echo "FAIL: cannot encode the module"; exit 1; }
[ "$("$B/btfdump" file "$T/twolists.btf" | grep -c "STRUCT 'list_head' size=16")" = 2 ] ||
	bad "the two-list kernel does not have two struct list_head"

same "m.ko" "$T/m.ko"
same "m.ko over its base" "$T/m.ko" "$T/base.btf"
same "m.ko over a base with a larger pointed-to struct ops" "$T/m.ko" "$T/bigops.btf"
refused "embedded struct device of another size" "$T/m.ko" "$T/bigdev.btf" "STRUCT 'device'"
refused "two struct list_head of one size" "$T/m.ko" "$T/twolists.btf" "'list_head' [2] of size 16 matches two base types"

# ---- hand-made blobs: an INT's encoding, a FWD against a struct --------------
# base: INT 'char' (SIGNED or plain), STRUCT 'opaque' (kind flag 0 or 1);
# distilled base: INT 'char' SIGNED, FWD 'opaque'; split: two typedefs
python3 tests/relocate/hand_blobs.py "$T" || bad "cannot write the hand-made blobs"
echo 'int x;' >"$T/x.c" && gcc -c "$T/x.c" -o "$T/x.o" &&
	objcopy --add-section .BTF="$T/split.btf" --add-section .BTF.base="$T/dist.btf" "$T/x.o" "$T/h.ko" ||
	bad "cannot make the hand-made module"
same "hand-made module" "$T/h.ko"
same "hand-made module over a fitting base" "$T/h.ko" "$T/b_ok.btf"
refused "INT of another encoding" "$T/h.ko" "$T/b_plainchar.btf" \
	"INT 'char' [1] (size 1) matches no type of the base: the base's INT [1] of that name has size 1, encoding (none); this one size 1, encoding SIGNED"
refused "FWD against a struct with bitfields" "$T/h.ko" "$T/b_bitfields.btf" "FWD 'opaque' [2]"

# ---- btfcheck -------------------------------------------------------------
"$B/btfcheck" "$T/m.ko" >"$T/out" 2>&1 &&
	grep -q "m.ko: OK \[module BTF over its .BTF.base; relocation onto a vmlinux not checked" "$T/out" ||
	bad "btfcheck m.ko: $(cat "$T/out")"
"$B/btfcheck" --base "$T/base.btf" "$T/m.ko" >"$T/out" 2>&1 &&
	grep -q "m.ko: OK \[module BTF over its .BTF.base, relocated onto the base\]" "$T/out" ||
	bad "btfcheck --base m.ko: $(cat "$T/out")"
"$B/btfcheck" --base "$T/bigdev.btf" "$T/m.ko" >"$T/out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "m.ko: rejected: distilled base type STRUCT 'device' \[[0-9]*\] (size [0-9]*, embedded) matches no type of the base.*(EINVAL)" "$T/out" ||
	bad "btfcheck over a misfitting base: exit $rc: $(cat "$T/out")"
"$B/btfcheck" --json --base "$T/bigdev.btf" "$T/m.ko" >"$T/out" 2>&1
python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).read())
sys.exit(not (r["distilled_base"] and not r["relocated"] and not r["valid"] and r["errno_name"] == "EINVAL" and "device" in r["reason"]))' "$T/out" ||
	bad "btfcheck --json over a misfitting base: $(cat "$T/out")"
"$B/btfcheck" --json --base "$T/base.btf" "$T/m.ko" >"$T/out" 2>&1
python3 -c 'import json,sys; r=json.loads(open(sys.argv[1]).read()); sys.exit(not (r["relocated"] and r["valid"]))' "$T/out" ||
	bad "btfcheck --json over its base: $(cat "$T/out")"
# the module loader reads .BTF.base from 6.11 on
"$B/btfcheck" --min-kernel --json "$T/m.ko" >"$T/out" 2>&1
python3 -c 'import json,sys; m=json.loads(open(sys.argv[1]).read())["min_kernel"]
sys.exit(not (m["version"] == "6.11" and ".BTF.base" in m["why"] and m["with_libbpf"] == "6.11"))' "$T/out" ||
	bad "btfcheck --min-kernel m.ko: $(cat "$T/out")"
# a .BTF.base that is no distilled base: a whole base (with a PTR), a split blob
objcopy --update-section .BTF.base="$T/base.btf" "$T/m.ko" "$T/whole.ko" &&
	objcopy --update-section .BTF.base="$T/split.btf" "$T/m.ko" "$T/splitbase.ko" || bad "objcopy"
"$B/btfcheck" "$T/whole.ko" >"$T/out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "rejected: .BTF.base: distilled base type \[[0-9]*\] is a PTR" "$T/out" ||
	bad "btfcheck with a whole base as .BTF.base: exit $rc: $(cat "$T/out")"
"$B/btfcheck" "$T/splitbase.ko" >"$T/out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "rejected: .BTF.base: " "$T/out" ||
	bad "btfcheck with a split blob as .BTF.base: exit $rc: $(cat "$T/out")"

# ---- Debian 6.1 modules over its vmlinux ----------------------------------
V=$CACHE/vmlinux-6.1.0-57-amd64
MODS=$CACHE/modules-6.1.0-57-amd64/usr/lib/debug/lib/modules/6.1.0-57-amd64/kernel
PAHOLE=$CACHE/pahole-v1.31/bin/pahole
if [ -r "$V" ] && [ -d "$MODS" ]; then
	for mod in net/key/af_key.ko drivers/net/virtio_net.ko; do
		n=$(basename "$mod" .ko)
		cp "$MODS/$mod" "$T/$n.g.ko" && "$B/btfgen-pahole" -J --btf_base "$V" --btf_features=$FEATS "$T/$n.g.ko" ||
			{ bad "$n: btfgen-pahole failed"; continue; }
		same "$n (btfgen)" "$T/$n.g.ko"
		same "$n (btfgen) over vmlinux" "$T/$n.g.ko" "$V"
		if [ -x "$PAHOLE" ]; then
			cp "$MODS/$mod" "$T/$n.p.ko" &&
				LD_LIBRARY_PATH=$CACHE/pahole-v1.31/lib "$PAHOLE" -J --btf_base "$V" --btf_features=$FEATS "$T/$n.p.ko" ||
				{ bad "$n: pahole failed"; continue; }
			same "$n (pahole)" "$T/$n.p.ko"
			same "$n (pahole) over vmlinux" "$T/$n.p.ko" "$V"
		fi
		"$B/btfcheck" --base "$V" "$T/$n.g.ko" >"$T/out" 2>&1 ||
			bad "btfcheck --base vmlinux $n: $(cat "$T/out")"
	done
	[ -x "$PAHOLE" ] || echo "note: no pahole v1.31 in $CACHE (scripts/build-pahole.sh): its modules left out"
else
	echo "note: no Debian 6.1 vmlinux and modules in $CACHE: real modules left out"
fi

[ $fail = 0 ] && echo "PASS: distilled base read and relocated as bpftool does"
exit $fail
