#!/bin/bash
# btfgen --sort-types (lbtf_builder_sort_by_name, issue 32): the types in
# name order as the kernel build leaves them (resolve_btfids over libbpf
# 1.8's btf__permute). The output is byte for byte what libbpf master
# makes of btfgen's unsorted output (tests/btfgen/libbpf_sort.c): base
# BTF, with a layout section, and split BTF over it (its own types sorted,
# the base's ids untouched); libbtf sees the result sorted (every named
# type found by name at its id) and the unsorted one not; an object with a
# .BTF.ext is refused (exit 2), its file untouched.
# Needs libbpf >= 1.8 from scripts/build-libbpf.sh's cache (else SKIP).
. "$(dirname "$0")/../lib.sh"
G=$B/btfgen
need_libbpf18 btf__permute
build_libbpf18_prog tests/btfgen/libbpf_sort.c "$T/ref" libbtf

# same names of several kinds (struct and typedef s_t, anonymous types,
# a FUNC and a VAR), and names that are prefixes of others
cat >"$T/a.c" <<'C'
typedef struct s { int a; struct { char c; } in; } s;
typedef struct s_t { s *p; union { long l; int i; } u; } s_t;
enum e { E_A, E_B }; typedef enum e e;
struct zz { const volatile s_t *q[3]; e k; } zz;
int s_fn(struct zz *z, s x) { return z->k + x.a; }
int a_var, ab_var;
C
cat >"$T/b.c" <<'C'
typedef struct s { int a; struct { char c; } in; } s;
struct b_only { s *p; struct zz *z; unsigned char bytes[7]; } b_only;
struct zz;
int b_fn(struct b_only *b) { return b->bytes[0]; }
C
for x in a b; do gcc -g -O1 -c "$T/$x.c" -o "$T/$x.o" || { echo "FAIL: gcc"; exit 1; }; done

# $1 name, then btfgen's options; with --base: libbpf sorts over that base
check() {
	local n=$1 base=()
	shift
	[ "$1" = --base ] && base=("$2")
	"$G" "$@" -o "$T/$n.plain" || { bad "$n: btfgen $*"; return; }
	"$G" --sort-types "$@" -o "$T/$n.sorted" || { bad "$n: btfgen --sort-types $*"; return; }
	"$T/ref" "$T/$n.plain" "$T/$n.ref" "${base[@]}" || { bad "$n: libbpf cannot sort it"; return; }
	cmp -s "$T/$n.sorted" "$T/$n.ref" || bad "$n: not byte for byte libbpf's permutation"
	cmp -s "$T/$n.sorted" "$T/$n.plain" && bad "$n: sorting changed nothing"
	echo "$n: $(stat -c %s "$T/$n.sorted") bytes, as libbpf's permutation"
}
check base "$T/a.o"
check layout --layout "$T/a.o"
check split --base "$T/base.plain" "$T/b.o"

# libbtf sees the sort, and finds each named type where libbpf does
for n in base layout; do
	"$T/ref" check "$T/$n.sorted" >"$T/$n.check" || bad "$n: $(tail -1 "$T/$n.check")"
	[ "$(head -1 "$T/$n.check")" = sorted ] || bad "$n: libbtf does not see it sorted"
	"$T/ref" check "$T/$n.plain" >"$T/$n.pcheck" || bad "$n unsorted: $(tail -1 "$T/$n.pcheck")"
	[ "$(head -1 "$T/$n.pcheck")" = unsorted ] || bad "$n: the unsorted output seen sorted"
	grep -q "^found [1-9]" "$T/$n.check" || bad "$n: no named type looked up"
done

# .BTF.ext: refused, untouched
if command -v "$BPF_CLANG" >/dev/null; then
	printf 'int f(int x) { return x + 1; }\n' >"$T/p.bpf.c"
	bpf_cc -g -O2 -c "$T/p.bpf.c" -o "$T/p.bpf.o" || { echo "FAIL: $BPF_CLANG"; exit 1; }
	cp "$T/p.bpf.o" "$T/p.keep"
	rc=0
	"$G" --sort-types --in-place "$T/p.bpf.o" 2>"$T/p.err" || rc=$?
	[ $rc = 4 ] || bad ".BTF.ext object: exit $rc, not 4 (this input cannot be sorted)"
	grep -q "BTF.ext" "$T/p.err" || bad ".BTF.ext object: the error does not say why"
	cmp -s "$T/p.bpf.o" "$T/p.keep" || bad ".BTF.ext object: the file changed"
else
	echo "note: no $BPF_CLANG: the .BTF.ext refusal not checked"
fi
[ $fail = 0 ] && echo "PASS: --sort-types writes libbpf 1.8's permutation"
exit $fail
