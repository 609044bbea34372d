// SPDX-License-Identifier: BSD-2-Clause
/* Read access to parsed BTF: ids, names, lookups, sizes. */
#include <string.h>
#include "internal.h"

static const struct lbtf_type void_type;

uint32_t lbtf_type_cnt(const struct lbtf *btf)
{
	return btf->start_id + btf->nr_types;
}

uint32_t lbtf_start_id(const struct lbtf *btf)
{
	return btf->start_id;
}

const struct lbtf *lbtf_base(const struct lbtf *btf)
{
	return btf->base;
}

const struct lbtf_type *lbtf_type_by_id(const struct lbtf *btf, uint32_t id)
{
	if (id == 0)
		return &void_type;
	if (id < btf->start_id)
		return btf->base ? lbtf_type_by_id(btf->base, id) : NULL;
	if (id - btf->start_id >= btf->nr_types)
		return NULL;
	return (const struct lbtf_type *)(btf->types + btf->type_offs[id - btf->start_id]);
}

const char *lbtf_name_by_offset(const struct lbtf *btf, uint32_t off)
{
	if (off < btf->start_str_off)
		return btf->base ? lbtf_name_by_offset(btf->base, off) : NULL;
	off -= btf->start_str_off;
	if (off >= btf->hdr.str_len)
		return NULL;
	return btf->strs + off;
}

const char *lbtf_type_name(const struct lbtf *btf, const struct lbtf_type *t)
{
	return lbtf_name_by_offset(btf, t->name_off);
}

/* A type's name, "" for an offset outside the strings (never sorted) */
static const char *name_of(const struct lbtf *btf, uint32_t id)
{
	const char *s = lbtf_name_by_offset(btf, lbtf_type_by_id(btf, id)->name_off);

	return s ? s : "";
}

/*
 * libbpf's test (ad9c7634): the object's own types, in id order, have
 * names that never decrease; the named ones start at the first with a
 * name (anonymous ones sort first). 1 + that id, or 1 when not sorted (or
 * nothing is named, or there is one type: libbpf's answer too).
 */
static uint32_t check_sorted(const struct lbtf *btf)
{
	uint32_t end = lbtf_type_cnt(btf), named = 0;

	for (uint32_t id = btf->start_id + 1; id < end; id++) {
		const char *a = name_of(btf, id - 1), *b = name_of(btf, id);

		if (strcmp(a, b) > 0)
			return 1;
		if (!named && a[0])
			named = id - 1;
		if (!named && b[0])
			named = id;
	}
	return named ? named + 1 : 1;
}

uint32_t lbtf_sorted_from(const struct lbtf *btf)
{
	uint32_t v = __atomic_load_n(&btf->name_order, __ATOMIC_RELAXED);

	if (!v) {
		/* checked once, on the first lookup (a parse that never looks
		 * a name up pays nothing); threads sharing the object compute
		 * the same value */
		v = check_sorted(btf);
		__atomic_store_n(&((struct lbtf *)(uintptr_t)btf)->name_order, v, __ATOMIC_RELAXED);
	}
	return v - 1;
}

/* The first of btf's own ids from `from` whose name is not below name
 * (binary search over a sorted object), lbtf_type_cnt() if none */
static uint32_t lower_bound(const struct lbtf *btf, uint32_t from, const char *name)
{
	uint32_t l = from, r = lbtf_type_cnt(btf);

	while (l < r) {
		uint32_t m = l + (r - l) / 2;

		if (strcmp(name_of(btf, m), name) < 0)
			l = m + 1;
		else
			r = m;
	}
	return l;
}

/* The first of btf's own ids named name (of kind, unless < 0), or 0 */
static uint32_t find_own(const struct lbtf *btf, const char *name, int kind)
{
	uint32_t end = lbtf_type_cnt(btf), from = name[0] ? lbtf_sorted_from(btf) : 0;

	if (from) {
		for (uint32_t id = lower_bound(btf, from, name); id < end; id++) {
			const struct lbtf_type *t = lbtf_type_by_id(btf, id);

			if (strcmp(name_of(btf, id), name))
				return 0;
			if (kind < 0 || lbtf_kind(t) == (unsigned int)kind)
				return id;
		}
		return 0;
	}
	for (uint32_t id = btf->start_id; id < end; id++) {
		const struct lbtf_type *t = lbtf_type_by_id(btf, id);
		const char *s;

		if (kind >= 0 && lbtf_kind(t) != (unsigned int)kind)
			continue;
		s = lbtf_name_by_offset(btf, t->name_off);
		if (s && !strcmp(s, name))
			return id;
	}
	return 0;
}

/* The bases first: the lowest id wins */
static uint32_t find_chain(const struct lbtf *btf, const char *name, int kind)
{
	uint32_t id = btf->base ? find_chain(btf->base, name, kind) : 0;

	return id ? id : find_own(btf, name, kind);
}

int lbtf_find_by_name_kind(const struct lbtf *btf, const char *name, int kind)
{
	uint32_t id;

	if (!strcmp(name, "void") && kind <= 0)
		return 0;
	id = find_chain(btf, name, kind);
	return id ? (int)id : lbtfi_err(ENOENT, "no type named '%s'", name);
}

int lbtf_find_by_name(const struct lbtf *btf, const char *name)
{
	return lbtf_find_by_name_kind(btf, name, -1);
}

#define MAX_RESOLVE_DEPTH 32

static int skip(const struct lbtf *btf, uint32_t id, bool typedefs)
{
	for (int depth = 0; depth < MAX_RESOLVE_DEPTH; depth++) {
		const struct lbtf_type *t = lbtf_type_by_id(btf, id);
		if (!t)
			return lbtfi_err(EINVAL, "type id %u out of range", id);
		if (!lbtf_is_mod(t) && !(typedefs && lbtf_kind(t) == LBTF_KIND_TYPEDEF))
			return id;
		id = t->type;
	}
	return lbtfi_err(ELOOP, "type chain too long or looping at id %u", id);
}

int lbtf_resolve_type(const struct lbtf *btf, uint32_t id)
{
	return skip(btf, id, true);
}

int lbtf_skip_mods(const struct lbtf *btf, uint32_t id)
{
	return skip(btf, id, false);
}

int64_t lbtf_resolve_size(const struct lbtf *btf, uint32_t id)
{
	uint64_t nelems = 1;

	for (int depth = 0; depth < MAX_RESOLVE_DEPTH; depth++) {
		const struct lbtf_type *t = lbtf_type_by_id(btf, id);
		if (!t)
			return lbtfi_err(EINVAL, "type id %u out of range", id);
		switch (lbtf_kind(t)) {
		case LBTF_KIND_INT: case LBTF_KIND_STRUCT: case LBTF_KIND_UNION:
		case LBTF_KIND_ENUM: case LBTF_KIND_ENUM64: case LBTF_KIND_DATASEC:
		case LBTF_KIND_FLOAT:
			if (nelems * t->size > UINT32_MAX)
				return lbtfi_err(E2BIG, "size of type %u overflows", id);
			return nelems * t->size;
		case LBTF_KIND_PTR:
			return nelems * btf->ptr_size;
		case LBTF_KIND_TYPEDEF: case LBTF_KIND_VOLATILE: case LBTF_KIND_CONST:
		case LBTF_KIND_RESTRICT: case LBTF_KIND_TYPE_TAG: case LBTF_KIND_VAR:
		case LBTF_KIND_DECL_TAG:
			id = t->type;
			break;
		case LBTF_KIND_ARRAY:
			nelems *= lbtf_array(t)->nelems;
			if (nelems > UINT32_MAX)
				return lbtfi_err(E2BIG, "size of type %u overflows", id);
			id = lbtf_array(t)->type;
			break;
		default:
			return lbtfi_err(EINVAL, "type %u (%s) has no size", id,
					  lbtf_kind_name(lbtf_kind(t)));
		}
	}
	return lbtfi_err(ELOOP, "type chain too long or looping at id %u", id);
}

/*
 * depth bounds the recursion (hostile BTF can make a struct contain itself)
 * and *budget the work (nested structs each holding the next one many
 * times would otherwise take exponential time).
 */
#define ALIGN_BUDGET (1 << 20)

static int align_of(const struct lbtf *btf, uint32_t id, int depth, uint32_t *budget)
{
	const struct lbtf_type *t;
	int id2 = lbtf_resolve_type(btf, id);
	int max = 1;

	if (id2 < 0)
		return id2;
	if (depth > MAX_RESOLVE_DEPTH)
		return lbtfi_err(ELOOP, "type %u nests too deep (or contains itself)", id);
	if (!(*budget)--)
		return lbtfi_err(E2BIG, "type %u: too many nested members to align", id);
	t = lbtf_type_by_id(btf, id2);
	switch (lbtf_kind(t)) {
	case LBTF_KIND_INT: case LBTF_KIND_ENUM: case LBTF_KIND_ENUM64: case LBTF_KIND_FLOAT:
		return t->size < (uint32_t)btf->ptr_size ? (int)t->size : btf->ptr_size;
	case LBTF_KIND_PTR:
		return btf->ptr_size;
	case LBTF_KIND_ARRAY:
		return align_of(btf, lbtf_array(t)->type, depth + 1, budget);
	case LBTF_KIND_STRUCT: case LBTF_KIND_UNION:
		for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
			int a = align_of(btf, lbtf_members(t)[i].type, depth + 1, budget);
			if (a < 0)
				return a;
			if (a > max)
				max = a;
		}
		return max;
	default:
		return lbtfi_err(EINVAL, "type %u (%s) has no alignment", id,
				  lbtf_kind_name(lbtf_kind(t)));
	}
}

int lbtf_align_of(const struct lbtf *btf, uint32_t id)
{
	uint32_t budget = ALIGN_BUDGET;

	return align_of(btf, id, 0, &budget);
}

const struct lbtf_header *lbtf_header(const struct lbtf *btf)
{
	return &btf->hdr;
}

const struct lbtf_layout *lbtf_layout(const struct lbtf *btf, uint32_t *cnt)
{
	*cnt = btf->layout_cnt;
	return btf->layout;
}

const void *lbtf_raw_data(const struct lbtf *btf, size_t *size)
{
	*size = btf->size;
	return btf->data;
}

const char *lbtf_strings(const struct lbtf *btf, uint32_t *len)
{
	*len = btf->hdr.str_len;
	return btf->strs;
}

bool lbtf_is_swapped(const struct lbtf *btf)
{
	return btf->swapped;
}

int lbtf_pointer_size(const struct lbtf *btf)
{
	return btf->ptr_size;
}
