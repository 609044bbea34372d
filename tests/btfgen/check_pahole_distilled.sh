#!/bin/bash
# pahole's distilled_base (kbuild passes it for out-of-tree modules):
# btfgen-pahole -J --btf_base BASE --btf_features=...,distilled_base MOD.ko
# writes the module's .BTF as split BTF over a distilled base, in .BTF.base:
#  - btfcheck accepts .BTF over .BTF.base;
#  - .BTF.base holds only INT, FLOAT, FWD and memberless named STRUCT, UNION
#    and ENUM types, each the size of the base type of that name;
#  - the types and strings are libbpf's btf__distill_base() of the same
#    module's plain split BTF, byte for byte (libbpf >= 1.5 from the cache
#    of scripts/build-libbpf.sh; without one that comparison is said to be
#    left out, the other checks still run);
#  - a detached output ignores the feature (as pahole: a raw file has no
#    room for .BTF.base), and writing the .ko again without it removes the
#    stale .BTF.base.
. "$(dirname "$0")/../lib.sh"
P=$B/btfgen-pahole BTFGEN=$B/btfgen
CACHE=${LIBBPF_CACHE:-/var/cache/btf-bench}
FEATS=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs

# the "vmlinux": named and anonymous types a module reaches in many ways
cat >"$T/types.h" <<'EOF'
typedef unsigned long long u64;
struct list_head { struct list_head *next, *prev; };
union key { u64 u; double d; };
enum state { S_ON, S_OFF };
typedef struct { int counter; } atomic_t;
struct device { const char *name; struct list_head node; atomic_t refs; enum state st; };
typedef void (*notify_fn)(struct device *, int);
struct module { char name[56]; int refcnt; };
EOF
cat >"$T/k.c" <<'EOF'
#include "types.h"
struct device kdev;
union key kkey;
notify_fn knotify;
EOF
gcc -g -O0 -c "$T/k.c" -o "$T/k.o" && "$BTFGEN" -o "$T/base.btf" "$T/k.o" ||
	{ echo "FAIL: cannot build the base"; exit 1; }
# the module: embeds struct device, points at list_head, uses the anonymous
# atomic_t typedef, a function pointer type and a const array of the base
cat >"$T/m.c" <<'EOF'
#include "types.h"
struct module __attribute__((section(".gnu.linkonce.this_module"))) __this_module = { "m", 1 };
struct my_dev { struct device dev; struct list_head *peers; atomic_t users; union key *k;
		notify_fn cb; const u64 limits[4]; };
int my_probe(struct my_dev *d, enum state s) { return d->users.counter + s; }
EOF
gcc -g -O2 -c "$T/m.c" -o "$T/m.ko" || { echo "FAIL: cannot build the module"; exit 1; }
cp "$T/m.ko" "$T/plain.ko"
"$P" -J --btf_base "$T/base.btf" --btf_features=$FEATS "$T/plain.ko" ||
	bad "plain module encoding failed"
"$P" -J --btf_base "$T/base.btf" --btf_features=$FEATS,distilled_base "$T/m.ko" ||
	bad "distilled_base encoding failed"
objcopy --dump-section .BTF="$T/split.btf" --dump-section .BTF.base="$T/dbase.btf" \
	"$T/m.ko" "$T/junk.o" 2>"$T/err" || bad "m.ko lacks .BTF or .BTF.base: $(cat "$T/err")"
objcopy --dump-section .BTF="$T/plain.btf" "$T/plain.ko" "$T/junk.o" || bad "plain.ko lacks .BTF"

"$B/btfcheck" --base "$T/dbase.btf" "$T/split.btf" >"$T/out" 2>&1 ||
	bad "btfcheck rejects .BTF over .BTF.base: $(cat "$T/out")"
# the distilled base: which kinds, no members, the base's sizes
"$B/btfdump" file "$T/dbase.btf" >"$T/dbase.txt" || bad "btfdump cannot read .BTF.base"
"$B/btfdump" file "$T/base.btf" >"$T/base.txt"
python3 tests/btfgen/distilled_base_kinds.py "$T/dbase.txt" "$T/base.txt" || fail=1

# libbpf's own distillation of the plain split BTF, when a libbpf >= 1.5 is built
lib=$(ls -d "$CACHE"/libbpf-*/ 2>/dev/null | while read -r d; do
	nm "$d/lib/libbpf.a" 2>/dev/null | grep -q ' T btf__distill_base$' && echo "$d"; done | head -n 1)
if [ -n "$lib" ]; then
	gcc -O1 -I"$lib/include" tests/btfgen/libbpf_distill.c -o "$T/libbpf_distill" \
		"$lib/lib/libbpf.a" -lelf -lz || bad "cannot build tests/btfgen/libbpf_distill.c"
	"$T/libbpf_distill" "$T/base.btf" "$T/plain.btf" "$T/ref_base.btf" "$T/ref_split.btf" ||
		bad "libbpf cannot distill the plain module BTF"
	# types and strings, after each file's own header (newer libbpf's is longer)
	body() { python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(); sys.stdout.buffer.write(d[struct.unpack_from("<I",d,4)[0]:])' "$1"; }
	cmp -s <(body "$T/dbase.btf") <(body "$T/ref_base.btf") ||
		bad ".BTF.base differs from libbpf's btf__distill_base ($lib)"
	cmp -s <(body "$T/split.btf") <(body "$T/ref_split.btf") ||
		bad ".BTF differs from libbpf's btf__distill_base ($lib)"
	echo "compared with libbpf's btf__distill_base ($lib)"
else
	echo "note: no libbpf >= 1.5 in $CACHE (scripts/build-libbpf.sh): libbpf comparison left out"
fi

# detached output: no .BTF.base to write, the feature is ignored as pahole does
"$P" -J --btf_base "$T/base.btf" --btf_features=$FEATS,distilled_base \
	--btf_encode_detached="$T/det.btf" "$T/m.ko" || bad "detached encoding failed"
cmp -s "$T/det.btf" "$T/plain.btf" || bad "detached output with distilled_base differs from the plain one"
# again without the feature: the stale .BTF.base goes
"$P" -J --btf_base "$T/base.btf" --btf_features=$FEATS "$T/m.ko" || bad "re-encoding failed"
readelf -S -W "$T/m.ko" | grep -q '\.BTF\.base' && bad "a stale .BTF.base stayed"
objcopy --dump-section .BTF="$T/again.btf" "$T/m.ko" "$T/junk.o" && cmp -s "$T/again.btf" "$T/plain.btf" ||
	bad "re-encoded .BTF differs from the plain one"

[ $fail = 0 ] && echo "PASS: distilled base"
exit $fail
