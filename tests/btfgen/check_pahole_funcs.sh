#!/bin/bash
# pahole v1.31's function set under the kernel's BTF features (btfgen-pahole
# -J --func_rules=v1.31 with 6.18's --btf_features; master's rules, the
# default, are check_pahole_master_funcs.sh's), on a two-unit program gcc -O2 builds with
# out-of-line clones (.constprop/.isra), static functions of one name in both
# units and a kfunc set in .BTF_ids:
#  - optimized_func: a function whose only symbol is a clone (name.constprop.0)
#    gets its FUNC under its own name; btfgen's default set leaves it out;
#  - consistent_func: a name with two prototypes (incons: one symbol, the
#    other unit's incons inlined), a clone whose own parameter list is
#    shorter than its origin's (sra_unused), a name with symbols at two
#    addresses (dup_twice) and a function that receives its first parameter
#    in another register than the ABI's (sret_big: returning a large struct,
#    the hidden result pointer takes %rdi) have no FUNC; without it they do;
#    but the name that sorts last in the function table keeps its FUNC with
#    symbols at two addresses (zz_last_dup), as in pahole v1.31, whose
#    grouping loop decides a name's ambiguity when the next name starts;
#  - decl_tag_kfuncs: DECL_TAG bpf_kfunc on the functions of a BTF_SET8
#    flagged as kfuncs (bpf_fastcall too for KF_FASTCALL), none on one in an
#    unflagged set, none without the feature;
#  - when pahole v1.31 is cached (scripts/build-pahole.sh), its FUNCs and
#    DECL_TAGs are the same.
. "$(dirname "$0")/../lib.sh"
P=$B/btfgen-pahole
command -v gcc >/dev/null || { echo "SKIP: gcc not installed"; exit 77; }

cat >"$T/a.c" <<'EOF'
#include <stdio.h>
struct big { long v[8]; };
static __attribute__((noinline)) long sra_unused(struct big *b, int unused, long k)
{
	return b->v[k & 7] * 3 + k;
}
static __attribute__((noinline)) long constprop_mul(long x, long m)
{
	for (int i = 0; i < 3; i++)
		x = x * m + i;
	return x;
}
__attribute__((noinline)) long incons(long a, long b)
{
	return a * b + printf("%ld", a);
}
__attribute__((noinline)) struct big sret_big(long a, long b)
{
	struct big r = { { a, b, a + b } };

	printf("%ld", a);
	return r;
}
static __attribute__((noinline)) int dup_twice(int a)
{
	return a * 7 + printf("%d", a);
}
static __attribute__((noinline)) int zz_last_dup(int a) { return a * 11 + printf("%d", a); }
__attribute__((noinline)) int plain(int a, int b) { return a + b + printf("%d", a); }
__attribute__((noinline)) int kf_one(int a) { return a + printf("1"); }
__attribute__((noinline)) int kf_fast(int a) { return a + printf("2"); }
__attribute__((noinline)) int kf_not(int a) { return a + printf("3"); }
/* as the kernel's BTF_SET8_START/BTF_ID_FLAGS lay them out: cnt, flags
 * (1: kfuncs), then an (id, flags) pair per function; 4096 is KF_FASTCALL */
asm(".pushsection .BTF_ids,\"a\"\n .balign 4\n"
    "__BTF_ID__set8__test_kfuncs:\n .long 2\n .long 1\n"
    "__BTF_ID__func__kf_one__11:\n .long 0\n .long 0\n"
    "__BTF_ID__func__kf_fast__12:\n .long 0\n .long 4096\n"
    ".size __BTF_ID__set8__test_kfuncs, 24\n"
    "__BTF_ID__set8__other_ids:\n .long 1\n .long 0\n"
    "__BTF_ID__func__kf_not__13:\n .long 0\n .long 0\n"
    ".size __BTF_ID__set8__other_ids, 16\n"
    ".popsection\n");
int b_main(int argc);
int main(int argc, char **argv)
{
	struct big b = { { argc, 2, 3, 4, 5, 6, 7, 8 } };
	long r = sra_unused(&b, argc, argc) + constprop_mul(argc, 5) + constprop_mul(argc + 1, 5);

	r += incons(argc, argc + 2) + dup_twice(argc) + plain(argc, 1) + sret_big(argc, 3).v[2];
	r += kf_one(argc) + kf_fast(argc) + kf_not(argc) + zz_last_dup(argc);
	return (int)r + b_main(argc);
}
EOF
cat >"$T/b.c" <<'EOF'
#include <stdio.h>
static inline __attribute__((always_inline)) int incons(int a) { return a * 5 + printf("%d", a); }
static __attribute__((noinline)) int dup_twice(int a) { return a * 9 + printf("%d", a); }
static __attribute__((noinline)) int zz_last_dup(int a) { return a * 13 + printf("%d", a); }
int b_main(int argc) { return incons(argc) + dup_twice(argc + 1) + zz_last_dup(argc); }
EOF
gcc -g -O2 -o "$T/t" "$T/a.c" "$T/b.c" || { echo "FAIL: gcc"; exit 1; }
# the input must have what the checks are about
nm "$T/t" >"$T/nm"
grep -q ' t constprop_mul\.' "$T/nm" && ! grep -q ' t constprop_mul$' "$T/nm" ||
	bad "gcc made no clone-only constprop_mul (the optimized_func check needs one)"
grep -q ' t sra_unused\.' "$T/nm" || bad "gcc made no sra_unused clone"
[ "$(grep -c ' t dup_twice$' "$T/nm")" = 2 ] || bad "not two dup_twice symbols"
[ "$(grep -c ' t zz_last_dup$' "$T/nm")" = 2 ] || bad "not two zz_last_dup symbols"
[ "$(awk '$2 ~ /^[tTwW]$/ { sub(/\..*/, "", $3); print $3 }' "$T/nm" | LC_ALL=C sort | tail -1)" = zz_last_dup ] ||
	bad "zz_last_dup is not the last function name"
[ "$(grep -c ' [tT] incons' "$T/nm")" = 1 ] || bad "not one incons symbol"

K618=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs
# funcs FILE: "FUNC name" and "TAG value func" lines, sorted
funcs() {
	"$B/btfdump" file "$1" | awk '
		/^\[/ { id = substr($1, 2, length($1) - 2); kind[id] = $2; name[id] = $3 }
		$2 == "FUNC" { print "FUNC", $3 }
		$2 == "DECL_TAG" { split($4, a, "="); tag[++n] = $3; tgt[n] = a[2] }
		END { for (i = 1; i <= n; i++) print "TAG", tag[i], name[tgt[i]] }' | sort
}
enc() {
	local out=$1
	shift
	"$P" -J --func_rules=v1.31 "$@" --btf_encode_detached="$T/$out.btf" "$T/t" || { bad "btfgen-pahole $* failed"; return; }
	funcs "$T/$out.btf" >"$T/$out.f"
}
has() { grep -qx "$2" "$T/$1.f"; }
enc k618 --btf_features=$K618
enc nocons --btf_features=${K618/,consistent_func/}
enc nokf --btf_features=${K618/,decl_tag_kfuncs/}
"$B/btfgen" -o "$T/old.btf" "$T/t" && funcs "$T/old.btf" >"$T/old.f" || bad "btfgen failed"

has k618 "FUNC 'constprop_mul'" || bad "optimized_func: no FUNC for constprop_mul (clone constprop_mul.constprop.0)"
has old "FUNC 'constprop_mul'" && bad "btfgen's default set has a FUNC for a clone-only function"
has k618 "FUNC 'plain'" || bad "no FUNC plain"
has k618 "FUNC 'zz_last_dup'" || bad "consistent_func: the last name (zz_last_dup) lost its FUNC"
for f in incons dup_twice sra_unused sret_big; do
	has k618 "FUNC '$f'" && bad "consistent_func: FUNC $f kept"
	has nocons "FUNC '$f'" || bad "without consistent_func: no FUNC $f"
done
has k618 "TAG 'bpf_kfunc' 'kf_one'" || bad "kf_one: no bpf_kfunc tag"
has k618 "TAG 'bpf_kfunc' 'kf_fast'" && has k618 "TAG 'bpf_fastcall' 'kf_fast'" ||
	bad "kf_fast: no bpf_kfunc + bpf_fastcall tags"
grep -q "'kf_not'$" <(grep '^TAG' "$T/k618.f") && bad "kf_not (in a set not flagged kfuncs) tagged"
grep -q "^TAG 'bpf_kfunc'" "$T/nokf.f" && bad "bpf_kfunc tags without decl_tag_kfuncs"
[ "$(grep -c "^TAG 'bpf_" "$T/k618.f")" = 3 ] || bad "not exactly 3 kfunc tags: $(grep '^TAG' "$T/k618.f")"

# split BTF (a module over a base): a condemned name whose FUNC dedup merges
# into the base's leaves nothing of it in the module (no marker DECL_TAG)
gcc -g -O2 -c -o "$T/a.o" "$T/a.c" && gcc -g -O2 -c -o "$T/b.o" "$T/b.c" && ld -r -o "$T/m.o" "$T/a.o" "$T/b.o" ||
	{ echo "FAIL: gcc -c / ld -r"; exit 1; }
"$P" -J --func_rules=v1.31 --btf_features=$K618 --btf_base "$T/nocons.btf" --btf_encode_detached="$T/m.btf" "$T/m.o" ||
	bad "module over a base failed"
"$B/btfdump" file "$T/m.btf" --base "$T/nocons.btf" >"$T/m.dump"
grep -q "DECL_TAG 'btfgen:" "$T/m.dump" && bad "a marker DECL_TAG left in the module: $(grep "DECL_TAG 'btfgen:" "$T/m.dump")"
grep -q "FUNC 'dup_twice'" "$T/m.dump" && bad "module: FUNC dup_twice kept (symbols at two addresses)"
"$B/btfcheck" --quiet --base "$T/nocons.btf" "$T/m.btf" >/dev/null 2>&1 || bad "btfcheck --base rejects the module"

# the same as pahole v1.31, when it is built
P31=${BTF_BENCH_CACHE:-/var/cache/btf-bench}/pahole-v1.31/bin/pahole
if [ -x "$P31" ]; then
	for v in k618 nocons; do
		f=$K618
		[ $v = nocons ] && f=${K618/,consistent_func/}
		"$P31" -J --btf_features="$f" --btf_encode_detached="$T/p31.btf" "$T/t" >/dev/null 2>&1 ||
			{ bad "pahole v1.31 failed"; continue; }
		funcs "$T/p31.btf" | diff - "$T/$v.f" >"$T/p31.diff" ||
			{ bad "$v: FUNCs/tags differ from pahole v1.31 (< pahole):"; cat "$T/p31.diff"; }
	done
	echo "(compared with $P31)"
fi
[ $fail = 0 ] && echo "PASS: pahole v1.31 functions: clones, consistency, kfunc tags ($(grep -c '^FUNC' "$T/k618.f") FUNCs)"
exit $fail
