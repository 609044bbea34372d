#!/bin/bash
# A relocatable object of several units (ld -r, as a kernel module): each
# unit's header names its abbreviations through a relocation, so the units
# are listed from the relocated DWARF. Every unit's types must be there, the
# same as from the shared object linked from the same objects.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
cat >"$T/a.c" <<'C'
struct alpha { int x; char tag[4]; };
struct alpha alpha_var;
int alpha_fn(struct alpha *a) { return a->x; }
C
cat >"$T/b.c" <<'C'
enum beta_state { B_IDLE, B_BUSY = 7 };
union beta_val { long l; double d; };
struct beta { long y; enum beta_state st; union beta_val v[2]; unsigned int f : 3; };
struct beta beta_var;
long beta_fn(struct beta *b, union beta_val *v) { return b->y + v->l + b->f; }
C
cat >"$T/c.c" <<'C'
typedef unsigned long long gamma_t;
struct gamma { gamma_t g; struct gamma *next; const volatile int *p; };
struct gamma gamma_var;
gamma_t gamma_fn(struct gamma *g) { return g->g; }
C
for u in a b c; do
	gcc -g -O1 -fPIC -c -o "$T/$u.o" "$T/$u.c" || { echo "FAIL: gcc $u.c"; exit 1; }
done
ld -r -o "$T/rel.o" "$T/a.o" "$T/b.o" "$T/c.o" || { echo "FAIL: ld -r"; exit 1; }
gcc -shared -o "$T/lib.so" "$T/a.o" "$T/b.o" "$T/c.o" || { echo "FAIL: gcc -shared"; exit 1; }
[ "$(readelf --debug-dump=info "$T/rel.o" 2>/dev/null | grep -c 'DW_TAG_compile_unit')" = 3 ] ||
	{ echo "FAIL: rel.o does not have 3 units"; exit 1; }
for f in rel.o lib.so; do
	"$B/btfgen" -o "$T/$f.btf" "$T/$f" || { echo "FAIL: btfgen $f"; exit 1; }
	"$B/tests/btfgen/btfsig" "$T/$f.btf" | grep -Ev '^(var|datasec) ' | sort >"$T/$f.sig"
done
for want in '^struct alpha size=8' '^struct beta size=' '^union beta_val size=8' \
	'^enum beta_state size=4' '^struct gamma size=24' '^typedef gamma_t'; do
	grep -q "$want" "$T/rel.o.sig" || bad "rel.o: no match for '$want'"
done
diff "$T/lib.so.sig" "$T/rel.o.sig" || bad "rel.o and lib.so give other types"
[ $fail = 0 ] && echo "PASS: 3 units of an ld -r object: the types of each, as from the linked .so"
exit $fail
