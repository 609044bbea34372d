// SPDX-License-Identifier: BSD-2-Clause
/*
 * BTF deduplication, in the libbpf algorithm family, in place on a builder:
 *   1. primitives (INT, FLOAT, FWD, ENUM/ENUM64) by hash + equality; an
 *      enum without values resolves to the full enum of the same name;
 *   2. struct/union and typedef by shallow hash + type-graph equivalence
 *      (dedup/equiv.c): a typedef by name only, as libbpf 1.8 (37027144),
 *      so that a typedef reaching itself (Go's `type Foo func() Foo`)
 *      settles like a struct cycle instead of looping in pass 4;
 *   3. a FWD left alone resolves to the only struct/union of its name;
 *   4. reference kinds after their targets, by hash of the canonical record;
 *   5. compaction (first-occurrence order) and remapping of every id slot;
 *   6. strings: referenced ones only, first-reference order (dedup/strings.c).
 * VAR and DATASEC are never merged. For split BTF the base types are
 * canonical and never change. The passes are single-threaded and
 * order-driven, so the same input always gives the same output (a second
 * thread only prepares memory for them: dedup_init).
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "util/grow.h"
#include "util/side.h"

enum phase { PH_SELF, PH_PRIM, PH_STRUCT, PH_REF };

/* Which pass deduplicates each kind */
static const uint8_t kind_phase[LBTF_NR_KINDS] = {
	[LBTF_KIND_INT] = PH_PRIM,	 [LBTF_KIND_FLOAT] = PH_PRIM,
	[LBTF_KIND_FWD] = PH_PRIM,	 [LBTF_KIND_ENUM] = PH_PRIM,
	[LBTF_KIND_ENUM64] = PH_PRIM,	 [LBTF_KIND_STRUCT] = PH_STRUCT,
	[LBTF_KIND_UNION] = PH_STRUCT,	 [LBTF_KIND_PTR] = PH_REF,
	[LBTF_KIND_ARRAY] = PH_REF,	 [LBTF_KIND_TYPEDEF] = PH_STRUCT,
	[LBTF_KIND_VOLATILE] = PH_REF,	 [LBTF_KIND_CONST] = PH_REF,
	[LBTF_KIND_RESTRICT] = PH_REF,	 [LBTF_KIND_FUNC] = PH_REF,
	[LBTF_KIND_FUNC_PROTO] = PH_REF, [LBTF_KIND_TYPE_TAG] = PH_REF,
	[LBTF_KIND_DECL_TAG] = PH_REF,	 [LBTF_KIND_VAR] = PH_SELF,
	[LBTF_KIND_DATASEC] = PH_SELF,
};

/* ---- hashing and comparing records ---- */

uint32_t lbtfi_dedup_rec_hash(const struct dedup *d, const struct lbtf_type *t)
{
	const uint32_t *w = (const uint32_t *)t;
	size_t n = d_rec_words(d, t);
	uint32_t h = 0;

	for (size_t i = 0; i < n; i++)
		h = lbtfi_hash_mix(h, w[i]);
	return lbtfi_hash_fin(h);
}

uint32_t lbtfi_dedup_shape_hash(const struct dedup *d, const struct lbtf_type *t)
{
	const struct d_type_words *tw = &d->tw[lbtf_kind(t)];
	const uint32_t *w = (const uint32_t *)t;
	size_t n = d_rec_words(d, t), next = tw->first;
	size_t left = tw->fixed + (size_t)tw->per_elem * lbtf_vlen(t);
	uint32_t h = 0;

	for (size_t i = 0; i < n; i++) {
		if (left && i == next) { /* a type id */
			next += tw->stride;
			left--;
			continue;
		}
		h = lbtfi_hash_mix(h, w[i]);
	}
	return lbtfi_hash_fin(h);
}

bool lbtfi_dedup_rec_equal(const struct dedup *d, const struct lbtf_type *a,
			   const struct lbtf_type *b)
{
	return a->info == b->info && !memcmp(a, b, d_rec_words(d, a) * 4);
}

bool lbtfi_dedup_shape_equal(const struct dedup *d, const struct lbtf_type *a,
			     const struct lbtf_type *b)
{
	return a->info == b->info && a->name_off == b->name_off &&
	       d_same_plain_words(d, lbtf_kind(a), (const uint32_t *)a, (const uint32_t *)b,
				  d_rec_words(d, a));
}

/* Enums hash by name so that a forward declaration meets its full enum;
 * anonymous enums (never forward-declared) hash by content. */
static uint32_t enum_hash(const struct dedup *d, const struct lbtf_type *t)
{
	return t->name_off ? lbtfi_hash_fin(lbtfi_hash_mix(0x5eed, t->name_off))
			   : lbtfi_dedup_rec_hash(d, t);
}

/* The hash each kind is looked up by, in its pass */
static uint32_t type_hash(const struct dedup *d, const struct lbtf_type *t)
{
	uint32_t h;

	if (lbtf_is_enum(t))
		return enum_hash(d, t);
	if (kind_phase[lbtf_kind(t)] != PH_STRUCT)
		return lbtfi_dedup_rec_hash(d, t);
	h = lbtfi_dedup_shape_hash(d, t);
	if (lbtf_is_composite(t)) /* (a typedef: by its name and info alone) */
		for (unsigned int i = 0; i < lbtf_vlen(t); i++)
			h = lbtfi_member_sig(d->b, lbtf_members(t)[i].type, h);
	return lbtfi_hash_fin(h);
}

/*
 * The key a base type is found by in the shared base table: its hash,
 * but for a struct or union only what the shape comparison sees first
 * (name, info, size) instead of the shape and member signatures of every
 * member. Building that table is the fixed cost of each run over a
 * vmlinux base (a small module's dedup hashes every base type for a few
 * hundred lookups); a struct lookup checks a candidate's full hash only
 * once its shape is equal, so it meets exactly the candidates of its own
 * hash, in id order, as with hashes as keys.
 */
static uint32_t base_key(const struct lbtf_type *t)
{
	return lbtfi_hash_fin(lbtfi_hash_mix(lbtfi_hash_mix(lbtfi_hash_mix(0x5a9e, t->name_off),
							    t->info), t->size));
}

static bool is_aggr_kind(unsigned int kind)
{
	return kind == LBTF_KIND_STRUCT || kind == LBTF_KIND_UNION;
}

/* The key pass 2 finds candidates by: for a typedef its hash (name and
 * info: cheap), for a struct or union base_key */
static uint32_t struct_key(const struct lbtf_type *t, uint32_t hash)
{
	return is_aggr_kind(lbtf_kind(t)) ? base_key(t) : hash;
}

/* The candidate table: half full at most, its probes are the hot loop */
static int table_add(struct dedup *d, uint32_t hash, uint32_t id)
{
	return lbtfi_htab_add(&d->tab, hash, id) ? lbtfi_err(ENOMEM, "out of memory in dedup") : 0;
}

/* ---- setup ---- */

int lbtfi_dedup_type_words_init(struct dedup *d)
{
	for (unsigned int k = 0; k < LBTFI_KIND_SLOTS; k++) {
		const struct lbtfi_layout *l = &d->lay[k];
		struct d_type_words *tw = &d->tw[k];
		unsigned int at[10], n = 0; /* the first type-id words, two elements' worth */

		for (unsigned int m = l->fixed_type_mask; m; m &= m - 1)
			at[n++] = (unsigned int)__builtin_ctz(m);
		tw->fixed = (uint8_t)n;
		tw->per_elem = l->elem_type_word >= 0;
		if (tw->per_elem) {
			unsigned int e = l->fixed_words + (unsigned int)l->elem_type_word;

			at[n++] = e;
			at[n++] = e + l->elem_words;
		}
		tw->plain = (uint8_t)(((1u << l->fixed_words) - 1) & ~3u & ~(unsigned int)l->fixed_type_mask);
		tw->first = (uint8_t)(n ? at[0] : 0);
		tw->stride = (uint8_t)(n > 1 ? at[1] - at[0] : 1);
		for (unsigned int i = 2; i < n; i++)
			if (at[i] - at[i - 1] != tw->stride)
				return lbtfi_err(EINVAL, "dedup: kind %u's type ids are not evenly spaced",
						 k);
	}
	return 0;
}

static void dedup_free(struct dedup *d)
{
	free(d->kinds);
	free(d->map);
	free(d->hypot);
	free(d->hypot_list);
	lbtfi_htab_free(&d->tab);
	free(d->eq_stack);
}

/*
 * What dedup_init derives from the base alone: the kinds of its ids and the
 * candidate table holding its types (in id order, grown from the same
 * start, so a copy is the very table hashing them again would give).
 */
struct base_cands {
	const struct lbtfi_layout *lay; /* the layouts it was hashed with */
	uint8_t *kinds;                 /* [0, start_id) */
	struct lbtfi_htab tab;
};

/*
 * The hash a base type is added to the shared table with (kind k): its
 * type_hash, but base_key for a struct or union; the records' words mixed
 * here directly (this runs for every type of a vmlinux base, once per run).
 */
static uint32_t base_hash(const struct dedup *d, const struct lbtf_type *t, unsigned int k)
{
	const struct lbtfi_layout *l = &d->lay[k];
	const uint32_t *w = (const uint32_t *)t;
	size_t n = l->fixed_words + (size_t)l->elem_words * lbtf_vlen(t);
	uint32_t h;

	if (is_aggr_kind(k))
		return base_key(t);
	if (k == LBTF_KIND_ENUM || k == LBTF_KIND_ENUM64)
		return enum_hash(d, t);
	/* a base typedef by the hash a split one looks it up with (libbpf
	 * 5b0f3729: else a module keeps copies of the base's typedefs) */
	if (k == LBTF_KIND_TYPEDEF)
		return type_hash(d, t);
	/* (lbtfi_dedup_rec_hash: every record has the 3 words of lbtf_type) */
	h = lbtfi_hash_mix(lbtfi_hash_mix(lbtfi_hash_mix(0, w[0]), w[1]), w[2]);
	for (size_t i = 3; i < n; i++)
		h = lbtfi_hash_mix(h, w[i]);
	return lbtfi_hash_fin(h);
}

/* The base's ids into d (kinds, map) and its candidates into tab: by
 * their hashes, or keyed (the shared table: base_hash) */
static int add_base(struct dedup *d, struct lbtfi_htab *tab, bool keyed)
{
	struct lbtfi_htab_ring ring = { 0 };
	uint32_t n = 0;

	d->map[0] = 0;
	d->kinds[0] = LBTF_KIND_UNKN;
	for (uint32_t id = 1; id < d->start_id; id++) {
		d->map[id] = id; /* void and base types are canonical */
		d->kinds[id] = (uint8_t)lbtf_kind(dtype(d, id));
		n += d->kinds[id] <= LBTF_KIND_MAX && kind_phase[d->kinds[id]] != PH_SELF;
	}
	/* (room for all of them at once: a shared table, made 3/4 full at
	 * most, is 1 MB for a vmlinux base, not 2; never grown, so equal
	 * keys are probed in id order) */
	if (lbtfi_htab_reserve(tab, n))
		return lbtfi_err(ENOMEM, "out of memory in dedup");
	/* base types are candidates for the split types, added in id order
	 * with delayed adds (the room reserved above: they cannot fail) */
	for (uint32_t id = 1; id < d->start_id; id++) {
		unsigned int k = d->kinds[id];
		const struct lbtf_type *t;

		if (k > LBTF_KIND_MAX || kind_phase[k] == PH_SELF)
			continue;
		t = dtype(d, id);
		lbtfi_htab_ring_add(tab, &ring, keyed ? base_hash(d, t, k) : type_hash(d, t), id);
	}
	return lbtfi_htab_ring_flush(tab, &ring);
}

static void drop_base_cands(void *p)
{
	struct base_cands *c = p;

	lbtfi_htab_free(&c->tab);
	free(c->kinds);
	free(c);
}

/* Made with the first dedup over a base (ctx: that dedup), kept with the
 * base's shared string index; its table is probed, never copied */
static void *make_base_cands(void *ctx)
{
	struct dedup *d = ctx;
	struct base_cands *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->lay = d->lay;
	c->kinds = malloc(d->start_id);
	if (!c->kinds || lbtfi_htab_init(&c->tab, 16, 3) || add_base(d, &c->tab, true)) {
		drop_base_cands(c);
		return NULL;
	}
	memcpy(c->kinds, d->kinds, d->start_id);
	return c;
}

/*
 * hypot (an entry for every id, written whole) and the candidate table are
 * made by a thread of their own for a builder of this many ids or more,
 * while the caller reads the kinds and fills map: a kernel's 476k raw
 * types, their pages (hypot's 1.9 MB, the table's 2 MB) took 5-9 ms of
 * dedup_init's 12-20 ms of CPU on the caller, the kinds and map 5-7 ms;
 * about 10 ns an id, against some 50 us a thread. (Tests set it: 0 makes
 * the thread always, UINT32_MAX never.)
 */
uint32_t lbtfi_dedup_side_init_min = 65536;

struct side_init {
	struct dedup *d;
	uint32_t expected; /* the table's */
	int err;
};

static void *side_init(void *arg)
{
	struct side_init *s = arg;
	struct dedup *d = s->d;

	d->hypot = lbtfi_malloc_big((size_t)d->cnt * sizeof(*d->hypot));
	d->hypot_list = lbtfi_malloc_big((size_t)d->cnt * sizeof(*d->hypot_list));
	if (!d->hypot || !d->hypot_list || lbtfi_htab_init(&d->tab, s->expected, 2)) {
		s->err = -ENOMEM;
		return NULL;
	}
	lbtfi_prefault(d->hypot, (size_t)d->cnt * sizeof(*d->hypot));
	memset(d->hypot, 0xff, (size_t)d->cnt * sizeof(*d->hypot));
	return NULL;
}

static int dedup_init(struct dedup *d, struct lbtf_builder *b)
{
	static const char cache_key = 0;
	const struct base_cands *c = NULL;
	/* (the table holds the canonical types, about as many as the distinct
	 * strings: 101k and 102k in a raw vmlinux, whose table grown from 2048
	 * was rehashed six times. The types are no guide: sized for a quarter
	 * of them, the table of 30 copies of a vmlinux was 4 times too big and
	 * missed the cache on every probe, doubling the call) */
	struct side_init side = { .d = d, .expected = 2048 + b->strs.cnt };
	struct lbtfi_side side_thread = { 0 };
	int err;

	memset(d, 0, sizeof(*d));
	d->b = b;
	d->base = b->base;
	d->start_id = b->start_id;
	d->cnt = lbtf_builder_type_cnt(b);
	d->lay = b->lay;
	if ((err = lbtfi_dedup_type_words_init(d)))
		return err;
	d->kinds = malloc(d->cnt);
	d->map = lbtfi_malloc_big((size_t)d->cnt * sizeof(*d->map));
	if (!d->kinds || !d->map)
		return lbtfi_err(ENOMEM, "out of memory in dedup (%u types)", d->cnt);
	if (d->cnt >= lbtfi_dedup_side_init_min)
		lbtfi_side_start(&side_thread, side_init, &side);
	else
		side_init(&side);
	lbtfi_prefault(d->map, (size_t)d->cnt * sizeof(*d->map));
	/* every record is checked before the passes trust it; this also
	 * fills the kinds, in the same pass over the records */
	err = lbtfi_builder_check_kinds(b, d->kinds);
	if (!err) {
		lbtfi_builder_checked_forget(b); /* (the passes rewrite records) */
		for (uint32_t id = d->start_id; id < d->cnt; id++)
			d->map[id] = kind_phase[d->kinds[id]] == PH_SELF ? id : D_UNPROCESSED;
	}
	lbtfi_side_join(&side_thread);
	if (err)
		return err;
	if (side.err)
		return lbtfi_err(ENOMEM, "out of memory in dedup (%u types)", d->cnt);
	if (b->base)
		c = lbtfi_derived_get(b->base, &cache_key, make_base_cands, d, drop_base_cands);
	if (c && c->lay == d->lay) {
		d->base_tab = &c->tab;
		memcpy(d->kinds, c->kinds, d->start_id);
		for (uint32_t id = 0; id < d->start_id; id++)
			d->map[id] = id;
	} else if ((err = add_base(d, &d->tab, false))) {
		return err;
	}
	return 0;
}

/*
 * A pass over one phase's types reads records scattered over the whole
 * type section: keep the record of the type PF_AHEAD places ahead in that
 * phase on its way into the cache. Returns the id prefetched (the one
 * after ahead in the phase), d->cnt past the end.
 */
#define PF_AHEAD 8

static uint32_t prefetch_next(const struct dedup *d, enum phase ph, uint32_t ahead)
{
	while (++ahead < d->cnt && kind_phase[d->kinds[ahead]] != ph)
		;
	if (ahead < d->cnt)
		__builtin_prefetch(lbtfi_btype(d->b, ahead));
	return ahead;
}

/* Run one pass (prim or struct) over its types in id order */
static int run_phase(struct dedup *d, enum phase ph, int (*fn)(struct dedup *, uint32_t))
{
	uint32_t ahead = d->start_id - 1;
	int err = 0;

	for (unsigned int i = 0; i < PF_AHEAD; i++)
		ahead = prefetch_next(d, ph, ahead);
	for (uint32_t id = d->start_id; id < d->cnt && !err; id++)
		if (kind_phase[d->kinds[id]] == ph) {
			if (ahead < d->cnt)
				ahead = prefetch_next(d, ph, ahead);
			err = fn(d, id);
		}
	return err;
}

/* Finish a type: record its canonical id, and make it a candidate if new */
static int settle(struct dedup *d, uint32_t id, uint32_t hash, uint32_t canon)
{
	d->map[id] = canon;
	return canon == id ? table_add(d, hash, id) : 0;
}

/* ---- pass 1: primitives ---- */

static int dedup_prim(struct dedup *d, uint32_t id)
{
	const struct lbtf_type *t = dtype(d, id);
	uint32_t h = type_hash(d, t), canon = id;

	if (!lbtf_is_enum(t)) {
		DEDUP_FOR_EACH_CAND(d, h, cand) {
			if (lbtfi_dedup_rec_equal(d, t, dtype(d, cand))) {
				canon = cand;
				break;
			}
		}
		return settle(d, id, h, canon);
	}
	DEDUP_FOR_EACH_CAND(d, h, cand) {
		const struct lbtf_type *c = dtype(d, cand);

		if (!lbtf_is_enum(c) || c->name_off != t->name_off)
			continue;
		if (lbtfi_dedup_rec_equal(d, t, c)) {
			canon = cand;
			break;
		}
		if (!lbtfi_eq_enums(t, c))
			continue;
		if (lbtfi_eq_is_decl(t)) { /* t is a forward declaration */
			canon = cand;
			break;
		}
		/* a canonical forward declaration: resolve it to this full enum */
		if (cand >= d->start_id && d->map[cand] == cand)
			d->map[cand] = id;
	}
	return settle(d, id, h, canon);
}

/* ---- pass 2: struct/union and typedef graphs ---- */

static int dedup_struct(struct dedup *d, uint32_t id)
{
	const struct lbtf_type *t;
	uint32_t h, canon = id;

	if (d_mapped(d, id))
		return 0; /* mapped while checking another struct's graph */
	t = dtype(d, id);
	h = type_hash(d, t);
	DEDUP_FOR_EACH_CAND_KEYED(d, struct_key(t, h), h, cand) {
		const struct lbtf_type *c = dtype(d, cand);
		int eq;

		if (!lbtfi_dedup_shape_equal(d, t, c))
			continue;
		/* (a keyed base candidate: only those of t's hash) */
		if (d->base_tab && cand < d->start_id && type_hash(d, c) != h)
			continue;
		lbtfi_dedup_clear_hypot(d);
		eq = lbtfi_dedup_is_equiv(d, id, cand);
		if (eq < 0)
			return eq;
		if (!eq) {
			d->struct_miss |= d->eq_conflict;
			continue;
		}
		lbtfi_dedup_merge_hypot(d);
		if (d->hypot_adjust_canon) {
			d->struct_miss = true;
			continue; /* would need an immutable base FWD resolved */
		}
		canon = cand;
		break;
	}
	lbtfi_dedup_clear_hypot(d);
	return settle(d, id, h, canon);
}

/* ---- pass 3: forward declarations with one possible target ---- */

/* (the one definition rule: equiv/internal.h) */
static int resolve_fwds(struct dedup *d)
{
	struct lbtfi_eq_defs defs;
	uint32_t v, id;
	int err;

	/* (the definitions, the base's included, only for a FWD left alone) */
	for (id = d->start_id; id < d->cnt; id++)
		if (d_kind(d, id) == LBTF_KIND_FWD && d->map[id] == id)
			break;
	if (id == d->cnt)
		return 0;
	if ((err = lbtfi_eq_defs_init(&defs)))
		return err;
	for (uint32_t id = 1; id < d->cnt && !err; id++)
		if ((d_kind(d, id) == LBTF_KIND_STRUCT || d_kind(d, id) == LBTF_KIND_UNION) &&
		    d->map[id] == id)
			err = lbtfi_eq_defs_add(&defs, dtype(d, id), id);
	for (uint32_t id = d->start_id; id < d->cnt && !err; id++) {
		const struct lbtf_type *t;

		if (d_kind(d, id) != LBTF_KIND_FWD || d->map[id] != id)
			continue;
		t = dtype(d, id);
		if (lbtfi_eq_defs_get(&defs, t->name_off, lbtfi_eq_flavor(t), &v) &&
		    v != LBTFI_EQ_SEVERAL && lbtfi_eq_flavor(dtype(d, v)) == lbtfi_eq_flavor(t))
			d->map[id] = v;
	}
	lbtfi_eq_defs_free(&defs);
	return err;
}

/* ---- pass 4: reference kinds, targets first (explicit stack, no recursion) ---- */

static int dedup_ref_finish(struct dedup *d, uint32_t id)
{
	struct lbtf_type *t = lbtfi_btype(d->b, id);
	uint32_t *w = (uint32_t *)t, h, canon = id;

	D_FOR_EACH_TYPE_WORD(d, lbtf_kind(t), lbtf_vlen(t), i) {
		if (d->map[w[i]] == D_IN_PROGRESS)
			return lbtfi_err(ELOOP, "type %u: reference loop through type %u", id, w[i]);
		w[i] = d_resolve(d, w[i]);
	}
	h = lbtfi_dedup_rec_hash(d, t);
	DEDUP_FOR_EACH_CAND(d, h, cand) {
		if (lbtfi_dedup_rec_equal(d, t, dtype(d, cand))) {
			canon = cand;
			break;
		}
	}
	return settle(d, id, h, canon);
}

static int dedup_refs(struct dedup *d)
{
	uint32_t *stack = NULL, sp = 0, cap = 0, ahead = d->start_id - 1;
	int err = 0;

	for (unsigned int i = 0; i < PF_AHEAD; i++)
		ahead = prefetch_next(d, PH_REF, ahead);
	for (uint32_t root = d->start_id; root < d->cnt && !err; root++) {
		if (kind_phase[d->kinds[root]] == PH_REF && ahead < d->cnt)
			ahead = prefetch_next(d, PH_REF, ahead);
		if (d->map[root] != D_UNPROCESSED)
			continue;
		sp = 0;
		if (LBTFI_GROW_FROM(stack, cap, 1, 1024))
			return lbtfi_err(ENOMEM, "out of memory in dedup");
		stack[sp++] = root;
		while (sp && !err) {
			uint32_t id = stack[sp - 1];
			const struct lbtf_type *t;
			const uint32_t *w;

			if (d_mapped(d, id)) {
				sp--;
				continue;
			}
			if (d->map[id] == D_IN_PROGRESS) { /* children done */
				sp--;
				err = dedup_ref_finish(d, id);
				continue;
			}
			d->map[id] = D_IN_PROGRESS;
			t = dtype(d, id);
			w = (const uint32_t *)t;
			D_FOR_EACH_TYPE_WORD(d, lbtf_kind(t), lbtf_vlen(t), i) {
				if (d->map[w[i]] != D_UNPROCESSED)
					continue;
				if (LBTFI_GROW(stack, cap, sp + 1)) {
					err = lbtfi_err(ENOMEM, "out of memory in dedup");
					break;
				}
				stack[sp++] = w[i];
			}
		}
	}
	free(stack);
	return err;
}

/* ---- pass 5: compaction and remap ---- */

/* The final id of any id (new_id: final ids of the canonical own types) */
static inline uint32_t final_id(const struct dedup *d, const uint32_t *new_id, uint32_t id)
{
	uint32_t r = d_resolve(d, id);

	return r < d->start_id ? r : new_id[r];
}

/*
 * Canonical types keep their order and slide down over the others; each
 * record's type ids are rewritten right after its move, while it is in
 * the cache (the final ids are all known first, from map[] alone).
 */
static void compact(struct dedup *d, uint32_t *id_map)
{
	struct lbtf_builder *b = d->b;
	uint32_t *new_id = d->hypot; /* reuse: no longer needed */
	uint32_t next = d->start_id, kept = 0;
	size_t nw = 0;

	for (uint32_t id = d->start_id; id < d->cnt; id++)
		if (d->map[id] == id)
			new_id[id] = next++;
	for (uint32_t id = d->start_id; id < d->cnt; id++) {
		uint32_t *w;
		size_t n;

		if (d->map[id] != id)
			continue;
		w = (uint32_t *)lbtfi_btype(b, id);
		n = d_rec_words(d, (const struct lbtf_type *)w);
		memmove(b->words + nw, w, n * 4);
		b->offs[kept++] = (uint32_t)nw;
		w = b->words + nw;
		nw += n;
		D_FOR_EACH_TYPE_WORD(d, d->kinds[id], lbtf_vlen((const struct lbtf_type *)w), i)
			w[i] = final_id(d, new_id, w[i]);
	}
	b->nr_types = kept;
	b->nwords = nw;
	if (id_map)
		for (uint32_t id = d->start_id; id < d->cnt; id++)
			id_map[id - d->start_id] = final_id(d, new_id, id);
}

int lbtf_builder_dedup(struct lbtf_builder *b, const struct lbtf_dedup_opts *opts)
{
	bool settled;

	return lbtfi_builder_dedup_settled(b, opts, &settled);
}

/* The passes; the string pass unless the caller runs it later (strings) */
static int dedup_run(struct lbtf_builder *b, const struct lbtf_dedup_opts *opts, bool *settled,
		     bool strings)
{
	struct lbtf_dedup_stats st = { .sz = sizeof(st), .types_in = b->nr_types,
				       .strs_in_bytes = (uint32_t)b->strs.len };
	struct lbtf_dedup_opts o;
	struct dedup d;
	int err;

	*settled = false;
	if ((err = LBTFI_OPTS_COPY(&o, opts, lbtf_dedup_opts)) ||
	    (err = lbtfi_result_check(o.stats, "lbtf_dedup_stats")))
		return err;
	/*
	 * Names compare as offsets: the builder interns every string it is
	 * given (and prefers the base's offset), so equal strings already have
	 * equal offsets. (An offset edited by hand into the middle of a string
	 * only costs merges, never correctness.) Strings are compacted at the end.
	 */
	if ((err = dedup_init(&d, b)))
		goto out;
	err = run_phase(&d, PH_PRIM, dedup_prim);
	if (!err)
		err = run_phase(&d, PH_STRUCT, dedup_struct);
	if (!err)
		err = resolve_fwds(&d);
	if (!err)
		err = dedup_refs(&d);
	if (err)
		goto out;
	compact(&d, o.id_map);
	lbtfi_builder_release_tail(b);
	if (strings)
		err = lbtfi_dedup_strings(b);
	*settled = !d.struct_miss;
	/* (checked records, their ids remapped to kept ones, their strings
	 * too when the string pass ran: serializing or deduplicating them
	 * again need not check them; stats' strs_out_bytes: the strings as
	 * left, not compacted without the string pass) */
	if (!err)
		lbtfi_builder_checked_now(b);
out:
	dedup_free(&d);
	if (!err) {
		st.types_out = b->nr_types;
		st.strs_out_bytes = (uint32_t)b->strs.len;
		lbtfi_result_copy(o.stats, &st, sizeof(st));
	}
	return err;
}

int lbtfi_builder_dedup_settled(struct lbtf_builder *b, const struct lbtf_dedup_opts *opts,
				bool *settled)
{
	return dedup_run(b, opts, settled, true);
}

int lbtfi_builder_dedup_types(struct lbtf_builder *b, const struct lbtf_dedup_opts *opts,
			      bool *settled)
{
	return dedup_run(b, opts, settled, false);
}
