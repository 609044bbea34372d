#!/bin/bash
# pahole master's function rules (btfgen-pahole's default, --func_rules=
# master; libbtf/dwarf_funcs/funcs.c, funcs_abi.c) against v1.31's
# (--func_rules=v1.31), on a three-unit program gcc builds with clones:
#  - cp_only, whose only copy is a .constprop clone with a parameter
#    optimized out, has no FUNC (callers pass other arguments than its
#    prototype says); v1.31 has one;
#  - zzz_ck has a full copy at its symbol as well as a .constprop clone
#    whose parameter is optimized out: its FUNC stays (being the last name
#    in the function table, its two addresses do not condemn it, as in
#    pahole; another name's would);
#  - last_gone, whose .constprop clone lists its unused last parameter
#    without a location, has no FUNC either;
#  - first_gone, a clone listing its origin's parameters at other indexes
#    (the unused first one dropped), and dup_twice (symbols at two
#    addresses) have no FUNC even without consistent_func; v1.31 has them
#    without consistent_func;
#  - weak_fn, defined weak in b.c and strong in c.c: master's FUNC has
#    the strong copy's prototype (the copy at the symbol), v1.31's the
#    first unit's;
#  - true_signature: the clones' FUNCs under their symbols' names
#    (cp_only.constprop.0, last_gone.constprop.0) instead of cp_only and
#    last_gone; v1.31 rules ignore it;
#  - btfgen's own --features names (abi_func, true_signature) do the same;
#  - when pahole v1.31 and master (1436daf) are cached (scripts/build-
#    pahole.sh), the FUNC sets are theirs for each feature list.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
P=$B/btfgen-pahole
command -v gcc >/dev/null || { echo "SKIP: gcc not installed"; exit 77; }

cat >"$T/a.c" <<'C'
#include <stdio.h>
struct big { long v[8]; };
static __attribute__((noinline)) long cp_only(long x, long m)
{
	for (int i = 0; i < 3; i++)
		x = x * m + i;
	return x + printf("%ld", x);
}
static __attribute__((noinline)) long first_gone(int unused, struct big *b, long k)
{
	return b->v[k & 7] * 3 + k + printf("x");
}
static __attribute__((noinline)) long last_gone(struct big *b, long k, int unused)
{
	return b->v[k & 7] * 5 + k + printf("y");
}
static __attribute__((noinline)) int dup_twice(int a) { return a * 7 + printf("%d", a); }
__attribute__((noinline)) int zz_last(int a) { return a + printf("z"); }
__attribute__((noinline)) int plain(int a, int b) { return a + b + printf("%d", a); }
int b_main(int argc);
int c_main(int argc);
int main(int argc, char **argv)
{
	struct big b = { { argc, 2, 3, 4, 5, 6, 7, 8 } };
	long r = cp_only(argc, 5) + cp_only(argc + 1, 5);

	r += first_gone(argc, &b, argc) + last_gone(&b, argc, 3) + dup_twice(argc) + zz_last(argc);
	return (int)r + plain(argc, 1) + b_main(argc) + c_main(argc);
}
C
cat >"$T/b.c" <<'C'
#include <stdio.h>
static __attribute__((noinline)) int dup_twice(int a) { return a * 9 + printf("%d", a); }
__attribute__((weak, noinline)) long weak_fn(long weak_arg) { return weak_arg + printf("w"); }
int b_main(int argc) { return dup_twice(argc + 1) + (int)weak_fn(argc); }
C
cat >"$T/c.c" <<'C'
#include <stdio.h>
__attribute__((noinline)) long zzz_ck(long x, long m)
{
	long s = 0;

	for (long i = 0; i < m * 16; i++)
		s += (x ^ i) * m + printf("");
	return s;
}
long (*zzz_ckp)(long, long) = zzz_ck;
__attribute__((noinline)) long weak_fn(long strong_arg) { return strong_arg * 3 + printf("s"); }
int c_main(int argc)
{
	long r = 0;

	for (int i = 0; i < argc; i++)
		r += zzz_ck(argc + i, 3) + zzz_ck(i, 3) + zzz_ck(argc * i, 3);
	return (int)r + (int)zzz_ckp(argc, argc);
}
C
# (c.c: -fipa-cp-clone makes a clone of a function whose address is taken)
gcc -g -O2 -c -o "$T/a.o" "$T/a.c" && gcc -g -O2 -c -o "$T/b.o" "$T/b.c" &&
	gcc -g -O2 -fipa-cp-clone -c -o "$T/c.o" "$T/c.c" &&
	gcc -o "$T/t" "$T/a.o" "$T/b.o" "$T/c.o" || { echo "FAIL: gcc"; exit 1; }
# the input must have what the checks are about
nm "$T/t" >"$T/nm"
for s in cp_only.constprop.0 first_gone.constprop.0 last_gone.constprop.0 zzz_ck.constprop.0 zzz_ck; do
	grep -q " [tT] $s\$" "$T/nm" || bad "gcc made no symbol $s"
done
grep -q ' t cp_only$' "$T/nm" && bad "gcc made a full copy of cp_only"
[ "$(grep -c ' t dup_twice$' "$T/nm")" = 2 ] || bad "not two dup_twice symbols"

K618=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs
NOCONS=${K618/,consistent_func/}
# funcs FILE: the FUNC names, sorted; weak_fn's with its parameters' names
funcs() {
	"$B/btfdump" file "$1" | awk '
		/^\[/ { id = substr($1, 2, length($1) - 2) }
		/^\t/ { params[id] = params[id] " " $1 }
		$2 == "FUNC" { f[++n] = $3; split($4, a, "="); proto[n] = a[2] }
		END { for (i = 1; i <= n; i++) print f[i] (f[i] == "'"'weak_fn'"'" ? params[proto[i]] : "") }' |
		tr -d "'" | sort
}
# enc NAME ARGS...: btfgen-pahole's FUNCs into $T/NAME.f
enc() {
	local out=$1
	shift
	"$P" -J "$@" --btf_encode_detached="$T/$out.btf" "$T/t" || { bad "btfgen-pahole $* failed"; return; }
	funcs "$T/$out.btf" >"$T/$out.f"
}
has() { grep -qx "$2" "$T/$1.f"; }
enc m --btf_features=$K618
enc mnocons --btf_features=$NOCONS
enc mts --btf_features=$K618,true_signature
enc o --func_rules=v1.31 --btf_features=$K618
enc onocons --func_rules=v1.31 --btf_features=$NOCONS
enc ots --func_rules=v1.31 --btf_features=$K618,true_signature
enc mexplicit --func_rules=master --btf_features=$K618
cmp -s "$T/m.f" "$T/mexplicit.f" || bad "--func_rules=master is not the default"

for f in cp_only last_gone; do
	has m $f && bad "master: FUNC $f kept (its only copy, a .constprop clone, lost a parameter)"
	has o $f || bad "v1.31: no FUNC $f"
done
has m zzz_ck || bad "master: no FUNC zzz_ck (it has a full copy at its symbol too)"
[ "$(awk '$2 ~ /^[tTwW]$/ { sub(/\..*/, "", $3); print $3 }' "$T/nm" | LC_ALL=C sort | tail -1)" = zzz_ck ] ||
	bad "zzz_ck is not the last function name"
for f in first_gone dup_twice; do
	has mnocons $f && bad "master without consistent_func: FUNC $f kept"
	has onocons $f || bad "v1.31 without consistent_func: no FUNC $f"
done
has m plain && has m zz_last || bad "master: lost plain or zz_last"
has m "weak_fn strong_arg" || bad "master: weak_fn not the strong copy's: $(grep weak_fn "$T/m.f")"
has o "weak_fn weak_arg" || bad "v1.31: weak_fn not the first unit's: $(grep weak_fn "$T/o.f")"
for f in cp_only.constprop.0 last_gone.constprop.0; do
	has mts "$f" || bad "true_signature: no FUNC $f"
	has ots "$f" && bad "v1.31 rules: FUNC $f (true_signature is master's)"
done
has mts last_gone && bad "true_signature: FUNC last_gone besides last_gone.constprop.0"
cmp -s "$T/o.f" "$T/ots.f" || bad "v1.31 rules: true_signature changed the FUNCs"

# btfgen's own feature names
for v in m:abi_func mts:true_signature; do
	"$B/btfgen" --style pahole --features "func,dedup,reuse,optimized_func,consistent_func,${v#*:}" \
		-o "$T/own.btf" "$T/t" || { bad "btfgen --features ...,${v#*:} failed"; continue; }
	funcs "$T/own.btf" | cmp -s - "$T/${v%%:*}.f" || bad "btfgen --features ...,${v#*:}: not btfgen-pahole's FUNCs"
done
"$B/btfcheck" --quiet "$T/mts.btf" >/dev/null 2>&1 || bad "btfcheck rejects the true signatures' BTF"

# the same FUNCs as each pahole, when built
C=${BTF_BENCH_CACHE:-/var/cache/btf-bench}
compared=
for pv in v1.31:o 1436daf:m; do
	pb=$C/pahole-${pv%%:*}/bin/pahole
	[ -x "$pb" ] || continue
	compared="$compared ${pv%%:*}"
	for v in "":$K618 nocons:$NOCONS ts:$K618,true_signature; do
		ours=${pv#*:}${v%%:*}
		rm -f "$T/p.btf"
		"$pb" -J --btf_features="${v#*:}" --btf_encode_detached="$T/p.btf" "$T/t" >/dev/null 2>&1 ||
			{ bad "pahole ${pv%%:*} failed"; continue; }
		funcs "$T/p.btf" | diff - "$T/$ours.f" >"$T/p.diff" ||
			{ bad "$ours: FUNCs differ from pahole ${pv%%:*} (< pahole):"; cat "$T/p.diff"; }
	done
done
[ -n "$compared" ] && echo "(compared with pahole$compared)"
[ $fail = 0 ] && echo "PASS: pahole master's function rules and v1.31's ($(wc -l <"$T/m.f") / $(wc -l <"$T/o.f") FUNCs)"
exit $fail
