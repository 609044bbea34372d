#!/bin/bash
# The rules of type equivalence (libbtf/equiv/internal.h) hold alike in
# dedup and in btfgen's reuse of types between units: for each program of
# tests/btfgen/equiv_cases/CASE (units u*.c, one compiler word a unit in cc,
# as reuse_fuzz/run_one.sh builds them), btfgen with reuse (-j 1 and -j 3)
# gives the same types as the exact conversion (--features default,-reuse:
# plain conversion, then dedup), and both give what the rules say (CASE/expect:
# "COUNT KIND NAME", how many types of that kind and name the output has).
#  enum_decl_enum64  an enum declaration matches an ENUM64 definition of its
#                    name: one struct s, one struct t (the units that only
#                    declare the enum pair with the unit that defines it)
#  fwd_flavour       a FWD pairs only with the struct/union of its flavour:
#                    `struct u;` is not `union u`, so two struct s, the FWD
#                    struct u left; `union u;` pairs with the union
#  odr_enum_order    the one definition rule: enum e2 has two definitions
#                    (ENUM64, ENUM) and unit 2 only declares it, in a union
#                    that also points to struct s3, declared only in unit 0.
#                    Unit 2's union is equivalent to both other unions, and
#                    dedup takes the one it meets first; the reuse must leave
#                    dedup meeting them in the plain conversion's order (it
#                    gave unit 2's t0 unit 0's union: the last difference of
#                    the differential fuzz, seed 7262, reuse_fuzz/)
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh" # B, T, fail, bad
B=$(cd "$B" && pwd) # (run_one.sh works in the case's directory)
here=$(cd "$(dirname "$0")" && pwd)
n=0

command -v clang-16 >/dev/null || { echo "SKIP: clang-16 not installed (cases mix gcc and clang-16)"; exit 77; }
for c in "$here"/equiv_cases/*/; do
	c=${c%/}
	name=${c##*/}
	n=$((n + 1))
	cp -r "$c" "$T/$name"
	B=$B "$here/reuse_fuzz/run_one.sh" "$T/$name"
	rc=$?
	if [ $rc != 0 ]; then
		bad "$name: $(cat "$T/$name/result")"
		[ -f "$T/$name/same.log" ] && sed 's/^/  /' "$T/$name/same.log"
		[ $rc = 2 ] && continue
	fi
	while read -r count kind tname; do
		for out in off on; do
			got=$(grep -c "^\[[0-9]*\] $kind '$tname' " "$T/$name/$out.raw")
			what=exact
			[ $out = on ] && what="with reuse"
			[ "$got" = "$count" ] || bad "$name: $got $kind '$tname' $what, the rules say $count"
		done
	done <"$c/expect"
done
[ $n -ge 3 ] || bad "$n cases found under $here/equiv_cases"
[ $fail -eq 0 ] && echo "PASS: $n cases: reuse (-j 1, -j 3) and dedup agree, and give what the equivalence rules say"
exit $fail
