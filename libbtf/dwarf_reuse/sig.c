// SPDX-License-Identifier: BSD-2-Clause
/*
 * Structural signatures of type DIEs, for reusing types converted in an
 * earlier unit (reuse.c).
 *
 * A signature is a 128-bit hash of everything the converter can see of a
 * type: the tag, the attribute slots it reads (struct lbtfi_dw_attrs, origins
 * integrated), the children, and the types referred to. References are
 * hashed deeply, except those to a named struct, union or class: these are
 * hashed by flavour and name only (that is what keeps cycles out of the
 * hash) and listed as the signature's edges, so that the reuse can check
 * each of them by id. Locations in the source (decl_file/line), sibling
 * links and the DIE's offset are not part of it; strings read through
 * .debug_str are hashed by address (one address, one string), inline ones
 * by their bytes.
 *
 * Signatures are memoised per unit by DIE key (struct lbtfi_dw_die_slot). A type whose hash would
 * depend on itself without a named aggregate in between (malformed DWARF)
 * or that is nested too deep gets none: it is always converted.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define SIG_MAX_DEPTH 256

struct hash128 {
	uint64_t a, b;
};

/*
 * Two 64-bit lanes, each a hash of the words of its own: a word is taken by
 * xor in one, by addition in the other, each then multiplied by an odd
 * constant of its own (a bijection: the lane's state and the word give the
 * next state, and two words differ there) and rotated by its own count (so
 * that the high bits, where a product gathers its mixing, feed the low
 * ones of the next step). A signature is the pair: two types share it
 * only when both lanes collide at once (~2^-128 for words unrelated to the
 * constants), the strength reuse.c relies on to reuse a type on a match.
 */
#define LANE_A 0x9e3779b97f4a7c15ull
#define LANE_B 0xbf58476d1ce4e5b9ull

static inline uint64_t rotl64(uint64_t x, unsigned int r)
{
	return x << r | x >> (64 - r);
}

static inline void mix(struct hash128 *h, uint64_t v)
{
	h->a = rotl64((h->a ^ v) * LANE_A, 29);
	h->b = rotl64((h->b + v) * LANE_B, 23);
}

/* Another signature's lanes, each into its own (a word each: what a lane
 * takes is already a 64-bit hash of the other's words) */
static inline void mix_pair(struct hash128 *h, uint64_t a, uint64_t b)
{
	h->a = rotl64((h->a ^ a) * LANE_A, 29);
	h->b = rotl64((h->b + b) * LANE_B, 23);
}

static void mix_bytes(struct hash128 *h, const uint8_t *p, size_t n)
{
	uint64_t w;

	mix(h, n);
	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		mix(h, w);
	}
	w = 0;
	memcpy(&w, p, n);
	mix(h, w);
}

static inline void mix_string(struct hash128 *h, const struct lbtfi_dw_attr *a)
{
	const char *s = lbtfi_dr_string(a);

	if (!s)
		mix(h, 0);
	else if (a->form == DW_FORM_string)
		mix_bytes(h, (const uint8_t *)s, strlen(s));
	else
		mix(h, (uintptr_t)s); /* .debug_str: one address per string */
}

#define HASHED_SLOTS LBTFI_DW_HASHED_SLOTS
/* (the slots hashed are the lowest ones: a DIE's run of them in ascending
 * order ends at the first slot that is not) */
_Static_assert(DA_NAME == 0 && DA_TYPE == 1 && DA_LOWER_BOUND == 13, "hashed slots come first");

/*
 * A value as the converter can read it: through every accessor, not by its
 * form, because a compiler encodes the same value differently from unit to
 * unit (a bit size of 1 as DW_FORM_data1 in one unit, as an implicit_const
 * of the abbreviation in the next). References stay unit-relative offsets:
 * types with them (VLA bounds) are simply never reused. false: malformed.
 */
/* A constant: its kind (0xc0, the sign of a signed form at bit 8, sec_offset
 * at bit 9) and value, in one word when the value is small (bit 10) */
static inline void mix_const(struct hash128 *h, uint64_t kind, uint64_t v)
{
	if (v < LBTFI_DW_SIG_SMALL) {
		mix(h, lbtfi_dw_sig_const_word(kind, v));
		return;
	}
	mix(h, kind);
	mix(h, v);
}

static inline bool mix_value(struct hash128 *h, const struct lbtfi_dw_attr *a)
{
	const uint8_t *p;
	uint64_t v, len;

	switch (a->form) {
	case DW_FORM_data1: /* (the common constants, as the default case has them) */
		mix_const(h, 0xc0, a->p[0]);
		return true;
	case DW_FORM_implicit_const:
		mix_const(h, 0xc0 | (uint64_t)(a->implicit < 0) << 8, (uint64_t)a->implicit);
		return true;
	case DW_FORM_flag:
	case DW_FORM_flag_present:
		mix(h, lbtfi_dw_sig_flag_word(lbtfi_dr_flag(a)));
		return true;
	case DW_FORM_block1: case DW_FORM_block2: case DW_FORM_block4:
	case DW_FORM_block: case DW_FORM_exprloc:
		if (!lbtfi_dr_block(a, &p, &len) || len > (uint64_t)(a->u->end - p))
			return false;
		mix(h, 0xb10c);
		mix_bytes(h, p, (size_t)len);
		return true;
	case DW_FORM_ref1: case DW_FORM_ref2: case DW_FORM_ref4: case DW_FORM_ref8:
	case DW_FORM_ref_udata:
		if (!lbtfi_dr_udata_ref(a, &v))
			return false;
		mix(h, 0x7ef);
		mix(h, v);
		return true;
	default:
		/* constants: lbtfi_dr_sdata reads the same bits where it applies
		 * (not sec_offset); the sign only counts for signed forms */
		if (!lbtfi_dr_udata(a, &v))
			return false;
		mix_const(h, 0xc0 | (uint64_t)lbtfi_dr_negative(a) << 8 |
				     (uint64_t)(a->form == DW_FORM_sec_offset) << 9, v);
		return true;
	}
}

static inline int push(struct lbtfi_dw_sigs *s, uint32_t it)
{
	/* (the one listed last by the same signature, as its members' types
	 * often are: its edges are in already) */
	if (s->nstack > s->base && s->stack[s->nstack - 1] == it)
		return 0;
	if (lbtfi_dw_grow(&s->stack, &s->capstack, s->nstack, sizeof(*s->stack), 256))
		return -ENOMEM;
	s->stack[s->nstack++] = it;
	return 0;
}

static inline bool aggregate_tag(unsigned int tag)
{
	return tag == DW_TAG_structure_type || tag == DW_TAG_union_type || tag == DW_TAG_class_type ||
	       tag == DW_TAG_enumeration_type;
}

/* t's name (false: it has none) and whether it is a declaration, its
 * attributes gathered with their origins (apart: the attribute array would
 * weigh on the common case's frame) */
static __attribute__((noinline)) bool gathered_name(struct lbtfi_dr_ctx *rd, struct lbtfi_dw_die *t,
						    struct lbtfi_dw_attr *name, bool *decl)
{
	struct lbtfi_dw_attrs da;

	lbtfi_dr_attrs(rd, t, &da, true);
	if (!(da.have >> DA_NAME & 1))
		return false;
	*name = da.a[DA_NAME];
	*decl = lbtfi_dw_attrs_flag(&da, DA_DECLARATION);
	return true;
}

/* The attribute of want i of t's abbreviation, t placed at seg */
static inline struct lbtfi_dw_attr attr_placed(const struct lbtfi_dw_die *t, const uint8_t *const *seg,
					       unsigned int i)
{
	const struct lbtfi_dr_want *w = &t->ab->want[i];

	return (struct lbtfi_dw_attr){ w->form, seg[w->seg] + w->off, w->implicit, t->u };
}

/* gathered_name's answer read in place, when there is nothing to integrate
 * (nearly all): the two attributes only, not every one of the DIE */
static inline bool aggregate_name(struct lbtfi_dr_ctx *rd, struct lbtfi_dw_die *t, struct lbtfi_dw_attr *name,
				  bool *decl)
{
	const struct lbtfi_dr_abbrev *ab = t->ab;
	const uint8_t *seg[LBTFI_DR_MAX_VAR + 1];
	struct lbtfi_dw_attr a;
	unsigned int i = 0;
	uint32_t m;

	if (ab->nvar == LBTFI_DR_GENERIC || (ab->slots & (1u << DA_ORIGIN | 1u << DA_SPEC)))
		return gathered_name(rd, t, name, decl);
	if (!lbtfi_dr_place(t, seg) || !(ab->slots >> DA_NAME & 1))
		return false;
	/* (byslot lists the wants by ascending slot: the name's is first) */
	*name = attr_placed(t, seg, ab->byslot[0]);
	*decl = false;
	if (ab->slots >> DA_DECLARATION & 1) {
		for (m = ab->slots & ((1u << DA_DECLARATION) - 1); m; m &= m - 1)
			i++;
		a = attr_placed(t, seg, ab->byslot[i]);
		*decl = lbtfi_dr_flag(&a);
	}
	return true;
}

/* Whether t (of an aggregate tag) is a named one: then e is set, every
 * field of it */
static bool named_aggregate(struct lbtfi_dw_reuse_unit *u, struct lbtfi_dw_die *t, struct lbtfi_dw_edge *e)
{
	unsigned int tag = lbtfi_dr_tag(t);
	struct lbtfi_dw_attr a;
	const char *name;
	bool decl;

	if (!aggregate_name(u->rd, t, &a, &decl))
		return false;
	name = lbtfi_dr_string(&a);
	/* (e untouched: an anonymous one is hashed deeply; an empty name
	 * through .debug_str is not looked at here, its type then simply
	 * has no name for the reuse to find) */
	if (!name || (a.form == DW_FORM_string && !*name))
		return false;
	e->name = name;
	if (a.form == DW_FORM_string) {
		struct hash128 h = { 0, 0 };

		mix_bytes(&h, (const uint8_t *)e->name, strlen(e->name));
		e->name_id = h.a;
		e->name_inline = true;
	} else {
		e->name_id = (uintptr_t)e->name;
		e->name_inline = false;
	}
	e->die = *t;
	e->key = lbtfi_dr_key(t);
	e->name_off = 0;
	e->round = 0; /* (never a round: rounds start at 1) */
	e->flavor = tag == DW_TAG_union_type ? LBTFI_FLAVOR_UNION :
		    tag == DW_TAG_enumeration_type ? LBTFI_FLAVOR_ENUM : LBTFI_FLAVOR_STRUCT;
	e->is_def = !decl;
	return true;
}

static inline __attribute__((always_inline)) int sig_at(struct lbtfi_dw_reuse_unit *u, struct lbtfi_dw_die *die,
							 uint32_t sn, uint32_t *idx, int depth, bool ref);

__attribute__((noinline)) void lbtfi_dw_follow_named_signature(struct lbtfi_dr_ctx *rd,
								 struct lbtfi_dw_die *die)
{
	struct lbtfi_dw_attrs da;
	struct lbtfi_dw_die t;

	lbtfi_dr_attrs(rd, die, &da, false);
	if ((da.own >> DA_SIGNATURE & 1) && lbtfi_dr_ref(rd, &da.a[DA_SIGNATURE], &t))
		*die = t;
}

/*
 * What a reference adds to a signature, as words: a named aggregate's
 * flavour and name (two words, mixed in turn), a sub-signature's lanes
 * (each into its own lane), the word of a reference that leads nowhere, or
 * nothing (the sub-signature has none: neither has the referrer). The
 * references are resolved apart from the hash they go into, so that the
 * hash stays in registers in the loops of mix_children and run_plan
 * rather than in memory for every call a reference may make.
 */
enum { REF_PAIR, REF_NAMED, REF_WORD, REF_NONE };

struct ref_words {
	uint64_t a, b;
	int how;
};

static inline __attribute__((always_inline)) void mix_ref_words(struct hash128 *h, const struct ref_words *r,
							       bool *none)
{
	switch (r->how) {
	case REF_PAIR:
		mix_pair(h, r->a, r->b);
		break;
	case REF_NAMED:
		mix(h, r->a);
		mix(h, r->b);
		break;
	case REF_WORD:
		mix(h, r->a);
		break;
	default:
		*none = true;
	}
}

/* A reference to the named aggregate named[i] */
static inline int ref_named(struct lbtfi_dw_sigs *s, uint32_t i, struct ref_words *r)
{
	const struct lbtfi_dw_edge *e = &s->named[i];

	r->a = 0x4e000000u | e->flavor | (uint32_t)e->name_inline << 8;
	r->b = e->name_id;
	r->how = REF_NAMED;
	return push(s, LBTFI_DW_SIG_NAMED | i);
}

/* A reference to the signature of slot number sub (none unless it is
 * done) */
static inline int ref_sub(struct lbtfi_dw_reuse_unit *u, uint32_t sub, struct ref_words *r)
{
	struct lbtfi_dw_sigs *s = &u->sigs;
	const struct lbtfi_dw_sig *g = &u->map.slots[sub].sig;

	if (!lbtfi_dw_sig_done(g)) {
		r->how = REF_NONE;
		return 0;
	}
	r->a = g->a;
	r->b = g->b;
	r->how = REF_PAIR;
	/* (a signature without edges, a base type's or most pointers' to
	 * one, gives the edges nothing: not listed) */
	return g->nedges ? push(s, sub) : 0;
}

/* What the reference by the key of slot number dsn leads to, remembered
 * (LBTFI_DW_NONE: a reference without a key) */
static inline void note_ref(struct lbtfi_dw_reuse_unit *u, uint32_t dsn, uint32_t ref)
{
	if (dsn != LBTFI_DW_NONE)
		u->map.slots[dsn].ref = ref;
}

/* A reference to a key the unit's signatures met before: what it led to
 * (lbtfi_dw_die_slot.ref), into h (mixed here, not through ref_words: h
 * and the words stay in registers). The signature is in the slot of the
 * DIE it led to, nearly always the slot of the key itself, just read */
static inline __attribute__((always_inline)) int mix_known(struct lbtfi_dw_reuse_unit *u, struct hash128 *h,
							    uint32_t it, bool *none)
{
	struct lbtfi_dw_sigs *s = &u->sigs;
	struct lbtfi_dw_sig *g;

	if (it & LBTFI_DW_SIG_NAMED) {
		const struct lbtfi_dw_edge *e = &s->named[it & ~LBTFI_DW_SIG_NAMED];

		mix(h, 0x4e000000u | e->flavor | (uint32_t)e->name_inline << 8);
		mix(h, e->name_id);
		return push(s, it);
	}
	g = &u->map.slots[it].sig;
	if (!lbtfi_dw_sig_done(g)) { /* (done first: nearly all) */
		/* (as sig_at finds a memoised one) */
		if (g->nedges == LBTFI_DW_SIG_BUSY)
			g->nedges = LBTFI_DW_SIG_NONE; /* a cycle with no name on it */
		*none = true;
		return 0;
	}
	mix_pair(h, g->a, g->b);
	return g->nedges ? push(s, it) : 0;
}

/* A reference met for the first time, by key direct whose slot is number
 * dsn (LBTFI_DW_NONE: a reference without a key). The slot was made by the
 * caller's lookup, so that nothing here looks the key up again */
static __attribute__((noinline)) int ref_new(struct lbtfi_dw_reuse_unit *u, const struct lbtfi_dw_attr *a,
					     uint32_t dsn, uint64_t direct, int depth, struct ref_words *r)
{
	struct lbtfi_dw_sigs *s = &u->sigs;
	struct lbtfi_dw_die t;
	uint32_t sub;
	bool own;
	int err;

	if (!lbtfi_dr_ref(u->rd, a, &t)) {
		r->a = 0x7e7e;
		r->how = REF_WORD;
		return 0;
	}
	lbtfi_dw_follow_signature(u->rd, &t);
	if (aggregate_tag(lbtfi_dr_tag(&t))) {
		if (lbtfi_dw_grow(&s->named, &s->capnamed, s->nnamed, sizeof(*s->named), 256) ||
		    s->nnamed >= LBTFI_DW_SIG_NAMED - 2) /* (not to be LBTFI_DW_NONE with the flag) */
			return -ENOMEM;
		if (named_aggregate(u, &t, &s->named[s->nnamed])) {
			note_ref(u, dsn, LBTFI_DW_SIG_NAMED | s->nnamed);
			return ref_named(s, s->nnamed++, r);
		}
	}
	/* (a reference by the target's own key, nearly all: its slot is
	 * the target's, given to sig_at, which notes the reference there;
	 * one call, inlined here) */
	own = dsn != LBTFI_DW_NONE && direct == lbtfi_dr_key(&t);
	if ((err = sig_at(u, &t, own ? dsn : LBTFI_DW_NONE, &sub, depth + 1, own)))
		return err;
	if (!own)
		note_ref(u, dsn, sub);
	return ref_sub(u, sub, r);
}

/*
 * A DW_AT_type: by name to a named aggregate, else by the target's
 * signature. What a reference leads to is remembered by the key it names
 * (most targets are named again and again in a unit): the next reference
 * to it needs neither the target DIE nor its attributes.
 */
static int mix_ref(struct lbtfi_dw_reuse_unit *u, struct hash128 *h, const struct lbtfi_dw_attr *a, int depth,
		   bool *none)
{
	uint64_t direct;
	struct lbtfi_dw_die_slot *d = NULL;
	struct ref_words r;
	int err;

	/* (the key's slot made when missing: ref_new notes there) */
	if (lbtfi_dr_ref_key(a, &direct)) {
		if (!(d = lbtfi_dw_dies_add(&u->map, direct)))
			return -ENOMEM;
		if (d->ref != LBTFI_DW_NONE)
			return mix_known(u, h, d->ref, none);
	}
	if (!(err = ref_new(u, a, d ? (uint32_t)(d - u->map.slots) : LBTFI_DW_NONE, direct, depth, &r)))
		mix_ref_words(h, &r, none);
	return err;
}

/* The attribute of slot s (hashed: name, type, values) */
static inline int mix_attr(struct lbtfi_dw_reuse_unit *u, struct hash128 *h, unsigned int s,
			   const struct lbtfi_dw_attr *a, int depth, bool *none)
{
	if (s == DA_NAME)
		mix_string(h, a);
	else if (s == DA_TYPE)
		return mix_ref(u, h, a, depth, none);
	else if (a->form == DW_FORM_data1) /* (as mix_value has it) */
		mix_const(h, 0xc0, a->p[0]);
	else if (!mix_value(h, a))
		*none = true;
	return 0;
}

/* The first word of a DIE: its tag, whether it has children and which of
 * the hashed slots it has (m); then those, by ascending slot */
static inline uint64_t die_word(const struct lbtfi_dw_die *die, uint32_t m)
{
	return lbtfi_dr_tag(die) | (uint64_t)die->ab->children << 16 | (uint64_t)m << 32;
}

/* A DIE's attributes gathered (origins integrated), into h (apart: its
 * attribute array would weigh on every frame of the recursion) */
static __attribute__((noinline)) int mix_gathered(struct lbtfi_dw_reuse_unit *u, struct hash128 *h,
						  struct lbtfi_dw_die *die, int depth, bool *none)
{
	struct lbtfi_dw_attrs da;
	unsigned int i;
	uint32_t m;
	int err;

	lbtfi_dr_attrs(u->rd, die, &da, true);
	mix(h, die_word(die, da.have & HASHED_SLOTS));
	for (m = da.have & HASHED_SLOTS; m; m &= m - 1) {
		i = (unsigned int)__builtin_ctz(m);
		if ((err = mix_attr(u, h, i, &da.a[i], depth, none)))
			return err;
	}
	return 0;
}

/* Where a unit's ref4 values are from: its offset and its file's key
 * base (read once for a run of DIEs, not per reference) */
struct ref_base {
	uint64_t off, key_base;
};

static inline struct ref_base ref_base_of(const struct lbtfi_dr_unit *cu)
{
	return (struct ref_base){ cu->h->off, cu->key_base };
}

/* A DW_AT_type as ref4 at p (of unit cu, whose ref_base is rb): mix_ref
 * without an lbtfi_dw_attr, for the form of nearly every DW_AT_type, ~6.5
 * million in a kernel (the key as lbtfi_dr_ref_key reads a ref4) */
static inline __attribute__((always_inline)) int mix_ref4(struct lbtfi_dw_reuse_unit *u, struct hash128 *h,
							   const struct lbtfi_dr_unit *cu, struct ref_base rb,
							   const uint8_t *p, int depth, bool *none)
{
	const struct lbtfi_dw_die_slot *d;
	struct lbtfi_dw_attr a;
	struct ref_words r;
	uint64_t direct;
	uint32_t v;
	int err;

	memcpy(&v, p, 4);
	direct = (le32toh(v) + rb.off) | rb.key_base;
	/* (made when missing: ref_new and sig_at use this slot, by number,
	 * rather than look the key up again) */
	if (!(d = lbtfi_dw_dies_add(&u->map, direct)))
		return -ENOMEM;
	if (d->ref != LBTFI_DW_NONE)
		return mix_known(u, h, d->ref, none);
	a = (struct lbtfi_dw_attr){ DW_FORM_ref4, p, 0, cu };
	if (!(err = ref_new(u, &a, (uint32_t)(d - u->map.slots), direct, depth, &r)))
		mix_ref_words(h, &r, none);
	return err;
}

/* A name as DW_FORM_strp with a 4-byte offset at p, into h (as mix_string
 * has it) */
static inline void mix_strp4(struct hash128 *h, const struct lbtfi_dr_sect *str, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	v = le32toh(v);
	mix(h, v < str->len ? (uintptr_t)(str->p + v) : 0);
}

/* The attributes of a DIE at p by pl's fixed form (plan.c): the words of
 * its ops, read at constant offsets (always inline, as run_plan). fixed
 * and n are pl's fixed and nconst, given apart so that a caller may give
 * them as constants: the form's tests and loop then compile away */
static inline __attribute__((always_inline)) int run_fixed(struct lbtfi_dw_reuse_unit *u, struct hash128 *h,
							    const struct lbtfi_dr_unit *cu,
							    struct ref_base rb, const struct lbtfi_dw_plan *pl,
							    const uint8_t *p, int depth, bool *none,
							    unsigned int fixed, unsigned int n)
{
	/* (read before the type's reference: its calls would make the
	 * compiler read them again) */
	unsigned int wide = pl->cwide, known = pl->cknown, i;
	const uint16_t *coff = pl->coff;
	int err;

	mix(h, pl->shape);
	if (fixed & LBTFI_PLAN_FIXED_NAME)
		mix_strp4(h, &cu->f->s[DS_STR], p + pl->name_off);
	if ((fixed & LBTFI_PLAN_FIXED_TYPE) && (err = mix_ref4(u, h, cu, rb, p + pl->type_off, depth, none)))
		return err;
	for (i = 0; i < n; i++) {
		const uint8_t *q;
		uint64_t v;

		if (known >> i & 1) {
			mix(h, pl->cword[i]);
			continue;
		}
		q = p + coff[i];
		v = q[0];
		if (wide >> i & 1)
			v |= (uint64_t)q[1] << 8; /* (little-endian: plan.c's DATA2) */
		mix_const(h, 0xc0, v);
	}
	return 0;
}

/* The attributes of a DIE of abbreviation ab (of unit cu) placed at seg,
 * by plan pl (plan.c), each kind giving the words mix_attr gives (always
 * inline: a frame of its own cost ~25 instructions a DIE; h a local of the
 * caller's, kept in registers) */
static inline __attribute__((always_inline)) int run_plan(struct lbtfi_dw_reuse_unit *u, struct hash128 *h,
							   const struct lbtfi_dr_unit *cu,
							   const struct lbtfi_dr_abbrev *ab,
							   const struct lbtfi_dw_plan *pl, const uint8_t *const *seg,
							   int depth, bool *none)
{
	const struct lbtfi_dr_sect *str = &cu->f->s[DS_STR];
	/* (the ops walked by pointer and each read into a local: the calls
	 * for references would otherwise make the compiler read the plan's
	 * count and each op again) */
	const struct lbtfi_dw_plan_op *op = pl->op, *end = pl->op + pl->nops;
	int err;

	if (pl->fixed)
		return run_fixed(u, h, cu, ref_base_of(cu), pl, seg[0], depth, none, pl->fixed, pl->nconst);
	mix(h, pl->shape);
	for (; op < end; op++) {
		const struct lbtfi_dw_plan_op o = *op;
		const uint8_t *p = seg[o.seg] + o.arg;

		switch (o.kind) {
		case LBTFI_PLAN_STRP4:
			mix_strp4(h, str, p);
			break;
		case LBTFI_PLAN_REF4:
			if ((err = mix_ref4(u, h, cu, ref_base_of(cu), p, depth, none)))
				return err;
			break;
		case LBTFI_PLAN_DATA1: /* (the constants as mix_value has them) */
			mix_const(h, 0xc0, p[0]);
			break;
		case LBTFI_PLAN_DATA2:
			mix_const(h, 0xc0, lbtfi_dr_read(false, p, 2));
			break;
		case LBTFI_PLAN_DATA4:
			mix_const(h, 0xc0, lbtfi_dr_read(false, p, 4));
			break;
		case LBTFI_PLAN_DATA8:
			mix_const(h, 0xc0, lbtfi_dr_read(false, p, 8));
			break;
		case LBTFI_PLAN_FLAG:
			mix(h, lbtfi_dw_sig_flag_word(p[0] != 0));
			break;
		case LBTFI_PLAN_FLAG_PRESENT:
			mix(h, lbtfi_dw_sig_flag_word(true));
			break;
		default: {
			const struct lbtfi_dr_want *w = &ab->want[o.arg];
			struct lbtfi_dw_attr a = { w->form, seg[w->seg] + w->off, w->implicit, cu };
			struct hash128 t = *h;

			err = mix_attr(u, &t, w->slot, &a, depth, none);
			*h = t;
			if (err)
				return err;
		}
		}
	}
	return 0;
}

/* A DIE whose abbreviation has no plan in the table (of another unit, or
 * out of memory): by one made for it (apart: its room would weigh on the
 * common case's frame) */
static __attribute__((noinline)) int run_new_plan(struct lbtfi_dw_reuse_unit *u, struct hash128 *h,
						  const struct lbtfi_dw_die *die, const uint8_t *const *seg,
						  int depth, bool *none)
{
	struct lbtfi_dw_plan tmp;

	return run_plan(u, h, die->u, die->ab, lbtfi_dw_plan_make(&u->sigs.plans, die, &tmp), seg, depth, none);
}

/* Whether a DIE of ab has attributes to integrate (read by gathering) */
#define INTEGRATED (1u << DA_ORIGIN | 1u << DA_SPEC)

/* A DIE's attributes (not its children), into h (always inline: into
 * mix_tree for the DIE, into mix_children for the children out of its
 * common case; each call's frame cost ~20 instructions) */
static inline __attribute__((always_inline)) int mix_attrs(struct lbtfi_dw_reuse_unit *u, struct hash128 *h, struct lbtfi_dw_die *die, int depth,
		     bool *none)
{
	const struct lbtfi_dr_abbrev *ab = die->ab;
	const uint8_t *seg[LBTFI_DR_MAX_VAR + 1];
	const struct lbtfi_dw_plan *pl;

	if (ab->nvar == LBTFI_DR_GENERIC || (ab->slots & INTEGRATED))
		return mix_gathered(u, h, die, depth, none);
	/* (nothing to integrate) the attributes read in place */
	if (!lbtfi_dr_place(die, seg)) {
		mix(h, die_word(die, 0));
		return 0;
	}
	if (!(pl = lbtfi_dw_plan_get(&u->sigs.plans, die)))
		return run_new_plan(u, h, die, seg, depth, none);
	return run_plan(u, h, die->u, ab, pl, seg, depth, none);
}

/* Whether the entry after c (a DIE with children), as the reader's
 * sibling step finds it, is at after, where the walk of c's children
 * ended: by c's DW_AT_sibling (gcc's ref4 at a fixed place), or, without
 * one, by the walk of its subtree that the step would make again */
static inline bool sibling_at(const struct lbtfi_dw_die *c, const uint8_t *after)
{
	const struct lbtfi_dr_unit *cu = c->u;
	const struct lbtfi_dr_abbrev *ab = c->ab;
	uint64_t v;

	if (ab->sib_ref4 < 0)
		return !(ab->slots >> DA_SIBLING & 1);
	if (ab->sib_ref4 > cu->end - c->p - 4)
		return false;
	v = lbtfi_dr_read(cu->f->big_endian, c->p + ab->sib_ref4, 4) + cu->h->off;
	return v > c->off && v < cu->h->end && cu->info + v == after;
}

static int mix_tree(struct lbtfi_dw_reuse_unit *u, struct hash128 *hp, struct lbtfi_dw_die *die, int depth,
		    bool *none, const uint8_t **after);

#define NO_CODE 0x100u /* (no abbreviation's one-byte code: equal to no byte) */

/*
 * A run of children from c, a childless DIE whose attributes fit in its
 * unit, of an abbreviation of one-byte code whose plan pl has a fixed
 * form (plan.c): each hashed by pl and stepped over where its attributes
 * end, as long as the next entry has that code and fits too (members of
 * one abbreviation follow one another: the loop keeps only the place in
 * registers). c is left at the last of them, its end set. fixed and n as
 * run_fixed's.
 */
static inline __attribute__((always_inline)) int run_children_as(struct lbtfi_dw_reuse_unit *u, struct hash128 *h,
								  struct lbtfi_dw_die *c,
								  const struct lbtfi_dw_plan *pl, unsigned int code,
								  int depth, bool *none, unsigned int fixed,
								  unsigned int n)
{
	const struct lbtfi_dr_unit *cu = c->u;
	const struct ref_base rb = ref_base_of(cu);
	const uint8_t *p = c->p, *next, *end = cu->end;
	ptrdiff_t tail = c->ab->tail;
	int err;

	for (;;) {
		if ((err = run_fixed(u, h, cu, rb, pl, p, depth, none, fixed, n)))
			return err;
		next = p + tail;
		/* (the next entry's code and attributes in the unit) */
		if (*none || end - next <= tail || *next != code)
			break;
		p = next + 1;
	}
	if (p != c->p) {
		c->p = p;
		c->off = (uint64_t)(p - 1 - cu->info);
	}
	c->end = next;
	return 0;
}

#define FIXED_NAME (LBTFI_PLAN_FIXED | LBTFI_PLAN_FIXED_NAME)
#define FIXED_TYPE (LBTFI_PLAN_FIXED | LBTFI_PLAN_FIXED_TYPE)
#define FIXED_BOTH (FIXED_NAME | FIXED_TYPE)

/* run_children_as, with a loop of its own for the common forms of runs:
 * members (a name, a type, an offset), parameters (a type), enumerators
 * (a name, a value) */
static inline __attribute__((always_inline)) int run_fixed_children(struct lbtfi_dw_reuse_unit *u, struct hash128 *h,
								     struct lbtfi_dw_die *c,
								     const struct lbtfi_dw_plan *pl, unsigned int code,
								     int depth, bool *none)
{
	switch (pl->fixed | pl->nconst << 3) {
	case FIXED_BOTH | 1 << 3:
		return run_children_as(u, h, c, pl, code, depth, none, FIXED_BOTH, 1);
	case FIXED_TYPE:
		return run_children_as(u, h, c, pl, code, depth, none, FIXED_TYPE, 0);
	case FIXED_NAME | 1 << 3:
		return run_children_as(u, h, c, pl, code, depth, none, FIXED_NAME, 1);
	default:
		return run_children_as(u, h, c, pl, code, depth, none, pl->fixed, pl->nconst);
	}
}

/*
 * The children of a DIE, from the first, c, at depth, into h; *after: where
 * the entry after their terminating null entry is, when each step was to
 * the end of the previous entry (and its own children), else NULL.
 *
 * One loop over the children with the hash in registers: a child without
 * children of a fixed-size abbreviation (members, enumerators, parameters,
 * subranges: nearly all) is placed, hashed by its plan (the last child's
 * when it has the same abbreviation) and stepped over where its
 * attributes end; a child with children by mix_tree, which gives where its
 * own children ended, where the next child starts unless its
 * DW_AT_sibling says otherwise (then the reader's step, as for anything
 * else out of the common case). The words are those of the general path.
 */
static inline __attribute__((always_inline)) int mix_children(struct lbtfi_dw_reuse_unit *u, struct hash128 *h,
							       struct lbtfi_dw_die *c, int depth, bool *none,
							       const uint8_t **after)
{
	const struct lbtfi_dr_unit *cu = c->u;
	const struct lbtfi_dr_abbrev *last_ab = NULL;
	const struct lbtfi_dw_plan *last_pl = NULL;
	unsigned int last_code = NO_CODE; /* last_ab's one-byte code */
	bool linear = true;
	int err;

	*after = NULL;
	for (;;) {
		const struct lbtfi_dr_abbrev *ab = c->ab;
		const uint8_t *next;

		if (!ab->children && depth <= SIG_MAX_DEPTH) {
			const uint8_t *seg[1] = { c->p };
			const struct lbtfi_dw_plan *pl = last_pl;

			/* (the previous child's abbreviation, as members mostly
			 * share one: its plan, its checks passed) */
			if (ab != last_ab && !ab->nvar && !(ab->slots & INTEGRATED) &&
			    (pl = lbtfi_dw_plan_get(&u->sigs.plans, c))) {
				last_ab = ab, last_pl = pl;
				last_code = ab - cu->byc < 0x7f ? (unsigned int)(ab - cu->byc) + 1 : NO_CODE;
			}
			if (ab == last_ab && ab->tail <= cu->end - c->p) {
				if (pl->fixed) {
					err = run_fixed_children(u, h, c, pl, last_code, depth, none);
				} else {
					c->end = c->p + ab->tail;
					err = run_plan(u, h, cu, ab, pl, seg, depth, none);
				}
			} else if (ab->nvar || (ab->slots & INTEGRATED) || ab->tail > cu->end - c->p) {
				struct hash128 t = *h;

				err = mix_attrs(u, &t, c, depth, none);
				*h = t;
			} else {
				struct hash128 t = *h;

				c->end = c->p + ab->tail;
				err = run_new_plan(u, &t, c, seg, depth, none);
				*h = t;
			}
			next = c->end;
		} else {
			struct hash128 t = *h;
			const uint8_t *end;

			err = mix_tree(u, &t, c, depth, none, &end);
			*h = t;
			next = linear && end && sibling_at(c, end) ? end : NULL;
		}
		if (err)
			return err;
		if (*none)
			break;
		if (next && next < cu->end) {
			if (!*next) {
				*after = linear ? next + 1 : NULL;
				break;
			}
			if (*next == last_code ||
			    (*next < 0x80 && *next <= cu->nbyc && cu->byc[*next - 1].specs)) {
				/* (lbtfi_dr_short_entry's step, c->u the same; the
				 * previous child's code passed its checks) */
				c->ab = &cu->byc[*next - 1];
				c->p = next + 1;
				c->off = (uint64_t)(next - cu->info);
				c->end = NULL;
				continue;
			}
		}
		/* (the reader's step: where it is, the walk no longer knows) */
		linear = false;
		if (!lbtfi_dr_sibling(c))
			break;
	}
	mix(h, 0xc0ffee);
	return 0;
}

/* One DIE and its children, into hp; *after as mix_children's (NULL
 * without children) */
static int mix_tree(struct lbtfi_dw_reuse_unit *u, struct hash128 *hp, struct lbtfi_dw_die *die, int depth,
		    bool *none, const uint8_t **after)
{
	struct lbtfi_dw_die c;
	struct hash128 h;
	int err;

	*after = NULL;
	if (depth > SIG_MAX_DEPTH) {
		*none = true;
		return 0;
	}
	if ((err = mix_attrs(u, hp, die, depth, none)))
		return err;
	if (!die->ab->children || !lbtfi_dr_child(die, &c))
		return 0;
	h = *hp;
	err = mix_children(u, &h, &c, depth + 1, none, after);
	*hp = h;
	return err;
}

/* One DIE and its children, into h (a DIE without children, as most
 * that references lead to: pointers, qualifiers, typedefs, base types,
 * by its attributes here, not through mix_tree's frame) */
static inline __attribute__((always_inline)) int mix_die(struct lbtfi_dw_reuse_unit *u, struct hash128 *h,
							  struct lbtfi_dw_die *die, int depth, bool *none)
{
	const uint8_t *after;

	if (!die->ab->children && depth <= SIG_MAX_DEPTH) {
		struct hash128 t = *h;
		int err = mix_attrs(u, &t, die, depth, none);

		*h = t;
		return err;
	}
	return mix_tree(u, h, die, depth, none, &after);
}

/* Each named aggregate once in a signature's edges: an entry met in the
 * signature being collected bears its round (a named entry stands for one
 * reference key, so that entries are the keys; two entries of one struct,
 * reached through two DW_AT_signature stubs, are both listed: a check
 * twice, only slower) */
static inline int add_edge(struct lbtfi_dw_sigs *s, uint32_t named)
{
	if (s->named[named].round == s->round)
		return 0;
	s->named[named].round = s->round;
	if (lbtfi_dw_grow(&s->edge, &s->capedge, s->nedge, sizeof(*s->edge), 1024))
		return -ENOMEM;
	s->edge[s->nedge++] = named;
	return 0;
}

static int collect_edges_merged(struct lbtfi_dw_sigs *s, const struct lbtfi_dw_die_slot *slots,
				struct lbtfi_dw_sig *g, uint32_t from);

/* The signature's edges: its own and those of the signatures it used
 * (in the DIE table's slots), each named aggregate once (inline: the
 * common cases, a few loads, in the frame of sig_at; collect_edges_merged
 * apart) */
static inline __attribute__((always_inline)) int collect_edges(struct lbtfi_dw_sigs *s,
								const struct lbtfi_dw_die_slot *slots,
								struct lbtfi_dw_sig *g, uint32_t from)
{
	if (s->nstack == from) { /* (nothing used has an edge) */
		g->edges = s->nedge;
		g->nedges = 0;
		return 0;
	}
	if (s->nstack - from == 1 && !(s->stack[from] & LBTFI_DW_SIG_NAMED)) {
		/* one signature with edges used (a pointer, typedef,
		 * qualifier of a type that is not a named aggregate): its
		 * edges, already each once, are the same range */
		g->edges = slots[s->stack[from]].sig.edges;
		g->nedges = slots[s->stack[from]].sig.nedges;
		return 0;
	}
	if (s->nstack - from == 1) {
		/* one named aggregate (a pointer to a named struct): listed
		 * once without a round */
		if (lbtfi_dw_grow(&s->edge, &s->capedge, s->nedge, sizeof(*s->edge), 1024))
			return -ENOMEM;
		g->edges = s->nedge;
		g->nedges = 1;
		s->edge[s->nedge++] = s->stack[from] & ~LBTFI_DW_SIG_NAMED;
		return 0;
	}
	return collect_edges_merged(s, slots, g, from);
}

/* collect_edges with several items used: their edges merged, each named
 * aggregate once (by round) */
static __attribute__((noinline)) int collect_edges_merged(struct lbtfi_dw_sigs *s,
							  const struct lbtfi_dw_die_slot *slots,
							  struct lbtfi_dw_sig *g, uint32_t from)
{
	uint32_t i, j;
	int err;

	if (++s->round == 0) { /* (wrapped: no entry may bear the new round) */
		for (i = 0; i < s->nnamed; i++)
			s->named[i].round = 0;
		s->round = 1;
	}
	g->edges = s->nedge;
	for (i = from; i < s->nstack; i++) {
		uint32_t it = s->stack[i];

		if (it & LBTFI_DW_SIG_NAMED) {
			if ((err = add_edge(s, it & ~LBTFI_DW_SIG_NAMED)))
				return err;
			continue;
		}
		for (j = 0; j < slots[it].sig.nedges; j++)
			if ((err = add_edge(s, s->edge[slots[it].sig.edges + j])))
				return err;
	}
	if (s->nedge - g->edges > LBTFI_DW_SIG_MAX_EDGES)
		return -ENOMEM; /* (more than its field holds) */
	g->nedges = s->nedge - g->edges;
	return 0;
}

/* The signature of die, in its slot in the DIE table, number *idx; sn:
 * that number, known (LBTFI_DW_NONE: looked up here); ref: a reference to
 * die by its key led here (noted in its slot at once: a reference to it
 * met in its own hash finds it in progress, as it would find the
 * signature). Inline: into ref_new, whose one call it is for nearly every
 * signature (a frame of its own cost ~25 instructions a signature) */
static inline __attribute__((always_inline)) int sig_at(struct lbtfi_dw_reuse_unit *u, struct lbtfi_dw_die *die,
							 uint32_t sn, uint32_t *idx, int depth, bool ref)
{
	struct lbtfi_dw_sigs *s = &u->sigs;
	struct hash128 h = { 0x243f6a8885a308d3ull, 0x13198a2e03707344ull };
	struct lbtfi_dw_die_slot *d = sn != LBTFI_DW_NONE ? &u->map.slots[sn] :
				      lbtfi_dw_dies_add(&u->map, lbtfi_dr_key(die));
	uint32_t base = s->nstack, outer = s->base;
	bool none = false;
	struct lbtfi_dw_sig *g;
	int err;

	if (!d)
		return -ENOMEM;
	*idx = sn != LBTFI_DW_NONE ? sn : (uint32_t)(d - u->map.slots);
	if (d->sig.nedges != LBTFI_DW_SIG_NEW) {
		if (ref)
			d->ref = *idx;
		if (d->sig.nedges == LBTFI_DW_SIG_BUSY)
			d->sig.nedges = LBTFI_DW_SIG_NONE; /* a cycle with no name on it */
		return 0;
	}
	if (*idx >= LBTFI_DW_SIG_NAMED) /* (not to be told from a named entry) */
		return -ENOMEM;
	d->sig.nedges = LBTFI_DW_SIG_BUSY;
	if (ref)
		d->ref = *idx;
	s->base = base;
	err = mix_die(u, &h, die, depth, &none);
	s->base = outer;
	g = &u->map.slots[*idx].sig; /* (the hash may have moved the slots) */
	/* (done by its edges' count; busy still: no cycle through it) */
	if (err || none || g->nedges != LBTFI_DW_SIG_BUSY ||
	    (err = collect_edges(s, u->map.slots, g, base))) {
		g->nedges = LBTFI_DW_SIG_NONE;
	} else {
		g->a = h.a;
		g->b = h.b;
	}
	s->nstack = base;
	return err;
}

const struct lbtfi_dw_sig *lbtfi_dw_sig_hash(struct lbtfi_dw_reuse_unit *u, struct lbtfi_dw_die *die, uint32_t sn,
					     int *err)
{
	uint32_t idx;

	if (die->u->h != u->sigs.plans.h)
		lbtfi_dw_plans_use(&u->sigs.plans, die->u);
	/* (a DIE that is no aggregate and names no signature is what a
	 * reference to its key would lead to, sig_at the same: noted now,
	 * such a reference takes mix_known's path, not ref_new's reading
	 * of the DIE; an aggregate's reference is by name) */
	*err = sig_at(u, die, sn, &idx, 0, !aggregate_tag(lbtfi_dr_tag(die)) && !lbtfi_dw_names_signature(die));
	if (*err || !lbtfi_dw_sig_done(&u->map.slots[idx].sig))
		return NULL;
	return &u->map.slots[idx].sig;
}

const struct lbtfi_dw_sig *lbtfi_dw_sig_of(struct lbtfi_dw_reuse_unit *u, struct lbtfi_dw_die *die, int *err)
{
	return lbtfi_dw_sig_hash(u, die, LBTFI_DW_NONE, err);
}

void lbtfi_dw_sigs_init(struct lbtfi_dw_sigs *s)
{
	memset(s, 0, sizeof(*s));
}

void lbtfi_dw_sigs_clear(struct lbtfi_dw_sigs *s)
{
	s->nedge = s->nstack = s->base = s->nnamed = 0;
}

void lbtfi_dw_sigs_free(struct lbtfi_dw_sigs *s)
{
	free(s->named);
	free(s->edge);
	free(s->stack);
	lbtfi_dw_plans_free(&s->plans);
	memset(s, 0, sizeof(*s));
}
