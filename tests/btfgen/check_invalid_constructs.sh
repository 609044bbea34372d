#!/bin/bash
# btfgen never writes BTF the kernel would reject. The constructs the
# campaign found in damaged DWARF are converted to valid BTF (each dropped
# with a note): an array whose element type is lost, a variable of function
# type, members past the end of their struct, a packed bit-field over more
# than 128 bits of storage; an object with no C types is refused with a
# clear error. What the converter still lets through is caught by the
# verify-before-write invariant: exit 4, the input named with the
# verifier's reason, nothing written (a struct shrunk under an early
# member: only members near the struct's end are measured).
. "$(dirname "$0")/../lib.sh"
BTFGEN=$B/btfgen
MUT=tests/btfgen/dwarf_mutate.py

cat >"$T/craft.c" <<'C'
struct big { int a; long b; int arr[4]; } bv;
int (*fp)(int);
int f(struct big *p) { return p->a + fp(1); }
C
cat >"$T/early.c" <<'C'
struct early { char buf[64]; int x[20]; int y; } ev;
C
cat >"$T/wide.c" <<'C'
struct __attribute__((packed)) wide { unsigned char c : 4; unsigned __int128 a : 127; } wv;
C

# converted NAME OBJ NOTE DUMP_ABSENT: exit 0, a -v note, btfcheck accepts
# the output, and the dropped construct is not in it
converted() {
	local name=$1 obj=$2 note=$3 absent=$4
	"$BTFGEN" -v -o "$T/$name.btf" "$obj" >"$T/out" 2>"$T/err"
	local rc=$?
	[ $rc -eq 0 ] || { bad "$name: exit $rc: $(grep -v 'units,' "$T/err")"; return; }
	grep -q "note: $note" "$T/err" || bad "$name: no note '$note': $(cat "$T/err")"
	"$B/btfcheck" "$T/$name.btf" >/dev/null 2>"$T/chk" || bad "$name: btfcheck: $(cat "$T/chk")"
	"$B/btfdump" file "$T/$name.btf" | grep -q -- "$absent" && bad "$name: still has $absent"
	echo "$name: converted, $(grep -c . <("$B/btfdump" file "$T/$name.btf")) dump lines"
}
for v in 4 5; do
	gcc -g -O2 -S -dA -gdwarf-$v -o "$T/craft$v.s" "$T/craft.c" || exit 1
	for m in no_elem var_func shrink=0x8; do
		python3 "$MUT" "$T/craft$v.s" "$T/m.s" "$m" && gcc -c -o "$T/$m.$v.o" "$T/m.s" ||
			{ bad "mutation $m"; continue; }
	done
	converted "no_elem.$v" "$T/no_elem.$v.o" "array types without an element type" "ARRAY"
	converted "var_func.$v" "$T/var_func.$v.o" "variables of function type dropped" "VAR 'fp'"
	converted "shrink.$v" "$T/shrink=0x8.$v.o" "members BTF cannot place dropped" "'arr'"
done
for cc in gcc clang-16; do
	$cc -g -O2 -c -o "$T/wide.$cc.o" "$T/wide.c" || exit 1
	converted "wide.$cc" "$T/wide.$cc.o" "members BTF cannot place dropped" "'a' type_id"
done

# refused NAME OBJ PATTERN: exit 4, one line naming OBJ, no output file
refused() {
	local name=$1 obj=$2 pat=$3
	"$BTFGEN" -o "$T/$name.btf" "$obj" >"$T/out" 2>"$T/err"
	local rc=$?
	if [ $rc -ne 4 ] || [ "$(wc -l <"$T/err")" -ne 1 ] || ! grep -q -- "$obj: .*$pat" "$T/err"; then
		bad "$name: exit $rc, stderr: $(cat "$T/err")"
	fi
	[ -e "$T/$name.btf" ] && bad "$name: an output was written"
	# (the blob is written to a temporary file while it is verified)
	compgen -G "$T/$name.btf.tmp*" >/dev/null && bad "$name: a temporary file was left: $(ls "$T")"
	[ -s "$T/out" ] && bad "$name: stdout not empty"
	echo "$name: $(cat "$T/err")"
}
printf 'struct s { int a; } v;\n' >"$T/cxx.cc"
g++ -g -c -o "$T/cxx.o" "$T/cxx.cc" || exit 1
refused cxx "$T/cxx.o" "no C types in its DWARF"
gcc -g -O2 -S -dA -o "$T/early.s" "$T/early.c" || exit 1
python3 "$MUT" "$T/early.s" "$T/m.s" shrink=0x30 && gcc -c -o "$T/early.o" "$T/m.s" || bad "mutation early"
refused early "$T/early.o" "would be rejected by the kernel, not written: .*Member exceeds struct_size"
[ $fail -eq 0 ] && echo "PASS: btfgen converts or refuses the invalid constructs, never writes invalid BTF"
exit $fail
