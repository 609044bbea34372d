/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Hand-built BTF blobs for the parser tests: a growing list of 32-bit
 * type words and a string table, assembled into header + types + strings.
 * Also the "sample" blob used by several tests: one type of every kind.
 */
#ifndef TESTS_PARSE_BLOB_H
#define TESTS_PARSE_BLOB_H

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "libbtf.h"

struct blob {
	uint32_t words[512];
	size_t nw;
	char strs[1024];
	size_t ns;
	uint32_t str_base; /* first string offset (base's str_len for split BTF) */
};

static inline void blob_init(struct blob *b, uint32_t str_base)
{
	memset(b, 0, sizeof(*b));
	b->str_base = str_base;
	b->ns = 1; /* every string section starts with "" */
}

/* Offset of a new string (as the type records will refer to it) */
static inline uint32_t blob_str(struct blob *b, const char *s)
{
	uint32_t off = b->str_base + b->ns;

	strcpy(b->strs + b->ns, s);
	b->ns += strlen(s) + 1;
	return off;
}

/* Append n words */
static inline void blob_words(struct blob *b, int n, ...)
{
	va_list ap;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		b->words[b->nw++] = va_arg(ap, uint32_t);
	va_end(ap);
}

/* A type record header: name, kind, vlen, kflag, size-or-type */
static inline void blob_type(struct blob *b, uint32_t name, unsigned int kind,
			     unsigned int vlen, bool kflag, uint32_t size_or_type)
{
	blob_words(b, 3, name, lbtf_info(kind, vlen, kflag), size_or_type);
}

/* header + types + strings in a malloc'ed buffer */
static inline unsigned char *blob_bytes(const struct blob *b, size_t *len)
{
	struct lbtf_header h = {
		.magic = LBTF_MAGIC, .version = LBTF_VERSION, .hdr_len = LBTF_HDR_LEN_V1,
		.type_off = 0, .type_len = (uint32_t)(b->nw * 4),
		.str_off = (uint32_t)(b->nw * 4), .str_len = (uint32_t)b->ns,
	};
	unsigned char *buf;

	*len = LBTF_HDR_LEN_V1 + b->nw * 4 + b->ns;
	buf = malloc(*len);
	memcpy(buf, &h, LBTF_HDR_LEN_V1);
	memcpy(buf + LBTF_HDR_LEN_V1, b->words, b->nw * 4);
	memcpy(buf + LBTF_HDR_LEN_V1 + b->nw * 4, b->strs, b->ns);
	return buf;
}

/* The blob parsed (over base for split BTF), or NULL (lbtf_errmsg()) */
static inline struct lbtf *blob_parse(const struct blob *b, const struct lbtf *base)
{
	size_t len;
	unsigned char *buf = blob_bytes(b, &len);
	struct lbtf *btf = lbtf_new(buf, len, base);

	free(buf);
	return btf;
}

/* Ids of the sample blob */
enum {
	S_INT = 1, S_PTR, S_ARRAY, S_STRUCT, S_TYPEDEF, S_CONST, S_ENUM, S_PROTO, S_FUNC,
	S_VOLATILE, S_UNION, S_ENUM64, S_FLOAT, S_VAR, S_DATASEC, S_DECL_TAG, S_TYPE_TAG,
	S_FWD, S_RESTRICT, S_CHAR, S_NR /* = type count */
};

/* One type of every kind, with members, values and params */
static inline void blob_sample(struct blob *b)
{
	uint32_t n_int = blob_str(b, "int"), n_s = blob_str(b, "s"), n_a = blob_str(b, "a");
	uint32_t n_b = blob_str(b, "b"), n_c = blob_str(b, "c"), n_t = blob_str(b, "t");
	uint32_t n_e = blob_str(b, "e"), n_x = blob_str(b, "X"), n_y = blob_str(b, "Y");
	uint32_t n_p = blob_str(b, "p"), n_f = blob_str(b, "f"), n_u = blob_str(b, "u");
	uint32_t n_fl = blob_str(b, "float"), n_v = blob_str(b, "v"), n_d = blob_str(b, ".data");
	uint32_t n_tag = blob_str(b, "tag"), n_tt = blob_str(b, "user"), n_fw = blob_str(b, "fw");
	uint32_t n_e64 = blob_str(b, "e64"), n_big = blob_str(b, "BIG"), n_ch = blob_str(b, "char");

	blob_type(b, n_int, LBTF_KIND_INT, 0, 0, 4);                 /* 1 */
	blob_words(b, 1, (LBTF_INT_SIGNED << 24) | 32);
	blob_type(b, 0, LBTF_KIND_PTR, 0, 0, S_INT);                 /* 2 */
	blob_type(b, 0, LBTF_KIND_ARRAY, 0, 0, 0);                   /* 3: int[4] */
	blob_words(b, 3, S_INT, S_INT, 4);
	blob_type(b, n_s, LBTF_KIND_STRUCT, 3, 1, 32);               /* 4 (kflag: bitfields) */
	blob_words(b, 3, n_a, S_INT, (3u << 24) | 0);                /*   a: 3 bits at 0 */
	blob_words(b, 3, n_b, S_PTR, 64);
	blob_words(b, 3, n_c, S_ARRAY, 128);
	blob_type(b, n_t, LBTF_KIND_TYPEDEF, 0, 0, S_CONST);         /* 5 */
	blob_type(b, 0, LBTF_KIND_CONST, 0, 0, S_STRUCT);            /* 6 */
	blob_type(b, n_e, LBTF_KIND_ENUM, 2, 1, 4);                  /* 7 signed */
	blob_words(b, 2, n_x, 1);
	blob_words(b, 2, n_y, (uint32_t)-1);
	blob_type(b, 0, LBTF_KIND_FUNC_PROTO, 2, 0, S_INT);          /* 8: int (int p, ...) */
	blob_words(b, 2, n_p, S_INT);
	blob_words(b, 2, 0, 0);
	blob_type(b, n_f, LBTF_KIND_FUNC, LBTF_LINKAGE_GLOBAL, 0, S_PROTO); /* 9 */
	blob_type(b, 0, LBTF_KIND_VOLATILE, 0, 0, S_TYPEDEF);        /* 10 */
	blob_type(b, n_u, LBTF_KIND_UNION, 2, 0, 8);                 /* 11 */
	blob_words(b, 3, n_a, S_INT, 0);
	blob_words(b, 3, n_b, S_PTR, 0);
	blob_type(b, n_e64, LBTF_KIND_ENUM64, 1, 0, 8);              /* 12 unsigned */
	blob_words(b, 3, n_big, 0x89abcdefu, 0xfedcba98u);
	blob_type(b, n_fl, LBTF_KIND_FLOAT, 0, 0, 4);                /* 13 */
	blob_type(b, n_v, LBTF_KIND_VAR, 0, 0, S_INT);               /* 14 */
	blob_words(b, 1, LBTF_LINKAGE_GLOBAL);
	blob_type(b, n_d, LBTF_KIND_DATASEC, 2, 0, 8);               /* 15 */
	blob_words(b, 3, S_VAR, 0, 4);
	blob_words(b, 3, 9999, 4, 4);                                /*   invalid id */
	blob_type(b, n_tag, LBTF_KIND_DECL_TAG, 0, 0, S_STRUCT);     /* 16 */
	blob_words(b, 1, (uint32_t)-1);
	blob_type(b, n_tt, LBTF_KIND_TYPE_TAG, 0, 0, S_INT);         /* 17 */
	blob_type(b, n_fw, LBTF_KIND_FWD, 0, 1, 0);                  /* 18 union fwd */
	blob_type(b, 0, LBTF_KIND_RESTRICT, 0, 0, S_PTR);            /* 19 */
	blob_type(b, n_ch, LBTF_KIND_INT, 0, 0, 1);                  /* 20 */
	blob_words(b, 1, (LBTF_INT_CHAR << 24) | 8);
}

#endif
