// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of lbtf_dump_c on hand-built BTF: exact declarator output,
 * root selection, and hostile input (cycles C cannot express, ids out of
 * range, loops of modifiers) that must give an error, never a crash/hang.
 * (Parity with bpftool on real BTF: check_dump_c_*.sh.)
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "libbtf.h"

/* A tiny BTF writer: words of type records and a string table (growable;
 * blob_open() consumes the blob). */
struct blob {
	uint32_t *types;
	size_t nt, tcap;
	char *strs;
	size_t ns, scap;
};

static void blob_init(struct blob *b)
{
	memset(b, 0, sizeof(*b));
	b->ns = 1; /* the empty string */
	b->scap = 512;
	b->strs = calloc(1, b->scap);
	assert_non_null(b->strs);
}

static uint32_t str(struct blob *b, const char *s)
{
	uint32_t off = b->ns;
	size_t n = strlen(s) + 1;

	while (b->ns + n > b->scap) {
		b->scap *= 2;
		b->strs = realloc(b->strs, b->scap);
		assert_non_null(b->strs);
	}
	memcpy(b->strs + b->ns, s, n);
	b->ns += n;
	return off;
}

static void w(struct blob *b, int n, ...)
{
	va_list ap;

	if (b->nt + n > b->tcap) {
		b->tcap = (b->tcap + n) * 2;
		b->types = realloc(b->types, b->tcap * sizeof(*b->types));
		assert_non_null(b->types);
	}
	va_start(ap, n);
	for (int i = 0; i < n; i++)
		b->types[b->nt++] = va_arg(ap, uint32_t);
	va_end(ap);
}

static struct lbtf *blob_open(struct blob *b)
{
	size_t tl = b->nt * 4, len = LBTF_HDR_LEN_V1 + tl + b->ns;
	unsigned char *buf = calloc(1, len);
	struct lbtf_header h = { LBTF_MAGIC, LBTF_VERSION, 0, LBTF_HDR_LEN_V1, 0, (uint32_t)tl,
				 (uint32_t)tl, (uint32_t)b->ns };
	struct lbtf *btf;

	memcpy(buf, &h, LBTF_HDR_LEN_V1);
	if (tl)
		memcpy(buf + LBTF_HDR_LEN_V1, b->types, tl);
	memcpy(buf + LBTF_HDR_LEN_V1 + tl, b->strs, b->ns);
	btf = lbtf_new(buf, len, NULL);
	free(buf);
	free(b->types);
	free(b->strs);
	assert_non_null(btf);
	return btf;
}

#define INFO(kind, vlen, kflag) lbtf_info(kind, vlen, kflag)
#define INT_ENC(bits, sgn) ((uint32_t)(sgn) << 24 | (bits))

/* Dumps into a string (no frame); returns the error code via *err. */
static char *dump(struct lbtf *btf, const uint32_t *roots, size_t n, int *err)
{
	struct lbtf_dump_c_opts o = { .sz = sizeof(o), .no_frame = true, .root_ids = roots,
				      .root_cnt = n };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	*err = lbtf_dump_c(btf, f, &o);
	fclose(f);
	return text;
}

static void test_nested_declarator(void **state)
{
	struct blob b;
	struct lbtf *btf;
	char *out;
	int err;

	blob_init(&b);
	w(&b, 4, str(&b, "int"), INFO(LBTF_KIND_INT, 0, 0), 4, INT_ENC(32, 1)); /* 1 */
	w(&b, 6, 0, INFO(LBTF_KIND_ARRAY, 0, 0), 0, 1, 1, 3);                   /* 2 int[3] */
	w(&b, 3, 0, INFO(LBTF_KIND_PTR, 0, 0), 2);                              /* 3 */
	w(&b, 5, 0, INFO(LBTF_KIND_FUNC_PROTO, 1, 0), 3, str(&b, "x"), 1);      /* 4 */
	w(&b, 3, 0, INFO(LBTF_KIND_PTR, 0, 0), 4);                              /* 5 */
	w(&b, 3, str(&b, "fp"), INFO(LBTF_KIND_TYPEDEF, 0, 0), 5);              /* 6 */
	w(&b, 3, 0, INFO(LBTF_KIND_CONST, 0, 0), 1);                            /* 7 */
	w(&b, 3, 0, INFO(LBTF_KIND_PTR, 0, 0), 7);                              /* 8 */
	w(&b, 3, 0, INFO(LBTF_KIND_CONST, 0, 0), 8);                            /* 9 */
	w(&b, 3, str(&b, "cpc"), INFO(LBTF_KIND_TYPEDEF, 0, 0), 9);             /* 10 */
	btf = blob_open(&b);
	out = dump(btf, NULL, 0, &err);
	assert_int_equal(err, 0);
	assert_string_equal(out, "typedef int (* (*fp)(int x))[3];\n\n"
				 "typedef const int * const cpc;\n\n");
	free(out);
	lbtf_free(btf);
}

static void test_roots_and_fwd(void **state)
{
	struct blob b;
	struct lbtf *btf;
	uint32_t ids[4];
	char *out;
	int err, n;

	blob_init(&b);
	w(&b, 4, str(&b, "int"), INFO(LBTF_KIND_INT, 0, 0), 4, INT_ENC(32, 1)); /* 1 */
	w(&b, 3, 0, INFO(LBTF_KIND_PTR, 0, 0), 3);                              /* 2 */
	/* 3: struct a { struct a *self; int v: 3; } (kind_flag: bitfields) */
	w(&b, 9, str(&b, "a"), INFO(LBTF_KIND_STRUCT, 2, 1), 24, str(&b, "self"), 2, 0,
	  str(&b, "v"), 1, 3u << 24 | 64);
	w(&b, 3, str(&b, "unused"), INFO(LBTF_KIND_FWD, 0, 1), 0);              /* 4 */
	btf = blob_open(&b);
	n = lbtf_dump_c_find_types(btf, "struct a", ids, 4);
	assert_int_equal(n, 1);
	assert_int_equal(ids[0], 3);
	assert_int_equal(lbtf_dump_c_find_types(btf, "union a", ids, 4), 0);
	assert_int_equal(lbtf_dump_c_find_types(btf, "union unused", ids + 1, 3), 1);
	assert_int_equal(ids[1], 4);
	out = dump(btf, ids, 1, &err);
	assert_int_equal(err, 0);
	assert_string_equal(out, "struct a {\n\tstruct a *self;\n\tint v: 3;\n\tlong: 64;\n};\n\n");
	free(out);
	lbtf_free(btf);
}

/* Dumps with the frame; errors found while ordering must come before any
 * output (quiet), those found while printing (budgets) may come after some. */
static void expect_error_ex(struct blob *b, int want, bool quiet)
{
	struct lbtf *btf = blob_open(b);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(lbtf_dump_c(btf, f, NULL), want);
	fclose(f);
	assert_true(strlen(lbtf_errmsg()) > 0);
	if (quiet)
		assert_int_equal(len, 0);
	free(text);
	lbtf_free(btf);
}

static void expect_error(struct blob *b, int want)
{
	expect_error_ex(b, want, true);
}

static void test_modifier_loop(void **state)
{
	struct blob b;

	blob_init(&b);
	w(&b, 3, 0, INFO(LBTF_KIND_CONST, 0, 0), 2);
	w(&b, 3, 0, INFO(LBTF_KIND_VOLATILE, 0, 0), 1);
	w(&b, 3, str(&b, "t"), INFO(LBTF_KIND_TYPEDEF, 0, 0), 1);
	expect_error(&b, -ELOOP);
}

static void test_struct_embeds_itself(void **state)
{
	struct blob b;

	blob_init(&b);
	w(&b, 6, str(&b, "s"), INFO(LBTF_KIND_STRUCT, 1, 0), 4, str(&b, "m"), 1, 0);
	expect_error(&b, -ELOOP);
}

static void test_proto_loop(void **state)
{
	struct blob b;

	blob_init(&b); /* typedef void (*f)(f): not expressible in C */
	w(&b, 5, 0, INFO(LBTF_KIND_FUNC_PROTO, 1, 0), 0, 0, 2);
	w(&b, 3, 0, INFO(LBTF_KIND_PTR, 0, 0), 1);
	w(&b, 3, str(&b, "f"), INFO(LBTF_KIND_TYPEDEF, 0, 0), 2);
	expect_error(&b, -ELOOP);
}

static void test_bad_ids(void **state)
{
	struct blob b;

	blob_init(&b);
	w(&b, 3, 0, INFO(LBTF_KIND_PTR, 0, 0), 99);
	expect_error(&b, -EINVAL);
}

/* The up-front check names the first bad reference of each place a type
 * id or a name offset sits: the type field, an array's element and index
 * types, a member's type, a member's name. */
static void expect_bad_ref(struct blob *b, const char *msg)
{
	expect_error(b, -EINVAL);
	if (!strstr(lbtf_errmsg(), msg))
		fail_msg("'%s' lacks '%s'", lbtf_errmsg(), msg);
}

static void test_bad_refs(void **state)
{
	struct blob b;

	blob_init(&b);
	w(&b, 4, str(&b, "int"), INFO(LBTF_KIND_INT, 0, 0), 4, INT_ENC(32, 1)); /* 1 */
	w(&b, 6, 0, INFO(LBTF_KIND_ARRAY, 0, 0), 0, 1, 77, 2);                  /* 2 */
	expect_bad_ref(&b, "type 2 refers to type id 77");
	blob_init(&b);
	w(&b, 4, str(&b, "int"), INFO(LBTF_KIND_INT, 0, 0), 4, INT_ENC(32, 1)); /* 1 */
	w(&b, 6, 0, INFO(LBTF_KIND_ARRAY, 0, 0), 1, 88, 2);                     /* 2 */
	expect_bad_ref(&b, "type 2 refers to type id 88");
	blob_init(&b);
	w(&b, 4, str(&b, "int"), INFO(LBTF_KIND_INT, 0, 0), 4, INT_ENC(32, 1)); /* 1 */
	w(&b, 9, str(&b, "s"), INFO(LBTF_KIND_STRUCT, 2, 0), 8, str(&b, "a"), 1, 0,
	  str(&b, "b"), 55, 32);                                                /* 2 */
	expect_bad_ref(&b, "type 2 refers to type id 55");
	blob_init(&b);
	w(&b, 4, str(&b, "int"), INFO(LBTF_KIND_INT, 0, 0), 4, INT_ENC(32, 1)); /* 1 */
	w(&b, 9, str(&b, "s"), INFO(LBTF_KIND_STRUCT, 2, 0), 8, str(&b, "a"), 1, 0,
	  9999, 1, 32);                                                         /* 2 */
	expect_bad_ref(&b, "type 2 has a name offset outside the strings");
}

static void test_huge_padding(void **state)
{
	struct blob b;

	blob_init(&b); /* 256 MiB of nothing must not become 33M lines */
	w(&b, 3, str(&b, "big"), INFO(LBTF_KIND_STRUCT, 0, 0), 1u << 28);
	expect_error_ex(&b, -E2BIG, false);
}

static void test_exponential_nesting(void **state)
{
	struct blob b;
	struct lbtf *btf;
	FILE *null = fopen("/dev/null", "w");
	const int depth = 40;
	int err;

	/* anonymous struct k holds two members of anonymous struct k+1: the
	 * inline definitions would take 2^40 lines */
	blob_init(&b);
	w(&b, 4, str(&b, "int"), INFO(LBTF_KIND_INT, 0, 0), 4, INT_ENC(32, 1)); /* 1 */
	for (int k = 0; k < depth; k++) {
		uint32_t next = k == depth - 1 ? 1 : (uint32_t)k + 3;

		w(&b, 9, 0, INFO(LBTF_KIND_STRUCT, 2, 0), 8, str(&b, "a"), next, 0,
		  str(&b, "b"), next, 32);
	}
	w(&b, 6, str(&b, "root"), INFO(LBTF_KIND_STRUCT, 1, 0), 8, str(&b, "r"), 2, 0);
	btf = blob_open(&b);
	assert_non_null(null);
	/* the walk budget (E2BIG) or the output budget (EFBIG) stops it */
	err = lbtf_dump_c(btf, null, NULL);
	assert_true(err == -E2BIG || err == -EFBIG);
	fclose(null);
	lbtf_free(btf);
}

static void test_exponential_protos(void **state)
{
	struct blob b;
	const int depth = 40;

	/* proto k takes two `const proto k+1` parameters: ordering walks
	 * protos and modifiers per path, 2^40 paths */
	blob_init(&b);
	w(&b, 4, str(&b, "int"), INFO(LBTF_KIND_INT, 0, 0), 4, INT_ENC(32, 1)); /* 1 */
	for (int k = 0; k < depth; k++) {
		uint32_t self = 2 + 2 * k, next = k == depth - 1 ? 1 : self + 2;

		w(&b, 7, 0, INFO(LBTF_KIND_FUNC_PROTO, 2, 0), 1, 0, self + 1, 0, self + 1);
		w(&b, 3, 0, INFO(LBTF_KIND_CONST, 0, 0), next);
	}
	w(&b, 3, str(&b, "fn_t"), INFO(LBTF_KIND_TYPEDEF, 0, 0), 2);
	expect_error(&b, -E2BIG);
}

/* Occurrences of needle in text */
static size_t count(const char *text, const char *needle)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Dumps btf whole (frame included), sorted or not, into a string. */
static char *dump_all(struct lbtf *btf, bool sort, int *err)
{
	struct lbtf_dump_c_opts o = { .sz = sizeof(o), .sort = sort };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	*err = lbtf_dump_c(btf, f, &o);
	fclose(f);
	return text;
}

/* 30,000 nested anonymous structs (valid BTF, the kernel loads it) print
 * in full, sorted or not: every level once, the innermost member, one
 * closing per level (first a stack overflow, then "type chain too deep":
 * printing now runs on an explicit stack, issue 28) */
static void test_deep_anonymous_nesting(void **state)
{
	const uint32_t depth = 30000;

	for (int sort = 0; sort < 2; sort++) {
		struct blob b;
		struct lbtf *btf;
		char *text;
		int err;

		blob_init(&b);
		w(&b, 4, str(&b, "int"), INFO(LBTF_KIND_INT, 0, 0), 4, INT_ENC(32, 1)); /* 1 */
		w(&b, 6, 0, INFO(LBTF_KIND_STRUCT, 1, 0), 4, str(&b, "x"), 1, 0);      /* 2 */
		for (uint32_t k = 3; k < depth + 2; k++)
			w(&b, 6, 0, INFO(LBTF_KIND_STRUCT, 1, 0), 4, str(&b, "m"), k - 1, 0);
		w(&b, 6, str(&b, "outer"), INFO(LBTF_KIND_STRUCT, 1, 0), 4, str(&b, "m"), depth + 1, 0);
		btf = blob_open(&b);
		text = dump_all(btf, sort, &err);
		assert_int_equal(err, 0);
		assert_int_equal(count(text, "struct {\n"), depth);
		assert_int_equal(count(text, "} m;"), depth);
		assert_int_equal(count(text, "int x;"), 1);
		assert_non_null(strstr(text, "struct outer {\n\tstruct {\n\t\tstruct {"));
		free(text);
		lbtf_free(btf);
	}
}

/* Declarators as deep: a typedef of 30,000 pointers alternating with
 * one-element arrays, `typedef int *(*(*deep[1])[1])[1];` 30,000 levels
 * deep (as bpftool prints 3), prints whole (was "declarators or anonymous
 * types nested too deeply") */
static void test_deep_declarator(void **state)
{
	const uint32_t depth = 30000;
	struct blob b;
	struct lbtf *btf;
	char *text;
	int err;

	blob_init(&b);
	w(&b, 4, str(&b, "int"), INFO(LBTF_KIND_INT, 0, 0), 4, INT_ENC(32, 1)); /* 1 */
	for (uint32_t k = 2; k < 2 * depth + 2; k += 2) {
		w(&b, 3, 0, INFO(LBTF_KIND_PTR, 0, 0), k - 1);            /* k: pointer */
		w(&b, 6, 0, INFO(LBTF_KIND_ARRAY, 0, 0), 0, k, 1, 1);     /* k + 1: [1] */
	}
	w(&b, 3, str(&b, "deep"), INFO(LBTF_KIND_TYPEDEF, 0, 0), 2 * depth + 1);
	btf = blob_open(&b);
	text = dump_all(btf, false, &err);
	assert_int_equal(err, 0);
	assert_int_equal(count(text, "(*"), depth - 1);
	assert_int_equal(count(text, "[1]"), depth);
	assert_non_null(strstr(text, "typedef int *(*(*(*"));
	assert_non_null(strstr(text, "(*deep[1])[1])[1]"));
	free(text);
	lbtf_free(btf);
}

/* Long chains of named types print in full in both orders: the ordering
 * walk does not recurse, so which root comes first does not matter. */
static void check_chain_both_orders(struct lbtf *btf, const char *first, const char *last)
{
	char *text[2];
	int err;

	for (int sort = 0; sort < 2; sort++) {
		text[sort] = dump_all(btf, sort, &err);
		assert_int_equal(err, 0);
		/* dependencies first */
		assert_non_null(strstr(text[sort], first));
		assert_non_null(strstr(text[sort], last));
		assert_true(strstr(text[sort], first) < strstr(text[sort], last));
	}
	assert_int_equal(strlen(text[0]), strlen(text[1]));
	free(text[0]);
	free(text[1]);
	lbtf_free(btf);
}

static void test_long_typedef_chain(void **state)
{
	const uint32_t n = 2000;
	struct blob b;
	char name[32];

	/* typedef t_k is id k + 2 and names t_{k+1} (id k + 3); the last one
	 * names int: a walk from t_0 goes 2,000 deep, in id order too */
	blob_init(&b);
	w(&b, 4, str(&b, "int"), INFO(LBTF_KIND_INT, 0, 0), 4, INT_ENC(32, 1)); /* 1 */
	for (uint32_t k = 0; k < n; k++) {
		snprintf(name, sizeof(name), "t_%u", k);
		w(&b, 3, str(&b, name), INFO(LBTF_KIND_TYPEDEF, 0, 0), k == n - 1 ? 1 : k + 3);
	}
	check_chain_both_orders(blob_open(&b), "typedef int t_1999;", "typedef t_1 t_0;");
}

static void test_long_struct_chain(void **state)
{
	const uint32_t n = 450000;
	struct lbtf *btf;
	struct blob b;
	char name[32];

	/* struct s_k { struct s_{k-1} m; }: 450k named structs */
	blob_init(&b);
	w(&b, 4, str(&b, "int"), INFO(LBTF_KIND_INT, 0, 0), 4, INT_ENC(32, 1)); /* 1 */
	for (uint32_t k = 0; k < n; k++) {
		snprintf(name, sizeof(name), "s_%u", k);
		w(&b, 6, str(&b, name), INFO(LBTF_KIND_STRUCT, 1, 0), 4, str(&b, "m"), k + 1, 0);
	}
	btf = blob_open(&b);
	check_chain_both_orders(btf, "struct s_0 {", "struct s_449999 {");
}

/* --sort orders structs by name as strcmp() does, also names that share
 * long beginnings (the sort takes them 8 bytes a level, and past 512
 * bytes by comparisons), end at the 7- and 8-byte steps, are equal
 * (ties, ___2) or hold bytes past 0x7f */
static void test_sort_long_names(void **state)
{
	static const char *const tails[] = { "b", "a", "ab", "", "b", "ba", "\x80", "a\x80", "aa" };
	static const char *const shorts[] = { "a", "aaaaaaa", "aaaaaaab", "aaaaaaaa", "aaaaaab",
					      "trace_event_raw_x", "trace_event_raw_", "trace_e",
					      "trace_event_ra", "aaaaaaa", "z" };
	const size_t lens[] = { 40, 600 }; /* 5 and 75 steps of 8 bytes */
	char name[700], prev[700] = "", *text, *p;
	size_t structs = 0, seen = 0;
	struct lbtf *btf;
	struct blob b;
	int err;

	blob_init(&b);
	w(&b, 4, str(&b, "int"), INFO(LBTF_KIND_INT, 0, 0), 4, INT_ENC(32, 1)); /* 1 */
	for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
		for (size_t t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
			if (t == 4 && lens[l] > 200)
				continue; /* (a tie prints as name___2, cut at 255 bytes) */
			memset(name, 'a', lens[l]);
			strcpy(name + lens[l], tails[t]);
			w(&b, 6, str(&b, name), INFO(LBTF_KIND_STRUCT, 1, 0), 4, str(&b, "x"), 1, 0);
			structs++;
		}
	}
	for (size_t t = 0; t < sizeof(shorts) / sizeof(shorts[0]); t++, structs++)
		w(&b, 6, str(&b, shorts[t]), INFO(LBTF_KIND_STRUCT, 1, 0), 4, str(&b, "x"), 1, 0);
	btf = blob_open(&b);
	text = dump_all(btf, true, &err);
	assert_int_equal(err, 0);
	for (p = text; (p = strstr(p, "\nstruct ")); p++) {
		size_t n = strcspn(p + 8, " ");
		char *dup;

		assert_true(n < sizeof(name));
		memcpy(name, p + 8, n);
		name[n] = 0;
		if ((dup = strstr(name, "___")))
			*dup = 0; /* a tie's ___2 */
		assert_true(strcmp(prev, name) <= 0);
		strcpy(prev, name);
		seen++;
	}
	assert_int_equal(seen, structs);
	free(text);
	lbtf_free(btf);
}

/* The member line after "struct dup {" in a sorted dump of two structs
 * named dup ({int a;}, {int b;}), in id order a first or b first, each
 * with a pointer to it */
static char *first_dup_member(bool a_first)
{
	struct blob b;
	struct lbtf *btf;
	char *text, *p, *line;
	int err;

	blob_init(&b);
	w(&b, 4, str(&b, "int"), INFO(LBTF_KIND_INT, 0, 0), 4, INT_ENC(32, 1)); /* 1 */
	for (int i = 0; i < 2; i++)                                                 /* 2, 3 */
		w(&b, 6, str(&b, "dup"), INFO(LBTF_KIND_STRUCT, 1, 0), 4,
		  str(&b, (i == 0) == a_first ? "a" : "b"), 1, 0);
	w(&b, 3, 0, INFO(LBTF_KIND_PTR, 0, 0), 3); /* 4, 5: ties too */
	w(&b, 3, 0, INFO(LBTF_KIND_PTR, 0, 0), 2);
	btf = blob_open(&b);
	text = dump_all(btf, true, &err);
	assert_int_equal(err, 0);
	p = strstr(text, "struct dup {\n");
	assert_non_null(p);
	p += strlen("struct dup {\n");
	line = strndup(p, strcspn(p, "\n"));
	free(text);
	lbtf_free(btf);
	return line;
}

/* Same-named types sort by their shape (the hash of what they are made
 * of), not by id: the same one is printed first, unrenamed, whichever id
 * it has (as bpftool v7.5+ does) */
static void test_sort_ties_by_shape(void **state)
{
	char *x = first_dup_member(true), *y = first_dup_member(false);

	assert_string_equal(x, y);
	free(x);
	free(y);
}

static void test_bad_opts_and_output(void **state)
{
	struct blob b;
	struct lbtf *btf;
	struct lbtf_dump_c_opts small = { .sz = 4 };
	uint32_t bad_root = 77;
	struct lbtf_dump_c_opts roots = { .sz = sizeof(roots), .root_ids = &bad_root, .root_cnt = 1 };
	FILE *full = fopen("/dev/full", "w");

	blob_init(&b);
	w(&b, 4, str(&b, "int"), INFO(LBTF_KIND_INT, 0, 0), 4, INT_ENC(32, 1));
	btf = blob_open(&b);
	assert_int_equal(lbtf_dump_c(btf, stdout, &small), -EINVAL);
	assert_int_equal(lbtf_dump_c(btf, stdout, &roots), -EINVAL);
	if (full) {
		setvbuf(full, NULL, _IONBF, 0);
		assert_int_equal(lbtf_dump_c(btf, full, NULL), -EIO);
		fclose(full);
	}
	lbtf_free(btf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nested_declarator),
		cmocka_unit_test(test_roots_and_fwd),
		cmocka_unit_test(test_modifier_loop),
		cmocka_unit_test(test_struct_embeds_itself),
		cmocka_unit_test(test_proto_loop),
		cmocka_unit_test(test_bad_ids),
		cmocka_unit_test(test_bad_refs),
		cmocka_unit_test(test_huge_padding),
		cmocka_unit_test(test_exponential_nesting),
		cmocka_unit_test(test_exponential_protos),
		cmocka_unit_test(test_deep_anonymous_nesting),
		cmocka_unit_test(test_deep_declarator),
		cmocka_unit_test(test_long_typedef_chain),
		cmocka_unit_test(test_long_struct_chain),
		cmocka_unit_test(test_sort_long_names),
		cmocka_unit_test(test_sort_ties_by_shape),
		cmocka_unit_test(test_bad_opts_and_output),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
