// SPDX-License-Identifier: BSD-2-Clause
/*
 * Typedef dedup against libbpf master's btf__dedup (issue 32; libbpf
 * 37027144 "recursive typedef definitions", 5b0f3729 "typedef with base
 * definitions"), built by tests/build/check_dedup_typedef.sh against the
 * libbpf of scripts/build-libbpf.sh's cache (never part of make's build).
 * Each case is raw BTF as the kernel selftests' dedup tests write it (and
 * a few more graphs where a typedef closes a cycle); both libraries dedup
 * the same bytes, and their types and strings must be the same bytes.
 * Prints one line per case; exit 0 when all are equal.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "libbtf.h"

#define END 0xffffffffu
#define INFO(kind, vlen) ((uint32_t)(kind) << 24 | (vlen))
#define INT32(name) name, INFO(LBTF_KIND_INT, 0), 4, (1u << 24) | 32
#define TYPEDEF(name, type) name, INFO(LBTF_KIND_TYPEDEF, 0), type
#define PTR(type) 0, INFO(LBTF_KIND_PTR, 0), type
#define CONST(type) 0, INFO(LBTF_KIND_CONST, 0), type
#define PROTO(ret, nparams) 0, INFO(LBTF_KIND_FUNC_PROTO, nparams), ret
#define PARAM(name, type) name, type
#define STRUCT(name, nmembers, size) name, INFO(LBTF_KIND_STRUCT, nmembers), size
#define MEMBER(name, type, off) name, type, off

struct dcase {
	const char *name;
	uint32_t base[32];      /* base types (END-terminated; empty: no split) */
	const char *base_strs;  /* its strings, '\0'-separated, size below */
	uint32_t base_slen;
	uint32_t types[32];     /* the types to deduplicate */
	const char *strs;
	uint32_t slen;
};

/* name offsets in "\0Foo\0Bar\0m\0s" */
#define FOO 1
#define BAR 5
#define M 9
#define S 11
#define STRS "\0Foo\0Bar\0m\0s"
#define SLEN 13

static const struct dcase cases[] = {
	{ "recursive typedef (kernel selftest)", { END }, NULL, 0,
	  { TYPEDEF(FOO, 2), PROTO(1, 0), TYPEDEF(FOO, 4), PROTO(3, 0), END }, STRS, SLEN },
	{ "recursive typedef, one copy", { END }, NULL, 0,
	  { TYPEDEF(FOO, 2), PROTO(1, 0), END }, STRS, SLEN },
	{ "typedef (kernel selftest)", { END }, NULL, 0,
	  { INT32(0), TYPEDEF(FOO, 1), INT32(0), TYPEDEF(FOO, 3), END }, STRS, SLEN },
	{ "two typedefs reaching each other", { END }, NULL, 0,
	  { TYPEDEF(FOO, 2), PROTO(3, 0), TYPEDEF(BAR, 4), PROTO(1, 0),
	    TYPEDEF(FOO, 6), PROTO(7, 0), TYPEDEF(BAR, 8), PROTO(5, 0), END }, STRS, SLEN },
	{ "typedef cycle through a struct", { END }, NULL, 0,
	  { TYPEDEF(FOO, 2), PTR(3), STRUCT(S, 1, 8), MEMBER(M, 1, 0),
	    TYPEDEF(FOO, 5), PTR(6), STRUCT(S, 1, 8), MEMBER(M, 4, 0), END }, STRS, SLEN },
	{ "typedef of a param list", { END }, NULL, 0,
	  { INT32(0), TYPEDEF(FOO, 3), PROTO(2, 1), PARAM(M, 1),
	    INT32(0), TYPEDEF(FOO, 6), PROTO(5, 1), PARAM(M, 4), END }, STRS, SLEN },
	{ "same name, other targets", { END }, NULL, 0,
	  { INT32(0), TYPEDEF(FOO, 1), PTR(1), TYPEDEF(FOO, 3), END }, STRS, SLEN },
	/* split BTF: the base's typedef and what refers to it are kept once */
	{ "typedef with base definitions", { INT32(0), TYPEDEF(FOO, 1), CONST(2), END }, STRS, SLEN,
	  { INT32(0), TYPEDEF(FOO, 4), CONST(5), STRUCT(S, 1, 4), MEMBER(M, 6, 0), END }, "", 1 },
	{ "recursive typedef with base", { TYPEDEF(FOO, 2), PROTO(1, 0), END }, STRS, SLEN,
	  { TYPEDEF(FOO, 4), PROTO(3, 0), PTR(3), END }, "", 1 },
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

/* The types and strings of a blob (its header's length skipped: libbpf
 * 1.8 writes 32 bytes, libbtf 24) */
static const unsigned char *body(const void *data, uint32_t *len)
{
	struct lbtf_header h;

	memcpy(&h, data, LBTF_HDR_LEN_V1);
	*len = h.type_len + h.str_len;
	return (const unsigned char *)data + h.hdr_len;
}

static int run(const struct dcase *c)
{
	bool split = c->base[0] != END;
	uint32_t blen = 0, len, tlen, olen;
	void *bdata = split ? raw(c->base, c->base_strs, c->base_slen, &blen) : NULL;
	void *data = raw(c->types, c->strs, c->slen, &len);
	struct btf *lbase = split ? btf__new(bdata, blen) : NULL;
	struct btf *lb = split ? btf__new_split(data, len, lbase) : btf__new(data, len);
	struct lbtf *base = split ? lbtf_new(bdata, blen, NULL) : NULL;
	struct lbtf *in = lbtf_new(data, len, base);
	struct lbtf_builder *b = lbtf_builder_new(base);
	const unsigned char *theirs, *ours;
	const void *td;
	void *od;
	size_t osize;
	int rc = 1;

	if (!lb || btf__dedup(lb, NULL)) {
		printf("FAIL: %s: libbpf: %s\n", c->name, strerror(errno));
		goto out;
	}
	if (!in || !b) {
		printf("FAIL: %s: libbtf: %s\n", c->name, lbtf_errmsg());
		goto out;
	}
	for (uint32_t id = lbtf_start_id(in); id < lbtf_type_cnt(in); id++)
		if (lbtf_builder_add_type_copy(b, in, id) < 0) {
			printf("FAIL: %s: copy: %s\n", c->name, lbtf_errmsg());
			goto out;
		}
	if (lbtf_builder_dedup(b, NULL) || lbtf_builder_serialize(b, false, &od, &osize)) {
		printf("FAIL: %s: libbtf: %s\n", c->name, lbtf_errmsg());
		goto out;
	}
	td = btf__raw_data(lb, &tlen);
	theirs = body(td, &tlen);
	ours = body(od, &olen);
	if (olen != tlen || memcmp(ours, theirs, olen)) {
		printf("FAIL: %s: differs from libbpf's btf__dedup (%u vs %u bytes)\n", c->name,
		       olen, tlen);
	} else {
		printf("ok: %s: %u types, the same bytes as libbpf's\n", c->name,
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
	free(data);
	free(bdata);
	return rc;
}

int main(void)
{
	int fails = 0;

	libbpf_set_print(NULL);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		fails += run(&cases[i]);
	return fails ? 1 : 0;
}
