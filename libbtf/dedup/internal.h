/* SPDX-License-Identifier: BSD-2-Clause */
/* State shared by the dedup passes (dedup.c, equiv.c, strings.c), not installed. */
#ifndef LIBBTF_DEDUP_INTERNAL_H
#define LIBBTF_DEDUP_INTERNAL_H

#include <string.h>
#include "equiv/internal.h"

/* map[] values that are not type ids */
#define D_UNPROCESSED 0xffffffffu
#define D_IN_PROGRESS 0xfffffffeu
#define D_MAX_ID 0x7fffffffu
#define D_NONE 0xffffffffu /* empty hypothetical map entry */

/*
 * Where a record's type ids are: fixed + per_elem * vlen of them, the first
 * at word first, each next one stride words on. Every kind's layout spaces
 * them evenly (a FUNC_PROTO's return type, then its parameters' types two
 * words apart; an ARRAY's two; a member's type three words apart), which
 * dedup_init checks: the passes walk them as one strided run.
 */
struct d_type_words {
	uint8_t first, stride, fixed, per_elem;
	uint8_t plain; /* bit i: fixed word i (past name and info) is no type id */
};

/* One pair of records being compared by the equivalence walk: the type-id
 * words of both still to visit */
struct dedup_frame {
	const uint32_t *cw, *nw; /* candidate's and canonical's next type-id word */
	uint32_t left, stride;
};

struct dedup {
	struct lbtf_builder *b;
	const struct lbtf *base;
	uint32_t start_id, cnt;      /* own ids are start_id..cnt-1 */
	uint8_t *kinds;              /* id -> kind (records stay in memory for the passes
				      * that only need the kind) */
	uint32_t *map;               /* id -> (possibly non-final) canonical id */
	uint32_t *hypot;             /* canonical id -> candidate id (D_NONE) */
	uint32_t *hypot_list, hypot_cnt; /* the canonical ids in hypot (room for cnt) */
	bool hypot_adjust_canon;     /* equivalence needs an immutable base FWD resolved */
	bool eq_conflict;            /* the last walk failed on a canonical id met with
				      * two candidates that did not compare identical */
	bool struct_miss;            /* a struct/union not merged with a candidate of
				      * its hash and shape for want of a later pass */
	struct lbtfi_htab tab;       /* hash -> candidate ids (equal hashes all kept) */
	/* the base's candidates, shared by every dedup over that base and
	 * probed before tab (or NULL: tab holds them too) */
	const struct lbtfi_htab *base_tab;
	const struct lbtfi_layout *lay; /* the builder's */
	struct d_type_words tw[LBTFI_KIND_SLOTS]; /* from lay */
	struct dedup_frame *eq_stack;   /* the equivalence walk's stack */
	uint32_t eq_cap;
};

static inline const struct lbtf_type *dtype(const struct dedup *d, uint32_t id)
{
	if (id >= d->start_id)
		return lbtfi_btype(d->b, id);
	return lbtfi_builder_any_type(d->b, id);
}

static inline unsigned int d_kind(const struct dedup *d, uint32_t id)
{
	return d->kinds[id];
}

static inline bool d_mapped(const struct dedup *d, uint32_t id)
{
	return d->map[id] <= D_MAX_ID;
}

/* Follow map[] to the current canonical id */
static inline uint32_t d_resolve(const struct dedup *d, uint32_t id)
{
	const uint32_t *map = d->map;
	uint32_t to;

	while ((to = map[id]) != id && to <= D_MAX_ID)
		id = to;
	return id;
}

/* The type-id words of a record of kind k and vlen v, by index i (the
 * plan read once: the loop bodies store words the compiler cannot tell
 * from it) */
#define D_FOR_EACH_TYPE_WORD(d, k, v, i)                                                   \
	for (size_t i = (d)->tw[k].first, _step = (d)->tw[k].stride,                       \
		    _left = (d)->tw[k].fixed + (size_t)(d)->tw[k].per_elem * (v);          \
	     _left; _left--, i += _step)

int lbtfi_dedup_type_words_init(struct dedup *d);

/* Words in a record (kinds were validated when dedup started) */
static inline size_t d_rec_words(const struct dedup *d, const struct lbtf_type *t)
{
	const struct lbtfi_layout *l = &d->lay[lbtf_kind(t)];

	return l->fixed_words + (size_t)l->elem_words * lbtf_vlen(t);
}

/*
 * The words of two records of one kind and info past name and info equal,
 * type ids aside (n: their words). Inlined in the equivalence walk, which
 * compares records by the hundred thousand.
 */
static inline bool d_same_plain_words(const struct dedup *d, unsigned int k, const uint32_t *wa,
				      const uint32_t *wb, size_t n)
{
	const struct lbtfi_layout *l = &d->lay[k];

	for (unsigned int m = d->tw[k].plain; m; m &= m - 1) {
		unsigned int i = (unsigned int)__builtin_ctz(m);

		if (wa[i] != wb[i])
			return false;
	}
	if (n == l->fixed_words)
		return true;
	if (l->elem_type_word < 0)
		return !memcmp(wa + l->fixed_words, wb + l->fixed_words, (n - l->fixed_words) * 4);
	/* members (name, type, offset) and parameters (name, type) without
	 * the generic loop's test of each word's index */
	if (l->elem_type_word == 1 && l->elem_words == 3) {
		for (size_t e = l->fixed_words; e < n; e += 3)
			if ((wa[e] ^ wb[e]) | (wa[e + 2] ^ wb[e + 2]))
				return false;
		return true;
	}
	if (l->elem_type_word == 1 && l->elem_words == 2) {
		for (size_t e = l->fixed_words; e < n; e += 2)
			if (wa[e] != wb[e])
				return false;
		return true;
	}
	for (size_t e = l->fixed_words; e < n; e += l->elem_words)
		for (size_t j = 0; j < l->elem_words; j++)
			if (wa[e + j] != wb[e + j] && j != (size_t)l->elem_type_word)
				return false;
	return true;
}

/* The fewest ids for which dedup_init makes hypot and the candidate table
 * on a second thread (dedup.c) */
extern uint32_t lbtfi_dedup_side_init_min;

/* Hash of every word, or of every word that is not a type id */
uint32_t lbtfi_dedup_rec_hash(const struct dedup *d, const struct lbtf_type *t);
uint32_t lbtfi_dedup_shape_hash(const struct dedup *d, const struct lbtf_type *t);
/* Equal words (records of equal info), optionally ignoring type ids */
bool lbtfi_dedup_rec_equal(const struct dedup *d, const struct lbtf_type *a,
			   const struct lbtf_type *b);
bool lbtfi_dedup_shape_equal(const struct dedup *d, const struct lbtf_type *a,
			     const struct lbtf_type *b);

/*
 * lbtf_builder_dedup(), and in *settled whether running it again on the
 * result would merge nothing (convert.c then skips that pass). A struct or
 * union kept apart from a candidate of its hash and shape is compared again
 * by the next pass; that comparison can only turn out otherwise when the
 * first one failed on the walk's state, not on the records: a canonical
 * type met with two candidates that the bounded structural comparison did
 * not find identical (two copies one pass merges later), or an immutable
 * base FWD. A difference of names, kinds, sizes, members or enum values
 * found in the walk stays one between the merged types the next pass
 * compares (each merged type keeps its name and shape; a FWD merges only
 * into its own flavour), and a pair the next walk skips as merged was
 * merged by a walk that would have met the same difference. The other
 * kinds are settled by one pass: primitives and enums compare records
 * without type ids, reference kinds records whose targets are final; so
 * with no struct merged by the next pass nothing else is (a FWD left alone
 * saw the same definitions, struct hashes do not change with ids).
 */
int lbtfi_builder_dedup_settled(struct lbtf_builder *b, const struct lbtf_dedup_opts *opts,
				bool *settled);
/*
 * The same but the string pass: strings used only by types merged away stay
 * (names still compare as offsets, every offset stays valid), for a caller
 * that drops more types afterwards and then compacts the strings once
 * (lbtfi_dedup_strings), instead of twice. Keeping the bytes the first
 * pass would drop and dropping them with the second's gives the same
 * strings at the same offsets: the string pass keeps the referenced bytes
 * in their order, and the second pass's references are a subset of the
 * first's. (A vmlinux's raw strings are all referenced after dedup: its
 * first pass only marked them all, 16M instructions, to move nothing.)
 */
int lbtfi_builder_dedup_types(struct lbtf_builder *b, const struct lbtf_dedup_opts *opts,
			      bool *settled);

/* The passes */
int lbtfi_dedup_strings(struct lbtf_builder *b);
int lbtfi_dedup_is_equiv(struct dedup *d, uint32_t cand_id, uint32_t canon_id);
void lbtfi_dedup_merge_hypot(struct dedup *d);
void lbtfi_dedup_clear_hypot(struct dedup *d);

/*
 * Every canonical candidate cid of hash h: the base's first, then the
 * split types' (the order one table holding both gives, the base's added
 * first). The shared base table is probed with bh, the base key (see
 * dedup.c's base_key: for structs and unions not their hash), the split
 * types' table with h. A probe goes on from where it stopped, so break and
 * continue work as in a plain loop.
 */
struct d_cand_iter {
	const struct lbtfi_htab *t, *then;
	uint32_t h, then_h, i;
};

static inline struct d_cand_iter d_cand_start(const struct dedup *d, uint32_t bh, uint32_t h)
{
	struct d_cand_iter it = { d->base_tab ? d->base_tab : &d->tab,
				  d->base_tab ? &d->tab : NULL, d->base_tab ? bh : h, h, 0 };

	it.i = it.h & it.t->mask;
	return it;
}

static inline bool d_cand_next(struct d_cand_iter *it, uint32_t *cid)
{
	for (;;) {
		const struct lbtfi_hslot *s = it->t->slots;
		uint32_t v;

		while (s && (v = s[it->i].val) != LBTFI_HTAB_FREE) {
			uint32_t at = it->i;

			it->i = (it->i + 1) & it->t->mask;
			if (s[at].hash == it->h) {
				*cid = v;
				return true;
			}
		}
		if (!it->then)
			return false;
		it->t = it->then;
		it->then = NULL;
		it->h = it->then_h;
		it->i = it->h & it->t->mask;
	}
}

#define DEDUP_FOR_EACH_CAND_KEYED(d, bh, h, cid)                                          \
	for (struct d_cand_iter _it = d_cand_start(d, bh, h), *_once = &_it; _once;          \
	     _once = NULL)                                                                   \
		for (uint32_t cid; d_cand_next(&_it, &cid);)

#define DEDUP_FOR_EACH_CAND(d, h, cid) DEDUP_FOR_EACH_CAND_KEYED(d, h, h, cid)

#endif
