#!/bin/bash
# btfgen's errors: one line on stderr naming the file and the problem, the
# exit status of the shared table (cli/cli.h: 2 usage, 4 bad input, 5 I/O),
# and no output file left behind. Also the forgiving parts of the command
# line: -o - (standard output), --features -NAME / none, --version.
. "$(dirname "$0")/../lib.sh"
BTFGEN=$B/btfgen
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
expect 4 "text: not an ELF file" "$BTFGEN" -o "$T/out.btf" "$T/text"
expect 5 "missing: No such file" "$BTFGEN" -o "$T/out.btf" "$T/missing"
gcc -O2 -c -o "$T/nodwarf.o" -x c - <<<'int f(void) { return 1; }'
expect 4 "nodwarf.o: no DWARF" "$BTFGEN" -o "$T/out.btf" "$T/nodwarf.o"
gcc -g -O2 -c -o "$T/dwarf.o" -x c - <<<'struct s { int a; } v; int f(struct s *p) { return p->a; }'
expect 5 "no/such/dir/out.btf" "$BTFGEN" -o "$T/no/such/dir/out.btf" "$T/dwarf.o"
expect 2 "unknown feature 'bogus'" "$BTFGEN" --features bogus -o "$T/out.btf" "$T/dwarf.o"
expect 2 "not a thread count" "$BTFGEN" -j 0 -o "$T/out.btf" "$T/dwarf.o"
expect 2 "dwarf.o: where should the BTF go? -o OUT.btf .* or --in-place" "$BTFGEN" "$T/dwarf.o"
expect 2 "exclude each other" "$BTFGEN" -o "$T/out.btf" --in-place "$T/dwarf.o"
# clang's .BTF.ext names type ids and strings of clang's .BTF: --in-place
# rewrites it onto the new .BTF, and refuses (leaving the object as it was)
# when it cannot: without the .BTF the records index, and when a CO-RE
# access names a member the DWARF's type does not have. The second object
# has the same code over a struct whose member is renamed (s.b -> s.c), and
# gets the first one's .BTF and .BTF.ext: a rewrite would point at s.c.
core_src='struct s { int a; int MEMBER; } __attribute__((preserve_access_index));
int v; int f(struct s *p) { return p->MEMBER + v; }'
bpf_cc -g -O2 -c -o "$T/ext.o" -x c - <<<"${core_src//MEMBER/b}"
bpf_cc -g -O2 -c -o "$T/ext2.o" -x c - <<<"${core_src//MEMBER/c}"
cp "$T/ext.o" "$T/ext-orig.o"
"$BTFGEN" --in-place "$T/ext.o" || { echo "FAIL: --in-place on an object with .BTF.ext"; fail=1; }
llvm-readelf -S "$T/ext.o" | grep -q ' \.BTF\.ext ' || { echo "FAIL: .BTF.ext dropped"; fail=1; }
llvm-objcopy --remove-section .BTF --remove-section .rel.BTF "$T/ext-orig.o" "$T/nobtf.o"
cp "$T/nobtf.o" "$T/nobtf-orig.o"
expect 4 "nobtf.o: has a .BTF.ext but its .BTF" "$BTFGEN" --in-place "$T/nobtf.o"
cmp -s "$T/nobtf.o" "$T/nobtf-orig.o" || { echo "FAIL: --in-place changed an object it refused"; fail=1; }
llvm-objcopy --dump-section .BTF="$T/a.btf" --dump-section .BTF.ext="$T/a.ext.btf" "$T/ext-orig.o"
llvm-objcopy --update-section .BTF="$T/a.btf" --update-section .BTF.ext="$T/a.ext.btf" "$T/ext2.o"
cp "$T/ext2.o" "$T/ext2-orig.o"
expect 4 "ext2.o: cannot carry .BTF.ext over.*member 'b' at bit 32" "$BTFGEN" --in-place "$T/ext2.o"
cmp -s "$T/ext2.o" "$T/ext2-orig.o" || { echo "FAIL: --in-place changed an object it refused"; fail=1; }
[ -e "$T/out.btf" ] && { echo "FAIL: an output file was left after errors"; fail=1; }
# and the good case works, raw and in place
"$BTFGEN" -o "$T/out.btf" "$T/dwarf.o" || { echo "FAIL: btfgen on a small gcc object"; fail=1; }
# -o - is standard output, the same bytes
"$BTFGEN" -o - "$T/dwarf.o" | cmp -s - "$T/out.btf" || { echo "FAIL: -o - differs from -o FILE"; fail=1; }
[ -e ./- ] && { echo "FAIL: -o - created a file named -"; fail=1; }
if [ -w /dev/full ]; then
	"$BTFGEN" -o - "$T/dwarf.o" >/dev/full 2>"$T/err"; rc=$?
	[ $rc -eq 5 ] && grep -q "write error on standard output" "$T/err" ||
		{ echo "FAIL: -o - to a full disk: exit $rc, $(cat "$T/err")"; fail=1; }
fi
# --features: -NAME first changes the defaults; none keeps no optional feature
gcc -g -O2 -c -o "$T/float.o" -x c - <<<'double d; float g(float x) { return x * d; }'
kinds() { "$B/btfdump" "$1" | awk '/^\[/ { print $2 }' | sort | uniq -c | tr -s ' ' | tr '\n' ' '; }
"$BTFGEN" -o "$T/def.btf" "$T/float.o" && "$BTFGEN" --features -float -o "$T/nofloat.btf" "$T/float.o" &&
	"$BTFGEN" --features none -o "$T/none.btf" "$T/float.o" ||
	{ echo "FAIL: btfgen --features -float / none"; fail=1; }
k_def=$(kinds "$T/def.btf") k_nof=$(kinds "$T/nofloat.btf") k_none=$(kinds "$T/none.btf")
case "$k_def" in *FLOAT*FUNC*VAR*) ;; *) echo "FAIL: default features: $k_def"; fail=1 ;; esac
case "$k_nof" in *FLOAT*) echo "FAIL: -float kept FLOAT: $k_nof"; fail=1 ;; *FUNC*VAR*) ;;
	*) echo "FAIL: -float lost more than float: $k_nof"; fail=1 ;; esac
case "$k_none" in *FLOAT* | *FUNC* | *VAR*) echo "FAIL: none kept features: $k_none"; fail=1 ;; *INT*) ;;
	*) echo "FAIL: none: $k_none"; fail=1 ;; esac
echo "kinds: default: $k_def; -float: $k_nof; none: $k_none"
"$BTFGEN" --version | grep -qx "btfgen [0-9][0-9.]*" || { echo "FAIL: --version"; fail=1; }
"$BTFGEN" --in-place "$T/dwarf.o" && readelf -S "$T/dwarf.o" | grep -q '\.BTF' ||
	{ echo "FAIL: --in-place did not add .BTF"; fail=1; }
find "$T" -mindepth 1 -maxdepth 1 -printf '%f\n' | grep -v -e '^text$' -e '^err$' -e '\.o$' -e '\.btf$' && { echo "FAIL: temporary files left"; fail=1; }
[ $fail -eq 0 ] && echo "PASS: btfgen errors name the file and the problem"
exit $fail
