#!/bin/bash
# Type reuse (feature `reuse`, on by default) must give the same types as
# the exact conversion (--features default,-reuse) where a struct or enum is
# only declared (a FWD) in some units. Minimal programs, found by
# differential testing with random multi-unit C programs and shrunk by hand
# and by delta debugging; all gcc -g -O0 units (one clang-16, two use type
# units) in one shared object. Each failed before the reuse checked its
# declaration/definition pairings against the output (dwarf_reuse.c): a
# group paired the FWD with one of two definitions of its name, which dedup,
# seeing the whole input, does differently:
#  fwd_ptr_two_defs  a bare `struct s *` to a FWD in one unit and to one of two
#                    different definitions in another: reuse pairs the FWD with
#                    that definition for the whole group (exact dedup does not:
#                    the name has two definitions)
#  fwd_ptr_vs_struct the same pairing, through a pointer variable, wins over
#                    the pairing exact dedup makes inside `struct a`: struct a
#                    of unit 0 ends up pointing to the wrong struct b
#  fwd_two_contexts  one FWD b paired with b{int} in struct a's units and with
#                    b{long} in struct c's units: the group-wide resolution
#                    gives v3 a struct c that points to the wrong b
#  fwd_enum_orphan   enum declaration vs two enum definitions: the exact
#                    conversion kept a PTR to the second enum that reuse never
#                    creates (passes since a4dfc69 prunes unreferenced types)
#  fwd_ptr_orphans   orphans too, with a struct FWD behind two pointers: exact
#                    kept a PTR PTR chain to the first struct b (passes since
#                    a4dfc69 too)
#  fwd_two_compilers the same struct text compiled by clang-16 and by gcc
#                    (two BTF definitions); reuse pairs the FWD of a gcc unit
#                    with the later gcc definition, exact dedup with the first
#  fwd_enum_type_unit an enum declared in one unit and defined (once) in a
#                    gcc type unit (-fdebug-types-section) of another: reuse
#                    loses the definition, only ENUM vlen=0 is left (inputs
#                    with type units are converted without reuse since 5142686)
# Compared for each, reuse at -j 1 and -j 3 against exact: the type count that
# btfgen -v reports, btfsig lines (sorted, with repeats), the number of dump
# lines and an id-free fingerprint of the type graph (as in check_reuse.sh).
. "$(dirname "$0")/../lib.sh"
# shellcheck source=reuse_compare.sh
. "$(dirname "$0")/reuse_compare.sh" # reuse_convert, reuse_same

# run CASE UNIT0 UNIT1 ...: one gcc -g -O0 unit per argument, in this order
# (clang-16 -g -O0 for one that starts with "clang:", gcc -gdwarf-4
# -fdebug-types-section -O0 for one that starts with "tu:")
ncases=0
run() {
	local c=$1 d=$T/$1 i=0 objs=() src cc
	shift
	ncases=$((ncases + 1))
	mkdir -p "$d"
	for src in "$@"; do
		cc="gcc -g"
		case $src in
		clang:*) cc="clang-16 -g"; src=${src#clang:} ;;
		tu:*) cc="gcc -gdwarf-4 -fdebug-types-section"; src=${src#tu:} ;;
		esac
		printf '%s\n' "$src" >"$d/u$i.c"
		$cc -O0 -fPIC -c -o "$d/u$i.o" "$d/u$i.c" || { echo "FAIL: $c: $cc u$i.c"; fail=1; return; }
		objs+=("$d/u$i.o")
		i=$((i + 1))
	done
	gcc -shared -o "$d/lib.so" "${objs[@]}" || { echo "FAIL: $c: gcc -shared"; fail=1; return; }
	reuse_convert "$d" off "$d/lib.so" "$OFF" 2 && reuse_convert "$d" on1 "$d/lib.so" "$ON" 1 &&
		reuse_convert "$d" on3 "$d/lib.so" "$ON" 3 || { echo "FAIL: $c: conversion"; fail=1; return; }
	reuse_same "$d" off on1 "$c (-j 1)" || fail=1
	cmp -s "$d/on1.btf" "$d/on3.btf" || { echo "FAIL: $c: with reuse, -j 1 and -j 3 differ"; fail=1; }
}

# ---- the cases --------------------------------------------------------------
run fwd_ptr_two_defs \
	'struct s; struct s *p0;' \
	'struct s { char c; }; int f1(struct s *p) { return p != 0; }' \
	'struct s { int i; }; struct s v2;'

run fwd_ptr_vs_struct \
	'struct a { struct b *p; }; struct a v0;' \
	'struct b { int y; }; struct b *w1;' \
	'struct a { struct b *p; }; struct b { long z; }; struct a v2;'

run fwd_two_contexts \
	'struct a { struct b *p; }; struct a v0;' \
	'struct a { struct b *p; }; struct b { int y; }; struct a v1;' \
	'struct c { struct b *p; }; struct b { long z; }; struct c v2;' \
	'struct c { struct b *p; }; struct c v3;'

run fwd_enum_orphan \
	'struct s { enum e *p; }; struct s v0;' \
	'enum e { A }; struct s { enum e *p; }; struct s v1;' \
	'enum e { B = 1 }; struct s { enum e *p; }; struct s v2;'

run fwd_ptr_orphans \
	'struct a { volatile struct b *p; }; struct a v0;' \
	'struct a { volatile struct b *p; }; struct b { struct a *r; }; struct a v1;' \
	'struct a { struct b **q; }; struct b { struct a *r; }; struct a v2;' \
	'struct a { struct b **q; }; struct a v3;'

# the same four units after 50 others (a group of 48 units before theirs):
# the look after dedup fails here, and dedup worked on the raw types
# themselves, so every group is converted again, the first one with reuse
# (convert.c, convert_all)
fillers=()
for k in $(seq 50); do
	fillers+=("struct a { volatile struct b *p; }; struct f$k { struct a *pa; }; struct f$k v$k;")
done
run fwd_ptr_orphans_groups "${fillers[@]}" \
	'struct a { volatile struct b *p; }; struct a w0;' \
	'struct a { volatile struct b *p; }; struct b { struct a *r; }; struct a w1;' \
	'struct a { struct b **q; }; struct b { struct a *r; }; struct a w2;' \
	'struct a { struct b **q; }; struct a w3;'

# no ODR conflict in the source at all: clang-16 and gcc name `long long`
# differently, so struct b has two BTF definitions; unit 1 only declares b.
# Exact dedup pairs unit 1's struct s with unit 0's (the first); reuse pairs
# it with unit 2's (same compiler, same hash), so v1 gets another struct s
run fwd_two_compilers \
	'clang:struct b { long long x; }; struct s { struct b *p; }; struct s v0;' \
	'struct s { struct b *p; }; struct s v1;' \
	'struct b { long long x; }; struct s { struct b *p; }; struct s v2;'

# one enum, one definition: unit 1 has it in a type unit. Its `enum e *`
# reuses unit 0's pointer to the declaration (a declaration matches any enum)
# and the definition, reached only through the skeleton, is never converted:
# the output has only ENUM 'e' vlen=0, exact has the enum with its value
run fwd_enum_type_unit \
	'enum e *p0;' \
	'tu:enum e { A = 1 }; enum e *p1;'
run fwd_enum_type_unit_struct \
	'struct s { enum e *p; }; struct s v0;' \
	'tu:enum e { A = 1 }; struct s { enum e *p; }; struct s v1;'

# Without dedup the group's own resolution is what the output shows: unit
# 1's struct a reuses unit 0's, whose pointer names the FWD b that unit 1
# defines; when the group is finished, that pointer must name the STRUCT b
# (as dedup would make it). Failed with the group's rewrite of the FWD's
# references skipped (lbtfi_dw_group_finish): the PTR still named the FWD.
nodedup_fwd_resolved() {
	local d=$T/nodedup_fwd ptr target
	ncases=$((ncases + 1))
	mkdir -p "$d"
	printf 'struct b; struct a { struct b *p; }; struct a v0;\n' >"$d/u0.c"
	printf 'struct b { int y; }; struct a { struct b *p; }; struct a v1;\n' >"$d/u1.c"
	gcc -g -O0 -fPIC -c -o "$d/u0.o" "$d/u0.c" && gcc -g -O0 -fPIC -c -o "$d/u1.o" "$d/u1.c" &&
		gcc -shared -o "$d/lib.so" "$d/u0.o" "$d/u1.o" || { echo "FAIL: nodedup_fwd: build"; fail=1; return; }
	"$B/btfgen" -j 1 --features default,-dedup -o "$d/on.btf" "$d/lib.so" &&
		dump "$d/on.btf" >"$d/on.raw" || { echo "FAIL: nodedup_fwd: conversion"; fail=1; return; }
	ptr=$(sed -n "s/^\[[0-9]*\] PTR '(anon)' type_id=\([0-9]*\)$/\1/p" "$d/on.raw")
	[ "$(grep -c "^\[[0-9]*\] STRUCT 'a'" "$d/on.raw")" = 1 ] && [ -n "$ptr" ] ||
		{ echo "FAIL: nodedup_fwd: expected one struct a and its PTR (was the reuse applied?)"; cat "$d/on.raw"; fail=1; return; }
	target=$(grep "^\[$ptr\] " "$d/on.raw")
	case $target in
	"[$ptr] STRUCT 'b' "*) ;;
	*) echo "FAIL: nodedup_fwd: the PTR names '$target', not STRUCT 'b'"; cat "$d/on.raw"; fail=1 ;;
	esac
}
nodedup_fwd_resolved

[ $fail -eq 0 ] && echo "PASS: $ncases FWD cases give the same types with reuse (-j 1 and 3) as without"
exit $fail
