// SPDX-License-Identifier: BSD-2-Clause
/*
 * Dedup byte for byte against libbpf 1.8's btf__dedup (issue 32), built by
 * tests/build/check_dedup_libbpf18.sh against the libbpf of
 * scripts/build-libbpf.sh's cache (never part of make's build). Both
 * libraries dedup the same raw bytes; the types and strings they write must
 * be the same bytes (the headers differ: libbpf 1.8 writes 32 bytes, libbtf
 * 24), so every rule libbpf applies (which types merge, which id each
 * gets, which strings stay and in which order) is checked at once.
 *   dedup_libbpf18_ref            the cases below, one line each
 *   dedup_libbpf18_ref FILE [N]   FILE's raw BTF, N copies of its types
 *                                 one after the other (default 1)
 * The cases are the scenarios of the kernel selftests' dedup tests
 * (tools/testing/selftests/bpf/prog_tests/btf.c, dedup_tests[], and the
 * split BTF ones of btf_dedup_split.c), named after them and encoded here
 * anew, plus a few more graphs where a typedef closes a cycle (libbpf
 * 37027144) and split BTF whose typedefs the base defines (5b0f3729).
 * Exit 0 when all are equal.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "libbtf.h"

#define END 0xfeedf00du /* (not ~0: a decl tag of a whole type has component -1) */
#define INFO(kind, vlen) ((uint32_t)(kind) << 24 | (vlen))
#define KFLAG (1u << 31)
#define INT_ENC(name, enc, off, bits, size) name, INFO(LBTF_KIND_INT, 0), size, \
	((uint32_t)(enc) << 24 | (off) << 16 | (bits))
#define INT32(name) INT_ENC(name, 1, 0, 32, 4)
#define FLOAT(name, size) name, INFO(LBTF_KIND_FLOAT, 0), size
#define TYPEDEF(name, type) name, INFO(LBTF_KIND_TYPEDEF, 0), type
#define PTR(type) 0, INFO(LBTF_KIND_PTR, 0), type
#define CONST(type) 0, INFO(LBTF_KIND_CONST, 0), type
#define VOLATILE(type) 0, INFO(LBTF_KIND_VOLATILE, 0), type
#define RESTRICT(type) 0, INFO(LBTF_KIND_RESTRICT, 0), type
#define ARRAY(elem, index, n) 0, INFO(LBTF_KIND_ARRAY, 0), 0, elem, index, n
#define PROTO(ret, nparams) 0, INFO(LBTF_KIND_FUNC_PROTO, nparams), ret
#define PARAM(name, type) name, type
#define FUNC(name, proto) name, INFO(LBTF_KIND_FUNC, 0), proto
#define STRUCT(name, nmembers, size) name, INFO(LBTF_KIND_STRUCT, nmembers), size
#define STRUCT_K(name, nmembers, size) name, KFLAG | INFO(LBTF_KIND_STRUCT, nmembers), size
#define UNION(name, nmembers, size) name, INFO(LBTF_KIND_UNION, nmembers), size
#define MEMBER(name, type, off) name, type, off
#define FWD_STRUCT(name) name, INFO(LBTF_KIND_FWD, 0), 0
#define FWD_UNION(name) name, KFLAG | INFO(LBTF_KIND_FWD, 0), 0
#define ENUM(name, nvals, size) name, INFO(LBTF_KIND_ENUM, nvals), size
#define ENUM64(name, nvals, size) name, INFO(LBTF_KIND_ENUM64, nvals), size
#define EVAL(name, val) name, val
#define EVAL64(name, lo, hi) name, lo, hi
#define VAR(name, type) name, INFO(LBTF_KIND_VAR, 0), type, 0
#define DATASEC(name, nvars, size) name, INFO(LBTF_KIND_DATASEC, nvars), size
#define SECVAR(type, off, size) type, off, size
#define DECL_TAG(name, type, idx) name, INFO(LBTF_KIND_DECL_TAG, 0), type, (uint32_t)(idx)
#define TYPE_TAG(name, type) name, INFO(LBTF_KIND_TYPE_TAG, 0), type

/* Most cases name things with single letters: the offset of c in LETTERS */
#define LETTERS "\0a\0b\0c\0d\0e\0f\0g\0h\0i\0j\0k\0l\0m\0n\0o\0p\0q\0r\0s\0t\0u\0v\0w\0x\0y\0z"
#define N(c) (1u + 2u * (uint32_t)((c) - 'a'))
#define LSTRS LETTERS, sizeof(LETTERS)

struct dcase {
	const char *name;
	uint32_t base[48];      /* base types (END-terminated; empty: no split) */
	const char *base_strs;  /* its strings, '\0'-separated, size below */
	uint32_t base_slen;
	uint32_t types[96];     /* the types to deduplicate */
	const char *strs;
	uint32_t slen;
};

#define NOBASE { END }, NULL, 0

/* the strings of "unused strings" and "strings deduplication" */
#define UNUSED_STRS "\0unused\0int\0foo\0bar\0long"
#define DUP_STRS "\0int\0long int\0int\0long int\0int"

static const struct dcase cases[] = {
	{ "unused strings filtering", NOBASE,
	  { INT32(8), INT_ENC(20, 1, 0, 64, 8), END }, UNUSED_STRS, sizeof(UNUSED_STRS) },
	{ "strings deduplication", NOBASE,
	  { INT32(1), INT_ENC(5, 1, 0, 64, 8), INT32(14), INT_ENC(18, 1, 0, 64, 8), INT32(27),
	    END }, DUP_STRS, sizeof(DUP_STRS) },
	/* struct s { struct s *n; const int *a; int b[16]; int c; float d; }
	 * with two decl tags, twice; the float only after the second copy */
	{ "struct example #1", NOBASE,
	  { INT32(N('i')), ARRAY(1, 1, 16), STRUCT(N('s'), 5, 88), MEMBER(N('n'), 4, 0),
	    MEMBER(N('a'), 5, 64), MEMBER(N('b'), 2, 128), MEMBER(N('c'), 1, 640),
	    MEMBER(N('d'), 15, 672), PTR(3), PTR(6), CONST(1), DECL_TAG(N('t'), 3, -1),
	    DECL_TAG(N('t'), 3, 1),
	    INT32(N('i')), ARRAY(9, 9, 16), STRUCT(N('s'), 5, 88), MEMBER(N('n'), 12, 0),
	    MEMBER(N('a'), 13, 64), MEMBER(N('b'), 10, 128), MEMBER(N('c'), 9, 640),
	    MEMBER(N('d'), 15, 672), PTR(11), PTR(14), CONST(9), FLOAT(N('f'), 4),
	    DECL_TAG(N('t'), 11, -1), DECL_TAG(N('t'), 11, 1), END }, LSTRS },
	/* unit 1: struct x; struct s { struct x *x; }; unit 2 with struct x {} */
	{ "struct <-> fwd resolution w/ hash collision", NOBASE,
	  { FWD_STRUCT(N('x')), PTR(1), STRUCT(N('s'), 1, 8), MEMBER(N('x'), 2, 0),
	    STRUCT(N('x'), 0, 0), PTR(4), STRUCT(N('s'), 1, 8), MEMBER(N('x'), 5, 0), END },
	  LSTRS },
	/* struct s { struct {} *x; } vs struct s { void *x; }: kept apart */
	{ "void equiv check", NOBASE,
	  { STRUCT(0, 0, 1), PTR(1), STRUCT(N('s'), 1, 8), MEMBER(N('x'), 2, 0),
	    PTR(0), STRUCT(N('s'), 1, 8), MEMBER(N('x'), 4, 0), END }, LSTRS },
	{ "all possible kinds (no duplicates)", NOBASE,
	  { INT_ENC(N('a'), 1, 0, 32, 8), ENUM(N('b'), 2, 4), EVAL(N('c'), 0), EVAL(N('d'), 1),
	    FWD_UNION(N('e')), ARRAY(2, 1, 7), STRUCT(N('f'), 1, 4), MEMBER(N('g'), 1, 0),
	    UNION(N('h'), 1, 4), MEMBER(N('i'), 1, 0), TYPEDEF(N('j'), 1), PTR(0), CONST(8),
	    VOLATILE(8), RESTRICT(8), PROTO(1, 2), PARAM(N('k'), 1), PARAM(N('l'), 18),
	    FUNC(N('m'), 12), FLOAT(N('n'), 2), DECL_TAG(N('o'), 13, -1),
	    DECL_TAG(N('p'), 13, 1), DECL_TAG(N('q'), 7, -1), TYPE_TAG(N('r'), 8),
	    ENUM64(N('s'), 2, 8), EVAL64(N('t'), 0, 0), EVAL64(N('u'), 1, 1), END }, LSTRS },
	{ "no int/float duplicates", NOBASE,
	  { INT_ENC(N('i'), 1, 0, 32, 8), INT_ENC(N('j'), 1, 0, 32, 8),
	    INT_ENC(N('i'), 2, 0, 32, 8), INT_ENC(N('i'), 4, 0, 32, 8),
	    INT_ENC(N('i'), 1, 8, 32, 8), INT_ENC(N('i'), 1, 0, 27, 8),
	    INT_ENC(N('i'), 1, 0, 32, 4), FLOAT(N('f'), 2), FLOAT(N('f'), 4), FLOAT(N('f'), 8),
	    FLOAT(N('f'), 12), FLOAT(N('f'), 16), INT_ENC(N('i'), 1, 0, 32, 8), FLOAT(N('f'), 8),
	    END }, LSTRS },
	/* e: declaration before its definition; g: after; a declaration of
	 * another size; an incompatible definition of e */
	{ "enum fwd resolution", NOBASE,
	  { ENUM(N('e'), 0, 4), ENUM(N('e'), 1, 4), EVAL(N('v'), 123), ENUM(N('g'), 1, 4),
	    EVAL(N('w'), 456), ENUM(N('g'), 0, 4), ENUM(N('e'), 0, 1), ENUM(N('e'), 1, 4),
	    EVAL(N('v'), 321), END }, LSTRS },
	{ "datasec and vars pass-through", NOBASE,
	  { INT32(0), VAR(N('t'), 1), DATASEC(N('b'), 1, 4), SECVAR(2, 0, 4), INT32(0),
	    VAR(N('t'), 4), DATASEC(N('b'), 1, 4), SECVAR(5, 0, 4), END }, LSTRS },
	{ "func/func_arg/var tags", NOBASE,
	  { INT32(0), VAR(N('t'), 1), PROTO(0, 2), PARAM(N('a'), 1), PARAM(N('b'), 1),
	    FUNC(N('f'), 3), DECL_TAG(N('g'), 2, -1), DECL_TAG(N('g'), 2, -1),
	    DECL_TAG(N('g'), 4, -1), DECL_TAG(N('g'), 4, -1), DECL_TAG(N('g'), 4, 1),
	    DECL_TAG(N('g'), 4, 1), END }, LSTRS },
	{ "func/func_param tags", NOBASE,
	  { INT32(0), PROTO(0, 2), PARAM(N('a'), 1), PARAM(N('b'), 1), FUNC(N('f'), 2),
	    PROTO(0, 2), PARAM(N('a'), 1), PARAM(N('b'), 1), FUNC(N('f'), 4),
	    DECL_TAG(N('p'), 3, -1), DECL_TAG(N('q'), 3, -1), DECL_TAG(N('p'), 3, 1),
	    DECL_TAG(N('q'), 3, 1), DECL_TAG(N('p'), 5, -1), DECL_TAG(N('r'), 5, -1),
	    DECL_TAG(N('p'), 5, 1), DECL_TAG(N('r'), 5, 1), END }, LSTRS },
	{ "struct/struct_member tags", NOBASE,
	  { INT32(0), STRUCT(N('t'), 2, 8), MEMBER(N('m'), 1, 0), MEMBER(N('n'), 1, 32),
	    STRUCT(N('t'), 2, 8), MEMBER(N('m'), 1, 0), MEMBER(N('n'), 1, 32),
	    DECL_TAG(N('p'), 2, -1), DECL_TAG(N('q'), 2, -1), DECL_TAG(N('p'), 2, 1),
	    DECL_TAG(N('q'), 2, 1), DECL_TAG(N('p'), 3, -1), DECL_TAG(N('r'), 3, -1),
	    DECL_TAG(N('p'), 3, 1), DECL_TAG(N('r'), 3, 1), END }, LSTRS },
	/* Go's `type Foo func() Foo`, twice */
	{ "recursive typedef", NOBASE,
	  { TYPEDEF(N('f'), 2), PROTO(1, 0), TYPEDEF(N('f'), 4), PROTO(3, 0), END }, LSTRS },
	{ "recursive typedef, one copy", NOBASE,
	  { TYPEDEF(N('f'), 2), PROTO(1, 0), END }, LSTRS },
	{ "typedef", NOBASE,
	  { INT32(0), TYPEDEF(N('f'), 1), INT32(0), TYPEDEF(N('f'), 3), END }, LSTRS },
	{ "typedef tags", NOBASE,
	  { INT32(0), TYPEDEF(N('t'), 1), TYPEDEF(N('t'), 1), DECL_TAG(N('p'), 2, -1),
	    DECL_TAG(N('q'), 2, -1), DECL_TAG(N('p'), 3, -1), DECL_TAG(N('r'), 3, -1), END },
	  LSTRS },
	{ "two typedefs reaching each other", NOBASE,
	  { TYPEDEF(N('f'), 2), PROTO(3, 0), TYPEDEF(N('b'), 4), PROTO(1, 0),
	    TYPEDEF(N('f'), 6), PROTO(7, 0), TYPEDEF(N('b'), 8), PROTO(5, 0), END }, LSTRS },
	{ "typedef cycle through a struct", NOBASE,
	  { TYPEDEF(N('f'), 2), PTR(3), STRUCT(N('s'), 1, 8), MEMBER(N('m'), 1, 0),
	    TYPEDEF(N('f'), 5), PTR(6), STRUCT(N('s'), 1, 8), MEMBER(N('m'), 4, 0), END }, LSTRS },
	{ "typedef of a param list", NOBASE,
	  { INT32(0), TYPEDEF(N('f'), 3), PROTO(2, 1), PARAM(N('m'), 1),
	    INT32(0), TYPEDEF(N('f'), 6), PROTO(5, 1), PARAM(N('m'), 4), END }, LSTRS },
	{ "typedef: same name, other targets", NOBASE,
	  { INT32(0), TYPEDEF(N('f'), 1), PTR(1), TYPEDEF(N('f'), 3), END }, LSTRS },
	/* ptr -> p -> q -> int, twice, then ptr -> p -> int */
	{ "btf_type_tag #1", NOBASE,
	  { INT32(0), TYPE_TAG(N('p'), 1), TYPE_TAG(N('q'), 2), PTR(3), TYPE_TAG(N('p'), 1),
	    TYPE_TAG(N('q'), 5), PTR(6), TYPE_TAG(N('p'), 1), PTR(8), END }, LSTRS },
	{ "btf_type_tag #2", NOBASE,
	  { INT32(0), TYPE_TAG(N('p'), 1), TYPE_TAG(N('q'), 2), PTR(3), TYPE_TAG(N('q'), 1),
	    PTR(5), END }, LSTRS },
	{ "btf_type_tag #3", NOBASE,
	  { INT32(0), TYPE_TAG(N('p'), 1), TYPE_TAG(N('q'), 2), PTR(3), TYPE_TAG(N('q'), 1),
	    TYPE_TAG(N('p'), 5), PTR(6), END }, LSTRS },
	{ "btf_type_tag #4", NOBASE,
	  { INT32(0), TYPE_TAG(N('p'), 1), PTR(2), INT_ENC(0, 1, 0, 64, 8), TYPE_TAG(N('p'), 4),
	    PTR(5), END }, LSTRS },
	{ "btf_type_tag #5, struct", NOBASE,
	  { INT32(0), TYPE_TAG(N('p'), 1), STRUCT_K(N('t'), 1, 4), MEMBER(N('m'), 2, 0),
	    TYPE_TAG(N('p'), 1), STRUCT_K(N('t'), 1, 4), MEMBER(N('m'), 4, 0), END }, LSTRS },
	{ "enum64, standalone", NOBASE,
	  { ENUM64(N('e'), 1, 8), EVAL64(N('v'), 1, 123), ENUM64(N('e'), 1, 8),
	    EVAL64(N('v'), 1, 123), END }, LSTRS },
	{ "enum64, fwd resolution", NOBASE,
	  { ENUM64(N('e'), 0, 8), ENUM64(N('e'), 1, 8), EVAL64(N('v'), 1, 123),
	    ENUM64(N('g'), 1, 8), EVAL64(N('w'), 0, 456), ENUM64(N('g'), 0, 8),
	    ENUM64(N('e'), 1, 8), EVAL64(N('v'), 0, 321), END }, LSTRS },
	{ "enum and enum64, no dedup", NOBASE,
	  { ENUM(N('e'), 1, 4), EVAL(N('v'), 1), ENUM64(N('e'), 1, 4), EVAL64(N('v'), 1, 0),
	    END }, LSTRS },
	{ "enum of different size: no dedup", NOBASE,
	  { ENUM(N('e'), 1, 4), EVAL(N('v'), 1), ENUM(N('e'), 1, 2), EVAL(N('v'), 1), END },
	  LSTRS },
	{ "enum fwd to enum64", NOBASE,
	  { ENUM64(N('e'), 1, 8), EVAL64(N('v'), 1, 0), ENUM(N('e'), 0, 4), TYPEDEF(N('t'), 2),
	    END }, LSTRS },
	{ "enum64 fwd to enum", NOBASE,
	  { ENUM(N('e'), 1, 4), EVAL(N('v'), 1), ENUM64(N('e'), 0, 8), TYPEDEF(N('t'), 2),
	    END }, LSTRS },
	/* unit 1: struct f { int x; }; unit 2: struct f; typedef struct f *p */
	{ "standalone fwd declaration struct", NOBASE,
	  { STRUCT(N('f'), 1, 4), MEMBER(N('x'), 2, 0), INT32(0), FWD_STRUCT(N('f')), PTR(3),
	    TYPEDEF(N('p'), 4), END }, LSTRS },
	{ "standalone fwd declaration union", NOBASE,
	  { UNION(N('f'), 1, 4), MEMBER(N('x'), 2, 0), INT32(0), FWD_UNION(N('f')), PTR(3),
	    TYPEDEF(N('p'), 4), END }, LSTRS },
	{ "standalone fwd declaration wrong kind", NOBASE,
	  { STRUCT(N('f'), 1, 4), MEMBER(N('x'), 2, 0), INT32(0), FWD_UNION(N('f')), PTR(3),
	    TYPEDEF(N('p'), 4), END }, LSTRS },
	{ "standalone fwd declaration name conflict", NOBASE,
	  { STRUCT(N('f'), 1, 4), MEMBER(N('x'), 2, 0), INT32(0), FWD_STRUCT(N('f')), PTR(3),
	    TYPEDEF(N('p'), 4), STRUCT(N('f'), 2, 8), MEMBER(N('x'), 2, 0),
	    MEMBER(N('y'), 2, 32), END }, LSTRS },
	/* split BTF (btf_dedup_split.c's scenarios): the base's types are
	 * canonical; split duplicates of them go, a split FWD resolves to
	 * the base's definition */
	{ "split: simple", { INT32(N('i')), PTR(1), STRUCT(N('s'), 1, 4), MEMBER(N('f'), 1, 0),
			     END }, LSTRS,
	  { PTR(1), STRUCT(N('s'), 1, 4), MEMBER(N('f'), 1, 0), INT32(N('i')),
	    STRUCT(N('s'), 1, 4), MEMBER(N('f'), 6, 0), END }, "", 1 },
	{ "split: fwd resolve", { INT32(N('i')), PTR(4), PTR(5),
				  STRUCT(N('s'), 2, 16), MEMBER(N('a'), 2, 0), MEMBER(N('b'), 3, 64),
				  STRUCT(N('t'), 1, 4), MEMBER(N('c'), 1, 0), END }, LSTRS,
	  { PTR(8), PTR(9), STRUCT(N('s'), 2, 16), MEMBER(N('a'), 6, 0), MEMBER(N('b'), 7, 64),
	    FWD_STRUCT(N('t')), END }, "", 1 },
	{ "split: struct duped", { INT32(N('i')), PTR(3), STRUCT(N('s'), 2, 16),
				   MEMBER(N('a'), 2, 0), MEMBER(N('b'), 1, 64), END }, LSTRS,
	  { PTR(6), STRUCT(N('s'), 2, 16), MEMBER(N('a'), 4, 0), MEMBER(N('b'), 1, 64),
	    PTR(3), STRUCT(N('u'), 1, 8), MEMBER(N('c'), 6, 0), STRUCT(N('u'), 1, 8),
	    MEMBER(N('c'), 4, 0), END }, "", 1 },
	{ "typedef with base definitions", { INT32(0), TYPEDEF(N('f'), 1), CONST(2), END }, LSTRS,
	  { INT32(0), TYPEDEF(N('f'), 4), CONST(5), STRUCT(N('s'), 1, 4), MEMBER(N('m'), 6, 0),
	    END }, "", 1 },
	{ "recursive typedef with base", { TYPEDEF(N('f'), 2), PROTO(1, 0), END }, LSTRS,
	  { TYPEDEF(N('f'), 4), PROTO(3, 0), PTR(3), END }, "", 1 },
};

static size_t nwords(const uint32_t *w)
{
	size_t n = 0;

	while (w[n] != END)
		n++;
	return n;
}

/* header (24 bytes) + types + strings, malloc'ed */
static void *raw(const uint32_t *w, const char *strs, uint32_t slen, uint32_t *len)
{
	uint32_t tl = (uint32_t)nwords(w) * 4;
	struct lbtf_header h = { .magic = LBTF_MAGIC, .version = LBTF_VERSION,
				 .hdr_len = LBTF_HDR_LEN_V1, .type_len = tl, .str_off = tl,
				 .str_len = slen };
	unsigned char *p;

	*len = LBTF_HDR_LEN_V1 + tl + slen;
	p = malloc(*len);
	if (!p)
		exit(2);
	memcpy(p, &h, LBTF_HDR_LEN_V1);
	memcpy(p + LBTF_HDR_LEN_V1, w, tl);
	memcpy(p + LBTF_HDR_LEN_V1 + tl, strs, slen);
	return p;
}

/* The types and strings of a blob (its header's length skipped) */
static const unsigned char *body(const void *data, uint32_t *len)
{
	struct lbtf_header h;

	memcpy(&h, data, LBTF_HDR_LEN_V1);
	*len = h.type_len + h.str_len;
	return (const unsigned char *)data + h.hdr_len;
}

/* Where two bodies first differ, for the failure message */
static void say_where(const unsigned char *a, uint32_t alen, const unsigned char *b,
		      uint32_t blen)
{
	uint32_t i = 0;

	while (i < alen && i < blen && a[i] == b[i])
		i++;
	printf("  (%u vs %u bytes; first difference at byte %u of the types and strings)\n",
	       alen, blen, i);
}

/* The same dedup through lbtf_builder_adopt_raw over a malloc'ed copy of
 * data (records edited in place): 0 when its body is want, else 1 (said) */
static int adopted_differs(const char *name, const void *data, uint32_t len, const void *want,
			   uint32_t wlen)
{
	void *raw = malloc(len), *od = NULL;
	struct lbtf_builder *b;
	const unsigned char *got;
	uint32_t glen;
	size_t osize;
	int rc = 1;

	if (!raw) {
		printf("FAIL: %s: out of memory\n", name);
		return 1;
	}
	memcpy(raw, data, len);
	b = lbtf_builder_adopt_raw(raw, len); /* (raw is b's now) */
	if (!b || lbtf_builder_dedup(b, NULL) || lbtf_builder_serialize(b, false, &od, &osize)) {
		printf("FAIL: %s: adopted: %s\n", name, lbtf_errmsg());
	} else if ((got = body(od, &glen)), glen != wlen || memcmp(got, want, glen)) {
		printf("FAIL: %s: lbtf_builder_adopt_raw's dedup differs from libbpf 1.8's\n", name);
		say_where(got, glen, want, wlen);
	} else {
		rc = 0;
	}
	free(od);
	lbtf_builder_free(b);
	return rc;
}

/* Dedup data (split over bdata when blen) with both; 0 when equal */
static int compare(const char *name, const void *bdata, uint32_t blen, const void *data,
		   uint32_t len)
{
	struct btf *lbase = blen ? btf__new(bdata, blen) : NULL;
	struct btf *lb = blen ? btf__new_split(data, len, lbase) : btf__new(data, len);
	struct lbtf *base = blen ? lbtf_new(bdata, blen, NULL) : NULL;
	struct lbtf *in = lbtf_new(data, len, base);
	struct lbtf_builder *b = in ? lbtf_builder_new(base) : NULL;
	const unsigned char *theirs, *ours;
	uint32_t tlen, olen;
	const void *td;
	void *od;
	size_t osize;
	int rc = 1;

	if (!lb || btf__dedup(lb, NULL)) {
		printf("FAIL: %s: libbpf: %s\n", name, strerror(errno));
		goto out;
	}
	if (!in || !b) {
		printf("FAIL: %s: libbtf: %s\n", name, lbtf_errmsg());
		goto out;
	}
	for (uint32_t id = lbtf_start_id(in); id < lbtf_type_cnt(in); id++)
		if (lbtf_builder_add_type_copy(b, in, id) < 0) {
			printf("FAIL: %s: copy: %s\n", name, lbtf_errmsg());
			goto out;
		}
	if (lbtf_builder_dedup(b, NULL) || lbtf_builder_serialize(b, false, &od, &osize)) {
		printf("FAIL: %s: libbtf: %s\n", name, lbtf_errmsg());
		goto out;
	}
	td = btf__raw_data(lb, &tlen);
	theirs = body(td, &tlen);
	ours = body(od, &olen);
	if (olen != tlen || memcmp(ours, theirs, olen)) {
		printf("FAIL: %s: differs from libbpf 1.8's btf__dedup\n", name);
		say_where(ours, olen, theirs, tlen);
	} else if (!blen && adopted_differs(name, data, len, ours, olen)) {
		/* (said by adopted_differs) */
	} else {
		printf("ok: %s: %u types, the same bytes as libbpf's\n", name,
		       btf__type_cnt(lb) - 1);
		rc = 0;
	}
	free(od);
out:
	lbtf_builder_free(b);
	lbtf_free(in);
	lbtf_free(base);
	btf__free(lb);
	btf__free(lbase);
	return rc;
}

static int run_case(const struct dcase *c)
{
	bool split = c->base[0] != END;
	uint32_t blen = 0, len;
	void *bdata = split ? raw(c->base, c->base_strs, c->base_slen, &blen) : NULL;
	void *data = raw(c->types, c->strs, c->slen, &len);
	int rc = compare(c->name, bdata, blen, data, len);

	free(data);
	free(bdata);
	return rc;
}

/* FILE's types n times over (libbpf's btf__add_btf renumbers each copy) */
static int run_file(const char *path, int n)
{
	struct btf *src = btf__parse_raw(path), *all = btf__new_empty();
	const void *data;
	uint32_t len;
	char name[512];

	if (!src || !all) {
		printf("FAIL: %s: cannot read raw BTF: %s\n", path, strerror(errno));
		return 1;
	}
	for (int i = 0; i < n; i++)
		if (btf__add_btf(all, src) < 0) {
			printf("FAIL: %s: copy %d: %s\n", path, i, strerror(errno));
			return 1;
		}
	data = btf__raw_data(all, &len);
	if (!data) {
		printf("FAIL: %s: no raw data: %s\n", path, strerror(errno));
		return 1;
	}
	snprintf(name, sizeof(name), "%s x%d", path, n);
	n = compare(name, NULL, 0, data, len);
	btf__free(all);
	btf__free(src);
	return n;
}

int main(int argc, char **argv)
{
	int fails = 0;

	libbpf_set_print(NULL);
	if (argc > 1)
		return run_file(argv[1], argc > 2 ? atoi(argv[2]) : 1);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		fails += run_case(&cases[i]);
	return fails ? 1 : 0;
}
