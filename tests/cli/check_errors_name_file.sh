#!/bin/bash
# Every error line names the file it is about: the error cases of btfgen,
# btfdump and btfcheck (not ELF, missing, no DWARF, an unreadable symbol
# table, a bad base, a layout --in-place refuses, BTF the C dump cannot
# print, ...) each exit non-zero with nothing on stdout, and every line on
# stderr contains the path of the input (or base) at fault. btfcheck's
# rejections are results: on stdout (exit 1), every line naming the file.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
n=0
bad() { echo "FAIL: $*"; fail=1; }

# named PATH CMD...: exit non-zero, stdout empty, stderr non-empty and
# every stderr line containing PATH. verdict PATH CMD...: a rejection is
# btfcheck's result: exit 1, the verdict on stdout, every line of stdout
# and stderr containing PATH.
named() { check_named error "$@"; }
verdict() { check_named verdict "$@"; }
check_named() {
	local mode=$1 path=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	local rc=$?
	n=$((n + 1))
	if [ "$mode" = error ]; then
		[ $rc -ne 0 ] || { bad "$*: exit 0"; return; }
		[ -s "$T/out" ] && bad "$*: stdout not empty"
		[ -s "$T/err" ] || bad "$*: no error message"
	else
		[ $rc = 1 ] || bad "$*: exit $rc, want 1"
		[ -s "$T/out" ] || bad "$*: no verdict on stdout"
		cat "$T/out" >>"$T/err"
	fi
	while IFS= read -r line; do
		case "$line" in
		*"$path"*) ;;
		*) bad "$(basename "$1") (exit $rc): line without $path: $line" ;;
		esac
	done <"$T/err"
}

echo hello >"$T/text.txt"
gcc -O2 -c -o "$T/nodwarf.o" -x c - <<<'int f(void) { return 1; }' || exit 1
gcc -g -O2 -c -o "$T/dwarf.o" -x c - <<<'struct s { int a; } v; int f(struct s *p) { return p->a; }' || exit 1
cp "$T/dwarf.o" "$T/nosym.o"
python3 tests/write/elf_mutate.py "$T/nosym.o" .symtab entsize 0 || exit 1
cp "$T/dwarf.o" "$T/align.o"
python3 tests/write/elf_mutate.py "$T/align.o" .debug_aranges addralign 0x100000000 || exit 1
python3 tests/cli/bad_blobs.py "$T"
"$B/btfgen" -o "$T/good.btf" "$T/dwarf.o" || exit 1

named "$T/text.txt" "$B/btfgen" -o "$T/o.btf" "$T/text.txt"
named "$T/missing.o" "$B/btfgen" -o "$T/o.btf" "$T/missing.o"
named "$T/nodwarf.o" "$B/btfgen" -o "$T/o.btf" "$T/nodwarf.o"
named "$T/nosym.o" "$B/btfgen" -o "$T/o.btf" "$T/nosym.o"
named "$T/align.o" "$B/btfgen" --in-place "$T/align.o"
named "$T/badbase.btf" "$B/btfgen" --base "$T/badbase.btf" -o "$T/o.btf" "$T/dwarf.o"
named "$T/text.txt" "$B/btfdump" file "$T/text.txt"
named "$T/missing.btf" "$B/btfdump" file "$T/missing.btf"
named "$T/cycle.btf" "$B/btfdump" file "$T/cycle.btf" format c
named "$T/cycle.btf" "$B/btfdump" file "$T/cycle.btf" format c --sort
named "$T/badbase.btf" "$B/btfdump" file "$T/good.btf" --base "$T/badbase.btf" format c
verdict "$T/text.txt" "$B/btfcheck" "$T/text.txt"
named "$T/missing.btf" "$B/btfcheck" "$T/missing.btf"
verdict "$T/cycle.btf" "$B/btfcheck" "$T/cycle.btf"
named "$T/badbase.btf" "$B/btfcheck" --base "$T/badbase.btf" "$T/good.btf"
[ $fail -eq 0 ] && echo "PASS: $n error cases, every stderr line names the file"
exit $fail
