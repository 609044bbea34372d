// SPDX-License-Identifier: BSD-2-Clause
/*
 * Split BTF over a distilled base (lbtf_distill_base): what an out-of-tree
 * module carries (.BTF over .BTF.base) so that the kernel can relocate it
 * onto whatever vmlinux it is loaded into, by names and sizes. The layout
 * is libbpf's (btf__distill_base, pahole's distilled_base):
 *
 *  - the base types the split BTF reaches are found by following its type
 *    ids into the base, but not through a named struct or union (the
 *    distilled base keeps no members);
 *  - the distilled base holds, in base id order, the reached INT, FLOAT and
 *    FWD records as they are, named STRUCT/UNION as memberless types of the
 *    same size, named ENUM/ENUM64 as memberless ENUMs of the same size;
 *  - everything else reached (pointers, arrays, typedefs, qualifiers, type
 *    tags, prototypes, anonymous structs, unions and enums) is copied into
 *    the new split BTF after its own types, in base id order;
 *  - type ids are rewritten: reached base types to their new ids, split
 *    types moved down by how much smaller the base became.
 */
#include <errno.h>
#include <stdlib.h>
#include "internal.h"

struct distill {
	const struct lbtf *src;   /* the split BTF */
	uint32_t start;           /* its first id: the old base's type count */
	uint32_t *map;            /* old base id -> new id; 1 marks "reached" */
	uint32_t *stack, nstack;
	uint32_t shift;           /* old split id - new split id */
};

static bool is_named_composite(const struct lbtf_type *t)
{
	unsigned int k = lbtf_kind(t);

	return t->name_off && (k == LBTF_KIND_STRUCT || k == LBTF_KIND_UNION);
}

/* A base type the split BTF reaches: marked, and walked on unless its
 * members are dropped anyway */
static int reach(uint32_t id, void *ctx)
{
	struct distill *d = ctx;
	const struct lbtf_type *t;

	if (!id || id >= d->start || d->map[id])
		return 0;
	t = lbtf_type_by_id(d->src, id);
	switch (lbtf_kind(t)) {
	case LBTF_KIND_INT: case LBTF_KIND_FLOAT: case LBTF_KIND_FWD: case LBTF_KIND_ARRAY:
	case LBTF_KIND_STRUCT: case LBTF_KIND_UNION: case LBTF_KIND_TYPEDEF:
	case LBTF_KIND_ENUM: case LBTF_KIND_ENUM64: case LBTF_KIND_PTR: case LBTF_KIND_CONST:
	case LBTF_KIND_RESTRICT: case LBTF_KIND_VOLATILE: case LBTF_KIND_FUNC_PROTO:
	case LBTF_KIND_TYPE_TAG:
		break;
	default:
		return lbtfi_err(EINVAL, "split BTF refers to base type [%u], a %s, which a distilled base cannot hold",
				 id, lbtf_kind_name(lbtf_kind(t)));
	}
	d->map[id] = 1;
	if (!is_named_composite(t))
		d->stack[d->nstack++] = id; /* each base id is pushed at most once */
	return 0;
}

static int mark_reached(struct distill *d)
{
	uint32_t n = lbtf_type_cnt(d->src);
	int err;

	for (uint32_t id = d->start; id < n; id++)
		if ((err = lbtf_type_read_type_ids(lbtf_type_by_id(d->src, id), reach, d)))
			return err;
	while (d->nstack)
		if ((err = lbtf_type_read_type_ids(lbtf_type_by_id(d->src, d->stack[--d->nstack]), reach, d)))
			return err;
	return 0;
}

/* Where a reached base type goes: into the distilled base or the split */
static bool goes_to_base(const struct lbtf_type *t)
{
	switch (lbtf_kind(t)) {
	case LBTF_KIND_INT: case LBTF_KIND_FLOAT: case LBTF_KIND_FWD:
		return true;
	case LBTF_KIND_STRUCT: case LBTF_KIND_UNION: case LBTF_KIND_ENUM: case LBTF_KIND_ENUM64:
		return t->name_off != 0;
	default:
		return false;
	}
}

static int add_to_base(struct distill *d, struct lbtf_builder *b, uint32_t id)
{
	const struct lbtf_type *t = lbtf_type_by_id(d->src, id);
	const char *name = lbtf_name_by_offset(d->src, t->name_off);

	switch (lbtf_kind(t)) {
	case LBTF_KIND_STRUCT:
		return lbtf_builder_add_struct(b, name, t->size);
	case LBTF_KIND_UNION:
		return lbtf_builder_add_union(b, name, t->size);
	case LBTF_KIND_ENUM:
	case LBTF_KIND_ENUM64:
		/* relocation matches it with an ENUM or ENUM64 of that size */
		return lbtf_builder_add_enum(b, name, t->size, false);
	default:
		return lbtf_builder_add_type_copy(b, d->src, id);
	}
}

/* Reached base types of one destination, in base id order */
static int add_reached(struct distill *d, struct lbtf_builder *b, bool base)
{
	for (uint32_t id = 1; id < d->start; id++) {
		const struct lbtf_type *t;
		int nid;

		if (!d->map[id])
			continue;
		t = lbtf_type_by_id(d->src, id);
		if (goes_to_base(t) != base)
			continue;
		nid = base ? add_to_base(d, b, id) : lbtf_builder_add_type_copy(b, d->src, id);
		if (nid < 0)
			return nid;
		d->map[id] = (uint32_t)nid;
	}
	return 0;
}

static int renumber(uint32_t *slot, void *ctx)
{
	struct distill *d = ctx;

	if (*slot >= d->start)
		*slot -= d->shift;
	else if (*slot)
		*slot = d->map[*slot];
	return 0;
}

/* The distilled base as parsed BTF */
static struct lbtf *make_base(struct distill *d)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);
	struct lbtf *base = NULL;
	void *data = NULL;
	size_t size;

	if (!b)
		return NULL;
	if (!add_reached(d, b, true) && !lbtf_builder_serialize(b, false, &data, &size))
		base = lbtf_new(data, size, NULL);
	free(data);
	lbtf_builder_free(b);
	return base;
}

static struct lbtf *make_split(struct distill *d, const struct lbtf *base)
{
	struct lbtf_builder *b = lbtf_builder_new(base);
	uint32_t n = lbtf_type_cnt(d->src), cnt;
	struct lbtf *split = NULL;
	void *data = NULL;
	size_t size;
	int err = 0;

	struct lbtfi_import im;

	if (!b)
		return NULL;
	if (!(err = lbtfi_import_begin(&im, b, d->src, n - d->start, d->src->hdr.type_len / 4))) {
		err = lbtfi_import_range(&im, d->start, n, 0);
		lbtfi_import_end(&im);
	}
	if (err >= 0)
		err = add_reached(d, b, false);
	d->shift = d->start - lbtf_type_cnt(base);
	cnt = lbtf_builder_type_cnt(b);
	for (uint32_t id = lbtf_type_cnt(base); id < cnt && err >= 0; id++)
		err = lbtf_type_visit_type_ids(lbtf_builder_type_by_id(b, id), renumber, d);
	if (err >= 0 && !lbtf_builder_serialize(b, false, &data, &size))
		split = lbtf_new(data, size, base);
	free(data);
	lbtf_builder_free(b);
	return split;
}

int lbtf_distill_base(const struct lbtf *src, struct lbtf **new_base, struct lbtf **new_split)
{
	struct distill d = { .src = src };
	struct lbtf *base = NULL, *split = NULL;
	int err;

	if (!src || !new_base || !new_split)
		return lbtfi_err(EINVAL, "lbtf_distill_base: bad arguments");
	if (!lbtf_base(src))
		return lbtfi_err(EINVAL, "a distilled base needs split BTF (over a base)");
	d.start = lbtf_start_id(src);
	d.map = calloc(d.start, sizeof(*d.map));
	d.stack = malloc(d.start * sizeof(*d.stack));
	if (!d.map || !d.stack) {
		err = lbtfi_err(ENOMEM, "out of memory");
		goto out;
	}
	if ((err = mark_reached(&d)))
		goto out;
	base = make_base(&d);
	split = base ? make_split(&d, base) : NULL;
	if (!split) {
		err = errno ? -errno : -EINVAL;
		lbtf_free(base);
		goto out;
	}
	*new_base = base;
	*new_split = split;
out:
	free(d.map);
	free(d.stack);
	return err;
}
