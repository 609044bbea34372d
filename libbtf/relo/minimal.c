// SPDX-License-Identifier: BSD-2-Clause
/*
 * Minimal BTF for a set of objects (bpftool gen min_core_btf's job): of a
 * target's BTF, only what the objects' CO-RE relocations touch, so that
 * libbpf given it as btf_custom_path resolves every relocation the way it
 * does with the whole BTF (type ids aside: they are renumbered).
 *
 * Every candidate that matches a relocation is kept (not only the first:
 * then the later relocations prune the candidate lists the same way), as:
 *  - field kinds: the types along the access path, of each struct or union
 *    only the members on the path (same offsets, bitfield sizes and struct
 *    size), the field's own type as a shell (a struct keeps its size, an
 *    enum or int whole, a pointer points to void unless kept otherwise);
 *  - enumerator kinds: the enum whole;
 *  - type kinds: the type, and through pointers, arrays and prototypes what
 *    libbpf compares (structs as shells);
 *  - type_matches: the type and its members all the way down, a struct or
 *    union behind a pointer as a shell.
 * A reference to a type not kept becomes void. Types keep target id order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "libbtf_build.h"

enum { KEPT = 1, FOLLOW = 2, DEEP = 4 };

struct lbtf_core_min {
	const struct lbtf_core_target *t;
	const struct lbtf *btf;
	uint32_t n;          /* target type count */
	uint8_t *mark;       /* KEPT | FOLLOW | DEEP reached */
	uint64_t **members;  /* of a composite: kept member bits (NULL: none) */
};

#define MAX_DEPTH 64

static int keep_member(struct lbtf_core_min *m, uint32_t id, uint32_t idx)
{
	const struct lbtf_type *t = lbtf_type_by_id(m->btf, id);

	if (!m->members[id]) {
		m->members[id] = calloc((lbtf_vlen(t) + 63) / 64, sizeof(uint64_t));
		if (!m->members[id])
			return -ENOMEM;
	}
	m->members[id][idx / 64] |= 1ull << (idx % 64);
	return 0;
}

/* Keep id, and what flags ask for below it */
static int keep(struct lbtf_core_min *m, uint32_t id, unsigned int flags, int depth)
{
	const struct lbtf_type *t = lbtf_type_by_id(m->btf, id);
	unsigned int want = KEPT | flags;
	int err = 0;

	if (!id || !t || depth > MAX_DEPTH || (m->mark[id] & want) == want)
		return 0;
	m->mark[id] |= want;
	switch (lbtf_kind(t)) {
	case LBTF_KIND_PTR:
		/* a struct behind a pointer: name and kind only, for type_matches */
		return flags & (FOLLOW | DEEP) ? keep(m, t->type, FOLLOW, depth + 1) : 0;
	case LBTF_KIND_ARRAY:
		err = keep(m, lbtf_array(t)->index_type, 0, depth + 1);
		return err ?: keep(m, lbtf_array(t)->type, flags, depth + 1);
	case LBTF_KIND_STRUCT: case LBTF_KIND_UNION:
		if (!(flags & DEEP))
			return 0;
		for (unsigned int i = 0; i < lbtf_vlen(t) && !err; i++) {
			err = keep_member(m, id, i);
			err = err ?: keep(m, lbtf_members(t)[i].type, flags, depth + 1);
		}
		return err;
	case LBTF_KIND_FUNC_PROTO:
		for (unsigned int i = 0; i < lbtf_vlen(t) && !err; i++)
			err = keep(m, lbtf_params(t)[i].type, flags, depth + 1);
		return err ?: keep(m, t->type, flags, depth + 1);
	case LBTF_KIND_INT: case LBTF_KIND_FLOAT: case LBTF_KIND_ENUM: case LBTF_KIND_ENUM64:
	case LBTF_KIND_FWD:
		return 0;
	default: /* typedefs, modifiers, and what else refers to one type */
		return keep(m, t->type, flags, depth + 1);
	}
}

/* A field relocation's path in candidate spec c: each member on it */
static int keep_path(struct lbtf_core_min *m, const struct rspec *c)
{
	uint32_t id = c->root_id;
	int err = keep(m, id, 0, 0);

	for (int i = 1; i < c->raw_len && !err; i++) {
		const struct lbtf_type *t = relo_skip(m->btf, &id);

		if (!t)
			return -EINVAL;
		if (lbtf_is_composite(t)) {
			err = keep_member(m, id, c->raw[i]);
			id = lbtf_members(t)[c->raw[i]].type;
		} else {
			id = lbtf_array(t)->type;
		}
		err = err ?: keep(m, id, 0, 0);
	}
	return err;
}

static int on_cand(const struct rspec *local, const struct rspec *c, void *ctx)
{
	struct lbtf_core_min *m = ctx;

	if (relo_is_field(c->kind))
		return keep_path(m, c);
	if (relo_is_enumval(c->kind))
		return keep(m, c->root_id, 0, 0);
	if (c->kind == LBTF_CORE_TYPE_MATCHES)
		return keep(m, c->root_id, DEEP, 0);
	return keep(m, c->root_id, FOLLOW, 0);
}

struct lbtf_core_min *lbtf_core_min_new(const struct lbtf_core_target *t)
{
	struct lbtf_core_min *m = calloc(1, sizeof(*m));

	if (!m)
		return lbtfi_err_ptr(ENOMEM, "out of memory");
	m->t = t;
	m->btf = lbtf_core_target_btf(t);
	m->n = lbtf_type_cnt(m->btf);
	m->mark = calloc(m->n, 1);
	m->members = calloc(m->n, sizeof(*m->members));
	if (!m->mark || !m->members) {
		lbtf_core_min_free(m);
		return lbtfi_err_ptr(ENOMEM, "out of memory");
	}
	return m;
}

int lbtf_core_min_add(struct lbtf_core_min *m, struct lbtf_core_object *o)
{
	int err = relo_walk(o, m->t, NULL, on_cand, m);

	return err == -ENOMEM ? lbtfi_err(ENOMEM, "out of memory") : err;
}

/* The new id of old id (0, void, for one not kept or out of range:
 * nothing in a target's BTF is trusted) */
static uint32_t new_id(const struct lbtf_core_min *m, const uint32_t *map, uint32_t id)
{
	return id < m->n ? map[id] : 0;
}

/* Add kept type id (a composite with only its kept members) to b */
static int emit(struct lbtf_core_min *m, struct lbtf_builder *b, uint32_t id, const uint32_t *map)
{
	const struct lbtf_type *t = lbtf_type_by_id(m->btf, id);
	const char *name = relo_str(m->btf, t->name_off);
	struct lbtf_type *nt;
	int r;

	if (lbtf_is_composite(t)) {
		r = lbtf_kind(t) == LBTF_KIND_STRUCT ? lbtf_builder_add_struct(b, name, t->size)
						     : lbtf_builder_add_union(b, name, t->size);
		for (unsigned int i = 0; r >= 0 && m->members[id] && i < lbtf_vlen(t); i++) {
			const struct lbtf_member *mb = &lbtf_members(t)[i];
			int e;

			if (!(m->members[id][i / 64] & (1ull << (i % 64))))
				continue;
			e = lbtf_builder_add_field(b, relo_str(m->btf, mb->name_off), new_id(m, map, mb->type),
						   lbtf_member_bit_offset(t, i),
						   lbtf_member_bitfield_size(t, i));
			if (e < 0)
				return e;
		}
		return r < 0 ? r : 0;
	}
	r = lbtf_builder_add_type_copy(b, m->btf, id);
	if (r < 0)
		return r;
	nt = lbtf_builder_type_by_id(b, (uint32_t)r);
	if (!nt)
		return -EINVAL;
	switch (lbtf_kind(nt)) {
	case LBTF_KIND_INT: case LBTF_KIND_FLOAT: case LBTF_KIND_ENUM: case LBTF_KIND_ENUM64:
	case LBTF_KIND_FWD:
		return 0;
	case LBTF_KIND_ARRAY: {
		struct lbtf_array *a = (struct lbtf_array *)(nt + 1);

		a->type = new_id(m, map, a->type);
		a->index_type = new_id(m, map, a->index_type);
		return 0;
	}
	case LBTF_KIND_FUNC_PROTO: {
		struct lbtf_param *p = (struct lbtf_param *)(nt + 1);

		for (unsigned int i = 0; i < lbtf_vlen(nt); i++)
			p[i].type = new_id(m, map, p[i].type);
		nt->type = new_id(m, map, nt->type);
		return 0;
	}
	default:
		nt->type = new_id(m, map, nt->type);
		return 0;
	}
}

int lbtf_core_min_btf(struct lbtf_core_min *m, void **data, size_t *size)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);
	uint32_t *map = calloc(m->n, sizeof(*map)), next = 1;
	int err = 0;

	if (!b || !map) {
		err = lbtfi_err(ENOMEM, "out of memory");
		goto out;
	}
	for (uint32_t id = 1; id < m->n; id++)
		if (m->mark[id])
			map[id] = next++;
	for (uint32_t id = 1; id < m->n && !err; id++)
		if (m->mark[id])
			err = emit(m, b, id, map);
	err = err ?: lbtf_builder_serialize(b, false, data, size);
out:
	lbtf_builder_free(b);
	free(map);
	return err;
}

void lbtf_core_min_free(struct lbtf_core_min *m)
{
	if (!m)
		return;
	for (uint32_t i = 0; m->members && i < m->n; i++)
		free(m->members[i]);
	free(m->members);
	free(m->mark);
	free(m);
}
