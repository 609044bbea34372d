// SPDX-License-Identifier: BSD-2-Clause
/*
 * Copying types of a parsed BTF into a builder: one record
 * (lbtf_builder_add_type_copy), all of them (lbtf_builder_add_btf), or a
 * run of them through an import (lbtfi_import_*).
 *
 * A record's strings are interned by their text, as lbtf_builder_add_str
 * does, so the builder's strings come in the order the records first name
 * them (the output's order after dedup). An import remembers what each of
 * the source's own string offsets became: a raw vmlinux names 720k strings
 * from 102k distinct offsets, and hashing and looking each one up again
 * was a third of the whole raw -> deduplicated job. A run of records is
 * copied as one block and its string and type-id words rewritten in place.
 *
 * A new builder importing all of a BTF whose records name its strings in
 * the order they lie in (what every writer that interns strings makes,
 * btfgen's raw output among them) would get the very same string section:
 * it takes it as it is (adopt_strings), each string hashed once, no record
 * rewritten.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

int lbtfi_import_begin(struct lbtfi_import *im, struct lbtf_builder *b, const struct lbtf *src,
		       uint32_t types, size_t words)
{
	uint32_t str_len = src->hdr.str_len;
	int err;

	memset(im, 0, sizeof(*im));
	im->b = b;
	im->src = src;
	im->memo = true; /* (made by the first string interned) */
	if ((err = lbtfi_builder_grow_types(b, types)) || (err = lbtfi_builder_grow_words(b, words)))
		goto fail;
	err = lbtfi_strset_reserve(&b->strs, str_len, str_len / 16 + 16);
	if (err) {
		err = lbtfi_err(-err, "cannot add strings: %s",
				err == -E2BIG ? "string section too large" : "out of memory");
		goto fail;
	}
	return 0;
fail:
	lbtfi_import_end(im);
	return err;
}

void lbtfi_import_end(struct lbtfi_import *im)
{
	if (im->done.tab.slots)
		lbtfi_offmap_free(&im->done);
	im->memo = false;
}

/* A string offset of src (not 0: "" stays) as the builder's offset of the
 * same string */
static int import_str(struct lbtfi_import *im, uint32_t *slot)
{
	const struct lbtf *src = im->src;
	uint32_t off = *slot, rel = off - src->start_str_off, got;
	bool own = off >= src->start_str_off && rel < src->hdr.str_len;
	const char *s;
	int r;

	if (own && im->done.tab.slots && lbtfi_offmap_get(&im->done, rel, &got)) {
		*slot = got;
		return 0;
	}
	s = own ? src->strs + rel : lbtf_name_by_offset(src, off);
	if (!s)
		return lbtfi_err(EINVAL, "string offset %u out of range", off);
	if ((r = lbtf_builder_add_str(im->b, s)) < 0)
		return r;
	*slot = (uint32_t)r;
	if (!own || !im->memo)
		return 0;
	/* (sized for a string per 16 bytes, ~18 in a vmlinux: no rehash) */
	if ((!im->done.tab.slots && (r = lbtfi_offmap_init(&im->done, src->hdr.str_len / 16 + 16))) ||
	    (r = lbtfi_offmap_put(&im->done, rel, *slot)))
		return lbtfi_err(-r, "out of memory importing types");
	return 0;
}

/*
 * The string words of src's records [from, to) when a fresh builder can
 * take src's string section as it is: every word 0 or the start of a
 * string, the strings first named in the order they lie in, none left
 * unnamed at the end, none empty but the first. Interning them record by
 * record would then add each string at its own offset (if none is there
 * twice: lbtfi_strset_adopt checks). True if so.
 */
/* One string word of the walk below: the next string in order (next moves
 * past it), an empty name, or a string named before */
static inline bool string_in_order(const struct lbtf *src, uint32_t off, uint32_t *next,
				   uint32_t len, const uint64_t *starts)
{
	if (off == *next && *next < len) {
		*next += (uint32_t)strlen(src->strs + off) + 1;
		return true;
	}
	return !off || (off <= *next && ((starts[off / 64] >> (off % 64)) & 1));
}

/* The string words of one record of n words (layout l), in the walk of
 * string_in_order */
static inline bool record_strings_in_order(const struct lbtf *src, const uint32_t *w,
					   const struct lbtfi_layout *l, size_t n, uint32_t *next,
					   uint32_t len, const uint64_t *starts)
{
	if (!string_in_order(src, w[0], next, len, starts))
		return false;
	if (l->elem_name_word >= 0)
		for (size_t e = l->fixed_words + (size_t)l->elem_name_word; e < n; e += l->elem_words)
			if (!string_in_order(src, w[e], next, len, starts))
				return false;
	return true;
}

static bool strings_in_order(const struct lbtfi_import *im, uint32_t from, uint32_t to,
			     const uint64_t *starts)
{
	const struct lbtf *src = im->src;
	const struct lbtfi_layout *lay = im->b->lay;
	uint32_t len = src->hdr.str_len, next = 1, first = src->start_id, cnt = lbtf_type_cnt(src);

	for (uint32_t id = from; id < to; id++) {
		uint32_t at = src->type_offs[id - first];
		uint32_t end = id + 1 < cnt ? src->type_offs[id + 1 - first] : src->hdr.type_len;
		const uint32_t *w = (const uint32_t *)(src->types + at);
		const struct lbtfi_layout *l = &lay[lbtf_kind((const struct lbtf_type *)w)];
		size_t n = lbtfi_layout_words(lay, (const struct lbtf_type *)w);

		if (!l->fixed_words || at + n * 4 != end)
			return false; /* (the copy reports it) */
		if (!record_strings_in_order(src, w, l, n, &next, len, starts))
			return false;
	}
	return next == len;
}

/*
 * Whether a fresh builder may take src's strings as they are when its
 * records [from, to) name them in order: 1 with *starts (a bit per
 * string's first byte, to free) and *cnt strings, 0 if not (a base, an
 * empty string past the first...), or <0
 */
static int string_starts(const struct lbtfi_import *im, uint32_t from, uint32_t to,
			 uint64_t **starts, uint32_t *cnt)
{
	const struct lbtf_builder *b = im->b;
	const struct lbtf *src = im->src;
	uint32_t len = src->hdr.str_len;

	*starts = NULL;
	*cnt = 0;
	if (b->base || lbtf_base(src) || b->nr_types || b->strs.len != 1 || b->strs.cnt ||
	    from != src->start_id || to != lbtf_type_cnt(src) || len < 2 || src->strs[0])
		return 0;
	if (!(*starts = calloc(len / 64 + 1, sizeof(**starts))))
		return lbtfi_err(ENOMEM, "out of memory importing types");
	for (uint32_t off = 1; off < len; (*cnt)++) {
		size_t n = strlen(src->strs + off);

		if (!n) { /* (an empty string: interned as offset 0) */
			free(*starts);
			*starts = NULL;
			return 0;
		}
		(*starts)[off / 64] |= 1ull << (off % 64);
		off += (uint32_t)n + 1;
	}
	return 1;
}

/* b takes src's cnt strings as they are (found in order): 1, 0 if one is
 * there twice, <0 */
static int take_strings(struct lbtfi_import *im, uint32_t cnt)
{
	int r = lbtfi_strset_adopt(&im->b->strs, im->src->strs, im->src->hdr.str_len, cnt);

	if (r < 0)
		return lbtfi_err(-r, "cannot add strings: %s",
				 r == -E2BIG ? "string section too large" : "out of memory");
	return !r;
}

/* 1 if b took src's strings as they are (strings_in_order), 0 if not, <0 */
static int adopt_strings(struct lbtfi_import *im, uint32_t from, uint32_t to)
{
	uint64_t *starts;
	uint32_t cnt;
	int r = string_starts(im, from, to, &starts, &cnt);

	if (r > 0)
		r = strings_in_order(im, from, to, starts) ? take_strings(im, cnt) : 0;
	free(starts);
	return r;
}

/* The string words of a record of n words (layout l): the name, then each
 * element's; src's own type ids from first on moved up by delta */
static int import_fix(struct lbtfi_import *im, uint32_t *w, const struct lbtfi_layout *l, size_t n,
		      uint32_t first, uint32_t delta)
{
	int err;

	if (w[0] && (err = import_str(im, &w[0])))
		return err;
	if (l->elem_name_word >= 0)
		for (size_t e = l->fixed_words + (size_t)l->elem_name_word; e < n; e += l->elem_words)
			if (w[e] && (err = import_str(im, &w[e])))
				return err;
	if (!delta)
		return 0;
	for (unsigned int m = l->fixed_type_mask; m; m &= m - 1)
		if (w[__builtin_ctz(m)] >= first)
			w[__builtin_ctz(m)] += delta;
	if (l->elem_type_word >= 0)
		for (size_t e = l->fixed_words + (size_t)l->elem_type_word; e < n; e += l->elem_words)
			if (w[e] >= first)
				w[e] += delta;
	return 0;
}

int lbtfi_import_type(struct lbtfi_import *im, uint32_t src_id)
{
	struct lbtf_builder *b = im->b;
	const struct lbtf_type *t = lbtf_type_by_id(im->src, src_id);
	uint32_t nr = b->nr_types;
	size_t nw = b->nwords, words;
	uint32_t *w;
	int err;

	if (!t || src_id == 0)
		return lbtfi_err(EINVAL, "type id %u not in the source BTF", src_id);
	words = lbtfi_layout_words(b->lay, t);
	if (!b->lay[lbtf_kind(t)].fixed_words)
		return lbtfi_err(EINVAL, "type %u has unknown kind %u", src_id, lbtf_kind(t));
	w = lbtfi_builder_reserve(b, words);
	if (!w)
		return -errno;
	memcpy(w, t, words * 4);
	if ((err = import_fix(im, w, &b->lay[lbtf_kind(t)], words, 0, 0))) {
		lbtfi_builder_truncate(b, nr, nw);
		return err;
	}
	return (int)(b->start_id + nr);
}

/*
 * Index and fix src's records [from, to), already in place at b->words + nw
 * as they lie in src from its word sw on (copied, or the adopted blob
 * itself): each record's kind and size checked, its strings interned (none
 * when adopted: b took src's string section), its own type ids moved up by
 * delta. With chk (adopt_raw's records, in b's own memory), also whether
 * every type id is one of b's and whether the strings are named in order
 * (strings_in_order's test, made while each record is in the cache).
 * 0 or <0 (b's count then says how far it got: the caller rolls back)
 */
struct place_check {
	const uint64_t *starts; /* string starts (string_starts); NULL: not in order */
	uint32_t next;          /* the next string expected (string_in_order) */
	bool ids_ok;            /* no type id >= the count: with the kind, size and
				 * strings, as lbtfi_builder_check wants them */
};

static int place_records(struct lbtfi_import *im, uint32_t from, uint32_t to, uint32_t delta,
			 bool adopted, size_t sw, size_t ew, struct place_check *chk)
{
	struct lbtf_builder *b = im->b;
	const struct lbtf *src = im->src;
	uint32_t nr = b->nr_types, first = src->start_id, cnt = b->start_id + nr + (to - from);
	uint32_t len = src->hdr.str_len, next = chk ? chk->next : 0;
	const uint64_t *starts = chk ? chk->starts : NULL;
	bool ids = chk && chk->ids_ok; /* (until a bad id) */
	size_t nw = b->nwords;
	int err;

	for (uint32_t i = 0; i < to - from; i++) {
		size_t at = (src->type_offs[from - first + i] - sw) / 4, end;
		uint32_t *w = b->words + nw + at;
		const struct lbtfi_layout *l = &b->lay[lbtf_kind((struct lbtf_type *)w)];
		size_t n = lbtfi_layout_words(b->lay, (struct lbtf_type *)w);

		end = i + 1 < to - from ? (src->type_offs[from - first + i + 1] - sw) / 4 : (ew - sw) / 4;
		if (!l->fixed_words)
			return lbtfi_err(EINVAL, "type %u has unknown kind %u", from + i,
					 lbtf_kind((struct lbtf_type *)w));
		if (at + n != end)
			return lbtfi_err(EINVAL, "type %u: record size does not match its vlen", from + i);
		b->offs[nr + i] = (uint32_t)(nw + at);
		b->nr_types = nr + i + 1; /* (a string error below names this id) */
		if (!adopted && (err = import_fix(im, w, l, n, first, delta)))
			return err;
		/* (the record is in the cache now: no second walk to check) */
		if (ids && lbtfi_bad_id_word(w, l, n, cnt) < n)
			ids = false;
		if (starts && !record_strings_in_order(src, w, l, n, &next, len, starts))
			starts = NULL;
	}
	if (chk) {
		chk->ids_ok = ids;
		chk->starts = starts && next == len ? starts : NULL;
	}
	b->nwords = nw + (ew - sw) / 4;
	return 0;
}

int lbtfi_import_range(struct lbtfi_import *im, uint32_t from, uint32_t to, uint32_t delta)
{
	struct lbtf_builder *b = im->b;
	const struct lbtf *src = im->src;
	uint32_t nr = b->nr_types, first = src->start_id;
	size_t nw = b->nwords, sw, ew;
	int err, adopted = 0;

	if (from < first || from > to || to > lbtf_type_cnt(src))
		return lbtfi_err(EINVAL, "type range %u..%u not in the source BTF", from, to);
	if (from == to)
		return (int)lbtf_builder_type_cnt(b);
	sw = src->type_offs[from - first];
	ew = to - first < src->nr_types ? src->type_offs[to - first] : src->hdr.type_len;
	if ((err = lbtfi_builder_grow_types(b, to - from)) ||
	    (err = lbtfi_builder_grow_words(b, (ew - sw) / 4)))
		return err;
	/* (with delta 0 only: a fresh builder's first id is 1, as src's) */
	if (!delta && (adopted = adopt_strings(im, from, to)) < 0)
		return adopted;
	memcpy(b->words + nw, src->types + sw, ew - sw);
	if ((err = place_records(im, from, to, delta, adopted, sw, ew, NULL))) {
		lbtfi_builder_truncate(b, nr, nw);
		return err;
	}
	return (int)(b->start_id + nr);
}

int lbtf_builder_add_type_copy(struct lbtf_builder *b, const struct lbtf *src, uint32_t src_id)
{
	struct lbtfi_import im = { .b = b, .src = src }; /* (no memo for one record) */

	return lbtfi_import_type(&im, src_id);
}

int lbtf_builder_add_btf(struct lbtf_builder *b, const struct lbtf *src)
{
	struct lbtfi_import im;
	const struct lbtf *src_base;
	uint32_t nr, first, own, cnt;
	size_t nw, strs_len;
	int err;

	if (!b || !src)
		return lbtfi_err(EINVAL, "lbtf_builder_add_btf: NULL argument");
	/* split BTF: its base ids and strings stay, so the base must be b's */
	src_base = lbtf_base(src);
	if (src_base && src_base != b->base)
		return lbtfi_err(EOPNOTSUPP, "lbtf_builder_add_btf: split BTF over another base "
				 "than the builder's");
	nr = b->nr_types;
	nw = b->nwords;
	strs_len = b->strs.len;
	first = b->start_id + nr;
	own = src_base ? lbtf_type_cnt(src_base) : 1;
	cnt = lbtf_type_cnt(src);
	if (own >= cnt)
		return (int)first;
	if ((err = lbtfi_import_begin(&im, b, src, cnt - own, src->hdr.type_len / 4)))
		return err;
	err = lbtfi_import_range(&im, own, cnt, first - own);
	lbtfi_import_end(&im);
	if (err < 0) {
		lbtfi_builder_truncate(b, nr, nw);
		lbtfi_strset_truncate(&b->strs, strs_len);
		return err;
	}
	return (int)first;
}

/* The blob is b's words as they lie, moved to its start: src reads data
 * itself (not a converted copy) and its strings lie after its types */
static bool adoptable(const struct lbtf *src, const void *data)
{
	const struct lbtf_header *h = &src->hdr;

	return !lbtf_is_swapped(src) && src->nr_types &&
	       src->types == (const unsigned char *)data + h->hdr_len + h->type_off &&
	       (uint64_t)h->type_off + h->type_len <= h->str_off;
}

/*
 * src's records edited in place in data (adoptable), which b takes over.
 * One walk over them (place_records) also finds whether b can take src's
 * strings as they are; if not, a second one interns them record by record
 * (the same strings at the same offsets as the copy).
 */
static int adopt_records(struct lbtf_builder *b, const struct lbtf *src, void *data, size_t size)
{
	struct lbtfi_import im;
	struct place_check chk = { .next = 1, .ids_ok = true };
	uint64_t *starts = NULL;
	uint32_t cnt = lbtf_type_cnt(src), len = src->hdr.type_len, nstr;
	int adopted = 0, err;

	if ((err = lbtfi_import_begin(&im, b, src, cnt - 1, 0)))
		return err;
	if ((err = string_starts(&im, 1, cnt, &starts, &nstr)) < 0)
		goto out;
	chk.starts = starts;
	/* (the strings, read while interning, lie past the types' end) */
	memmove(data, src->types, len);
	b->words = data;
	b->cap_words = size / 4;
	if ((err = place_records(&im, 1, cnt, 0, true, 0, len, &chk)))
		goto out;
	if (chk.starts && (adopted = take_strings(&im, nstr)) < 0) {
		err = adopted;
		goto out;
	}
	for (uint32_t id = 1; !adopted && id < cnt && !err; id++) {
		uint32_t *w = (uint32_t *)lbtfi_btype(b, id);
		const struct lbtf_type *t = (const struct lbtf_type *)w;

		err = import_fix(&im, w, &b->lay[lbtf_kind(t)], lbtfi_layout_words(b->lay, t), 1, 0);
	}
	if (!err && chk.ids_ok) /* (dedup and serialize need not check again) */
		lbtfi_builder_checked_now(b);
out:
	free(starts);
	lbtfi_import_end(&im);
	return err;
}

struct lbtf_builder *lbtf_builder_adopt_raw(void *data, size_t size)
{
	struct lbtf_builder *b = NULL;
	struct lbtf *src;
	uint32_t *words;
	int err = 0;

	if (!data)
		return lbtfi_err_ptr(EINVAL, "lbtf_builder_adopt_raw: NULL data");
	if (!(src = lbtf_new_borrowed(data, size, NULL)) || !(b = lbtf_builder_new(NULL)))
		goto fail;
	if (!adoptable(src, data)) {
		if (lbtf_builder_add_btf(b, src) < 0)
			goto fail;
		lbtf_free(src);
		free(data);
		return b;
	}
	if ((err = adopt_records(b, src, data, size)))
		goto fail;
	lbtf_free(src);
	/* the header's room and the strings past the types are not needed */
	if ((words = realloc(b->words, b->nwords * 4))) {
		b->words = words;
		b->cap_words = b->nwords;
	}
	return b;
fail:
	err = errno;
	lbtf_free(src);
	if (!b || b->words != data)
		free(data);
	lbtf_builder_free(b);
	errno = err;
	return NULL;
}
