#!/bin/bash
# The programs' shared command line conventions: --version from the one
# version source (the Makefile's VERSION) on every program, --help on stdout
# with exit 0 (also `btfdump map --help`), btfdump's help listing the map and
# C options, `btfdump -c PATH` taking the C options, `-o -` as stdout.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
version=$(sed -n 's/^VERSION *:= *//p' Makefile)
[ -n "$version" ] || { echo "FAIL: no VERSION in the Makefile"; exit 1; }
for p in btfgen btfcheck btfdump flowctl; do
	[ -x "$B/$p" ] || { bad "$B/$p not built"; continue; }
	out=$("$B/$p" --version) && [ "$out" = "$p $version" ] || bad "$p --version: '$out', want '$p $version'"
	"$B/$p" --help >"$T/help" 2>"$T/err" && [ -s "$T/help" ] && [ ! -s "$T/err" ] ||
		bad "$p --help: not on stdout with exit 0"
	"$B/$p" --definitely-not-an-option >/dev/null 2>"$T/err"; rc=$?
	[ $rc -eq 2 ] && [ -s "$T/err" ] || bad "$p with an unknown option: exit $rc (want 2, usage)"
done
# usage errors of btfgen, btfcheck and btfdump: one line through the shared
# reporter ("PROG: ... (see PROG --help)"), exit 2, nothing on stdout
for p in btfgen btfcheck btfdump; do
	for args in "--definitely-not-an-option" "" "-j"; do
		[ "$p$args" = btfdump-j ] && args="-B"
		# shellcheck disable=SC2086 # the empty case is no argument at all
		"$B/$p" $args >"$T/out" 2>"$T/err"; rc=$?
		[ $rc -eq 2 ] && [ "$(wc -l <"$T/err")" -eq 1 ] && [ ! -s "$T/out" ] &&
			grep -q "^$p: .*(see $p --help)\$" "$T/err" ||
			bad "$p ${args:-(no arguments)}: exit $rc, stderr '$(cat "$T/err")' (want 2 and one line naming --help)"
	done
done
"$B/btfdump" map --help >"$T/maphelp" 2>"$T/err" && grep -q -- --lookup "$T/maphelp" ||
	bad "btfdump map --help: not help on stdout with exit 0"
"$B/btfdump" --help >"$T/help"
for o in --lookup --net --valid-json --sort --types --kfuncs "-o," --output --base-btf --pretty --json; do
	grep -q -- "$o" "$T/help" || bad "btfdump --help does not list $o"
done
# -c PATH takes the C options, like `file PATH format c`
gcc -g -c -o "$T/t.o" -x c - <<<'struct s { int a; struct s *next; } v; enum e { A, B } w;' &&
	"$B/btfgen" -o "$T/t.btf" "$T/t.o" || bad "btfgen on a small object"
"$B/btfdump" file "$T/t.btf" format c --sort --types 's' >"$T/a.h" &&
	"$B/btfdump" -c "$T/t.btf" --sort --types 's' >"$T/b.h" && cmp -s "$T/a.h" "$T/b.h" && grep -q 'struct s {' "$T/b.h" ||
	bad "btfdump -c PATH --sort --types differs from file PATH format c --sort --types"
"$B/btfdump" -c "$T/t.btf" -o - >"$T/c.h" && "$B/btfdump" -c "$T/t.btf" >"$T/d.h" &&
	cmp -s "$T/c.h" "$T/d.h" && grep -q 'enum e {' "$T/c.h" || bad "btfdump format c -o - is not standard output"
[ -e ./- ] && bad "-o - created a file named -"
[ $fail -eq 0 ] && echo "PASS: --version ($version), --help, btfdump -c options, -o -"
exit $fail
