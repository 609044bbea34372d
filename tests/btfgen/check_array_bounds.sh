#!/bin/bash
# Array lengths from gcc's DW_AT_upper_bound, which gcc writes in the
# smallest DW_FORM_dataN that holds it: 255 is data1 0xff, 65535 data2 0xffff.
# Read as signed (libdw's dwarf_formsdata does), those were -1 and the
# arrays came out with 0 elements. Every length must be the declared one.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
sizes="1 2 127 128 129 200 255 256 257 32767 32768 32769 65535 65536 65537 16777216"
{
	for n in $sizes; do echo "struct s$n { char a[$n]; };"; done
	echo 'struct m { short a[255][256]; int b[128][2][129]; };'
	echo 'struct f { int n; int flex[]; };'
	for n in $sizes; do echo "struct s$n v$n;"; done
	echo 'struct m vm; struct f *vf;'
} >"$T/a.c"
gcc -g -O0 -c -o "$T/a.o" "$T/a.c" || { echo "FAIL: gcc"; exit 1; }
"$B/btfgen" -o "$T/a.btf" "$T/a.o" || { echo "FAIL: btfgen"; exit 1; }
"$B/tests/btfgen/btfsig" "$T/a.btf" >"$T/sig" || { echo "FAIL: btfsig"; exit 1; }
fail=0
expect() {
	grep -qF "$1" "$T/sig" || { echo "FAIL: expected '$1'"; grep "^struct $2 " "$T/sig"; fail=1; }
}
for n in $sizes; do
	expect "struct s$n size=$n {a@0 [$n]int(char," "s$n"
done
expect "a@0 [255][256]int(short int," m
expect "[128][2][129]int(int," m
expect "flex@32 [0]int(int," f
[ $fail -eq 0 ] && echo "PASS: $(echo $sizes | wc -w) lengths up to 2^24, multi-dimensional and flexible arrays"
exit $fail
