#!/bin/bash
# pahole's "attributes" BTF feature (pahole >= 1.30, in kernel 6.18's
# Makefile.btf flags) under btfgen-pahole: the kfuncs of a BTF_SET8 whose
# flags say KF_ARENA_RET / KF_ARENA_ARG1 / KF_ARENA_ARG2 return / take as
# first or second parameter a pointer to TYPE_TAG "address_space(1)" with
# kind_flag (an attribute, printed by format c as __attribute__((...)));
# other kfuncs and other parameters keep their plain pointers. Checked:
#  - with the kernel's flags + attributes, the kfunc prototypes (btfdump
#    format c --kfuncs) have the attribute exactly where the flags say;
#  - without attributes, or without decl_tag_kfuncs, no attribute at all;
#  - a flag on a parameter that is no pointer leaves the prototype as it is
#    (pahole v1.31 fails the whole encoding there);
#  - btfcheck accepts the output; --version answers >= 1.30, so the kernel
#    passes --btf_features=attributes, which --btf_features_strict accepts;
#  - when pahole v1.31 is cached (scripts/build-pahole.sh): the same kfunc
#    prototypes as pahole's, with and without the feature.
command -v gcc >/dev/null || { echo "SKIP: gcc not installed"; exit 77; }
. "$(dirname "$0")/../lib.sh"
P=$B/btfgen-pahole

# a.c: NONPTR=1 adds a kfunc flagged KF_ARENA_ARG1 whose first parameter is a long
cat >"$T/a.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
struct blk { long v[4]; };
__attribute__((noinline)) void *kf_arena_ret(int n) { return malloc(n + printf("r")); }
__attribute__((noinline)) int kf_arena_args(struct blk *p, long *q, int *r)
{
	return (int)(p->v[0] + *q + *r) + printf("a");
}
__attribute__((noinline)) int kf_arena_arg2(int a, struct blk *p) { return a + (int)p->v[1] + printf("b"); }
__attribute__((noinline)) int kf_plain(struct blk *p) { return (int)p->v[2] + printf("d"); }
__attribute__((noinline)) int not_kf(struct blk *p) { return (int)p->v[3] + printf("e"); }
#if NONPTR
__attribute__((noinline)) int kf_nonptr(long a) { return (int)a + printf("c"); }
#define NONPTR_ID "__BTF_ID__func__kf_nonptr__16:\n .long 0\n .long 16384\n"
#define SET_CNT "5"
#define SET_SIZE "48"
#else
#define NONPTR_ID
#define SET_CNT "4"
#define SET_SIZE "40"
#endif
/* BTF_SET8: cnt, flags (1: kfuncs), (id, flags) pairs; KF_ARENA_RET is
 * 1 << 13 (8192), KF_ARENA_ARG1 1 << 14 (16384), KF_ARENA_ARG2 1 << 15 */
asm(".pushsection .BTF_ids,\"a\"\n .balign 4\n"
    "__BTF_ID__set8__test_kfuncs:\n .long " SET_CNT "\n .long 1\n"
    "__BTF_ID__func__kf_arena_ret__11:\n .long 0\n .long 8192\n"
    "__BTF_ID__func__kf_arena_args__12:\n .long 0\n .long 49152\n"
    "__BTF_ID__func__kf_arena_arg2__13:\n .long 0\n .long 32768\n"
    "__BTF_ID__func__kf_plain__14:\n .long 0\n .long 0\n"
    NONPTR_ID
    ".size __BTF_ID__set8__test_kfuncs, " SET_SIZE "\n"
    ".popsection\n");
int main(int argc, char **argv)
{
	struct blk b = { { argc, 2, 3, 4 } };
	long q = argc;
	int r = argc;

	r += kf_arena_args(&b, &q, &r) + kf_arena_arg2(argc, &b) + kf_plain(&b) + not_kf(&b);
#if NONPTR
	r += kf_nonptr(argc);
#endif
	return r + (kf_arena_ret(argc) != 0);
}
EOF
gcc -g -O2 -o "$T/t" "$T/a.c" && gcc -g -O2 -DNONPTR=1 -o "$T/tn" "$T/a.c" || { echo "FAIL: gcc"; exit 1; }

K618=encode_force,var,float,enum64,decl_tag,type_tag,optimized_func,consistent_func,decl_tag_kfuncs
# protos OUT ENCODER [FLAGS...] (input $IN): the kfunc prototypes of the C header
protos() {
	local out=$1 enc=$2
	shift 2
	"$enc" -J "$@" --btf_encode_detached="$T/$out.btf" "$IN" >/dev/null 2>"$T/$out.err" ||
		{ bad "$enc $* failed: $(cat "$T/$out.err")"; : >"$T/$out.p"; return 1; }
	"$B/btfdump" file "$T/$out.btf" format c --kfuncs | grep '__ksym;$' | sort >"$T/$out.p"
}
attr='__attribute__((address_space(1)))'
IN=$T/t
protos attr "$P" --btf_features=$K618 --btf_features=attributes
protos plain "$P" --btf_features=$K618
protos nokf "$P" --btf_features=${K618/,decl_tag_kfuncs/},attributes
want() { grep -qxF "$2" "$T/$1.p" || bad "$1: no '$2' in: $(cat "$T/$1.p")"; }
want attr "extern void $attr *kf_arena_ret(int n) __weak __ksym;"
want attr "extern int kf_arena_args(struct blk $attr *p, long int $attr *q, int *r) __weak __ksym;"
want attr "extern int kf_arena_arg2(int a, struct blk $attr *p) __weak __ksym;"
want attr "extern int kf_plain(struct blk *p) __weak __ksym;"
[ "$(grep -c 'address_space' "$T/attr.p")" = 3 ] || bad "attributes: not 3 arena prototypes: $(cat "$T/attr.p")"
want plain "extern void *kf_arena_ret(int n) __weak __ksym;"
grep -q address_space "$T/plain.p" && bad "without attributes: $(grep address_space "$T/plain.p")"
grep -q address_space "$T/nokf.btf" && bad "attributes without decl_tag_kfuncs tagged a pointer"
"$B/btfcheck" --quiet "$T/attr.btf" >/dev/null 2>&1 || bad "btfcheck rejects the BTF with attributes"
IN=$T/tn
protos nonptr "$P" --btf_features=$K618 --btf_features=attributes
want nonptr "extern int kf_nonptr(long int a) __weak __ksym;"
want nonptr "extern void $attr *kf_arena_ret(int n) __weak __ksym;"

# the version the kernel's Makefile.btf reads: >= 130 passes attributes
v=$("$P" --numeric_version)
[ "$v" -ge 130 ] || bad "--numeric_version $v: the kernel would not pass --btf_features=attributes"
"$P" -J --btf_features_strict=$K618,attributes --btf_encode_detached="$T/s.btf" "$T/t" ||
	bad "--btf_features_strict refuses attributes"

# the same as pahole v1.31, when it is built
P31=${BTF_BENCH_CACHE:-/var/cache/btf-bench}/pahole-v1.31/bin/pahole
if [ -x "$P31" ]; then
	IN=$T/t
	protos p31attr "$P31" --btf_features=$K618 --btf_features=attributes
	protos p31plain "$P31" --btf_features=$K618
	for v in attr plain; do
		diff "$T/p31$v.p" "$T/$v.p" >"$T/d" || { bad "$v: kfunc prototypes differ from pahole v1.31 (< pahole):"; cat "$T/d"; }
	done
	echo "(compared with $P31)"
fi
[ $fail = 0 ] && echo "PASS: attributes: arena pointers of kfuncs as address_space(1) attributes"
exit $fail
