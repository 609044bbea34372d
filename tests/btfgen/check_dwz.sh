#!/bin/bash
# DWARF compressed by dwz (DW_TAG_partial_unit / DW_TAG_imported_unit, what
# SUSE and other distros ship): btfgen must give the same types as from the
# original DWARF, and the kernel must load the result.
. "$(dirname "$0")/../lib.sh"
command -v dwz >/dev/null || { echo "SKIP: dwz not installed"; exit 77; }
[ "$(id -u)" -eq 0 ] || { echo "SKIP: kernel load check needs root"; exit 77; }
{
	echo 'struct s0 { int a; };'
	for i in $(seq 1 30); do
		echo "struct s$i { int a$i; long b$i; struct s$((i - 1)) *p; char name[$i]; };"
	done
	echo 'typedef struct s30 top_t;'
} >"$T/common.h"
for f in 1 2 3 4; do
	printf '#include "common.h"\ntop_t v%s;\nint f%s(top_t *x) { return x->a30 + %s; }\n' $f $f $f >"$T/u$f.c"
done
printf '#include "common.h"\nint f1(top_t *); extern top_t v1;\nint main(void) { return f1(&v1); }\n' >"$T/m.c"
gcc -g -O1 -o "$T/prog" "$T"/u*.c "$T/m.c" || { echo "FAIL: gcc"; exit 1; }
cp "$T/prog" "$T/prog.dwz"
dwz "$T/prog.dwz" || { echo "FAIL: dwz"; exit 1; }
np=$(readelf --debug-dump=info "$T/prog.dwz" | grep -c DW_TAG_partial_unit)
[ "$np" -gt 0 ] || { echo "FAIL: dwz made no partial units"; exit 1; }
"$B/btfgen" -j2 -o "$T/plain.btf" "$T/prog" || { echo "FAIL: btfgen on plain DWARF"; exit 1; }
"$B/btfgen" -j2 -o "$T/dwz.btf" "$T/prog.dwz" || { echo "FAIL: btfgen on dwz DWARF"; exit 1; }
"$B/tests/btfgen/btfsig" "$T/plain.btf" | sort >"$T/plain.sig"
"$B/tests/btfgen/btfsig" "$T/dwz.btf" | sort >"$T/dwz.sig"
if ! diff "$T/plain.sig" "$T/dwz.sig"; then
	echo "FAIL: dwz-compressed DWARF gives other types"
	fail=1
fi
grep -q '^struct s17 size=' "$T/dwz.sig" || { echo "FAIL: struct s17 missing"; fail=1; }
"$B/tests/btfgen/btfload" "$T/dwz.btf" || fail=1

# dwz -m: types shared by two programs move to a common file that both name
# in .gnu_debugaltlink; DW_FORM_GNU_ref_alt/strp_alt point into it
cp "$T/prog" "$T/prog2"
dwz -m "$T/common.debug" -M "$T/common.debug" "$T/prog" "$T/prog2" ||
	{ echo "FAIL: dwz -m"; exit 1; }
readelf -S "$T/prog" | grep -q gnu_debugaltlink || { echo "FAIL: dwz -m wrote no altlink"; exit 1; }
"$B/btfgen" -j2 -o "$T/alt.btf" "$T/prog" || { echo "FAIL: btfgen on dwz -m DWARF"; exit 1; }
"$B/tests/btfgen/btfsig" "$T/alt.btf" | sort >"$T/alt.sig"
if ! diff "$T/plain.sig" "$T/alt.sig"; then
	echo "FAIL: DWARF with a dwz alternate file gives other types"
	fail=1
fi
"$B/tests/btfgen/btfload" "$T/alt.btf" || fail=1
[ $fail -eq 0 ] && echo "PASS: $np partial units followed; same $(wc -l <"$T/dwz.sig") signatures as without dwz, also with a dwz -m alternate file"
exit $fail
