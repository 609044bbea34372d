#!/bin/bash
# Types BTF has no direct kind for, from a clang -g x86 object: _BitInt,
# __int128, long double, _Complex (as an array of two FLOATs), bitfields in
# a 128-bit unit. The layout must survive (struct size, member offsets) and
# the kernel must load the result.
. "$(dirname "$0")/../lib.sh"
command -v clang >/dev/null || { echo "SKIP: clang not installed"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: kernel load check needs root"; exit 77; }
cat >"$T/odd.c" <<'C'
struct odd {
	_BitInt(24) a;
	unsigned _BitInt(40) b;
	long double ld;
	_Complex double cd;
	__int128 big;
	unsigned __int128 wide : 100;
	_Complex float cf;
} odd_var;
int use_odd(struct odd *p) { return (int)p->a; }
C
clang -g -O2 -c -o "$T/odd.o" "$T/odd.c" || { echo "FAIL: clang"; exit 1; }
"$B/btfgen" -o "$T/odd.btf" "$T/odd.o" || { echo "FAIL: btfgen"; exit 1; }
"$B/tests/btfgen/btfload" "$T/odd.btf" || exit 1
line=$("$B/tests/btfgen/btfsig" "$T/odd.btf" | grep '^struct odd ')
# what the compiler itself says about the layout
cat >"$T/layout.c" <<'C'
#include <stddef.h>
#include <stdio.h>
#include "odd.c"
#define M(f) printf(#f "@%zu\n", offsetof(struct odd, f) * 8)
int main(void)
{
	printf("size=%zu\n", sizeof(struct odd));
	M(a); M(b); M(ld); M(cd); M(big); M(cf);
	return 0;
}
C
clang -I"$T" -o "$T/layout" "$T/layout.c" || { echo "FAIL: layout program"; exit 1; }
echo "$line"
[ "$("$T/layout" | wc -l)" -eq 7 ] || { echo "FAIL: layout program output"; fail=1; }
for m in $("$T/layout"); do
	echo "$line" | grep -q -e "[ {]$m " || { echo "FAIL: struct odd: compiler says $m"; fail=1; }
done
for m in 'wide@[0-9]*:100 ' '\[2\]float(double,8)' '\[2\]float(float,4)' 'float(long double,16)' 'int(__int128,16,enc1,bits128'; do
	echo "$line" | grep -q -- "$m" || { echo "FAIL: struct odd lacks '$m'"; fail=1; }
done
[ $fail -eq 0 ] && echo "PASS: odd base types keep their layout and load"
exit $fail
