// SPDX-License-Identifier: BSD-2-Clause
/*
 * Which base type each distilled base type stands for. The rules are
 * libbpf's btf__relocate() (src/btf_relocate.c), which the kernel runs on a
 * module's .BTF.base too, so that a module relocates here exactly as it
 * would at load time:
 *
 *  1. A distilled STRUCT/UNION that a split struct or union embeds (a
 *     member's type, through typedefs, qualifiers, type tags and array
 *     elements but not through a pointer) must have the base type's size:
 *     the split type's layout depends on it. Behind a pointer any size goes.
 *  2. Every named base INT, FLOAT, ENUM, ENUM64, FWD, STRUCT and UNION is
 *     looked up among the distilled types of its name: INT, FLOAT, ENUM and
 *     ENUM64 only among those of its size too, a STRUCT/UNION by size only
 *     when the base has more than one composite of that name (counted by
 *     name offset, as libbpf does: equal names share one in a base whose
 *     strings are deduplicated), a FWD by name alone.
 *  3. A candidate matches by its own kind:
 *       INT    a base INT of the same encoding (bits and offset unchecked)
 *       FLOAT  a base FLOAT
 *       ENUM   a base ENUM or ENUM64 (distillation writes both as ENUM)
 *       STRUCT, UNION  any base kind looked up in 2 (libbpf checks no kind
 *              here), of equal size when embedded (rule 1)
 *       FWD    a base FWD of the same kind flag; a base STRUCT whose kind
 *              flag is clear; a base UNION whose kind flag is set. (libbpf
 *              reads the base type's flag there, which for a struct or union
 *              means bitfield offsets, not the FWD's struct/union bit: a FWD
 *              never matches a struct with bitfields. Kept, since the kernel
 *              does the same.)
 *  4. A distilled type that two base types match is ambiguous (-EINVAL),
 *     and so is one that none matches. Base types are visited in id order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* A distilled type in the index sorted by name, then size */
struct dist_ent {
	const char *name;
	uint32_t size;
	uint32_t id;
};

static int cmp_ent(const void *a, const void *b)
{
	const struct dist_ent *x = a, *y = b;
	int d = strcmp(x->name, y->name);

	if (d)
		return d;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The first entry named name (n when none) */
static size_t first_named(const struct dist_ent *e, size_t n, const char *name)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(e[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(e[lo].name, name) ? lo : n;
}

static const char *dist_name(const struct lbtfi_reloc *r, uint32_t id)
{
	const char *s = lbtf_type_name(r->dist, lbtf_type_by_id(r->dist, id));

	return s ? s : "?";
}

/* Rule 1: marks in embedded[] the distilled composites a split composite
 * holds by value */
static int mark_embedded(const struct lbtfi_reloc *r, bool *embedded)
{
	for (uint32_t id = r->nr_dist; id < r->nr_split; id++) {
		const struct lbtf_type *t = lbtf_type_by_id(r->split, id);

		if (!lbtf_is_composite(t))
			continue;
		for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
			uint32_t next = lbtf_members(t)[i].type, steps = 0;

			while (next) {
				const struct lbtf_type *m = lbtf_type_by_id(r->split, next);

				/* ids were checked to be in range; a chain of
				 * more links than types loops */
				if (++steps > r->nr_split)
					return lbtfi_reloc_err(r, ELOOP, "type [%u] member %u: its chain of typedefs, qualifiers and arrays loops",
							       id, i);
				switch (lbtf_kind(m)) {
				case LBTF_KIND_TYPEDEF: case LBTF_KIND_CONST: case LBTF_KIND_VOLATILE:
				case LBTF_KIND_RESTRICT: case LBTF_KIND_TYPE_TAG:
					next = m->type;
					break;
				case LBTF_KIND_ARRAY:
					next = lbtf_array(m)->type;
					break;
				case LBTF_KIND_STRUCT: case LBTF_KIND_UNION:
					if (next < r->nr_dist)
						embedded[next] = true;
					next = 0;
					break;
				default:
					next = 0;
				}
			}
		}
	}
	return 0;
}

/* Rule 3: whether base type b can stand for distilled type d */
static bool kinds_match(const struct lbtf_type *d, const struct lbtf_type *b, bool embedded)
{
	unsigned int bk = lbtf_kind(b);

	switch (lbtf_kind(d)) {
	case LBTF_KIND_FWD:
		if (bk == LBTF_KIND_FWD)
			return lbtf_kflag(d) == lbtf_kflag(b);
		if (bk == LBTF_KIND_STRUCT)
			return !lbtf_kflag(b);
		return bk == LBTF_KIND_UNION && lbtf_kflag(b);
	case LBTF_KIND_INT:
		return bk == LBTF_KIND_INT && lbtf_int_encoding(b) == lbtf_int_encoding(d);
	case LBTF_KIND_FLOAT:
		return bk == LBTF_KIND_FLOAT;
	case LBTF_KIND_ENUM:
		return bk == LBTF_KIND_ENUM || bk == LBTF_KIND_ENUM64;
	case LBTF_KIND_STRUCT: case LBTF_KIND_UNION:
		return !embedded || b->size == d->size;
	default:
		return false;
	}
}

/* Rule 2: whether base type t is looked up, and if so by size too */
static bool looked_up(const struct lbtf_type *t, const uint8_t *composites, bool *by_size)
{
	switch (lbtf_kind(t)) {
	case LBTF_KIND_INT: case LBTF_KIND_FLOAT: case LBTF_KIND_ENUM: case LBTF_KIND_ENUM64:
		*by_size = true;
		return true;
	case LBTF_KIND_FWD:
		*by_size = false;
		return true;
	case LBTF_KIND_STRUCT: case LBTF_KIND_UNION:
		*by_size = composites[t->name_off] > 1;
		return true;
	default:
		return false;
	}
}

/* How many named base composites share each name offset (up to 2) */
static uint8_t *count_composites(const struct lbtfi_reloc *r)
{
	uint8_t *cnt = calloc(r->base_str_len ? r->base_str_len : 1, 1);

	if (!cnt)
		return NULL;
	for (uint32_t id = 1; id < r->nr_base; id++) {
		const struct lbtf_type *t = lbtf_type_by_id(r->base, id);

		if (lbtf_is_composite(t) && t->name_off && t->name_off < r->base_str_len &&
		    cnt[t->name_off] < 2)
			cnt[t->name_off]++;
	}
	return cnt;
}

/* Rules 2-4 for base type id against the index */
static int match_one(struct lbtfi_reloc *r, const struct dist_ent *ents, size_t n,
		     const bool *embedded, const uint8_t *composites, uint32_t id)
{
	const struct lbtf_type *b = lbtf_type_by_id(r->base, id);
	const char *name;
	bool by_size;

	if (!b->name_off || b->name_off >= r->base_str_len || !looked_up(b, composites, &by_size))
		return 0;
	name = lbtf_name_by_offset(r->base, b->name_off);
	if (!name)
		return 0;
	for (size_t i = first_named(ents, n, name); i < n && !strcmp(ents[i].name, name); i++) {
		uint32_t did = ents[i].id;
		const struct lbtf_type *d = lbtf_type_by_id(r->dist, did);

		if ((by_size && ents[i].size != b->size) || !kinds_match(d, b, embedded[did]))
			continue;
		if (r->id_map[did])
			return lbtfi_reloc_err(r, EINVAL, "distilled base type %s '%s' [%u] of size %u matches two base types, [%u] and [%u]: which one is ambiguous",
					       lbtf_kind_name(lbtf_kind(d)), name, did, d->size,
					       r->id_map[did], id);
		r->id_map[did] = id;
		r->str_map[d->name_off] = b->name_off;
	}
	return 0;
}

/* An INT's encoding bits as bpftool names them ("(none)", "SIGNED", ...) */
static void encoding_str(char *buf, size_t n, const struct lbtf_type *t)
{
	static const char *const names[] = { "SIGNED", "CHAR", "BOOL" };
	uint32_t e = lbtf_int_encoding(t);

	snprintf(buf, n, "%s", e ? "" : "(none)");
	for (unsigned int i = 0; i < 3; i++)
		if (e & (1u << i))
			snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", *buf ? "|" : "", names[i]);
}

/* Why distilled type id matched nothing: the first base type of its name,
 * told by what tells them apart, or that there is none */
static void near_miss(const struct lbtfi_reloc *r, uint32_t id, char *buf, size_t n)
{
	const struct lbtf_type *d = lbtf_type_by_id(r->dist, id), *b;
	int bid = lbtf_find_by_name(r->base, dist_name(r, id));
	char de[32], be[32];

	if (bid <= 0) {
		snprintf(buf, n, "no base type has that name");
		return;
	}
	b = lbtf_type_by_id(r->base, bid);
	if (lbtf_kind(d) == LBTF_KIND_INT && lbtf_kind(b) == LBTF_KIND_INT) {
		encoding_str(de, sizeof(de), d);
		encoding_str(be, sizeof(be), b);
		snprintf(buf, n, "the base's INT [%d] of that name has size %u, encoding %s; this one size %u, encoding %s",
			 bid, b->size, be, d->size, de);
		return;
	}
	snprintf(buf, n, "the base's first type of that name is [%d], a %s%s of size %u",
		 bid, lbtf_kind_name(lbtf_kind(b)),
		 lbtf_is_composite(b) && lbtf_kflag(b) ? " with bitfields (kind flag set)" : "",
		 lbtf_kind(b) == LBTF_KIND_FWD ? 0 : b->size);
}

int lbtfi_reloc_match(struct lbtfi_reloc *r)
{
	size_t n = r->nr_dist - 1;
	struct dist_ent *ents = calloc(n ? n : 1, sizeof(*ents));
	bool *embedded = calloc(r->nr_dist, sizeof(*embedded));
	uint8_t *composites = count_composites(r);
	int err = 0;

	if (!ents || !embedded || !composites) {
		err = lbtfi_reloc_err(r, ENOMEM, "out of memory relocating");
		goto out;
	}
	for (uint32_t id = 1; id < r->nr_dist; id++) {
		const struct lbtf_type *t = lbtf_type_by_id(r->dist, id);

		ents[id - 1] = (struct dist_ent){ dist_name(r, id), t->size, id };
	}
	qsort(ents, n, sizeof(*ents), cmp_ent);
	err = mark_embedded(r, embedded);
	for (uint32_t id = 1; !err && id < r->nr_base; id++)
		err = match_one(r, ents, n, embedded, composites, id);
	for (uint32_t id = 1; !err && id < r->nr_dist; id++) {
		const struct lbtf_type *d = lbtf_type_by_id(r->dist, id);
		char why[200];

		if (r->id_map[id])
			continue;
		near_miss(r, id, why, sizeof(why));
		err = lbtfi_reloc_err(r, EINVAL, "distilled base type %s '%s' [%u] (size %u%s) matches no type of the base: %s",
				      lbtf_kind_name(lbtf_kind(d)), dist_name(r, id), id, d->size,
				      embedded[id] ? ", embedded" : "", why);
	}
out:
	free(ents);
	free(embedded);
	free(composites);
	return err;
}
