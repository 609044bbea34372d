// SPDX-License-Identifier: BSD-2-Clause
/*
 * Pruning after dedup, in the builder itself: the kept records slide down
 * over the dropped ones in order (as dedup's own compaction left them),
 * their ids renumbered, and the strings only dropped types used go. What
 * goes:
 *  - Anonymous types (PTR, ARRAY, modifiers, FUNC_PROTO, anonymous
 *    struct/union) that no kept type refers to: nothing can reach them.
 *    A unit's DWARF describes the types of its local variables too; pahole
 *    keeps those, and so does its style (LBTF_DWARF_STYLE_PAHOLE): there
 *    only the prototypes of dropped FUNCs go (pahole makes a FUNC_PROTO
 *    for the functions it encodes; the types of their parameters are
 *    types of the unit, kept).
 *  - One FUNC per name. Static functions of the same name in different
 *    units (each with its own prototype) survive dedup as several FUNCs; a
 *    tracer attaching by name cannot tell them apart, and pahole emits one
 *    per name. The first in unit order is kept; the others go, with their
 *    DECL_TAGs and the FUNC_PROTOs nothing else refers to.
 *  - The base types clang's DWARF 5 carries only for DW_OP_convert in
 *    location expressions (INTs named DW_ATE_unsigned_16 and the like),
 *    and its 8-byte __ARRAY_SIZE_TYPE__ (the type of DW_TAG_subrange_type
 *    bounds; the BTF arrays index with the converter's 4-byte one), when
 *    no kept type refers to them: clang's own BTF has none.
 *  - A FWD nothing refers to when a struct/union of its name and flavour
 *    is kept: it says nothing more. (Dedup leaves such FWDs when the name
 *    has several definitions; whether one is left then depended on which
 *    units happened to be compared.)
 */
#include <stdlib.h>
#include <string.h>
#include "builder/internal.h"
#include "dedup/internal.h"
#include "internal.h"

struct prune {
	struct lbtf_builder *b;
	uint32_t start, cnt;
	uint8_t *drop;     /* per id - start */
	uint32_t *refs;    /* references to each type from kept types */
	uint32_t *newid;   /* per id - start */
	struct lbtfi_htab seen;  /* FUNC name offsets (finished: the hash is the key) */
	struct lbtfi_htab aggrs; /* the same for named structs/unions (aggr_key) */
	uint32_t *stack, sp; /* types found unreachable, their references not yet counted off */
	bool pahole;         /* keep unreferenced types but dropped FUNCs' prototypes */
};

/* Whether key (a FUNC's name offset, or a struct/union name offset with
 * its flavour in the top bit) was seen before; remembers it */
static bool name_seen(struct lbtfi_htab *set, uint32_t key)
{
	uint32_t h = lbtfi_hash_fin(key);

	LBTFI_HTAB_FOR_EACH(set, h, i, v)
		return true;
	lbtfi_htab_put(set, h, 0); /* sized for every key (count_keys): never full */
	return false;
}

static uint32_t aggr_key(const struct lbtf_type *t)
{
	bool is_union = lbtfi_eq_flavor(t) == LBTFI_FLAVOR_UNION;

	return t->name_off | (uint32_t)is_union << 31;
}

static int count_ref(uint32_t id, void *ctx)
{
	struct prune *p = ctx;

	if (id >= p->start && id < p->cnt)
		p->refs[id - p->start]++;
	return 0;
}

static int remap(uint32_t *slot, void *ctx)
{
	struct prune *p = ctx;

	if (*slot >= p->start && *slot < p->cnt)
		*slot = p->newid[*slot - p->start];
	return 0;
}

/* A type nothing can reach when no type refers to it: no name to be found
 * by (enums stay: their constants are looked up by name) */
static bool reachable_only_by_id(const struct lbtf_type *t)
{
	switch (lbtf_kind(t)) {
	case LBTF_KIND_PTR: case LBTF_KIND_ARRAY: case LBTF_KIND_CONST:
	case LBTF_KIND_VOLATILE: case LBTF_KIND_RESTRICT: case LBTF_KIND_TYPE_TAG:
	case LBTF_KIND_FUNC_PROTO:
		return true;
	case LBTF_KIND_STRUCT: case LBTF_KIND_UNION:
		return !t->name_off;
	default:
		return false;
	}
}

static void push_if_unreachable(struct prune *p, uint32_t id)
{
	if (id < p->start || id >= p->cnt || p->refs[id - p->start] || p->drop[id - p->start] ||
	    !reachable_only_by_id(lbtfi_btype(p->b, id)))
		return;
	p->drop[id - p->start] = 1;
	p->stack[p->sp++] = id;
}

static int unref(uint32_t id, void *ctx)
{
	struct prune *p = ctx;

	if (id >= p->start && id < p->cnt && p->refs[id - p->start]) {
		p->refs[id - p->start]--;
		push_if_unreachable(p, id);
	}
	return 0;
}

/* pahole's style: the prototype only dropped FUNC id referred to goes
 * (nothing further: the types of its parameters are the unit's). 1 when
 * it went. */
static uint32_t drop_dead_proto(struct prune *p, uint32_t id)
{
	const struct lbtf_type *t = lbtfi_btype(p->b, id);

	if (lbtf_kind(t) != LBTF_KIND_FUNC || !p->drop[id - p->start] ||
	    t->type < p->start || t->type >= p->cnt ||
	    p->refs[t->type - p->start] || p->drop[t->type - p->start])
		return 0;
	p->drop[t->type - p->start] = 1;
	return 1;
}

/*
 * Anonymous types no kept type refers to (a unit's pointer types used only
 * by local variables, whose DIEs are not converted; the prototype of a
 * dropped FUNC), and then what only they referred to. refs must count the
 * references from the kept types. Returns how many went.
 */
static uint32_t drop_unreachable(struct prune *p)
{
	uint32_t id, n = 0;

	p->sp = 0;
	for (id = p->start; id < p->cnt; id++) {
		if (!p->pahole)
			push_if_unreachable(p, id);
		else
			n += drop_dead_proto(p, id);
	}
	while (p->sp) {
		id = p->stack[--p->sp];
		n++;
		lbtf_type_read_type_ids(lbtfi_btype(p->b, id), unref, p);
	}
	return n;
}

/* Decide what goes; returns the number of dropped types */
static uint32_t mark(struct prune *p, uint32_t features)
{
	uint32_t id, n = lbtfi_dw_funcs_mark(p->b, p->start, p->cnt, p->drop, features);

	for (id = p->start; id < p->cnt; id++) {
		const struct lbtf_type *t = lbtfi_btype(p->b, id);

		if (lbtf_kind(t) == LBTF_KIND_FUNC && !p->drop[id - p->start] &&
		    name_seen(&p->seen, t->name_off)) {
			p->drop[id - p->start] = 1;
			n++;
		}
	}
	for (id = p->start; n && id < p->cnt; id++) {
		const struct lbtf_type *t = lbtfi_btype(p->b, id);

		if (lbtf_kind(t) == LBTF_KIND_DECL_TAG && t->type >= p->start && t->type < p->cnt &&
		    p->drop[t->type - p->start] && !p->drop[id - p->start]) {
			p->drop[id - p->start] = 1;
			n++;
		}
	}
	for (id = p->start; id < p->cnt; id++)
		if (!p->drop[id - p->start])
			lbtf_type_read_type_ids(lbtfi_btype(p->b, id), count_ref, p);
	/* (the prototypes only the dropped FUNCs used go here too) */
	n += drop_unreachable(p);
	for (id = p->start; id < p->cnt; id++) {
		const struct lbtf_type *t = lbtfi_btype(p->b, id);

		if ((lbtf_kind(t) == LBTF_KIND_STRUCT || lbtf_kind(t) == LBTF_KIND_UNION) &&
		    t->name_off)
			name_seen(&p->aggrs, aggr_key(t));
	}
	for (id = p->start; id < p->cnt; id++) {
		const struct lbtf_type *t = lbtfi_btype(p->b, id);

		if (lbtf_kind(t) == LBTF_KIND_FWD && !p->refs[id - p->start] &&
		    name_seen(&p->aggrs, aggr_key(t))) {
			p->drop[id - p->start] = 1;
			n++;
		}
	}
	for (id = p->start; id < p->cnt; id++) {
		const struct lbtf_type *t = lbtfi_btype(p->b, id);
		const char *name;

		if (lbtf_kind(t) != LBTF_KIND_INT || p->refs[id - p->start] || p->drop[id - p->start])
			continue;
		name = lbtf_builder_str(p->b, t->name_off);
		if (name && (!strncmp(name, "DW_ATE_", 7) || !strcmp(name, "__ARRAY_SIZE_TYPE__"))) {
			p->drop[id - p->start] = 1;
			n++;
		}
	}
	return n;
}

/*
 * The kept types slide down in id order, each one's references renumbered
 * right after its move (then lbtfi_dw_prune drops the strings nothing
 * refers to any more: dedup's string pass, the others keep their order and
 * offsets shift).
 * Dedup's compaction left the records in id order, back to back, so a
 * record never moves up over one not moved yet.
 */
static int compact(struct prune *p)
{
	struct lbtf_builder *b = p->b;
	uint32_t id, next = p->start;
	size_t nw = 0;

	for (id = p->start; id < p->cnt; id++)
		p->newid[id - p->start] = p->drop[id - p->start] ? 0 : next++;
	for (id = p->start; id < p->cnt; id++) {
		const struct lbtf_type *t = lbtfi_btype(b, id);
		size_t n = lbtfi_layout_words(b->lay, t);

		if (p->drop[id - p->start])
			continue;
		if (b->offs[id - p->start] < nw)
			return lbtfi_err(EINVAL, "type %u is out of order in the builder", id);
		memmove(b->words + nw, t, n * 4);
		b->offs[p->newid[id - p->start] - p->start] = (uint32_t)nw;
		lbtf_type_visit_type_ids((struct lbtf_type *)(b->words + nw), remap, p);
		nw += n;
	}
	b->nr_types = next - p->start;
	b->nwords = nw;
	return 0;
}

/*
 * The most keys each set gets: the FUNCs (seen); the named structs and
 * unions and every FWD (aggrs). The sets are sized for those, not for every
 * type (two tables of 4 MB for a kernel's 147k types, which made prune
 * the peak memory after dedup).
 */
static void count_keys(const struct prune *p, uint32_t *funcs, uint32_t *aggrs)
{
	uint32_t id;

	*funcs = *aggrs = 0;
	for (id = p->start; id < p->cnt; id++) {
		const struct lbtf_type *t = lbtfi_btype(p->b, id);

		switch (lbtf_kind(t)) {
		case LBTF_KIND_FUNC:
			++*funcs;
			break;
		case LBTF_KIND_STRUCT:
		case LBTF_KIND_UNION:
			*aggrs += t->name_off != 0;
			break;
		case LBTF_KIND_FWD: /* (looked up, and so added, named or not) */
			++*aggrs;
			break;
		}
	}
}

int lbtfi_dw_prune(struct lbtf_builder *b, uint32_t features, bool pahole, uint32_t *dropped)
{
	struct prune p = { .b = b, .pahole = pahole };
	uint32_t funcs, aggrs;
	size_t n;
	int err = 0;

	*dropped = 0;
	p.start = b->start_id;
	p.cnt = lbtf_builder_type_cnt(b);
	n = p.cnt - p.start;
	p.drop = calloc(n + 1, 1);
	p.refs = calloc(n + 1, sizeof(*p.refs));
	p.newid = calloc(n + 1, sizeof(*p.newid));
	p.stack = calloc(n + 1, sizeof(*p.stack));
	count_keys(&p, &funcs, &aggrs);
	if (!p.drop || !p.refs || !p.newid || !p.stack || lbtfi_htab_init(&p.seen, funcs, 2) ||
	    lbtfi_htab_init(&p.aggrs, aggrs, 2)) {
		err = lbtfi_err(ENOMEM, "out of memory");
		goto out;
	}
	*dropped = mark(&p, features);
	if (*dropped && (err = compact(&p)))
		*dropped = 0;
	/* (the only string pass after dedup: lbtfi_builder_dedup_types) */
	if (!err)
		err = lbtfi_dedup_strings(b);
out:
	free(p.drop);
	free(p.refs);
	free(p.newid);
	lbtfi_htab_free(&p.seen);
	lbtfi_htab_free(&p.aggrs);
	free(p.stack);
	return err;
}
