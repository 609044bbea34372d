// SPDX-License-Identifier: BSD-2-Clause
/* The kind table: one layout description per BTF kind, used by every module. */
#include "libbtf.h"
#include "internal.h"

#define ELEM(type_off, name_off) .elem_type_off = (type_off), .elem_name_off = (name_off)

static const struct lbtf_kind_desc kinds[LBTF_NR_KINDS] = {
	[LBTF_KIND_UNKN] = { "UNKNOWN", 0, 0, 0, 0, ELEM(-1, -1) },
	[LBTF_KIND_INT] = { "INT", 4, 0, 1, 0, ELEM(-1, -1) },
	[LBTF_KIND_PTR] = { "PTR", 0, 0, 0, 1, ELEM(-1, -1) },
	[LBTF_KIND_ARRAY] = { "ARRAY", sizeof(struct lbtf_array), 0, 0, 0, ELEM(-1, -1) },
	[LBTF_KIND_STRUCT] = { "STRUCT", 0, sizeof(struct lbtf_member), 1, 0, ELEM(4, 0) },
	[LBTF_KIND_UNION] = { "UNION", 0, sizeof(struct lbtf_member), 1, 0, ELEM(4, 0) },
	[LBTF_KIND_ENUM] = { "ENUM", 0, sizeof(struct lbtf_enum), 1, 0, ELEM(-1, 0) },
	[LBTF_KIND_FWD] = { "FWD", 0, 0, 0, 0, ELEM(-1, -1) },
	[LBTF_KIND_TYPEDEF] = { "TYPEDEF", 0, 0, 0, 1, ELEM(-1, -1) },
	[LBTF_KIND_VOLATILE] = { "VOLATILE", 0, 0, 0, 1, ELEM(-1, -1) },
	[LBTF_KIND_CONST] = { "CONST", 0, 0, 0, 1, ELEM(-1, -1) },
	[LBTF_KIND_RESTRICT] = { "RESTRICT", 0, 0, 0, 1, ELEM(-1, -1) },
	[LBTF_KIND_FUNC] = { "FUNC", 0, 0, 0, 1, ELEM(-1, -1) },
	[LBTF_KIND_FUNC_PROTO] = { "FUNC_PROTO", 0, sizeof(struct lbtf_param), 0, 1, ELEM(4, 0) },
	[LBTF_KIND_VAR] = { "VAR", sizeof(struct lbtf_var), 0, 0, 1, ELEM(-1, -1) },
	[LBTF_KIND_DATASEC] = { "DATASEC", 0, sizeof(struct lbtf_var_secinfo), 1, 0, ELEM(0, -1) },
	[LBTF_KIND_FLOAT] = { "FLOAT", 0, 0, 1, 0, ELEM(-1, -1) },
	[LBTF_KIND_DECL_TAG] = { "DECL_TAG", sizeof(struct lbtf_decl_tag), 0, 0, 1, ELEM(-1, -1) },
	[LBTF_KIND_TYPE_TAG] = { "TYPE_TAG", 0, 0, 0, 1, ELEM(-1, -1) },
	[LBTF_KIND_ENUM64] = { "ENUM64", 0, sizeof(struct lbtf_enum64), 1, 0, ELEM(-1, 0) },
};

const struct lbtf_kind_desc *lbtf_kind_desc(unsigned int kind)
{
	return kind <= LBTF_KIND_MAX ? &kinds[kind] : NULL;
}

const char *lbtf_kind_name(unsigned int kind)
{
	return kind <= LBTF_KIND_MAX ? kinds[kind].name : "UNKNOWN";
}

size_t lbtf_type_rec_size(const struct lbtf_type *t)
{
	const struct lbtf_kind_desc *d = lbtf_kind_desc(lbtf_kind(t));

	if (!d || lbtf_kind(t) == LBTF_KIND_UNKN)
		return 0;
	return sizeof(*t) + d->extra_size + (size_t)d->vlen_elem_size * lbtf_vlen(t);
}

int lbtf_type_visit_type_ids(struct lbtf_type *t, lbtf_slot_fn fn, void *ctx)
{
	const struct lbtf_kind_desc *d = lbtf_kind_desc(lbtf_kind(t));
	int err;

	if (!d)
		return 0;
	if (d->type_field && (err = fn(&t->type, ctx)))
		return err;
	if (lbtf_kind(t) == LBTF_KIND_ARRAY) {
		struct lbtf_array *a = (struct lbtf_array *)(t + 1);
		if ((err = fn(&a->type, ctx)) || (err = fn(&a->index_type, ctx)))
			return err;
	}
	if (d->elem_type_off >= 0 && d->vlen_elem_size) {
		char *e = (char *)(t + 1) + d->extra_size;
		for (unsigned int i = 0; i < lbtf_vlen(t); i++, e += d->vlen_elem_size)
			if ((err = fn((uint32_t *)(e + d->elem_type_off), ctx)))
				return err;
	}
	return 0;
}

int lbtf_type_visit_str_offs(struct lbtf_type *t, lbtf_slot_fn fn, void *ctx)
{
	const struct lbtf_kind_desc *d = lbtf_kind_desc(lbtf_kind(t));
	int err;

	if ((err = fn(&t->name_off, ctx)))
		return err;
	if (d && d->elem_name_off >= 0 && d->vlen_elem_size) {
		char *e = (char *)(t + 1) + d->extra_size;
		for (unsigned int i = 0; i < lbtf_vlen(t); i++, e += d->vlen_elem_size)
			if ((err = fn((uint32_t *)(e + d->elem_name_off), ctx)))
				return err;
	}
	return 0;
}

/* The read-only walks reuse the ones above: their callback only reads the slot. */
struct read_slot {
	lbtf_value_fn fn;
	void *ctx;
};

static int read_slot(uint32_t *slot, void *ctx)
{
	const struct read_slot *r = ctx;

	return r->fn(*slot, r->ctx);
}

int lbtf_type_read_type_ids(const struct lbtf_type *t, lbtf_value_fn fn, void *ctx)
{
	struct read_slot r = { fn, ctx };

	/* const is dropped only for the walk; read_slot never writes */
	return lbtf_type_visit_type_ids((struct lbtf_type *)(uintptr_t)t, read_slot, &r);
}

int lbtf_type_read_str_offs(const struct lbtf_type *t, lbtf_value_fn fn, void *ctx)
{
	struct read_slot r = { fn, ctx };

	return lbtf_type_visit_str_offs((struct lbtf_type *)(uintptr_t)t, read_slot, &r);
}
