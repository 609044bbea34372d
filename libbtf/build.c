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
	free(b->scratch);
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

/* ---- consistency of (mutable) records ---- */

struct check_ctx {
	uint32_t cnt, id;
	uint32_t str_end;
	int err;
};

static int check_slot_id(uint32_t *slot, void *ctx)
{
	struct check_ctx *c = ctx;

	if (*slot >= c->cnt)
		return c->err = lbtfi_err(EINVAL, "type %u refers to missing type %u", c->id, *slot);
	return 0;
}

static int check_slot_str(uint32_t *slot, void *ctx)
{
	struct check_ctx *c = ctx;

	if (*slot >= c->str_end)
		return c->err = lbtfi_err(EINVAL, "type %u has string offset %u out of range", c->id, *slot);
	return 0;
}

int lbtfi_builder_check(const struct lbtf_builder *b)
{
	struct check_ctx c = { .cnt = lbtf_builder_type_cnt(b),
			       .str_end = b->start_str_off + (uint32_t)b->strs.len };

	for (uint32_t i = 0; i < b->nr_types; i++) {
		struct lbtf_type *t = lbtfi_btype(b, b->start_id + i);
		size_t end = i + 1 < b->nr_types ? b->offs[i + 1] : b->nwords;
		unsigned int k = lbtf_kind(t);

		c.id = b->start_id + i;
		if (k == LBTF_KIND_UNKN || k > LBTF_KIND_MAX)
			return lbtfi_err(EINVAL, "type %u has unknown kind %u", c.id, k);
		if (b->offs[i] + lbtfi_rec_words(t) != end)
			return lbtfi_err(EINVAL, "type %u: record size does not match its vlen", c.id);
		if (lbtf_type_visit_type_ids(t, check_slot_id, &c) ||
		    lbtf_type_visit_str_offs(t, check_slot_str, &c))
			return c.err;
	}
	return 0;
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
	const uint32_t *strmap;  /* src relative offset -> 1 + b relative offset */
	uint32_t delta;          /* new id - old id for src's own types */
	uint32_t src_cnt;
	int err;
};

static int append_str(uint32_t *slot, void *ctx)
{
	struct append_ctx *c = ctx;
	uint32_t k = *slot, rel;
	const char *s;
	int off;

	if (k == 0 || k < c->src->start_str_off)
		return 0; /* "" and base strings keep their offsets */
	rel = k - c->src->start_str_off;
	if (rel < c->src->strs.len && c->strmap[rel]) {
		*slot = c->strmap[rel] - 1 + c->b->start_str_off;
		return 0;
	}
	/* an offset into the middle of a string (records are mutable) */
	s = lbtf_builder_str(c->src, k);
	if (!s)
		return c->err = lbtfi_err(EINVAL, "string offset %u out of range", k);
	off = lbtf_builder_add_str(c->b, s);
	if (off < 0)
		return c->err = off;
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

/* Reserve index room for n more types */
static int grow_offs(struct lbtf_builder *b, uint32_t n)
{
	uint32_t cap = b->cap_types ? b->cap_types : 1024;
	uint32_t *p;

	if ((uint64_t)b->start_id + b->nr_types + n >= MAX_TYPE_ID)
		return lbtfi_err(E2BIG, "too many types");
	if (b->nr_types + n <= b->cap_types)
		return 0;
	while (cap < b->nr_types + n)
		cap *= 2;
	p = realloc(b->offs, (size_t)cap * sizeof(*p));
	if (!p)
		return lbtfi_err(ENOMEM, "out of memory appending types");
	b->offs = p;
	b->cap_types = cap;
	return 0;
}

/* Intern all of src's own strings into b at once; fills b->scratch */
static int append_strings(struct lbtf_builder *b, const struct lbtf_builder *src)
{
	size_t n = src->strs.len;
	int err;

	if (!n)
		return 0;

	if (n > b->scratch_cap) {
		uint32_t *p = realloc(b->scratch, n * sizeof(*p));
		if (!p)
			return lbtfi_err(ENOMEM, "out of memory appending types");
		b->scratch = p;
		b->scratch_cap = n;
	}
	memset(b->scratch, 0, n * sizeof(*b->scratch));
	err = lbtfi_strset_add_many(&b->strs, src->strs.data, n, b->scratch);
	if (err)
		return lbtfi_err(-err, "cannot add strings: %s",
				 err == -E2BIG ? "string section too large" : "out of memory");
	if ((uint64_t)b->strs.len + b->start_str_off > 0x7fffffffu)
		return lbtfi_err(E2BIG, "string section too large");
	return 0;
}

int lbtf_builder_append(struct lbtf_builder *b, const struct lbtf_builder *src)
{
	struct append_ctx c = { .b = b, .src = src };
	uint32_t nr = b->nr_types, first = lbtf_builder_type_cnt(b);
	size_t nw = b->nwords, strs_len = b->strs.len;
	int err;

	if (src->base != b->base || src->start_id != b->start_id)
		return lbtfi_err(EINVAL, "cannot append a builder over a different base");
	if (src == b)
		return lbtfi_err(EINVAL, "cannot append a builder to itself");
	if (!src->nr_types)
		return (int)first;
	if ((err = grow_offs(b, src->nr_types)) || (err = lbtfi_builder_grow_words(b, src->nwords)) ||
	    (err = append_strings(b, src)))
		goto fail;
	c.strmap = b->scratch;
	c.delta = first - src->start_id;
	c.src_cnt = lbtf_builder_type_cnt(src);
	/* all records in one copy, then fix their string and id slots */
	memcpy(b->words + nw, src->words, src->nwords * 4);
	for (uint32_t i = 0; i < src->nr_types; i++) {
		struct lbtf_type *t = (struct lbtf_type *)(b->words + nw + src->offs[i]);
		size_t end = i + 1 < src->nr_types ? src->offs[i + 1] : src->nwords;

		if (src->offs[i] + lbtfi_rec_words(t) != end || !lbtfi_rec_words(t)) {
			err = lbtfi_err(EINVAL, "type %u: bad kind or vlen for its record", src->start_id + i);
			goto fail;
		}
		b->offs[nr + i] = (uint32_t)(nw + src->offs[i]);
		if (lbtf_type_visit_str_offs(t, append_str, &c) ||
		    lbtf_type_visit_type_ids(t, append_id, &c)) {
			err = c.err;
			goto fail;
		}
	}
	b->nr_types = nr + src->nr_types;
	b->nwords = nw + src->nwords;
	return (int)first;
fail:
	lbtfi_builder_truncate(b, nr, nw);
	lbtfi_strset_truncate(&b->strs, strs_len);
	return err;
}
