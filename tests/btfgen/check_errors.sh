#!/bin/bash
# btfgen's errors: one line on stderr naming the file and the problem,
# non-zero exit, and no output file left behind.
set -u
B=${B:-build}
BTFGEN=$B/btfgen
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
# expect EXIT_CODE PATTERN CMD... : exit status, one stderr line matching PATTERN
expect() {
	local code=$1 pat=$2
	shift 2
	"$@" 2>"$T/err" >/dev/null
	local rc=$?
	if [ $rc -ne "$code" ] || [ "$(wc -l <"$T/err")" -ne 1 ] || ! grep -q -- "$pat" "$T/err"; then
		echo "FAIL: $* -> exit $rc, stderr: $(cat "$T/err")"
		fail=1
	fi
}
echo hello >"$T/text"
expect 1 "text: not an ELF file" "$BTFGEN" -o "$T/out.btf" "$T/text"
expect 1 "missing: No such file" "$BTFGEN" -o "$T/out.btf" "$T/missing"
gcc -O2 -c -o "$T/nodwarf.o" -x c - <<<'int f(void) { return 1; }'
expect 1 "nodwarf.o: no DWARF" "$BTFGEN" -o "$T/out.btf" "$T/nodwarf.o"
gcc -g -O2 -c -o "$T/dwarf.o" -x c - <<<'struct s { int a; } v; int f(struct s *p) { return p->a; }'
expect 1 "no/such/dir/out.btf" "$BTFGEN" -o "$T/no/such/dir/out.btf" "$T/dwarf.o"
expect 2 "unknown feature 'bogus'" "$BTFGEN" --features bogus -o "$T/out.btf" "$T/dwarf.o"
expect 2 "not a thread count" "$BTFGEN" -j 0 -o "$T/out.btf" "$T/dwarf.o"
# clang's .BTF.ext names type ids of clang's .BTF: --in-place must refuse it
# and leave the object as it was
clang-16 -g -O2 -target bpf -c -o "$T/ext.o" -x c - <<<'int v; int f(int *p) { return *p + v; }'
cp "$T/ext.o" "$T/ext-orig.o"
expect 1 "ext.o: has a .BTF.ext section" "$BTFGEN" --in-place "$T/ext.o"
cmp -s "$T/ext.o" "$T/ext-orig.o" || { echo "FAIL: --in-place changed an object it refused"; fail=1; }
[ -e "$T/out.btf" ] && { echo "FAIL: an output file was left after errors"; fail=1; }
# and the good case works, raw and in place
"$BTFGEN" -o "$T/out.btf" "$T/dwarf.o" || { echo "FAIL: btfgen on a small gcc object"; fail=1; }
"$BTFGEN" --in-place "$T/dwarf.o" && readelf -S "$T/dwarf.o" | grep -q '\.BTF' ||
	{ echo "FAIL: --in-place did not add .BTF"; fail=1; }
find "$T" -mindepth 1 -maxdepth 1 -printf '%f\n' | grep -v -e '^text$' -e '^err$' -e '\.o$' -e '^out\.btf$' && { echo "FAIL: temporary files left"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: btfgen errors name the file and the problem"
exit $fail
