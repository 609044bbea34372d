#!/bin/bash
# bench/dwarf_floor (the DIE walk floor of bench_btfgen.sh): both walks, the
# project's DWARF reader and libdw's, visit every DIE of a small program
# once: their unit and DIE counts equal readelf's dump of .debug_info
# (entries that are not the null entry closing a list of children); a file
# without DWARF is an error naming the file (exit 1).
. "$(dirname "$0")/../lib.sh"
command -v gcc >/dev/null || { echo "SKIP: gcc not installed"; exit 77; }
command -v readelf >/dev/null || { echo "SKIP: readelf not installed"; exit 77; }
F=$B/bench/dwarf_floor
[ -x "$F" ] || { echo "FAIL: $F not built"; exit 1; }
cat >"$T/a.c" <<'C'
struct node { struct node *next; int v[4]; union { long l; char c; } u; };
enum color { RED, GREEN };
static int sum(const struct node *n) { int s = 0; for (; n; n = n->next) s += n->v[0]; return s; }
int main(void) { struct node n = { 0, { 1 }, { 0 } }; enum color c = GREEN; return sum(&n) + c; }
C
cat >"$T/b.c" <<'C'
typedef struct { int x, y; } point;
point origin(void) { point p = { 0, 0 }; return p; }
C
gcc -g -O1 -o "$T/prog" "$T/a.c" "$T/b.c" || { echo "FAIL: gcc"; exit 1; }
want_units=$(readelf --debug-dump=info "$T/prog" | grep -c 'Compilation Unit @')
want_dies=$(readelf --debug-dump=info "$T/prog" | grep 'Abbrev Number:' | grep -vc 'Abbrev Number: 0$')
[ "$want_dies" -gt 20 ] || bad "readelf saw only $want_dies DIEs"
for m in reader libdw; do
	got=$("$F" $m "$T/prog") || { bad "dwarf_floor $m failed"; continue; }
	[ "$got" = "$want_units $want_dies" ] ||
		bad "dwarf_floor $m: '$got' units and DIEs, readelf: '$want_units $want_dies'"
done
printf 'not an ELF file\n' >"$T/junk"
"$F" reader "$T/junk" 2>"$T/err" >/dev/null
rc=$?
[ $rc = 1 ] || bad "a file without DWARF: exit $rc, not 1"
grep -q "$T/junk" "$T/err" || bad "the error does not name the file: $(cat "$T/err")"
[ $fail = 0 ] && echo "PASS: dwarf_floor walks every DIE ($want_units units, $want_dies DIEs)"
exit $fail
