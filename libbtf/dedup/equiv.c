// SPDX-License-Identifier: BSD-2-Clause
/*
 * Type-graph equivalence for struct/union dedup: walk the candidate's graph
 * and a canonical type's graph in parallel, recording a hypothetical
 * mapping canonical id -> candidate id. Revisiting a canonical id must
 * agree with the recorded mapping (this is what makes cycles terminate).
 * Named types pair by the rules of equiv/internal.h (shared with btfgen's
 * reuse): a FWD is equivalent to a struct/union of the same name and
 * flavour, an enum declaration to any enum of its name.
 */
#include <stdlib.h>
#include "internal.h"

/* Compilers sometimes emit several identical copies of a type in one unit
 * (arrays, pointers, even structs); compare such copies structurally, to a
 * bounded depth, when the hypothetical map disagrees. */
#define IDENTICAL_MAX_DEPTH 16
#define IDENTICAL_MAX_NODES 4096

static bool is_fwd_kind(unsigned int k)
{
	return k == LBTF_KIND_FWD;
}

static bool identical(const struct dedup *d, uint32_t id1, uint32_t id2, int depth, int *budget)
{
	const struct lbtf_type *t1, *t2;

	if (id1 == id2 || d_resolve(d, id1) == d_resolve(d, id2))
		return true;
	/* the depth bounds cycles, the budget the fan-out of wide types */
	if (depth <= 0 || --*budget < 0)
		return false;
	t1 = dtype(d, id1);
	t2 = dtype(d, id2);
	if (t1->info != t2->info || !lbtfi_dedup_shape_equal(d, t1, t2))
		return false;
	D_FOR_EACH_TYPE_WORD(d, lbtf_kind(t1), lbtf_vlen(t1), i)
		if (!identical(d, ((const uint32_t *)t1)[i], ((const uint32_t *)t2)[i], depth - 1, budget))
			return false;
	return true;
}

/* (hypot_list has room for every id: a canonical id is added once per walk) */
static void hypot_add(struct dedup *d, uint32_t canon, uint32_t cand)
{
	d->hypot_list[d->hypot_cnt++] = canon;
	d->hypot[canon] = cand;
}

void lbtfi_dedup_clear_hypot(struct dedup *d)
{
	for (uint32_t i = 0; i < d->hypot_cnt; i++)
		d->hypot[d->hypot_list[i]] = D_NONE;
	d->hypot_cnt = 0;
	d->hypot_adjust_canon = false;
	d->eq_conflict = false;
}

/* If id is a FWD already resolved to a struct/union, that struct/union */
static uint32_t resolve_fwd(const struct dedup *d, uint32_t id)
{
	uint32_t r;

	if (!is_fwd_kind(d_kind(d, id)))
		return id;
	r = d_resolve(d, id);
	return is_fwd_kind(d_kind(d, r)) ? id : r;
}

/* A canonical id met again, paired with another candidate than before */
static __attribute__((noinline)) int visit_again(const struct dedup *d, uint32_t h, uint32_t cand_id)
{
	int budget = IDENTICAL_MAX_NODES;

	return identical(d, h, cand_id, IDENTICAL_MAX_DEPTH, &budget);
}

/* A new pair of records of other kinds or infos, or two enums */
static __attribute__((noinline)) int visit_odd(struct dedup *d, const struct lbtf_type *ct,
					       const struct lbtf_type *nt, uint32_t canon_id)
{
	unsigned int ck = lbtf_kind(ct), nk = lbtf_kind(nt);

	if ((is_fwd_kind(ck) || is_fwd_kind(nk)) && ck != nk) {
		/* a FWD and a definition: of one flavour, the FWD resolves */
		if (lbtfi_eq_flavor(ct) != lbtfi_eq_flavor(nt) ||
		    lbtfi_eq_named(lbtfi_eq_flavor(ct), is_fwd_kind(ck), is_fwd_kind(nk)) !=
			    LBTFI_EQ_RESOLVES)
			return 0;
		if (is_fwd_kind(nk) && canon_id < d->start_id)
			d->hypot_adjust_canon = true; /* base FWD cannot be resolved */
		return 1;
	}
	if (lbtf_is_enum(ct) && lbtf_is_enum(nt))
		return lbtfi_eq_enums(ct, nt);
	return 0;
}

/* A pair met for the first time: compare the two records */
static __attribute__((noinline)) int visit_new(struct dedup *d, uint32_t cand_id, uint32_t canon_id,
					       struct dedup_frame *f)
{
	const struct lbtf_type *ct, *nt;
	const struct d_type_words *tw;
	unsigned int k;

	hypot_add(d, canon_id, cand_id);
	ct = dtype(d, cand_id);
	nt = dtype(d, canon_id);
	if (ct->name_off != nt->name_off)
		return 0;
	if (ct->info != nt->info || lbtf_is_enum(ct))
		return visit_odd(d, ct, nt, canon_id);
	/* the common case: one kind and info */
	k = lbtf_kind(ct);
	if (!d_same_plain_words(d, k, (const uint32_t *)ct, (const uint32_t *)nt, d_rec_words(d, ct)) ||
	    k == LBTF_KIND_VAR || k == LBTF_KIND_DATASEC || k == LBTF_KIND_DECL_TAG)
		return 0; /* (those never part of a struct graph, never deduplicated) */
	/* records do not move during dedup: the pointers stay valid */
	tw = &d->tw[k];
	f->left = tw->fixed + tw->per_elem * lbtf_vlen(ct);
	f->stride = tw->stride;
	f->cw = (const uint32_t *)ct + tw->first;
	f->nw = (const uint32_t *)nt + tw->first;
	return f->left ? 2 : 1;
}

/*
 * Pair cand_id/canon_id met in the walk: <0 error, 0 not equivalent,
 * 1 equivalent, 2 equal so far: compare the type ids in their records.
 * Most pairs end here at once (already merged, or met before), so this
 * part is inlined in the walk and the rest is not.
 */
static inline int visit(struct dedup *d, uint32_t cand_id, uint32_t canon_id, struct dedup_frame *f)
{
	uint32_t h;

	if (d_resolve(d, cand_id) == d_resolve(d, canon_id))
		return 1;
	canon_id = resolve_fwd(d, canon_id);
	h = d->hypot[canon_id];
	if (h != D_NONE) {
		if (h == cand_id || visit_again(d, h, cand_id))
			return 1;
		/* (not a difference of the records: a later pass, with the
		 * copies merged, may find them equivalent) */
		d->eq_conflict = true;
		return 0;
	}
	return visit_new(d, cand_id, canon_id, f);
}

/*
 * 1 equivalent, 0 not, <0 error. A depth-first walk in the order of the
 * records' type-id slots, with an explicit stack: struct graphs can be
 * deep (a long chain of distinct structs), and the caller's thread may
 * have a small stack.
 */
int lbtfi_dedup_is_equiv(struct dedup *d, uint32_t cand_id, uint32_t canon_id)
{
	struct dedup_frame cur, next; /* the pair whose type ids are being visited */
	uint32_t sp = 0;              /* frames waiting on the stack below it */
	int r;

	r = visit(d, cand_id, canon_id, &cur);
	if (r != 2)
		return r;
	for (;;) {
		uint32_t cand = *cur.cw, canon = *cur.nw;

		cur.cw += cur.stride;
		cur.nw += cur.stride;
		cur.left--;
		r = visit(d, cand, canon, &next);
		if (r == 2) {
			/* a frame with no type ids left is done: not kept (a
			 * pointer's target, a struct's last member), so a chain
			 * of references does not deepen the stack */
			if (cur.left) {
				if (sp == d->eq_cap &&
				    LBTFI_GROW_FROM(d->eq_stack, d->eq_cap, sp + 1, 64))
					return lbtfi_err(ENOMEM, "out of memory in dedup");
				d->eq_stack[sp++] = cur;
			}
			cur = next;
			continue;
		}
		if (r <= 0)
			return r;
		if (!cur.left) {
			if (!sp)
				return 1;
			cur = d->eq_stack[--sp];
		}
	}
}

/*
 * After a successful check: resolve FWDs met in the walk to the concrete
 * struct/union they were paired with, and map candidate structs/unions to
 * their canonical partner right away (saves checking them again later).
 */
void lbtfi_dedup_merge_hypot(struct dedup *d)
{
	/*
	 * Only pairs with a FWD or a struct or union change anything below.
	 * In a walk that succeeded a pair is of one kind, or a FWD and a
	 * struct or union, and merging keeps kinds but for a FWD (resolved
	 * to a struct or union): so a candidate of another kind (most: the
	 * walk's pointers, qualifiers, prototypes) is passed over without
	 * resolving either side.
	 */
	const uint32_t cand_kinds = (1u << LBTF_KIND_FWD) | (1u << LBTF_KIND_STRUCT) |
				    (1u << LBTF_KIND_UNION);

	for (uint32_t i = 0; i < d->hypot_cnt; i++) {
		uint32_t canon = d->hypot_list[i], cand = d->hypot[canon], c_id, t_id;
		unsigned int ck, tk;

		if (!((1u << d_kind(d, cand)) & cand_kinds))
			continue;
		c_id = d_resolve(d, canon);
		t_id = d_resolve(d, cand);
		ck = d_kind(d, c_id);
		tk = d_kind(d, t_id);
		if (c_id == t_id)
			continue;
		if (!is_fwd_kind(tk) && is_fwd_kind(ck)) {
			if (c_id >= d->start_id)
				d->map[c_id] = t_id;
		} else if (is_fwd_kind(tk) && !is_fwd_kind(ck)) {
			if (t_id >= d->start_id)
				d->map[t_id] = c_id;
		}
		if ((tk == LBTF_KIND_STRUCT || tk == LBTF_KIND_UNION) && !is_fwd_kind(ck) &&
		    d_mapped(d, c_id) && !d_mapped(d, t_id) && t_id >= d->start_id)
			d->map[t_id] = c_id;
	}
}
