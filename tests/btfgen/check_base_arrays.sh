#!/bin/bash
# Split BTF shares its base's types whatever encoder made the base: a
# "vmlinux" and a "module" that both reach structs holding arrays (one
# and two dimensions, a flexible one), the base made in each style:
#  - btfgen --style pahole gives pahole's arrays (one ARRAY of the
#    dimensions' product, indexed by a signed int), every FUNC static, a
#    DATASEC ending at its last variable and the types of a function's
#    blocks kept; --style clang (the default) nests dimensions indexed by
#    __ARRAY_SIZE_TYPE__;
#  - a module over a base of either style, in either style, repeats no
#    type of the base: it holds only its own struct, FUNCs, and what
#    refers to them (its arrays are spelled as the base's);
#  - with pahole v1.31 cached (scripts/build-pahole.sh), the same over
#    pahole's base, and pahole's module over btfgen-pahole's base.
. "$(dirname "$0")/../lib.sh"
PAHOLE=${PAHOLE_V131:-/var/cache/btf-bench/pahole-v1.31/bin/pahole}
command -v gcc >/dev/null || { echo "SKIP: gcc not installed"; exit 77; }

cat >"$T/types.h" <<'EOF'
struct ring { unsigned int slots[16]; long grid[4][8]; char name[2][3][5]; };
struct dev { struct ring *rings[2]; struct ring main; int flags; unsigned char mac[6]; };
struct pkt { int len; struct dev *dev; unsigned char data[]; };
EOF
cat >"$T/k.c" <<'EOF'
#include "types.h"
struct dev kdev;
int __attribute__((section(".data..percpu"))) pcpu_a;
long __attribute__((section(".data..percpu"))) pcpu_b[3];
int kfunc(struct pkt *p) { struct blk { int a, b; } x = { p->len, 1 };
	{ struct inner { long q[2][2]; } y = { { { x.a } } }; return (int)y.q[0][0] + x.b; } }
static int __attribute__((noinline)) local(struct dev *d) { return d->flags; }
int kuse(struct dev *d) { return local(d) + d->main.slots[1]; }
EOF
cat >"$T/m.c" <<'EOF'
#include "types.h"
struct mine { struct pkt *p; struct dev d; long extra[2][2]; };
struct mine mod_state;
int mod_rx(struct mine *m, struct pkt *p) { return m->d.rings[0]->grid[1][2] + p->len; }
EOF
# (.data..percpu gets 16 bytes after the variables, of no variable: the
# section's end is not the last variable's)
printf '\t.section .data..percpu,"aw"\n\t.zero 16\n\t.section .note.GNU-stack,"",@progbits\n' >"$T/pad.s"
gcc -g -O1 -c "$T/k.c" -o "$T/k1.o" && gcc -c "$T/pad.s" -o "$T/pad.o" &&
	ld -r "$T/k1.o" "$T/pad.o" -o "$T/k.o" && gcc -g -O1 -c "$T/m.c" -o "$T/m.o" ||
	{ echo "FAIL: cannot build the inputs"; exit 1; }

# dump FILE [BASE]: bpftool-style raw text of FILE (over BASE)
dump() { "$B/btfdump" file "$1" ${2:+--base "$2"}; }
"$B/btfgen" -j1 -o "$T/base.clang" "$T/k.o" || bad "btfgen (clang style) failed"
"$B/btfgen" -j1 --style pahole -o "$T/base.pahole" "$T/k.o" || bad "btfgen --style pahole failed"
dump "$T/base.clang" >"$T/bc.txt"
dump "$T/base.pahole" >"$T/bp.txt"

# the styles, as written
grep -q "INT '__ARRAY_SIZE_TYPE__'" "$T/bc.txt" || bad "clang style: no __ARRAY_SIZE_TYPE__"
grep -q "INT '__ARRAY_SIZE_TYPE__'" "$T/bp.txt" && bad "pahole style: __ARRAY_SIZE_TYPE__ present"
python3 tests/btfgen/array_spelling.py "$T/bc.txt" "$T/bp.txt" || fail=1

# own_types SPLIT BASE: the module's own named types and its non-FUNC kinds
check_module() {
	local what=$1 split=$2 base=$3 named
	dump "$split" "$base" >"$T/split.txt" 2>"$T/err" || { bad "$what: cannot dump: $(cat "$T/err")"; return; }
	named=$(sed -n "s/^\[[0-9]*\] \(STRUCT\|UNION\|TYPEDEF\|ENUM\|INT\) '\([^']*\)'.*/\1 \2/p" "$T/split.txt" |
		grep -v "^STRUCT mine$" | sort | tr '\n' ' ')
	[ -z "$named" ] || bad "$what: repeats base types: $named"
	grep -q "^\[[0-9]*\] STRUCT 'mine'" "$T/split.txt" || bad "$what: struct mine missing"
}
for bstyle in clang pahole; do
	for mstyle in clang pahole; do
		"$B/btfgen" -j1 --style $mstyle --base "$T/base.$bstyle" -o "$T/m.$mstyle.$bstyle" "$T/m.o" ||
			{ bad "module ($mstyle) over the $bstyle base failed"; continue; }
		check_module "module ($mstyle style) over a $bstyle-style base" "$T/m.$mstyle.$bstyle" "$T/base.$bstyle"
	done
done

if [ -x "$PAHOLE" ]; then
	FEATS=--btf_features=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func
	"$PAHOLE" -J "$FEATS" --btf_encode_detached="$T/base.p131" "$T/k.o" || bad "pahole: base failed"
	for mstyle in clang pahole; do
		"$B/btfgen" -j1 --style $mstyle --base "$T/base.p131" -o "$T/m.$mstyle.p131" "$T/m.o" &&
			check_module "module ($mstyle style) over pahole v1.31's base" "$T/m.$mstyle.p131" "$T/base.p131" ||
			bad "module ($mstyle) over pahole's base failed"
	done
	"$PAHOLE" -J "$FEATS" --btf_base "$T/base.pahole" --btf_encode_detached="$T/m.p131.pahole" "$T/m.o" &&
		check_module "pahole's module over btfgen --style pahole's base" "$T/m.p131.pahole" "$T/base.pahole" ||
		bad "pahole: module over btfgen's base failed"
else
	echo "note: pahole v1.31 not cached ($PAHOLE): its pairings left out"
fi
[ $fail = 0 ] && echo "PASS: split BTF shares the base's types in every style pairing"
exit $fail
