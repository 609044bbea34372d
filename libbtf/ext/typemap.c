// SPDX-License-Identifier: BSD-2-Clause
/*
 * Which type of the new BTF stands for a type of the old one (the .BTF a
 * .BTF.ext was made with): named types by kind and name, anonymous structs,
 * unions and enums by their shape (size, member names and offsets,
 * enumerators), modifiers, pointers and arrays by what they refer to. A type
 * with no single counterpart is an error naming it, except that a type with
 * none at all can be copied over from the old BTF (with what it refers to):
 * clang puts types into .BTF that DWARF never mentions, e.g. the argument of
 * bpf_core_type_exists().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libbtf_build.h"
#include "internal.h"

#define MAP_NONE UINT32_MAX
#define MAP_FAIL (UINT32_MAX - 1) /* no counterpart in this new BTF */
#define MAP_DEPTH 32

int lbtfi_typemap_init(struct lbtfi_typemap *m, const struct lbtf *old, const struct lbtf *new)
{
	m->old = old;
	m->new = new;
	m->map = malloc(lbtf_type_cnt(old) * sizeof(*m->map));
	if (!m->map)
		return lbtfi_err(ENOMEM, "out of memory");
	for (uint32_t i = 0; i < lbtf_type_cnt(old); i++)
		m->map[i] = MAP_NONE;
	m->map[0] = 0;
	return 0;
}

void lbtfi_typemap_free(struct lbtfi_typemap *m)
{
	free(m->map);
	m->map = NULL;
}

static const char *name_of(const struct lbtf *btf, const struct lbtf_type *t)
{
	const char *s = lbtf_type_name(btf, t);

	return s ? s : "";
}

/* A string of btf ("" for a bad offset, which then matches nothing named) */
static const char *str_at(const struct lbtf *btf, uint32_t off)
{
	const char *s = lbtf_name_by_offset(btf, off);

	return s ? s : "";
}

/* A short description of an old type for messages: "struct foo" / "[12] PTR" */
const char *lbtfi_typemap_desc(const struct lbtfi_typemap *m, uint32_t id, char *buf, size_t n)
{
	const struct lbtf_type *t = lbtf_type_by_id(m->old, id);

	if (!t)
		snprintf(buf, n, "[%u] (no such type)", id);
	else if (*name_of(m->old, t))
		snprintf(buf, n, "%s %s", lbtf_kind_name(lbtf_kind(t)), name_of(m->old, t));
	else
		snprintf(buf, n, "[%u] anonymous %s", id, lbtf_kind_name(lbtf_kind(t)));
	return buf;
}

/* Same size, member names, offsets and bitfield sizes / same enumerators */
static bool same_shape(const struct lbtfi_typemap *m, const struct lbtf_type *a, const struct lbtf_type *b)
{
	unsigned int k = lbtf_kind(a), n = lbtf_vlen(a);

	if (lbtf_kind(b) != k || lbtf_vlen(b) != n)
		return false;
	switch (k) {
	case LBTF_KIND_STRUCT:
	case LBTF_KIND_UNION:
		if (a->size != b->size)
			return false;
		for (unsigned int i = 0; i < n; i++)
			if (strcmp(str_at(m->old, lbtf_members(a)[i].name_off),
				   str_at(m->new, lbtf_members(b)[i].name_off)) ||
			    lbtf_member_bit_offset(a, i) != lbtf_member_bit_offset(b, i) ||
			    lbtf_member_bitfield_size(a, i) != lbtf_member_bitfield_size(b, i))
				return false;
		return true;
	case LBTF_KIND_ENUM:
		if (a->size != b->size)
			return false;
		for (unsigned int i = 0; i < n; i++)
			if (strcmp(str_at(m->old, lbtf_enums(a)[i].name_off),
				   str_at(m->new, lbtf_enums(b)[i].name_off)) ||
			    lbtf_enums(a)[i].val != lbtf_enums(b)[i].val)
				return false;
		return true;
	case LBTF_KIND_ENUM64:
		if (a->size != b->size)
			return false;
		for (unsigned int i = 0; i < n; i++)
			if (strcmp(str_at(m->old, lbtf_enums64(a)[i].name_off),
				   str_at(m->new, lbtf_enums64(b)[i].name_off)) ||
			    lbtf_enum64_value(&lbtf_enums64(a)[i]) != lbtf_enum64_value(&lbtf_enums64(b)[i]))
				return false;
		return true;
	case LBTF_KIND_INT:
	case LBTF_KIND_FLOAT:
		return a->size == b->size;
	default:
		return true;
	}
}

static bool is_named_kind(unsigned int k)
{
	switch (k) {
	case LBTF_KIND_INT: case LBTF_KIND_FLOAT: case LBTF_KIND_STRUCT: case LBTF_KIND_UNION:
	case LBTF_KIND_ENUM: case LBTF_KIND_ENUM64: case LBTF_KIND_FWD: case LBTF_KIND_TYPEDEF:
	case LBTF_KIND_FUNC: case LBTF_KIND_VAR: case LBTF_KIND_DATASEC:
		return true;
	default:
		return false;
	}
}

static int map_id(struct lbtfi_typemap *m, uint32_t id, int depth);

/* The new type matching old type t (id) by kind, name or referenced type */
static int find(struct lbtfi_typemap *m, uint32_t id, const struct lbtf_type *t, int depth)
{
	unsigned int k = lbtf_kind(t);
	const char *name = name_of(m->old, t);
	uint32_t n = lbtf_type_cnt(m->new), found = 0, cnt = 0, fwd = 0, ref = 0;
	char d[160];

	if (!is_named_kind(k) || !*name) {
		int r;

		switch (k) {
		case LBTF_KIND_PTR: case LBTF_KIND_CONST: case LBTF_KIND_VOLATILE:
		case LBTF_KIND_RESTRICT: case LBTF_KIND_TYPE_TAG: case LBTF_KIND_TYPEDEF:
			r = map_id(m, t->type, depth + 1);
			break;
		case LBTF_KIND_ARRAY:
			r = map_id(m, lbtf_array(t)->type, depth + 1);
			break;
		case LBTF_KIND_STRUCT: case LBTF_KIND_UNION: case LBTF_KIND_ENUM: case LBTF_KIND_ENUM64:
			r = 0;
			break;
		default:
			return lbtfi_err(ENOENT, "no counterpart for %s in the new BTF (kind not mapped)",
					 lbtfi_typemap_desc(m, id, d, sizeof(d)));
		}
		if (r < 0)
			return r;
		ref = (uint32_t)r;
	}
	for (uint32_t i = lbtf_start_id(m->new); i < n; i++) {
		const struct lbtf_type *c = lbtf_type_by_id(m->new, i);

		if (lbtf_kind(c) == LBTF_KIND_FWD && (k == LBTF_KIND_STRUCT || k == LBTF_KIND_UNION) &&
		    *name && !strcmp(name_of(m->new, c), name))
			fwd = i;
		if (lbtf_kind(c) != k || strcmp(name_of(m->new, c), name))
			continue;
		switch (k) {
		case LBTF_KIND_PTR: case LBTF_KIND_CONST: case LBTF_KIND_VOLATILE:
		case LBTF_KIND_RESTRICT: case LBTF_KIND_TYPE_TAG:
			if (c->type != ref)
				continue;
			break;
		case LBTF_KIND_TYPEDEF:
			if (!*name && c->type != ref)
				continue;
			break;
		case LBTF_KIND_ARRAY:
			if (lbtf_array(c)->type != ref || lbtf_array(c)->nelems != lbtf_array(t)->nelems)
				continue;
			break;
		default:
			/* one same-named candidate is it (members are checked per
			 * access); among several, or anonymous, the shape decides */
			if (!*name && !same_shape(m, t, c))
				continue;
			break;
		}
		if (!cnt++)
			found = i;
	}
	if (cnt > 1 && *name && is_named_kind(k)) {
		/* several of that name: exactly one of the same shape */
		uint32_t same = 0;

		for (uint32_t i = lbtf_start_id(m->new); i < n; i++) {
			const struct lbtf_type *c = lbtf_type_by_id(m->new, i);

			if (lbtf_kind(c) == k && !strcmp(name_of(m->new, c), name) &&
			    same_shape(m, t, c) && !same++)
				found = i;
		}
		if (same != 1)
			return lbtfi_err(ENOTUNIQ, "%s: %u types of that name in the new BTF, %u of the same shape",
					 lbtfi_typemap_desc(m, id, d, sizeof(d)), cnt, same);
		cnt = 1;
	}
	if (cnt == 1)
		return (int)found;
	if (!cnt && fwd)
		return lbtfi_err(ENOENT, "%s is only a forward declaration in the new BTF",
				 lbtfi_typemap_desc(m, id, d, sizeof(d)));
	if (!cnt)
		return lbtfi_err(ENOENT, "%s is not in the new BTF", lbtfi_typemap_desc(m, id, d, sizeof(d)));
	return lbtfi_err(ENOTUNIQ, "%s matches %u types of the new BTF", lbtfi_typemap_desc(m, id, d, sizeof(d)),
			 cnt);
}

static int map_id(struct lbtfi_typemap *m, uint32_t id, int depth)
{
	const struct lbtf_type *t;
	int r;

	if (id >= lbtf_type_cnt(m->old) || !(t = lbtf_type_by_id(m->old, id)))
		return lbtfi_err(EINVAL, "type id %u is past the old BTF's %u types", id, lbtf_type_cnt(m->old));
	if (m->map[id] == MAP_FAIL) {
		char d[160];

		return lbtfi_err(ENOENT, "%s has no counterpart in the new BTF",
				 lbtfi_typemap_desc(m, id, d, sizeof(d)));
	}
	if (m->map[id] != MAP_NONE)
		return (int)m->map[id];
	if (depth > MAP_DEPTH)
		return lbtfi_err(ELOOP, "type [%u]: references nest too deep to map", id);
	r = find(m, id, t, depth);
	if (r >= 0)
		m->map[id] = (uint32_t)r;
	else if (r == -ENOENT)
		m->map[id] = MAP_FAIL; /* asked again while copying: fails fast */
	return r;
}

int lbtfi_typemap_get(struct lbtfi_typemap *m, uint32_t old_id)
{
	return map_id(m, old_id, 0);
}

struct refs {
	uint32_t *ids;
	uint32_t n, cap;
};

static int collect(uint32_t v, void *ctx)
{
	struct refs *r = ctx;

	if (LBTFI_GROW(r->ids, r->cap, (size_t)r->n + 1))
		return lbtfi_err(ENOMEM, "out of memory");
	r->ids[r->n++] = v;
	return 0;
}

struct assign {
	const uint32_t *ids;
	uint32_t i;
};

static int assign(uint32_t *slot, void *ctx)
{
	struct assign *a = ctx;

	*slot = a->ids[a->i++];
	return 0;
}

static int get_or_copy(struct lbtfi_typemap *m, struct lbtf_builder *b, uint32_t old_id, int depth)
{
	struct refs refs = { 0 };
	struct assign a = { 0 };
	int r = map_id(m, old_id, 0), err = 0;

	if (r != -ENOENT)
		return r;
	if (depth > MAP_DEPTH)
		return lbtfi_err(ELOOP, "type [%u]: references nest too deep to copy", old_id);
	r = lbtf_builder_add_type_copy(b, m->old, old_id);
	if (r < 0)
		return r;
	m->map[old_id] = (uint32_t)r;
	m->copied++;
	err = lbtf_type_read_type_ids(lbtf_type_by_id(m->old, old_id), collect, &refs);
	for (uint32_t i = 0; !err && i < refs.n; i++) {
		int id = get_or_copy(m, b, refs.ids[i], depth + 1);

		if (id < 0)
			err = id;
		else
			refs.ids[i] = (uint32_t)id;
	}
	a.ids = refs.ids;
	if (!err)
		err = lbtf_type_visit_type_ids(lbtf_builder_type_by_id(b, (uint32_t)r), assign, &a);
	free(refs.ids);
	return err ? err : r;
}

int lbtfi_typemap_get_or_copy(struct lbtfi_typemap *m, struct lbtf_builder *b, uint32_t old_id)
{
	return get_or_copy(m, b, old_id, 0);
}

void lbtfi_typemap_set_new(struct lbtfi_typemap *m, const struct lbtf *new)
{
	m->new = new;
	for (uint32_t i = 0; i < lbtf_type_cnt(m->old); i++)
		if (m->map[i] == MAP_FAIL)
			m->map[i] = MAP_NONE;
}
