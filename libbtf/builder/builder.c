// SPDX-License-Identifier: BSD-2-Clause
/*
 * The builder's storage: type records in one flat, doubling array of
 * 32-bit words with a word-offset index, strings interned in a hash set.
 * Also appending another builder (copies from a parsed BTF: import.c).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "internal.h"

#define MAX_TYPE_ID 0x7fffffffu

static const struct lbtf_type void_type;

static struct lbtfi_layout layouts[LBTFI_KIND_SLOTS];
static pthread_once_t layouts_once = PTHREAD_ONCE_INIT;

static void layouts_init(void)
{
	struct lbtfi_layout *lay = layouts;

	for (unsigned int k = 1; k <= LBTF_KIND_MAX; k++) {
		const struct lbtf_kind_desc *kd = lbtf_kind_desc(k);
		struct lbtfi_layout *l = &lay[k];
		bool elems = kd->vlen_elem_size != 0;

		l->fixed_words = (uint8_t)(3 + kd->extra_size / 4);
		l->fixed_type_mask = kd->type_field ? 1u << 2 : 0;
		if (k == LBTF_KIND_ARRAY) /* elem type, index type */
			l->fixed_type_mask |= (1u << 3) | (1u << 4);
		l->elem_words = (uint8_t)(kd->vlen_elem_size / 4);
		l->elem_type_word = elems && kd->elem_type_off >= 0 ? (int8_t)(kd->elem_type_off / 4) : -1;
		l->elem_name_word = elems && kd->elem_name_off >= 0 ? (int8_t)(kd->elem_name_off / 4) : -1;
	}
}

const struct lbtfi_layout *lbtfi_layouts(void)
{
	pthread_once(&layouts_once, layouts_init);
	return layouts;
}

struct lbtf_builder *lbtf_builder_new(const struct lbtf *base)
{
	struct lbtf_builder *b = calloc(1, sizeof(*b));

	if (!b)
		return lbtfi_err_ptr(ENOMEM, "out of memory");
	b->base = base;
	b->start_id = base ? lbtf_type_cnt(base) : 1;
	b->start_str_off = base ? base->start_str_off + base->hdr.str_len : 0;
	b->lay = lbtfi_layouts();
	if (lbtfi_strset_init(&b->strs, !base))
		goto nomem;
	if (base && !(b->base_strs = lbtfi_strindex_of(base)))
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
	free(b->base_cache);
	free(b);
}

int lbtf_builder_add_str(struct lbtf_builder *b, const char *s)
{
	int64_t off;

	if (!s || !*s)
		return 0;
	if (b->base) {
		off = lbtfi_strindex_find_cached(b->base_strs, &b->base_cache, s);
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
	lbtfi_builder_checked_forget(b); /* (the caller may edit it) */
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
	lbtfi_builder_checked_forget(b); /* (words to be added) */
	if (b->nwords + n > UINT32_MAX)
		return lbtfi_err(E2BIG, "type section too large");
	if (LBTFI_GROW_FROM(b->words, b->cap_words, b->nwords + n, 8192))
		return lbtfi_err(ENOMEM, "out of memory adding a type");
	return 0;
}

uint32_t *lbtfi_builder_reserve(struct lbtf_builder *b, size_t n)
{
	uint32_t *w;

	lbtfi_builder_checked_forget(b);
	if ((uint64_t)b->start_id + b->nr_types >= MAX_TYPE_ID) {
		lbtfi_err(E2BIG, "too many types");
		return NULL;
	}
	if (LBTFI_GROW_FROM(b->offs, b->cap_types, b->nr_types + 1, 1024)) {
		lbtfi_err(ENOMEM, "out of memory adding a type");
		return NULL;
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
	lbtfi_builder_checked_forget(b);
	b->nr_types = nr_types;
	b->nwords = nwords;
}

void lbtfi_builder_release_tail(struct lbtf_builder *b)
{
	/* (whole huge pages where big blocks are on them: giving back part
	 * of one would split it; else whole pages of the system's size) */
	size_t unit = lbtfi_huge_pages() ? LBTFI_BIG_BYTES : 0;

	/* (a builder that never held a record has no arrays) */
	if (b->words)
		lbtfi_madvise_inside(b->words + b->nwords,
				     (b->cap_words - b->nwords) * sizeof(*b->words), unit,
				     MADV_DONTNEED);
	if (b->offs)
		lbtfi_madvise_inside(b->offs + b->nr_types,
				     (b->cap_types - b->nr_types) * sizeof(*b->offs), unit,
				     MADV_DONTNEED);
}

/* ---- consistency of (mutable) records ---- */

/* The first string-offset word of record w that is >= end, or n */
static size_t bad_str_word(const uint32_t *w, const struct lbtfi_layout *l, size_t n, uint32_t end)
{
	if (w[0] >= end)
		return 0;
	if (l->elem_name_word >= 0)
		for (size_t e = l->fixed_words + (size_t)l->elem_name_word; e < n; e += l->elem_words)
			if (w[e] >= end)
				return e;
	return n;
}

int lbtfi_builder_check(const struct lbtf_builder *b)
{
	return lbtfi_builder_check_kinds(b, NULL);
}

/* Records [from, nr_types) as lbtfi_builder_check wants them, against the
 * builder's types and strings as they are now; their kinds into kinds */
static int check_records(const struct lbtf_builder *b, uint32_t from, uint8_t *kinds)
{
	uint32_t cnt = lbtf_builder_type_cnt(b), str_end = b->start_str_off + (uint32_t)b->strs.len;

	for (uint32_t i = from; i < b->nr_types; i++) {
		const uint32_t *w = b->words + b->offs[i];
		const struct lbtf_type *t = (const struct lbtf_type *)w;
		const struct lbtfi_layout *l = &b->lay[lbtf_kind(t)];
		size_t end = i + 1 < b->nr_types ? b->offs[i + 1] : b->nwords;
		size_t n = lbtfi_layout_words(b->lay, t), bad;
		uint32_t id = b->start_id + i;

		if (!l->fixed_words)
			return lbtfi_err(EINVAL, "type %u has unknown kind %u", id, lbtf_kind(t));
		if (b->offs[i] + n != end)
			return lbtfi_err(EINVAL, "type %u: record size does not match its vlen", id);
		if ((bad = lbtfi_bad_id_word(w, l, n, cnt)) < n)
			return lbtfi_err(EINVAL, "type %u refers to missing type %u", id, w[bad]);
		if ((bad = bad_str_word(w, l, n, str_end)) < n)
			return lbtfi_err(EINVAL, "type %u has string offset %u out of range", id, w[bad]);
		if (kinds)
			kinds[id] = (uint8_t)lbtf_kind(t);
	}
	return 0;
}

int lbtfi_builder_check_kinds(const struct lbtf_builder *b, uint8_t *kinds)
{
	if (lbtfi_builder_checked_known(b)) {
		for (uint32_t i = 0; kinds && i < b->nr_types; i++)
			kinds[b->start_id + i] = (uint8_t)lbtf_kind(lbtfi_btype(b, b->start_id + i));
		return 0;
	}
	return check_records(b, 0, kinds);
}

int lbtfi_builder_check_added(struct lbtf_builder *b, uint32_t nr_known)
{
	int err = check_records(b, nr_known, NULL);

	if (!err)
		lbtfi_builder_checked_now(b);
	return err;
}

/* ---- appending a whole builder ---- */

struct append_ctx {
	struct lbtf_builder *b;
	const struct lbtf_builder *src;
	const uint32_t *strmap;  /* src relative offset -> 1 + b relative offset */
	uint32_t src_str_start, src_str_len, dst_str_start;
	uint32_t delta;          /* new id - old id for src's own types */
	uint32_t src_start_id, src_cnt;
};

/* An offset into the middle of one of src's strings (records are mutable) */
static int append_str_slow(struct append_ctx *c, uint32_t *slot)
{
	const char *s = lbtf_builder_str(c->src, *slot);
	int off;

	if (!s)
		return lbtfi_err(EINVAL, "string offset %u out of range", *slot);
	off = lbtf_builder_add_str(c->b, s);
	if (off < 0)
		return off;
	*slot = (uint32_t)off;
	return 0;
}

static inline int append_str(struct append_ctx *c, uint32_t *slot)
{
	uint32_t k = *slot, rel = k - c->src_str_start;

	if (k == 0 || k < c->src_str_start)
		return 0; /* "" and base strings keep their offsets */
	if (rel < c->src_str_len && c->strmap[rel]) {
		*slot = c->strmap[rel] - 1 + c->dst_str_start;
		return 0;
	}
	return append_str_slow(c, slot);
}

static inline int append_id(struct append_ctx *c, uint32_t *slot)
{
	if (*slot >= c->src_start_id) {
		if (*slot >= c->src_cnt)
			return lbtfi_err(EINVAL, "type id %u out of range", *slot);
		*slot += c->delta;
	}
	return 0;
}

/* Renumber the string offsets and type ids of one record of n words */
static int append_fix(struct append_ctx *c, uint32_t *w, const struct lbtfi_layout *l, size_t n)
{
	int err;

	if ((err = append_str(c, &w[0])))
		return err;
	for (unsigned int m = l->fixed_type_mask; m; m &= m - 1)
		if ((err = append_id(c, &w[__builtin_ctz(m)])))
			return err;
	if (l->elem_name_word >= 0)
		for (size_t e = l->fixed_words + (size_t)l->elem_name_word; e < n; e += l->elem_words)
			if ((err = append_str(c, &w[e])))
				return err;
	if (l->elem_type_word >= 0)
		for (size_t e = l->fixed_words + (size_t)l->elem_type_word; e < n; e += l->elem_words)
			if ((err = append_id(c, &w[e])))
				return err;
	return 0;
}

int lbtfi_builder_grow_types(struct lbtf_builder *b, uint32_t n)
{
	lbtfi_builder_checked_forget(b); /* (types to be added) */
	if ((uint64_t)b->start_id + b->nr_types + n >= MAX_TYPE_ID)
		return lbtfi_err(E2BIG, "too many types");
	if (LBTFI_GROW_FROM(b->offs, b->cap_types, (size_t)b->nr_types + n, 1024))
		return lbtfi_err(ENOMEM, "out of memory appending types");
	return 0;
}

/*
 * Intern all of src's own strings into b at once; fills b->scratch, which
 * is all zeros between appends: only the entries written are cleared again
 * (clear_scratch), not all of its 4 bytes per string byte.
 */
static int append_strings(struct lbtf_builder *b, const struct lbtf_builder *src)
{
	size_t n = src->strs.len;
	int err;

	if (!n)
		return 0;

	if (n > b->scratch_cap) {
		free(b->scratch);
		b->scratch_cap = 0;
		b->scratch = calloc(n, sizeof(*b->scratch));
		if (!b->scratch)
			return lbtfi_err(ENOMEM, "out of memory appending types");
		b->scratch_cap = n;
	}
	err = lbtfi_strset_add_set(&b->strs, &src->strs, b->scratch);
	if (err)
		return lbtfi_err(-err, "cannot add strings: %s",
				 err == -E2BIG ? "string section too large" : "out of memory");
	if ((uint64_t)b->strs.len + b->start_str_off > 0x7fffffffu)
		return lbtfi_err(E2BIG, "string section too large");
	return 0;
}

static void clear_scratch(struct lbtf_builder *b, const struct lbtf_builder *src)
{
	if (src->strs.len <= b->scratch_cap) /* (else append_strings never ran) */
		for (uint32_t i = 0; i < src->strs.cnt; i++)
			b->scratch[src->strs.seq[i].off] = 0;
}

int lbtf_builder_append(struct lbtf_builder *b, const struct lbtf_builder *src)
{
	struct append_ctx c = { .b = b, .src = src };
	uint32_t nr = b->nr_types, first = lbtf_builder_type_cnt(b);
	size_t nw = b->nwords, strs_len = b->strs.len;
	bool known = lbtfi_builder_checked_or_empty(b);
	int err;

	if (src->base != b->base || src->start_id != b->start_id)
		return lbtfi_err(EINVAL, "cannot append a builder over a different base");
	if (src == b)
		return lbtfi_err(EINVAL, "cannot append a builder to itself");
	if (src->borrowed_strs_len || b->borrowed_strs_len)
		return lbtfi_err(EINVAL, "cannot append a builder whose strings are another's");
	if (!src->nr_types)
		return (int)first;
	if ((err = lbtfi_builder_grow_types(b, src->nr_types)) || (err = lbtfi_builder_grow_words(b, src->nwords)) ||
	    (err = append_strings(b, src)))
		goto fail;
	c.strmap = b->scratch;
	c.src_str_start = src->start_str_off;
	c.src_str_len = (uint32_t)src->strs.len;
	c.dst_str_start = b->start_str_off;
	c.delta = first - src->start_id;
	c.src_start_id = src->start_id;
	c.src_cnt = lbtf_builder_type_cnt(src);
	/* all records in one copy, then fix their string and id slots */
	memcpy(b->words + nw, src->words, src->nwords * 4);
	for (uint32_t i = 0; i < src->nr_types; i++) {
		uint32_t *w = b->words + nw + src->offs[i];
		const struct lbtfi_layout *l = &b->lay[lbtf_kind((struct lbtf_type *)w)];
		size_t end = i + 1 < src->nr_types ? src->offs[i + 1] : src->nwords;
		size_t n = lbtfi_layout_words(b->lay, (struct lbtf_type *)w);

		if (!l->fixed_words || src->offs[i] + n != end) {
			err = lbtfi_err(EINVAL, "type %u: bad kind or vlen for its record", src->start_id + i);
			goto fail;
		}
		b->offs[nr + i] = (uint32_t)(nw + src->offs[i]);
		if ((err = append_fix(&c, w, l, n)))
			goto fail;
	}
	b->nr_types = nr + src->nr_types;
	b->nwords = nw + src->nwords;
	clear_scratch(b, src);
	/* (each record was checked on the way in as lbtfi_builder_check
	 * would: its kind and size, its ids and string offsets mapped into
	 * range; so a builder checked before is checked now) */
	if (known)
		lbtfi_builder_checked_now(b);
	return (int)first;
fail:
	clear_scratch(b, src);
	lbtfi_builder_truncate(b, nr, nw);
	lbtfi_strset_truncate(&b->strs, strs_len);
	return err;
}

struct lbtf_builder *lbtfi_builder_new_strs_of(const struct lbtf_builder *src)
{
	struct lbtf_builder *b = lbtf_builder_new(src->base);

	if (!b)
		return NULL;
	lbtfi_strset_free(&b->strs);
	if (lbtfi_strset_copy(&b->strs, &src->strs)) {
		lbtf_builder_free(b);
		return lbtfi_err_ptr(ENOMEM, "out of memory copying strings");
	}
	return b;
}

struct lbtf_builder *lbtfi_builder_new_strs_upto(const struct lbtf_builder *src, size_t len)
{
	struct lbtf_builder *b = lbtfi_builder_new_strs_of(src);

	if (b && lbtfi_strset_truncate(&b->strs, len)) {
		lbtf_builder_free(b);
		return lbtfi_err_ptr(ENOMEM, "out of memory copying strings");
	}
	return b;
}

struct lbtf_builder *lbtfi_builder_new_strs_at(const struct lbtf_builder *src)
{
	struct lbtf_builder *b = lbtf_builder_new(src->base);

	if (b)
		b->borrowed_strs_len = lbtfi_builder_strs_len(src);
	return b;
}

struct range_ctx {
	uint32_t start_id, from, to, delta, bad;
};

static inline int shift_in_range(uint32_t *slot, void *ctx)
{
	struct range_ctx *c = ctx;

	if (*slot >= c->from && *slot < c->to)
		*slot += c->delta;
	else if (*slot >= c->start_id)
		c->bad = *slot;
	return 0;
}

int lbtfi_builder_append_range(struct lbtf_builder *b, const struct lbtf_builder *src,
			       uint32_t from, uint32_t to)
{
	uint32_t nr = b->nr_types, first = lbtf_builder_type_cnt(b), i;
	size_t nw = b->nwords, sw, ew;
	struct range_ctx c = { src->start_id, from, to, first - from, 0 };
	/* (src's records checked, their ids checked in range below, its
	 * strings b's at the same offsets: b stays checked) */
	bool known = lbtfi_builder_checked_or_empty(b) && lbtfi_builder_checked_or_empty(src);
	int err;

	if (src->base != b->base || src->start_id != b->start_id ||
	    lbtfi_builder_strs_len(b) < lbtfi_builder_strs_len(src))
		return lbtfi_err(EINVAL, "cannot append types of a builder with other strings");
	if (from < src->start_id || from > to || to > lbtf_builder_type_cnt(src))
		return lbtfi_err(EINVAL, "type range %u..%u out of bounds", from, to);
	if (from == to)
		return (int)first;
	sw = src->offs[from - src->start_id];
	ew = to - src->start_id < src->nr_types ? src->offs[to - src->start_id] : src->nwords;
	if ((err = lbtfi_builder_grow_types(b, to - from)) || (err = lbtfi_builder_grow_words(b, ew - sw)))
		return err;
	memcpy(b->words + nw, src->words + sw, (ew - sw) * 4);
	for (i = 0; i < to - from; i++) {
		uint32_t *w;

		b->offs[nr + i] = (uint32_t)(nw + src->offs[from - src->start_id + i] - sw);
		w = b->words + b->offs[nr + i];
		/* (the type-id words by the layout, inline: this moves every
		 * type of a vmlinux when btfgen puts its groups together again) */
		if (lbtf_kind((struct lbtf_type *)w) <= LBTF_KIND_MAX) {
			const struct lbtfi_layout *l = &b->lay[lbtf_kind((struct lbtf_type *)w)];
			size_t n = l->fixed_words + (size_t)l->elem_words *
						   lbtf_vlen((struct lbtf_type *)w);

			for (unsigned int m = l->fixed_type_mask; m; m &= m - 1)
				shift_in_range(&w[__builtin_ctz(m)], &c);
			if (l->elem_type_word >= 0)
				for (size_t e = l->fixed_words + (size_t)l->elem_type_word; e < n;
				     e += l->elem_words)
					shift_in_range(&w[e], &c);
		} else {
			lbtf_type_visit_type_ids((struct lbtf_type *)w, shift_in_range, &c);
		}
		if (c.bad) {
			lbtfi_builder_truncate(b, nr, nw);
			return lbtfi_err(EINVAL, "type %u refers to type %u outside %u..%u",
					 from + i, c.bad, from, to);
		}
	}
	b->nr_types = nr + (to - from);
	b->nwords = nw + (ew - sw);
	if (known)
		lbtfi_builder_checked_now(b);
	return (int)first;
}
