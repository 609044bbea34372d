// SPDX-License-Identifier: BSD-2-Clause
/*
 * Reuse of types converted in earlier units of a group.
 *
 * A kernel's units each carry their own copy of the same header types:
 * a vmlinux has ~3.7 million type DIEs for ~100 thousand distinct types.
 * A worker converts a group of consecutive units into one builder; a type
 * DIE whose signature (sig.c) equals that of a type converted in an
 * earlier unit of the group is given that type's id instead of being
 * converted, appended and deduplicated again.
 *
 * The signature covers the type's whole structure except its references to
 * named structs, unions and enums, which it takes by name. Those are
 * checked by id: the earlier type's graph is walked in the builder down to
 * the named types it refers to (its name map), and each one the new DIE
 * refers to must have, in this unit, the id the map gives. A check whose
 * target is not converted yet is queued until the unit ends; if one fails
 * then, the unit is converted again without reuse. Several types may share
 * a signature (they differ in the named types they reach): each is a
 * candidate.
 *
 * Named types pair as dedup pairs them (the rules are equiv/internal.h's,
 * shared with dedup): where one side has a declaration (FWD) and the other
 * a definition, dedup would pair the two and resolve the FWD to that
 * definition; the reuse records the same resolution for the group, and a
 * later pairing of that FWD with another definition fails. An enum
 * declaration matches any enum of its name. Such a pairing is what dedup
 * does only when the name has one definition in the whole input (the one
 * definition rule): with several, a type holding the declaration is
 * equivalent to several types that are not equivalent to each other, and
 * which one dedup picks depends on the order in which it meets them. So
 * each group lists the names it paired; the driver checks them against the
 * output (lbtfi_dw_defs_check) and converts the groups that paired a name with
 * several definitions again, without reuse. Not with reuse minus that name:
 * the types the group still reused (a pointer to a struct paired with its
 * one definition) come out in another order and shared, which changes the
 * order in which dedup meets the ambiguous types, and so its pick
 * (tests/btfgen/check_equiv_rules.sh, odr_enum_order). The output so holds
 * what a plain conversion followed by dedup would keep; tests compare the
 * two (--features default,-reuse) on a kernel, on crafted ODR cases and on
 * declaration/definition mixes.
 *
 * Everything depends on the group's units only, so the output is the same
 * at any number of threads.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/*
 * A type of an earlier unit, in the signature table (or pending): 16
 * bytes, four to a cache line. The table is the worker's largest hot
 * structure (up to 16,384 slots a group), probed once per type DIE at a
 * place its hash picks, and shares the caches with the unit being read:
 * at 24 bytes a slot it missed the last-level cache on most probes.
 * Keeps 96 bits of the 128-bit signature (a whole, b's low half): two
 * signatures of a group that agree on them and differ elsewhere are as
 * unlikely as a collision of the whole (~2^-96 per pair).
 */
struct rep {
	uint64_t a;      /* signature */
	uint32_t b;      /* (its b, low half) */
	uint32_t id;     /* 0: a free slot of the table */
};
/* Slots of a group's first signature table (a power of two) */
#define REP_TAB_FIRST 4096u

/* A named struct/union/enum or FWD an earlier type refers to */
struct name_ent {
	uint32_t name_off, id;
	uint8_t flavor;  /* enum lbtfi_flavor */
	bool fwd;        /* a declaration */
};

/* A type's name map: its entries in ents (8 bytes: one load beside the
 * signature table's on the path of every reuse) */
struct name_map {
	uint32_t start;
	uint32_t n : 30;
	uint32_t built : 1;     /* (a zeroed one: not made yet) */
	uint32_t ambiguous : 1; /* one name, several types: never reused */
};

/*
 * A reference checked when the unit ends. Dedup, finding two types equal
 * up to a FWD on one side, resolves that FWD to the struct/union on the
 * other; a reuse that relies on such a pair records the same resolution
 * (lbtfi_dw_group.fwd_to), which the group's builder gets at the end.
 */
enum want_kind {
	WANT_SAME,       /* the DIE's id is id */
	WANT_RESOLVES,   /* the DIE's id is what FWD id resolves to (or becomes it) */
	WANT_RESOLVED,   /* the DIE's id is a FWD that resolves to id (or comes to) */
};

struct want {
	struct lbtfi_dw_die die;
	uint32_t id;
	enum want_kind kind;
};

struct lbtfi_dw_group {
	/* the signature table: open addressing on a, the reps in the slots
	 * (one cache miss a lookup), at most 3/4 full (smaller, it is in
	 * the cache more often; most lookups find). Not util/htab.h: that
	 * table keeps a 32-bit hash and an index, so every probe would
	 * follow the index to a rep elsewhere to compare its 64-bit a and
	 * b; and one signature holds up to MAX_CANDIDATES reps that must
	 * stay in the order they were added (rep_grow keeps it), which a
	 * table that reinserts by hash alone does not promise */
	struct rep *tab;
	uint32_t mask, nreps;
	/* by type id - the builder's start_id: the last name map walk that
	 * met the type (an array: the group's types are numbered densely;
	 * the hashed set it replaces cost more than the walk), and the
	 * type's name map, made when a lookup first needs it (a type's map
	 * depends on its id only, whichever rep asks) */
	uint32_t *walked;
	struct name_map *map_of;
	uint32_t capwalked, walk;
	struct name_ent *ents;
	uint32_t nents, capents;
	struct rep *pending;        /* the unit's conversions, reusable once it ends */
	uint32_t npending, cappending;
	struct want *wants;
	uint32_t nwants, capwants;
	struct pair { uint32_t name_off; bool is_enum; } *pairs; /* names paired: the */
	uint32_t npairs, cappairs, unit_pairs; /* group's, then the unit's from unit_pairs */
	struct lbtfi_dw_diemap paired;    /* the group's, as a set (name_off << 1 | is_enum) */
	struct lbtfi_dw_diemap fwd_to;    /* FWD id -> the struct/union it resolves to */
	/* a name's address -> its offset in the group's builder, for the
	 * names found there (each unit looks the same ones up again) */
	struct lbtfi_dw_diemap name_offs;
	struct fwd_res { uint32_t fwd, def; } *fwd_log; /* resolutions, in order */
	uint32_t nfwd_log, capfwd_log, unit_fwds; /* (unit_fwds: before this unit) */
	bool on;                    /* reuse in the current unit */
};

struct lbtfi_dw_group *lbtfi_dw_group_new(void)
{
	struct lbtfi_dw_group *g = calloc(1, sizeof(*g));

	if (!g)
		return lbtfi_err_ptr(ENOMEM, "out of memory");
	g->tab = calloc(REP_TAB_FIRST, sizeof(*g->tab));
	g->mask = REP_TAB_FIRST - 1;
	if (!g->tab || lbtfi_dw_diemap_init(&g->fwd_to) || lbtfi_dw_diemap_init(&g->paired) ||
	    lbtfi_dw_diemap_init(&g->name_offs)) {
		lbtfi_dw_group_free(g);
		return lbtfi_err_ptr(ENOMEM, "out of memory");
	}
	return g;
}

void lbtfi_dw_group_free(struct lbtfi_dw_group *g)
{
	if (!g)
		return;
	free(g->tab);
	free(g->walked);
	free(g->map_of);
	lbtfi_dw_diemap_free(&g->fwd_to);
	lbtfi_dw_diemap_free(&g->paired);
	lbtfi_dw_diemap_free(&g->name_offs);
	free(g->pairs);
	free(g->fwd_log);
	free(g->ents);
	free(g->pending);
	free(g->wants);
	free(g);
}

void lbtfi_dw_group_unit_begin(struct lbtfi_dw_reuse_unit *u)
{
	lbtfi_dw_sigs_clear(&u->sigs);
	if (u->grp) {
		u->grp->npending = u->grp->nwants = 0;
		u->grp->unit_fwds = u->grp->nfwd_log;
		u->grp->unit_pairs = u->grp->npairs;
		u->grp->on = true;
	}
}

/* The signature table --------------------------------------------------------- */

/* Types of one signature that differ in the named types they refer to are
 * all kept as candidates, up to this many */
#define MAX_CANDIDATES 8

static inline uint32_t rep_home(const struct lbtfi_dw_group *g, uint64_t a)
{
	return (uint32_t)a & g->mask; /* (a is a hash) */
}

/*
 * Twice the slots. The old table is read from a free slot on, round: a
 * run of occupied slots is then met from its start, so that the reps of
 * one signature (one home slot) keep their order, the order they were
 * added in, which is the order in which they are tried.
 */
static int rep_grow(struct lbtfi_dw_group *g)
{
	uint32_t size = (g->mask + 1) * 2, old_mask = g->mask, start = 0, k;
	struct rep *old = g->tab, *t = calloc(size, sizeof(*t));

	if (!t)
		return lbtfi_err(ENOMEM, "out of memory");
	while (old[start].id)
		start++; /* (at most 3/4 full: there is one) */
	g->tab = t;
	g->mask = size - 1;
	for (k = 0; k <= old_mask; k++) {
		const struct rep *r = &old[(start + k) & old_mask];
		uint32_t i;

		if (!r->id)
			continue;
		for (i = rep_home(g, r->a); t[i].id; i = (i + 1) & g->mask)
			;
		t[i] = *r;
	}
	free(old);
	return 0;
}

static int rep_add(struct lbtfi_dw_group *g, const struct rep *r)
{
	unsigned int same = 0;
	uint32_t i;
	int err;

	if ((g->nreps + 1) * 4 > (g->mask + 1) * 3 && (err = rep_grow(g)))
		return err;
	for (i = rep_home(g, r->a); g->tab[i].id; i = (i + 1) & g->mask)
		if (g->tab[i].a == r->a && g->tab[i].b == r->b && ++same == MAX_CANDIDATES)
			return 0;
	g->tab[i] = *r;
	g->nreps++;
	return 0;
}

/* Name maps --------------------------------------------------------------------- */

struct walk {
	struct lbtfi_dw_group *g;
	const struct lbtf_builder *b;
	struct name_map *m;
	int err;
};

static void add_name(struct walk *w, const struct lbtf_type *t, uint32_t id)
{
	struct lbtfi_dw_group *g = w->g;
	bool fwd = lbtfi_eq_is_decl(t);
	uint8_t flavor = lbtfi_eq_flavor(t);
	uint32_t i;

	for (i = w->m->start; i < g->nents; i++) {
		struct name_ent *e = &g->ents[i];

		if (e->name_off != t->name_off || e->flavor != flavor)
			continue;
		if (e->id == id)
			return; /* (in the map: each name once, see map_lookup) */
		switch (lbtfi_eq_named(flavor, e->fwd, fwd)) {
		case LBTFI_EQ_SAME: /* two definitions: never reused */
			w->m->ambiguous = 1;
			break;
		case LBTFI_EQ_RESOLVES:
		case LBTFI_EQ_ENUM_DECL:
			/* the definition stands for both (dedup pairs them) */
			if (e->fwd)
				*e = (struct name_ent){ t->name_off, id, flavor, false };
			break;
		case LBTFI_EQ_DECLS:
			break;
		}
		return;
	}
	if (lbtfi_dw_grow(&g->ents, &g->capents, g->nents, sizeof(*g->ents), 256)) {
		w->err = -ENOMEM;
		return;
	}
	g->ents[g->nents++] = (struct name_ent){ t->name_off, id, flavor, fwd };
}

/*
 * Down to the named structs/unions (and FWDs) the type refers to. The
 * type-id words are read through the builder's layout of the kind, in the
 * order lbtf_type_visit_type_ids gives them (the fixed words, then each
 * element's), without a callback per word; the records are only read.
 */
static void walk_type(struct walk *w, uint32_t id, bool root)
{
	const struct lbtf_builder *b = w->b;
	const struct lbtfi_layout *l;
	const struct lbtf_type *t;
	const uint32_t *words;
	uint32_t m, i, n;

	if (w->err || id < b->start_id || id - b->start_id >= b->nr_types)
		return; /* void and base types name no struct of this builder */
	t = lbtfi_btype(b, id);
	if (!root && lbtfi_eq_flavor(t) != LBTFI_FLAVOR_NONE && (t->name_off || lbtf_kind(t) == LBTF_KIND_FWD)) {
		add_name(w, t, id);
		return;
	}
	if (w->g->walked[id - b->start_id] == w->g->walk)
		return; /* (met in this walk) */
	w->g->walked[id - b->start_id] = w->g->walk;
	l = &b->lay[lbtf_kind(t)];
	words = (const uint32_t *)t;
	for (m = l->fixed_type_mask; m; m &= m - 1)
		walk_type(w, words[__builtin_ctz(m)], false);
	if (l->elem_type_word < 0)
		return;
	words += l->fixed_words + l->elem_type_word;
	for (i = 0, n = lbtf_vlen(t); i < n; i++, words += l->elem_words)
		walk_type(w, *words, false);
}

/* Room in walked and map_of for every type of the builder b (new entries
 * zeroed); 0 or -ENOMEM */
static int walked_cover(struct lbtfi_dw_group *g, const struct lbtf_builder *b)
{
	struct name_map *m;
	uint32_t *n, cap, old = g->capwalked;

	if (b->nr_types <= old)
		return 0;
	cap = old ? old : 1024;
	while (cap < b->nr_types)
		cap *= 2;
	if (!(n = realloc(g->walked, (size_t)cap * sizeof(*n))))
		return -ENOMEM;
	memset(n + old, 0, (size_t)(cap - old) * sizeof(*n));
	g->walked = n;
	if (!(m = realloc(g->map_of, (size_t)cap * sizeof(*m))))
		return -ENOMEM; /* (walked grew: fine, the next call grows map_of) */
	memset(m + old, 0, (size_t)(cap - old) * sizeof(*m));
	g->map_of = m;
	g->capwalked = cap;
	return 0;
}

/* The name map of type id (index x in map_of), made now; NULL when out
 * of memory */
static __attribute__((noinline)) const struct name_map *name_map_make(struct lbtfi_dw_reuse_unit *u,
								      uint32_t id, uint32_t x)
{
	struct lbtfi_dw_group *g = u->grp;
	struct walk w = { g, u->b, NULL, 0 };

	if (walked_cover(g, u->b))
		return NULL;
	w.m = &g->map_of[x];
	*w.m = (struct name_map){ .start = g->nents };
	if (++g->walk == 0) { /* (stamps wrapped: none is of this walk) */
		memset(g->walked, 0, (size_t)g->capwalked * sizeof(*g->walked));
		g->walk = 1;
	}
	walk_type(&w, id, true);
	if (w.err)
		return NULL; /* (not built: made again at the next call) */
	w.m->n = g->nents - w.m->start;
	w.m->built = 1;
	return w.m;
}

/* The name map of type id, made at the first call, or NULL when out of
 * memory; valid until the next call (inline: most calls find it made) */
static inline const struct name_map *name_map(struct lbtfi_dw_reuse_unit *u, uint32_t id)
{
	struct lbtfi_dw_group *g = u->grp;
	uint32_t x = id - u->b->start_id; /* (id is a type of the builder) */

	if (x < g->capwalked && g->map_of[x].built)
		return &g->map_of[x];
	return name_map_make(u, id, x);
}

/*
 * The map's entry for the edge's struct/union, or NULL. A map holds each
 * name and flavour once (add_name), so where the search starts changes
 * nothing found: it starts after the entry found last (*hint), as a
 * signature's edges mostly come in the order of the map's entries, which
 * makes a type's check linear in its edges rather than quadratic.
 */
static const struct name_ent *map_lookup(struct lbtfi_dw_reuse_unit *u, const struct name_map *m,
					 struct lbtfi_dw_edge *e, uint32_t *hint)
{
	const struct name_ent *ents = u->grp->ents + m->start;
	uint32_t i, k;

	if (!e->name_off) {
		uint32_t *known = lbtfi_dw_diemap_get(&u->grp->name_offs, (uintptr_t)e->name);
		int64_t off;

		if (known) {
			e->name_off = *known;
		} else if ((off = lbtfi_strset_find(&u->b->strs, e->name)) < 0) {
			e->name_off = UINT32_MAX;
		} else {
			e->name_off = (uint32_t)off + u->b->start_str_off;
			/* (not remembered when out of memory: looked up again) */
			lbtfi_dw_diemap_put(&u->grp->name_offs, (uintptr_t)e->name, e->name_off);
		}
	}
	if (e->name_off == UINT32_MAX)
		return NULL;
	for (k = 0, i = *hint < m->n ? *hint : 0; k < m->n; k++, i = i + 1 < m->n ? i + 1 : 0)
		if (ents[i].name_off == e->name_off && ents[i].flavor == e->flavor) {
			*hint = i + 1;
			return &ents[i];
		}
	return NULL;
}

/* Finding, checking, committing ------------------------------------------------- */

/* What FWD id resolves to in this group, 0 if nothing yet */
static uint32_t fwd_target(const struct lbtfi_dw_group *g, uint32_t id)
{
	uint32_t *v = id ? lbtfi_dw_diemap_get(&g->fwd_to, id) : NULL; /* (0 is the map's empty key) */

	return v ? *v : 0;
}

/*
 * Whether a want holds for a DIE whose id is have; may record a FWD
 * resolution when commit is set (the unit's end), else leaves undecided
 * ones as they are. 1 holds, 0 fails, 2 undecided, <0 error.
 */
static int want_holds(struct lbtfi_dw_reuse_unit *u, const struct want *w, uint32_t have, bool commit)
{
	struct lbtfi_dw_group *g = u->grp;
	const struct lbtf_builder *b = u->b;
	uint32_t fwd, def, to;
	int err;

	if (w->kind == WANT_SAME)
		return have == w->id; /* (the common case: no record read) */
	fwd = w->kind == WANT_RESOLVES ? w->id : have;
	def = w->kind == WANT_RESOLVES ? have : w->id;
	if (fwd < b->start_id || fwd - b->start_id >= b->nr_types ||
	    lbtf_kind(lbtfi_btype(b, fwd)) != LBTF_KIND_FWD)
		return have == w->id;
	to = fwd_target(g, fwd);
	if (to)
		return to == def;
	if (!commit)
		return 2;
	if (lbtfi_dw_grow(&g->fwd_log, &g->capfwd_log, g->nfwd_log, sizeof(*g->fwd_log), 64) ||
	    (err = lbtfi_dw_diemap_put(&g->fwd_to, fwd, def)))
		return lbtfi_err(ENOMEM, "out of memory");
	g->fwd_log[g->nfwd_log++] = (struct fwd_res){ fwd, def };
	return 1;
}

static int add_want(struct lbtfi_dw_group *g, const struct lbtfi_dw_edge *e, uint32_t id, enum want_kind kind)
{
	if (lbtfi_dw_grow(&g->wants, &g->capwants, g->nwants, sizeof(*g->wants), 256))
		return lbtfi_err(ENOMEM, "out of memory");
	g->wants[g->nwants++] = (struct want){ e->die, id, kind };
	return 0;
}

/*
 * Whether the DIE with signature s may be given the type id: every named
 * struct/union it refers to must be, in this unit, the one id refers to;
 * with a FWD on one side, the other side is what that FWD resolves to.
 * An enum declaration on either side matches, as in dedup (which resolves
 * nothing there). Targets not converted yet are queued. 1, 0, <0.
 */
static int try_rep(struct lbtfi_dw_reuse_unit *u, struct lbtfi_dw_die *die, const struct lbtfi_dw_sig *s, uint32_t id,
		   const struct name_map *m)
{
	struct lbtfi_dw_group *g = u->grp;
	uint32_t i, first_want = g->nwants, first_pair = g->npairs, hint = 0;
	uint64_t key = lbtfi_dr_key(die);
	int err;

	if (m->ambiguous)
		return 0;
	for (i = 0; i < s->nedges; i++) {
		struct lbtfi_dw_edge *e = &u->sigs.named[u->sigs.edge[s->edges + i]];
		const struct name_ent *ne = map_lookup(u, m, e, &hint);
		enum lbtfi_eq_named r;
		struct want w;
		const struct lbtfi_dw_die_slot *d;

		if (!ne)
			goto miss;
		r = lbtfi_eq_named(e->flavor, !e->is_def, ne->fwd);
		/* a declaration on one side, a definition on the other */
		if (lbtfi_eq_pairs_decl(r)) {
			if (lbtfi_dw_grow(&g->pairs, &g->cappairs, g->npairs, sizeof(*g->pairs), 64))
				return lbtfi_err(ENOMEM, "out of memory");
			g->pairs[g->npairs++] = (struct pair){ e->name_off,
							       e->flavor == LBTFI_FLAVOR_ENUM };
		}
		if (r == LBTFI_EQ_DECLS || r == LBTFI_EQ_ENUM_DECL)
			continue; /* nothing to resolve */
		w.id = ne->id;
		w.kind = r == LBTFI_EQ_SAME ? WANT_SAME : ne->fwd ? WANT_RESOLVES : WANT_RESOLVED;
		/* the DIE itself (to be id; the converter marks nothing
		 * before it asks), else its id if it has one: in progress, a
		 * type being converted anew: not the one there, but what a
		 * FWD there may still resolve to */
		d = e->key == key ? NULL : lbtfi_dw_dies_get(&u->map, e->key);
		if (e->key == key || (d && d->id != LBTFI_DW_NONE)) {
			uint32_t have = d ? d->id : id;

			if (have == LBTFI_DW_ID_IN_PROGRESS)
				err = w.kind == WANT_RESOLVES ? 2 : 0;
			else if (w.kind == WANT_SAME) /* (most: no call) */
				err = have == w.id;
			else
				err = want_holds(u, &w, have, false);
			if (err < 0)
				return err;
			if (!err)
				goto miss;
			if (err == 1)
				continue;
		}
		if ((err = add_want(g, e, w.id, w.kind)))
			return err;
	}
	return 1;
miss:
	g->nwants = first_want;
	g->npairs = first_pair;
	return 0;
}

int64_t lbtfi_dw_reuse_find(struct lbtfi_dw_reuse_unit *u, struct lbtfi_dw_die *die, uint32_t sn)
{
	struct lbtfi_dw_group *g = u->grp;
	const struct lbtfi_dw_sig *s;
	const struct name_map *m;
	struct rep *r;
	uint32_t i;
	int err;

	if (!g || !g->on)
		return 0;
	s = lbtfi_dw_sig_of_slot(u, die, sn, &err);
	if (!s)
		return err;
	/* (the unit's conversions join the table only when it ends) */
	for (i = rep_home(g, s->a); (r = &g->tab[i])->id; i = (i + 1) & g->mask) {
		uint32_t id = r->id;

		if (r->a != s->a || r->b != (uint32_t)s->b)
			continue;
		/* a signature without edges (no named struct, union or enum
		 * reached: sig.c lists each as one) is that of a type whose
		 * map has no definition (anonymous FWDs at most), which
		 * try_rep would take without a check: not built (162k maps
		 * built, a walk of the builder's graph each, before this) */
		if (!s->nedges)
			return id;
		if (!(m = name_map(u, id)))
			return lbtfi_err(ENOMEM, "out of memory");
		err = try_rep(u, die, s, id, m);
		if (err < 0)
			return err;
		if (err)
			return id;
	}
	return 0;
}

int lbtfi_dw_reuse_note(struct lbtfi_dw_reuse_unit *u, struct lbtfi_dw_die *die, uint32_t sn, uint32_t id)
{
	struct lbtfi_dw_group *g = u->grp;
	const struct lbtfi_dw_sig *s;
	int err;

	if (!g || !g->on || !id)
		return 0;
	s = lbtfi_dw_sig_of_slot(u, die, sn, &err); /* (memoised by lbtfi_dw_reuse_find) */
	if (!s)
		return err;
	if (lbtfi_dw_grow(&g->pending, &g->cappending, g->npending, sizeof(*g->pending), 1024))
		return lbtfi_err(ENOMEM, "out of memory");
	g->pending[g->npending++] = (struct rep){ s->a, (uint32_t)s->b, id };
	return 0;
}

int lbtfi_dw_reuse_verify(struct lbtfi_dw_reuse_unit *u)
{
	struct lbtfi_dw_group *g = u->grp;
	uint32_t i;

	if (!g || !g->on)
		return 0;
	/* (converting a target may queue more) */
	for (i = 0; i < g->nwants; i++) {
		struct lbtfi_dw_die die = g->wants[i].die;
		int64_t id = u->type_id(u, &die);
		int r;

		if (id < 0)
			return (int)id;
		r = want_holds(u, &g->wants[i], (uint32_t)id, true);
		if (r <= 0)
			return r < 0 ? r : 1;
	}
	return 0;
}

int lbtfi_dw_reuse_commit(struct lbtfi_dw_reuse_unit *u)
{
	struct lbtfi_dw_group *g = u->grp;
	uint32_t i;
	int err;

	if (!g)
		return 0;
	for (i = 0; i < g->npending; i++)
		if ((err = rep_add(g, &g->pending[i])))
			return err;
	g->npending = g->nwants = 0;
	/* the unit's pairings, once per name */
	for (i = g->unit_pairs; i < g->npairs; i++) {
		uint64_t key = (uint64_t)g->pairs[i].name_off << 1 | g->pairs[i].is_enum;

		if (lbtfi_dw_diemap_get(&g->paired, key))
			continue;
		if (lbtfi_dw_diemap_put(&g->paired, key, 1))
			return lbtfi_err(ENOMEM, "out of memory");
		g->pairs[g->unit_pairs++] = g->pairs[i];
	}
	g->npairs = g->unit_pairs;
	return 0;
}

void lbtfi_dw_reuse_abort(struct lbtfi_dw_reuse_unit *u)
{
	struct lbtfi_dw_group *g = u->grp;
	uint32_t i;

	lbtfi_dw_sigs_clear(&u->sigs);
	if (!g)
		return;
	g->npending = g->nwants = 0;
	g->npairs = g->unit_pairs;
	g->on = false;
	/* (the unit's strings are gone from the builder) */
	lbtfi_dw_diemap_clear(&g->name_offs);
	if (g->nfwd_log == g->unit_fwds)
		return;
	/* forget the unit's FWD resolutions (a map has no delete: rebuilt) */
	lbtfi_dw_diemap_clear(&g->fwd_to);
	g->nfwd_log = g->unit_fwds;
	for (i = 0; i < g->nfwd_log; i++) /* (fewer than before: no growth) */
		lbtfi_dw_diemap_put(&g->fwd_to, g->fwd_log[i].fwd, g->fwd_log[i].def);
}

/* A type-id word w of the group's builder b pointed at what the FWD it
 * names resolves to; the map is asked only for the ids set in fwds (by id
 * - start), all when there is no fwds */
static inline void resolve_word(uint32_t *w, const struct lbtf_builder *b, const uint64_t *fwds,
				const struct lbtfi_dw_group *g)
{
	uint32_t x = *w - b->start_id, to;

	if (x < b->nr_types && (!fwds || (fwds[x / 64] >> (x % 64) & 1)) && (to = fwd_target(g, *w)))
		*w = to;
}

/*
 * Each type-id word of the group's types that names a FWD the reuse
 * resolved is pointed at its struct/union. The words are read through
 * the builder's layout, as walk_type reads them, and tested against a
 * bitmap of the resolved FWDs' ids before the map is asked: nearly every
 * word names something else, and a map lookup per word of every type of
 * the group cost more than the rest of this.
 */
void lbtfi_dw_group_finish(struct lbtfi_dw_reuse_unit *u)
{
	struct lbtfi_dw_group *g = u->grp;
	const struct lbtf_builder *b = u->b;
	uint64_t *fwds;
	uint32_t i, k;

	if (!g || !g->nfwd_log)
		return;
	/* (NULL when out of memory: then every word is looked up) */
	fwds = calloc(b->nr_types / 64 + 1, sizeof(*fwds));
	for (k = 0; fwds && k < g->nfwd_log; k++) {
		uint32_t x = g->fwd_log[k].fwd - b->start_id; /* (a type of b: want_holds) */

		if (x < b->nr_types)
			fwds[x / 64] |= 1ull << (x % 64);
	}
	for (i = 0; i < b->nr_types; i++) {
		struct lbtf_type *t = lbtfi_btype(b, b->start_id + i);
		const struct lbtfi_layout *l = &b->lay[lbtf_kind(t)];
		uint32_t *words = (uint32_t *)t, m, n;

		for (m = l->fixed_type_mask; m; m &= m - 1)
			resolve_word(&words[__builtin_ctz(m)], b, fwds, g);
		if (l->elem_type_word < 0)
			continue;
		words += l->fixed_words + l->elem_type_word;
		for (k = 0, n = lbtf_vlen(t); k < n; k++, words += l->elem_words)
			resolve_word(words, b, fwds, g);
	}
	free(fwds);
}

/* Paired names, as lbtfi_dw_group_paired_names() lists them: a flavour byte, the
 * name, a NUL */
#define PAIRED_STRUCT 's'
#define PAIRED_ENUM 'e'

int lbtfi_dw_group_paired_names(struct lbtfi_dw_reuse_unit *u, char **names, size_t *len)
{
	struct lbtfi_dw_group *g = u->grp;
	size_t n = 0;
	uint32_t i;

	*names = NULL;
	*len = 0;
	if (!g || !g->npairs)
		return 0;
	for (i = 0; i < g->npairs; i++)
		n += strlen(lbtf_builder_str(u->b, g->pairs[i].name_off)) + 2;
	*names = malloc(n);
	if (!*names)
		return lbtfi_err(ENOMEM, "out of memory");
	for (i = 0; i < g->npairs; i++) {
		const char *name = lbtf_builder_str(u->b, g->pairs[i].name_off);
		size_t l = strlen(name) + 1;

		(*names)[(*len)++] = g->pairs[i].is_enum ? PAIRED_ENUM : PAIRED_STRUCT;
		memcpy(*names + *len, name, l);
		*len += l;
	}
	return 0;
}

/* Checking the pairings against the output ------------------------------------ */

int lbtfi_dw_defs_init(struct lbtfi_dw_defs *defs, const struct lbtf_builder *out, bool shapes)
{
	uint32_t id, end = lbtf_builder_type_cnt(out);
	int err;

	defs->out = out;
	if ((err = lbtfi_eq_defs_init(&defs->defs)))
		return err;
	for (id = out->start_id; id < end && !err; id++) {
		const struct lbtf_type *t = lbtfi_btype(out, id);

		if (lbtfi_eq_is_def(t))
			err = lbtfi_eq_defs_add(&defs->defs, t,
						shapes ? lbtfi_eq_def_shape(out, t) : id);
	}
	if (err)
		lbtfi_eq_defs_free(&defs->defs);
	return err;
}

void lbtfi_dw_defs_free(struct lbtfi_dw_defs *defs)
{
	lbtfi_eq_defs_free(&defs->defs);
}

int lbtfi_dw_defs_check(const struct lbtfi_dw_defs *defs, const char *names, size_t len)
{
	const struct lbtf_builder *out = defs->out;
	size_t i = 0;
	int bad = 0;

	while (i < len) {
		bool is_enum = names[i] == PAIRED_ENUM;
		const char *name = names + i + 1;
		int64_t off = lbtfi_strset_find(&out->strs, name);
		uint32_t v;

		i += strlen(name) + 2;
		if (off < 0 ||
		    !lbtfi_eq_defs_get(&defs->defs, (uint32_t)off + out->start_str_off,
				       is_enum ? LBTFI_FLAVOR_ENUM : LBTFI_FLAVOR_STRUCT, &v) ||
		    v != LBTFI_EQ_SEVERAL)
			continue;
		bad++;
	}
	return bad;
}
