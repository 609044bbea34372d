#!/bin/bash
# btfgen --in-place checks the ELF it is about to rewrite before writing:
# an alignment no real object has (the one-field .debug_aranges mutant with
# sh_addralign 2^32 once made a 4 GiB file, 2^40 filled the disk), a
# section over the program header table (a .so once lost its program
# headers) or over the ELF header, contents past the end of the file. Each
# is refused with exit 4 and one error line naming the file and the
# section; the file is left byte for byte as it was, no temporary file
# stays, and the unmutated objects are still rewritten (and still load).
. "$(dirname "$0")/../lib.sh"
BTFGEN=$B/btfgen
MUT=tests/write/elf_mutate.py

cat >"$T/a.c" <<'C'
struct s { int a; long b; } v;
int f(struct s *p) { return p->a; }
C
gcc -g -O2 -c -o "$T/a.o" "$T/a.c" || exit 1
gcc -g -O2 -shared -fPIC -o "$T/a.so" "$T/a.c" || exit 1

# refused NAME BASE PATTERN SECTION FIELD VALUE...: mutate a copy of BASE
# (one or more SECTION FIELD VALUE triples), btfgen --in-place must refuse
refused() {
	local name=$1 base=$2 pat=$3 f="$T/$1"
	shift 3
	cp "$T/$base" "$f"
	while [ $# -ge 3 ]; do
		python3 "$MUT" "$f" "$1" "$2" "$3" || { bad "$name: mutation failed"; return; }
		shift 3
	done
	cp "$f" "$T/orig"
	timeout 60 "$BTFGEN" --in-place "$f" >"$T/out" 2>"$T/err"
	local rc=$?
	if [ $rc -ne 4 ] || [ "$(wc -l <"$T/err")" -ne 1 ] || ! grep -q -- "$f: .*$pat" "$T/err"; then
		bad "$name: exit $rc, stderr: $(head -c 300 "$T/err")"
	fi
	[ -s "$T/out" ] && bad "$name: wrote to stdout"
	cmp -s "$f" "$T/orig" || bad "$name: the input changed"
	echo "$name: exit $rc: $(head -c 200 "$T/err")"
}
refused align32 a.o "(.debug_aranges): alignment 4294967296" .debug_aranges addralign 0x100000000
refused align40 a.o "(.debug_aranges): alignment 1099511627776" .debug_aranges addralign 0x10000000000
refused align3 a.o "(.debug_info): alignment 3 is not a power of two" .debug_info addralign 3
refused pad a.o "padding" .debug_info addralign 0x1000000 .debug_abbrev addralign 0x1000000 \
	.debug_line addralign 0x1000000
refused so_phdr a.so "(.got) overlaps the program header table" .got offset phoff
refused rel_ehdr a.o "(.text) overlaps the ELF header" .text offset 8
refused so_ehdr a.so "(.got) overlaps the ELF header" .got offset 0
refused past_end a.o "(.comment) extends past the end of the file" .comment size 0x7fffffff

# nothing but the checked-out originals and mutants in the directory
find "$T" -mindepth 1 -name '*tmp*' | grep -q . && bad "temporary files left: $(find "$T" -name '*tmp*')"

# the real objects still go through, the library still loads
"$BTFGEN" --in-place "$T/a.o" && readelf -S "$T/a.o" | grep -q '\.BTF' || bad "--in-place on a real .o"
"$BTFGEN" --in-place "$T/a.so" && readelf -S "$T/a.so" | grep -q '\.BTF' || bad "--in-place on a real .so"
python3 -c 'import ctypes, sys; ctypes.CDLL(sys.argv[1]).f' "$T/a.so" || bad "the rewritten .so does not load"
[ $fail -eq 0 ] && echo "PASS: --in-place refuses ELF layouts it cannot trust and leaves them untouched"
exit $fail
