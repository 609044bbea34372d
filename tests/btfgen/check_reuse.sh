#!/bin/bash
# Type reuse between the compile units of a group (feature `reuse`, on by
# default) must give the same types as the exact conversion
# (--features default,-reuse). 16 gcc units in one shared object hold the
# traps a reuse keyed by a hash that names structs only by name can fall
# into: the same `struct S { struct T *t; int x; }` text over different
# struct T bodies (also two levels deep, inside a cycle, by value, through a
# typedef, an enum value, a function pointer, a member name, a bitfield width,
# an array shape), a struct pointing to a FWD in some units and to a
# definition (one, or two different ones) in others, and one big struct with
# typedefs, anonymous members, bitfields, arrays and function pointers
# repeated identically in every unit (where reuse does apply).
# Compared: btfsig lines (sorted, with repeats), the type count after dedup,
# the number of `bpftool btf dump` lines, and an id-free fingerprint of the
# whole type graph (colour refinement over the raw dump: tells apart a VAR
# or member that points at the wrong one of two same-named variants, which
# btfsig cannot). The ODR expectations are also asserted directly on the
# reuse output. Last, the on/off comparison on btfgen's own binary.
. "$(dirname "$0")/../lib.sh"
# ---- the program ----------------------------------------------------------
cat >"$T/common.h" <<'C'
typedef unsigned int u32;
typedef unsigned long long u64;
typedef int (*cb_t)(void *ctx, const char *name, u32 n);
enum color { RED, GREEN = 4, BLUE = -2 };
struct inner { int a; char b[3]; };
struct rec {
	u32 id;
	const volatile u64 stamp;
	unsigned int f1 : 3, f2 : 5, : 0, f3 : 12;
	signed char sb : 2;
	struct { int x, y; } pos;
	union { long l; double d; struct inner in; } v;
	int grid[3][4][2];
	const char *names[5];
	cb_t cb;
	void (*done)(struct rec *self, int code);
	enum color col;
	enum { LOCAL_A, LOCAL_B = 7 } local;
	struct inner *volatile const vp;
	struct rec *next;
	union { struct { u32 lo, hi; }; u64 all; };
};
typedef struct rec rec_t;
typedef const rec_t crec_t;
union shared_u { rec_t r; char raw[sizeof(rec_t)]; };
typedef union shared_u shared_t;
C
# the two ODR variants: every pair differs, all of the same size where it can
cat >"$T/varA.h" <<'C'
struct T { int a; };
struct U2 { int u; };
struct payload { int a; };
struct detail { int d; };
struct Tv { int a; };
struct Tn { int a; };
struct Tb { int a : 3; int b : 5; };
struct Tarr { int m[2][3]; };
struct ctx { int c; };
union Uv { int a; long b; };
enum mode { M_A = 1, M_B = 2 };
typedef int handle_t;
C
cat >"$T/varB.h" <<'C'
struct T { long a; char b; };
struct U2 { char u[3]; };
struct payload { long b; };
struct detail { unsigned int d; };
struct Tv { float a; };
struct Tn { int b; };
struct Tb { int a : 4; int b : 4; };
struct Tarr { int m[3][2]; };
struct ctx { long c; };
union Uv { long b; int a; };
enum mode { M_A = 1, M_B = 3 };
typedef long handle_t;
C
# the same text in every A and B unit; each type differs only through the above
cat >"$T/odr.h" <<'C'
struct S { struct T *t; int x; };
struct T2 { struct U2 *u; };
struct S2 { struct T2 *t; int x; };
struct pl2 { struct detail *d; };
struct node { struct node *next; struct payload *p; struct pl2 *q; };
struct ma { struct mb *b; struct payload *p; };
struct mb { struct ma *a; };
struct Sv { struct Tv t; int x; };
struct Sn { struct Tn *t; };
struct Sb { struct Tb *t; };
struct Sarr { struct Tarr *t; };
struct ops { int (*fn)(struct ctx *c, int n); };
struct Su { union Uv *u; };
struct Se { enum mode m; };
struct St { handle_t h; };
struct Sa { struct { struct T *t; } in; union { const struct T *ct; volatile struct T *vt; }; };
typedef struct T *tp_t;
struct Sq { tp_t p; };
union Un { struct T *t; long l; };
C
# A, B: ODR variants; F: SF/SG point to FWDs; D1: U, W defined (U reached only
# through SF); D2: U defined, W defined differently from D1; C: common only
units="A A B A B F D1 E A F D2 B C A E B F C"
# unit_src NAME KIND [VAR]: the source of a unit; VAR is the name of its struct S variable
unit_src() {
	local u=$1
	echo '#include "common.h"'
	echo "rec_t rec_$u; shared_t sh_$u;"
	echo "int use_$u(crec_t *r, enum color c, cb_t f) { return r->id + c + (f != 0); }"
	case $2 in
	A | B)
		echo "#include \"var$2.h\""
		echo '#include "odr.h"'
		echo "struct S ${3:-s_$u}; struct S2 s2_$u; struct node node_$u; struct mb mb_$u;"
		echo "struct Sv sv_$u; struct Sn sn_$u; struct Sb sb_$u; struct Sarr sarr_$u;"
		echo "struct ops ops_$u; struct Su su_$u; struct Se se_$u; struct St st_$u;"
		echo "struct Sa sa_$u; struct Sq sq_$u; union Un un_$u; handle_t h_$u;"
		echo "int odr_$u(struct S *s, struct node *n, struct ma *m) { return s->x + (n->p != 0) + (m->b != 0); }"
		;;
	F)
		echo 'struct U; struct SF { struct U *u; int y; };'
		echo 'struct W; struct SG { struct W *w; int y; };'
		echo "struct SF sf_$u; struct SG sg_$u;"
		;;
	D1)
		echo 'struct U { int z; }; struct SF { struct U *u; int y; };'
		echo 'struct W { int z; }; struct SG { struct W *w; int y; };'
		echo "struct SF sf_$u; int sg_$u(struct SG *g) { return g->y; }"
		;;
	E) # only the enum differs from A's: Se must not be A's Se
		echo 'enum mode { M_A = 1, M_B = 3 }; struct Se { enum mode m; };'
		echo "struct Se se_$u;"
		;;
	D2)
		echo 'struct U { int z; }; struct SF { struct U *u; int y; };'
		echo 'struct W { long z, q; }; struct SG { struct W *w; int y; };'
		echo "struct U u_$u; struct SF sf_$u; struct SG sg_$u;"
		;;
	FU | FW) # the F unit's declaration of U, or of W, alone
		[ "$2" = FU ] && echo "struct U; struct SF { struct U *u; int y; }; struct SF sf_$u;"
		[ "$2" = FW ] && echo "struct W; struct SG { struct W *w; int y; }; struct SG sg_$u;"
		;;
	DU) # U defined unlike D1's and D2's
		echo "struct U { long z; char c; }; struct U u_$u;"
		;;
	esac
}
cc() { gcc -g -O0 -fPIC -c -o "$T/$1.o" "$T/$1.c" || { echo "FAIL: gcc $1.c"; exit 1; }; }
n=0 nab=0
for k in $units; do
	n=$((n + 1))
	u=$(printf u%02d "$n")
	unit_src "$u" "$k" >"$T/$u.c"
	cc "$u"
	case $k in A | B) nab=$((nab + 1)) ;; esac
done
gcc -shared -o "$T/lib.so" "$T"/u*.o || { echo "FAIL: gcc -shared"; exit 1; }
ncu=$(readelf --debug-dump=info "$T/lib.so" 2>/dev/null | grep -c 'DW_TAG_compile_unit')
[ "$ncu" -eq "$n" ] || { echo "FAIL: lib.so has $ncu compile units, expected $n"; exit 1; }
# the same with the struct S variables of u01 (A) and u03 (B) swapped
unit_src u01 A s_u03 >"$T/w01.c"; cc w01
unit_src u03 B s_u01 >"$T/w03.c"; cc w03
# shellcheck disable=SC2046 # object paths in a mktemp dir: no spaces
gcc -shared -o "$T/swapped.so" "$T/w01.o" "$T/u02.o" "$T/w03.o" $(ls "$T"/u*.o | tail -n +4) ||
	{ echo "FAIL: gcc -shared"; exit 1; }

# ---- comparison helpers ---------------------------------------------------
# shellcheck source=reuse_compare.sh
. "$(dirname "$0")/reuse_compare.sh" # reuse_convert, reuse_same, fingerprint
convert() { reuse_convert "$T" "$@" || exit 1; } # NAME INPUT FEATURES JOBS

# the fingerprint must see what btfsig cannot: in swapped.so the variables
# s_u01 and s_u03 trade places (s_u01 now has the B struct S): same btfsig
# lines and counts (but for the DATASEC), another graph
convert swapped "$T/swapped.so" "$OFF" 2
convert off "$T/lib.so" "$OFF" 2
cmp -s <(grep -v ^datasec "$T/off.sig") <(grep -v ^datasec "$T/swapped.sig") ||
	{ echo "FAIL: self-check: swapped names changed btfsig"; fail=1; }
fingerprint "$T/off.raw" "$T/swapped.raw" nosec >/dev/null &&
	{ echo "FAIL: self-check: the fingerprint does not see a VAR moved to another struct S"; fail=1; }

# ---- reuse on vs off --------------------------------------------------------
for j in 1 3; do
	convert on$j "$T/lib.so" "$ON" $j
	reuse_same "$T" off on$j "reuse, -j $j" || fail=1
done
cmp -s "$T/on1.btf" "$T/on3.btf" || { echo "FAIL: with reuse, -j 1 and -j 3 give different bytes"; fail=1; }

# ---- the ODR expectations, directly on the reuse output ---------------------
R=$T/on1.raw
count() { grep -c "^\[[0-9]*\] $1 '$2' " "$R"; }
expect() { # KIND NAME N
	local c
	c=$(count "$1" "$2")
	[ "$c" -eq "$3" ] || { echo "FAIL: $c $1 '$2' with reuse, expected $3"; fail=1; }
}
# targets NAME MEMBER: for each struct/union NAME, "ownid -> KIND 'name' id"
# of what MEMBER leads to through PTR/CONST/VOLATILE/TYPEDEF
targets() {
	awk -v want="$1" -v mem="$2" '
	/^\[[0-9]+\] / {
		id = substr($1, 2, length($1) - 2); kind[id] = $2
		match($0, /\047[^\047]*\047/); nm[id] = substr($0, RSTART, RLENGTH)
		if (match($0, / type_id=[0-9]+/)) to[id] = substr($0, RSTART + 9, RLENGTH - 9)
		cur = (($2 == "STRUCT" || $2 == "UNION") && nm[id] == "\047" want "\047") ? id : ""
		next
	}
	cur != "" && $1 == "\047" mem "\047" { t = $2; sub(/type_id=/, "", t); m[cur] = t }
	END {
		for (o in m) {
			t = m[o]
			for (s = 0; s < 20 && (kind[t] == "PTR" || kind[t] == "CONST" || kind[t] == "VOLATILE" || kind[t] == "TYPEDEF"); s++)
				t = to[t]
			print o " -> " kind[t] " " nm[t] " " t
		}
	}' "$R" | sort
}
# two_targets NAME MEMBER TARGET: two NAMEs whose MEMBER leads to two
# different struct TARGETs
two_targets() {
	local out
	out=$(targets "$1" "$2")
	if [ "$(echo "$out" | grep -c " -> STRUCT '$3' ")" -ne 2 ] ||
	   [ "$(echo "$out" | awk '{ print $NF }' | sort -u | wc -l)" -ne 2 ]; then
		echo "FAIL: the two '$1' do not point to two different '$3' through '$2':"; echo "$out"; fail=1
	fi
}
for s in S T S2 T2 U2 node payload pl2 detail ma mb Sv Tv Sn Tn Sb Tb Sarr Tarr ops ctx Se St Sa Sq Su SG W; do
	expect STRUCT $s 2
done
for s in Uv Un; do expect UNION $s 2; done
two_targets S t T
two_targets S2 t T2
two_targets T2 u U2
two_targets node p payload
two_targets node q pl2
two_targets pl2 d detail
two_targets ma p payload
two_targets Sv t Tv
two_targets Sq p T
two_targets SG w W
# each node's next is itself, each mb's a is an ma whose b is that mb
targets node next | awk '$1 != $NF { bad = 1 } END { exit bad }' ||
	{ echo "FAIL: a struct node's next is another node:"; targets node next; fail=1; }
targets mb a | awk '{ print $1, $NF }' >"$T/mb"
[ "$(wc -l <"$T/mb")" -eq 2 ] || { echo "FAIL: not two struct mb"; fail=1; }
while read -r mb ma; do
	targets ma b | grep -q "^$ma -> STRUCT 'mb' $mb\$" || { echo "FAIL: ma $ma does not point back to mb $mb"; fail=1; }
done <"$T/mb"
# the two enum and typedef variants
grep -A2 "ENUM 'mode' " "$R" | grep -q "'M_B' val=2" || { echo "FAIL: enum mode with M_B=2 lost"; fail=1; }
grep -A2 "ENUM 'mode' " "$R" | grep -q "'M_B' val=3" || { echo "FAIL: enum mode with M_B=3 lost"; fail=1; }
expect ENUM mode 2
expect TYPEDEF handle_t 2
[ "$(targets St h | cut -d' ' -f3- | sed 's/ [0-9]*$//' | sort | tr '\n' ,)" = "INT 'int',INT 'long int'," ] ||
	{ echo "FAIL: St.h does not lead to int and long:"; targets St h; fail=1; }
# FWD vs definition: SF merges with its defined twins and its FWD resolves
# to U; the SGs with a FWD merge into one of the two SGs with a W (the exact
# conversion: the first), so no FWD W is left
expect STRUCT SF 1
expect STRUCT U 1
expect FWD U 0
expect FWD W 0
targets SF u | grep -q " -> STRUCT 'U' " || { echo "FAIL: SF.u does not lead to struct U"; fail=1; }
# identical in every unit: once each; nothing of any unit lost
for s in rec inner; do expect STRUCT $s 1; done
expect UNION shared_u 1
for t in u32 u64 cb_t rec_t crec_t shared_t; do expect TYPEDEF $t 1; done
expect TYPEDEF tp_t 2
expect ENUM color 1
for i in $(seq -w 1 "$n"); do
	expect VAR "rec_u$i" 1
	expect VAR "sh_u$i" 1
	expect FUNC "use_u$i" 1
done
for p in "VAR 's_u" "VAR 'node_u" "VAR 'sq_u" "FUNC 'odr_u"; do
	c=$(grep -c "^\[[0-9]*\] $p" "$R")
	[ "$c" -eq $nab ] || { echo "FAIL: $c $p*', expected $nab"; fail=1; }
done

# ---- several groups -----------------------------------------------------------
# groups_case NAME "KINDS...": one unit of each kind (unit_src) in order,
# linked into NAME.so; converted without reuse and with it at -j 1, 2 and
# 3: each must be the exact conversion, and the same bytes at any -j. The
# unit count is left in m.
groups_case() {
	local name=$1 k u j
	m=0
	for k in $2; do
		m=$((m + 1))
		u=$(printf "${name}_%03d" "$m")
		unit_src "$u" "$k" >"$T/$u.c"
		cc "$u"
	done
	gcc -shared -o "$T/$name.so" "$T/$name"_*.o || { echo "FAIL: gcc -shared $name.so"; exit 1; }
	convert "${name}_off" "$T/$name.so" "$OFF" 2
	for j in 1 2 3; do
		convert "${name}_on$j" "$T/$name.so" "$ON" $j
		reuse_same "$T" "${name}_off" "${name}_on$j" "reuse, $name.so ($m units), -j $j" || fail=1
		cmp -s "$T/${name}_on1.btf" "$T/${name}_on$j.btf" ||
			{ echo "FAIL: $name.so with reuse: -j 1 and -j $j give different bytes"; fail=1; }
	done
}
# 48 units of common types only, then the pattern above four times: three
# groups of 48 units. The first pairs nothing that fails; the second is
# found to pair U/W and the ODR variants before the last group is appended
# and converted again early, while the last one is converted (convert.c,
# early_redo), and put into the output before the last group is appended
# (fold_early)
groups_case many "$(printf 'C %.0s' $(seq 48)) $units $units $units $units"
nmany=$m
# A group found only after a group converted again early. Three groups:
# the first pairs U (FU) with D1's definition, which holds until the last
# group brings another U (DU); the second pairs W with D1's and D2's, of two
# shapes, so it is converted again early and folded in. The look after the
# last group must still find the first group and convert it again
groups_case late "FU D1 $(printf 'C %.0s' $(seq 46)) FW D1 D2 $(printf 'C %.0s' $(seq 45)) DU C"

# ---- the reuse does happen -----------------------------------------------------
# Above, a reuse that never applies would pass (the exact conversion is the
# reference). Six units of the common types only (one group, nothing
# ambiguous): before dedup (-dedup), each type that refers to named structs
# (struct rec: struct inner, itself; union shared_u: struct rec) must be
# there once, its edges checked through the first unit's name map.
# shellcheck disable=SC2046 # object paths in a mktemp dir: no spaces
gcc -shared -o "$T/common.so" $(ls "$T"/many_00[1-6].o) || { echo "FAIL: gcc -shared common.so"; exit 1; }
"$B/btfgen" -j 1 --features "$ON,-dedup" -o "$T/common_on.btf" "$T/common.so" &&
	dump "$T/common_on.btf" >"$T/common_on.raw" || { echo "FAIL: btfgen -dedup on common.so"; exit 1; }
"$B/btfgen" -j 1 --features "$OFF,-dedup" -o "$T/common_off.btf" "$T/common.so" &&
	dump "$T/common_off.btf" >"$T/common_off.raw" || { echo "FAIL: btfgen -dedup,-reuse on common.so"; exit 1; }
for t in "STRUCT 'rec'" "STRUCT 'inner'" "UNION 'shared_u'" "TYPEDEF 'crec_t'"; do
	c=$(grep -c "^\[[0-9]*\] $t " "$T/common_on.raw")
	[ "$c" -eq 1 ] || { echo "FAIL: $c $t before dedup with reuse in 6 units of one group, expected 1"; fail=1; }
	c=$(grep -c "^\[[0-9]*\] $t " "$T/common_off.raw")
	[ "$c" -eq 6 ] || { echo "FAIL: self-check: $c $t before dedup without reuse, expected 6"; fail=1; }
done

# Each candidate is checked through its own name map: two holders of two
# different named structs, in three units of one group, are each there
# once before dedup. (Red with every candidate given the first map built:
# the other holder's edge is not in it, so that holder is converted again
# in each unit; the comparisons above pass then, the reuse only misses.)
for k in 0 1 2; do
	printf 'struct A { int a; }; struct B { long b; };\nstruct HA { struct A *p; }; struct HB { struct B *q; };\nstruct HA ha%s; struct HB hb%s;\n' \
		"$k" "$k" >"$T/maps$k.c"
	gcc -g -O0 -fPIC -c -o "$T/maps$k.o" "$T/maps$k.c" || { echo "FAIL: gcc maps$k.c"; exit 1; }
done
gcc -shared -o "$T/maps.so" "$T"/maps[012].o || { echo "FAIL: gcc -shared maps.so"; exit 1; }
"$B/btfgen" -j 1 --features "$ON,-dedup" -o "$T/maps_on.btf" "$T/maps.so" &&
	dump "$T/maps_on.btf" >"$T/maps_on.raw" || { echo "FAIL: btfgen -dedup on maps.so"; exit 1; }
for t in "STRUCT 'HA'" "STRUCT 'HB'"; do
	c=$(grep -c "^\[[0-9]*\] $t " "$T/maps_on.raw")
	[ "$c" -eq 1 ] || { echo "FAIL: $c $t before dedup with reuse in 3 units of one group, expected 1"; fail=1; }
done

# ---- btfgen's own binary ------------------------------------------------------
self=""
if readelf -S "$B/btfgen" 2>/dev/null | grep -q '\.debug_info'; then
	convert self_off "$B/btfgen" "$OFF" 2
	convert self_on "$B/btfgen" "$ON" 2
	reuse_same "$T" self_off self_on "reuse on $B/btfgen" || fail=1
	self=", same on $B/btfgen ($(cat "$T/self_on.cnt") types)"
else
	echo "btfgen itself has no DWARF: its on/off comparison not run"
fi
[ $fail -eq 0 ] && echo "PASS: $n units with reuse (-j 1 and 3) give the exact $(cat "$T/on1.cnt") types, ODR variants kept apart; so do $nmany and $m units in three groups$self"
exit $fail
