#!/bin/bash
# The programs' shared command line conventions: --version from the one
# version source (the Makefile's VERSION) on every program, --help on stdout
# with exit 0 (also `btfdump map --help`), btfdump's help listing the map and
# C options, `btfdump -c PATH` taking the C options, `-o -` as stdout,
# options after operands in every program, bpftool's `map lookup ... key`.
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
# options after operands, as GNU tools and bpftool take them (issue 33):
# the same output as with the options first
same_out() { # label, command A..., --, command B...
	local label=$1 a=() b=()
	shift
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	"${a[@]}" >"$T/a" 2>"$T/a.err" && "${b[@]}" >"$T/b" 2>"$T/b.err" && [ -s "$T/a" ] &&
		cmp -s "$T/a" "$T/b" || bad "$label: '${b[*]}' differs from '${a[*]}': $(head -c 300 "$T/b.err")"
}
same_out "btfdump PATH -j" "$B/btfdump" -j "$T/t.btf" -- "$B/btfdump" "$T/t.btf" -j
same_out "btfdump file PATH -p" "$B/btfdump" -p file "$T/t.btf" -- "$B/btfdump" file "$T/t.btf" --pretty
same_out "btfdump PATH -c --sort" "$B/btfdump" -c "$T/t.btf" --sort -- "$B/btfdump" "$T/t.btf" -c --sort
same_out "btfdump btf dump file PATH format raw -j" "$B/btfdump" -j btf dump file "$T/t.btf" format raw -- \
	"$B/btfdump" btf dump file "$T/t.btf" format raw -j
same_out "btfdump ... format c -o - (a value, not moved)" "$B/btfdump" file "$T/t.btf" format c -- \
	"$B/btfdump" -j file "$T/t.btf" format c -o -
same_out "btfcheck FILE --json" "$B/btfcheck" --json "$T/t.btf" -- "$B/btfcheck" "$T/t.btf" --json
cp "$T/t.o" "$T/t2.o" && cp "$T/t.o" "$T/t3.o"
"$B/btfgen" "$T/t.o" -o "$T/t2.btf" && cmp -s "$T/t.btf" "$T/t2.btf" || bad "btfgen IN -o OUT"
"$B/btfgen-pahole" "$T/t2.o" -J && "$B/btfgen-pahole" -J "$T/t3.o" && cmp -s "$T/t2.o" "$T/t3.o" ||
	bad "btfgen-pahole FILE -J differs from -J FILE"
"$B/btfdump" "$T/t.btf" -B 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "^btfdump: -B needs a file argument" "$T/err" || bad "btfdump PATH -B: exit $rc, $(cat "$T/err")"
"$B/btfdump" map dump id 1 key 1 0 0 0 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "key is for .map lookup." "$T/err" || bad "btfdump map dump id 1 key ...: exit $rc, $(cat "$T/err")"
"$B/btfdump" map lookup id 1 2>"$T/err"; rc=$?
[ $rc = 2 ] && grep -q "map lookup: which key" "$T/err" || bad "btfdump map lookup without key: exit $rc, $(cat "$T/err")"
# flowctl: --help after the command word (its usage, exit 0), options before it
for w in "bench --help" "test -h" "help" "--json help"; do
	# shellcheck disable=SC2086 # the words
	"$B/flowctl" $w >"$T/help" 2>"$T/err"; rc=$?
	[ $rc = 0 ] && grep -q "flowctl bench" "$T/help" && [ ! -s "$T/err" ] || bad "flowctl $w: exit $rc, $(head -2 "$T/err")"
done
"$B/flowctl" show --version >"$T/out" && [ "$(cat "$T/out")" = "flowctl $version" ] || bad "flowctl show --version"
[ $fail -eq 0 ] && echo "PASS: --version ($version), --help, btfdump -c options, -o -, options after operands"
exit $fail
