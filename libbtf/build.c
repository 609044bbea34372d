// SPDX-License-Identifier: BSD-2-Clause
/*
 * The builder's storage: type records in one flat, doubling array of
 * 32-bit words with a word-offset index, strings interned in a hash set.
 * Also whole-type copies from a parsed BTF and appending another builder.
 */
#include <stdlib.h>
#include <string.h>
#include "build_internal.h"

#define MAX_TYPE_ID 0x7fffffffu

static const struct lbtf_type void_type;

struct lbtf_builder *lbtf_builder_new(const struct lbtf *base)
{
	struct lbtf_builder *b = calloc(1, sizeof(*b));

	if (!b)
		return lbtfi_err_ptr(ENOMEM, "out of memory");
	b->base = base;
	b->start_id = base ? lbtf_type_cnt(base) : 1;
	b->start_str_off = base ? base->start_str_off + base->hdr.str_len : 0;
	if (lbtfi_strset_init(&b->strs, !base))
		goto nomem;
	if (base && !(b->base_strs = lbtfi_strindex_get(base)))
		goto nomem;
	return b;
nomem:
	lbtf_builder_free(b);
	return lbtfi_err_ptr(ENOMEM, "out of memory creating a BTF builder");
}

void lbtf_builder_free(struct lbtf_builder *b)
{
	if (!b)
		return;
	free(b->words);
	free(b->offs);
	lbtfi_strset_free(&b->strs);
	if (b->base_strs)
		lbtfi_strindex_put(b->base_strs);
	free(b);
}

int lbtf_builder_add_str(struct lbtf_builder *b, const char *s)
{
	int64_t off;

	if (!s || !*s)
		return 0;
	if (b->base) {
		off = lbtfi_strindex_find(b->base_strs, s);
		if (off >= 0)
			return (int)off;
	}
	off = lbtfi_strset_add(&b->strs, s);
	if (off < 0)
		return lbtfi_err((int)-off, "cannot add string: %s",
				 off == -E2BIG ? "string section too large" : "out of memory");
	if ((uint64_t)off + b->start_str_off > 0x7fffffffu)
		return lbtfi_err(E2BIG, "string section too large");
	return (int)(off + b->start_str_off);
}

const char *lbtf_builder_str(const struct lbtf_builder *b, uint32_t off)
{
	if (off < b->start_str_off)
		return b->base ? lbtf_name_by_offset(b->base, off) : NULL;
	off -= b->start_str_off;
	if (off >= b->strs.len)
		return NULL;
	return b->strs.data + off;
}

uint32_t lbtf_builder_type_cnt(const struct lbtf_builder *b)
{
	return b->start_id + b->nr_types;
}

struct lbtf_type *lbtf_builder_type_by_id(struct lbtf_builder *b, uint32_t id)
{
	if (id < b->start_id || id - b->start_id >= b->nr_types)
		return NULL;
	return lbtfi_btype(b, id);
}

const struct lbtf_type *lbtfi_builder_any_type(const struct lbtf_builder *b, uint32_t id)
{
	if (id == 0)
		return &void_type;
	if (id < b->start_id)
		return b->base ? lbtf_type_by_id(b->base, id) : NULL;
	if (id - b->start_id >= b->nr_types)
		return NULL;
	return lbtfi_btype(b, id);
}

int lbtfi_builder_grow_words(struct lbtf_builder *b, size_t n)
{
	size_t cap;
	uint32_t *p;

	if (b->nwords + n <= b->cap_words)
		return 0;
	cap = b->cap_words ? b->cap_words * 2 : 8192;
	while (cap < b->nwords + n)
		cap *= 2;
	if (cap > UINT32_MAX)
		return lbtfi_err(E2BIG, "type section too large");
	p = realloc(b->words, cap * sizeof(*p));
	if (!p)
		return lbtfi_err(ENOMEM, "out of memory adding a type");
	b->words = p;
	b->cap_words = cap;
	return 0;
}

uint32_t *lbtfi_builder_reserve(struct lbtf_builder *b, size_t n)
{
	uint32_t *w;

	if ((uint64_t)b->start_id + b->nr_types >= MAX_TYPE_ID) {
		lbtfi_err(E2BIG, "too many types");
		return NULL;
	}
	if (b->nr_types == b->cap_types) {
		uint32_t cap = b->cap_types ? b->cap_types * 2 : 1024;
		uint32_t *p = realloc(b->offs, (size_t)cap * sizeof(*p));
		if (!p) {
			lbtfi_err(ENOMEM, "out of memory adding a type");
			return NULL;
		}
		b->offs = p;
		b->cap_types = cap;
	}
	if (lbtfi_builder_grow_words(b, n))
		return NULL;
	w = b->words + b->nwords;
	memset(w, 0, n * sizeof(*w));
	b->offs[b->nr_types++] = (uint32_t)b->nwords;
	b->nwords += n;
	return w;
}

void lbtfi_builder_truncate(struct lbtf_builder *b, uint32_t nr_types, size_t nwords)
{
	b->nr_types = nr_types;
	b->nwords = nwords;
}

/* ---- copying records with their strings ---- */

struct copy_strs_ctx {
	struct lbtf_builder *b;
	const struct lbtf *src;
	int err;
};

static int copy_str(uint32_t *slot, void *ctx)
{
	struct copy_strs_ctx *c = ctx;
	const char *s = lbtf_name_by_offset(c->src, *slot);
	int off;

	if (!s)
		return c->err = lbtfi_err(EINVAL, "string offset %u out of range", *slot);
	off = lbtf_builder_add_str(c->b, s);
	if (off < 0)
		return c->err = off;
	*slot = (uint32_t)off;
	return 0;
}

int lbtf_add_type_copy(struct lbtf_builder *b, const struct lbtf *src, uint32_t src_id)
{
	const struct lbtf_type *t = lbtf_type_by_id(src, src_id);
	struct copy_strs_ctx c = { b, src, 0 };
	uint32_t nr = b->nr_types;
	size_t nw = b->nwords, words;
	uint32_t *w;

	if (!t || src_id == 0)
		return lbtfi_err(EINVAL, "type id %u not in the source BTF", src_id);
	words = lbtfi_rec_words(t);
	if (!words)
		return lbtfi_err(EINVAL, "type %u has unknown kind %u", src_id, lbtf_kind(t));
	w = lbtfi_builder_reserve(b, words);
	if (!w)
		return -errno;
	memcpy(w, t, words * 4);
	if (lbtf_type_visit_str_offs((struct lbtf_type *)w, copy_str, &c)) {
		lbtfi_builder_truncate(b, nr, nw);
		return c.err;
	}
	return (int)(b->start_id + nr);
}

/* ---- appending a whole builder ---- */

struct append_ctx {
	struct lbtf_builder *b;
	const struct lbtf_builder *src;
	struct lbtfi_offmap strmap;
	uint32_t delta; /* new id - old id for src's own types */
	uint32_t src_cnt;
	int err;
};

static int append_str(uint32_t *slot, void *ctx)
{
	struct append_ctx *c = ctx;
	uint32_t k = *slot;
	const char *s;
	int off;

	if (k == 0 || k < c->src->start_str_off)
		return 0; /* "" and base strings keep their offsets */
	if (lbtfi_offmap_get(&c->strmap, k, slot))
		return 0;
	s = lbtf_builder_str(c->src, k);
	if (!s)
		return c->err = lbtfi_err(EINVAL, "string offset %u out of range", k);
	off = lbtf_builder_add_str(c->b, s);
	if (off < 0)
		return c->err = off;
	if (lbtfi_offmap_put(&c->strmap, k, (uint32_t)off))
		return c->err = lbtfi_err(ENOMEM, "out of memory appending types");
	*slot = (uint32_t)off;
	return 0;
}

static int append_id(uint32_t *slot, void *ctx)
{
	struct append_ctx *c = ctx;

	if (*slot >= c->src->start_id) {
		if (*slot >= c->src_cnt)
			return c->err = lbtfi_err(EINVAL, "type id %u out of range", *slot);
		*slot += c->delta;
	}
	return 0;
}

int lbtf_builder_append(struct lbtf_builder *b, const struct lbtf_builder *src)
{
	struct append_ctx c = { .b = b, .src = src };
	uint32_t nr = b->nr_types, first = lbtf_builder_type_cnt(b);
	size_t nw = b->nwords, strs_len = b->strs.len;
	int err = 0;

	if (src->base != b->base || src->start_id != b->start_id)
		return lbtfi_err(EINVAL, "cannot append a builder over a different base");
	if (src == b)
		return lbtfi_err(EINVAL, "cannot append a builder to itself");
	if (!src->nr_types)
		return (int)first;
	if (lbtfi_offmap_init(&c.strmap, src->strs.cnt + 1))
		return lbtfi_err(ENOMEM, "out of memory appending types");
	c.delta = first - src->start_id;
	c.src_cnt = lbtf_builder_type_cnt(src);
	for (uint32_t i = 0; i < src->nr_types; i++) {
		const struct lbtf_type *st = lbtfi_btype(src, src->start_id + i);
		size_t words = lbtfi_rec_words(st);
		struct lbtf_type *t;
		uint32_t *w;

		if (!words) {
			err = lbtfi_err(EINVAL, "type %u has unknown kind", src->start_id + i);
			break;
		}
		w = lbtfi_builder_reserve(b, words);
		if (!w) {
			err = -errno;
			break;
		}
		st = lbtfi_btype(src, src->start_id + i);
		memcpy(w, st, words * 4);
		t = (struct lbtf_type *)w;
		if (lbtf_type_visit_str_offs(t, append_str, &c) ||
		    lbtf_type_visit_type_ids(t, append_id, &c)) {
			err = c.err;
			break;
		}
	}
	lbtfi_offmap_free(&c.strmap);
	if (err) {
		lbtfi_builder_truncate(b, nr, nw);
		lbtfi_strset_truncate(&b->strs, strs_len);
		return err;
	}
	return (int)first;
}
