#!/bin/bash
# What btfgen reads itself instead of asking libdw: the entry of a function
# gcc split into hot and cold parts (its first DW_AT_ranges entry, from
# .debug_ranges in DWARF 4 and .debug_rnglists in DWARF 5), and the byte
# size of a variable's type (through typedefs, qualifiers and array
# dimensions). The split static function shares its name with a function of
# a unit built without -g, so only its address tells which symbol is its
# own: without the range list read right it has no FUNC. Externs of a BPF
# object have only their type's size.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
cat >"$T/a.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
typedef const struct pair { int k; char v[6]; } pair_t;
pair_t table[3][5] = { { { 1, "x" } } };
volatile long ring[17];
__attribute__((cold, noinline)) static void oops(int x) { fprintf(stderr, "a %d\n", x); }
__attribute__((noipa)) static int work(int x, const int *v)
{
	int r = 0;
	for (int i = 0; i < x; i++) {
		if (v[i & 3] < 0) {
			oops(i);
			fprintf(stderr, "bad %d\n", i);
			exit(3);
		}
		r += v[i & 3] + table[i % 3][i % 5].k + (int)ring[i % 17];
	}
	return r;
}
int run_a(int x, const int *v) { return work(x, v); }
C
cat >"$T/b.c" <<'C'
__attribute__((noipa)) static long work(long x) { return x * 3; }
long run_b(long x) { return work(x); }
int run_a(int x, const int *v);
int main(int argc, char **argv) { static int iv[4]; return (int)run_b(argc) + run_a(argc, iv); }
C
for v in 4 5; do
	gcc -g -gdwarf-$v -O2 -c -o "$T/a$v.o" "$T/a.c" || bad "gcc -gdwarf-$v"
	gcc -O2 -c -o "$T/b.o" "$T/b.c" || bad "gcc b.c"
	gcc -o "$T/p$v" "$T/a$v.o" "$T/b.o" || bad "link"
	# the premise: a split function with a range list, its name ambiguous
	nm "$T/p$v" | grep -q ' work\.cold$' || bad "DWARF $v: gcc did not split work()"
	[ "$(nm "$T/p$v" | grep -c ' work$')" = 2 ] || bad "DWARF $v: want two work symbols"
	readelf --debug-dump=info "$T/p$v" 2>/dev/null | grep -A14 'DW_AT_name.*: work$' |
		grep -q DW_AT_ranges || bad "DWARF $v: work has no DW_AT_ranges"
	"$B/btfgen" -o "$T/p$v.btf" "$T/p$v" || { bad "DWARF $v: btfgen"; continue; }
	dump=$(bpftool btf dump file "$T/p$v.btf")
	grep -q "FUNC 'work' type_id=[0-9]* linkage=static" <<<"$dump" ||
		bad "DWARF $v: the split function has no FUNC"
	# the DATASEC entries against the symbols' sizes
	for var in table ring; do
		hex=$(nm -S "$T/p$v" | awk -v n="$var" '$4 == n { print $2 }')
		want=$((16#${hex:-0}))
		got=$(grep -o "size=[0-9]* (VAR '$var')" <<<"$dump" | grep -o '[0-9]*' | head -1)
		[ -n "$want" ] && [ "$got" = "$want" ] || bad "DWARF $v: VAR $var size ${got:-none}, symbol $want"
	done
done
# an extern's DATASEC entry has only its type to go by (no symbol size)
cat >"$T/ks.bpf.c" <<'C'
typedef const int tab_t[3][5];
extern tab_t my_tab __attribute__((section(".ksyms")));
extern const volatile long my_long __attribute__((section(".ksyms")));
int get(unsigned int i) { return my_tab[i % 3][i % 5] + (int)my_long; }
C
if bpf_cc -g -O2 -c -o "$T/ks.o" "$T/ks.bpf.c" && "$B/btfgen" -o "$T/ks.btf" "$T/ks.o"; then
	dump=$(bpftool btf dump file "$T/ks.btf")
	grep -q "size=60 (VAR 'my_tab')" <<<"$dump" || bad "extern int[3][5] typedef: not 60 bytes"
	grep -q "size=8 (VAR 'my_long')" <<<"$dump" || bad "extern const volatile long: not 8 bytes"
else
	bad "clang-16 or btfgen on the extern object"
fi
[ $fail = 0 ] && echo "PASS: split functions found by their range lists, variable sizes from their types"
exit $fail
