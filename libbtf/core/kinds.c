// SPDX-License-Identifier: BSD-2-Clause
/* The kind table: one layout description per BTF kind, used by every module. */
#include <stddef.h>
#include "libbtf.h"
#include "internal.h"

/*
 * Fields left out are 0. Kinds with a vlen list say where each element holds
 * a type id and a name offset (-1: it holds none), for the visitors below.
 */
#define NO_ELEM .elem_type_off = -1, .elem_name_off = -1
#define ELEMS(elem, type_field, name_field)                                            \
	.vlen_elem_size = sizeof(struct elem), .elem_type_off = type_field,                 \
	.elem_name_off = name_field
#define TYPE_AT(elem, f) offsetof(struct elem, f)
#define NAME_AT(elem) offsetof(struct elem, name_off)

static const struct lbtf_kind_desc kinds[LBTF_NR_KINDS] = {
	[LBTF_KIND_UNKN] = { .name = "UNKNOWN", NO_ELEM },
	[LBTF_KIND_INT] = { .name = "INT", .extra_size = 4, .size_field = 1, NO_ELEM },
	[LBTF_KIND_PTR] = { .name = "PTR", .type_field = 1, NO_ELEM },
	[LBTF_KIND_ARRAY] = { .name = "ARRAY", .extra_size = sizeof(struct lbtf_array), NO_ELEM },
	[LBTF_KIND_STRUCT] = { .name = "STRUCT", .size_field = 1,
			       ELEMS(lbtf_member, TYPE_AT(lbtf_member, type), NAME_AT(lbtf_member)) },
	[LBTF_KIND_UNION] = { .name = "UNION", .size_field = 1,
			      ELEMS(lbtf_member, TYPE_AT(lbtf_member, type), NAME_AT(lbtf_member)) },
	[LBTF_KIND_ENUM] = { .name = "ENUM", .size_field = 1,
			     ELEMS(lbtf_enum, -1, NAME_AT(lbtf_enum)) },
	[LBTF_KIND_FWD] = { .name = "FWD", NO_ELEM },
	[LBTF_KIND_TYPEDEF] = { .name = "TYPEDEF", .type_field = 1, NO_ELEM },
	[LBTF_KIND_VOLATILE] = { .name = "VOLATILE", .type_field = 1, NO_ELEM },
	[LBTF_KIND_CONST] = { .name = "CONST", .type_field = 1, NO_ELEM },
	[LBTF_KIND_RESTRICT] = { .name = "RESTRICT", .type_field = 1, NO_ELEM },
	[LBTF_KIND_FUNC] = { .name = "FUNC", .type_field = 1, NO_ELEM },
	[LBTF_KIND_FUNC_PROTO] = { .name = "FUNC_PROTO", .type_field = 1,
				   ELEMS(lbtf_param, TYPE_AT(lbtf_param, type), NAME_AT(lbtf_param)) },
	[LBTF_KIND_VAR] = { .name = "VAR", .extra_size = sizeof(struct lbtf_var), .type_field = 1,
			    NO_ELEM },
	[LBTF_KIND_DATASEC] = { .name = "DATASEC", .size_field = 1,
				ELEMS(lbtf_var_secinfo, TYPE_AT(lbtf_var_secinfo, type), -1) },
	[LBTF_KIND_FLOAT] = { .name = "FLOAT", .size_field = 1, NO_ELEM },
	[LBTF_KIND_DECL_TAG] = { .name = "DECL_TAG", .extra_size = sizeof(struct lbtf_decl_tag),
				 .type_field = 1, NO_ELEM },
	[LBTF_KIND_TYPE_TAG] = { .name = "TYPE_TAG", .type_field = 1, NO_ELEM },
	[LBTF_KIND_ENUM64] = { .name = "ENUM64", .size_field = 1,
			       ELEMS(lbtf_enum64, -1, NAME_AT(lbtf_enum64)) },
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

const struct lbtf_layout *lbtfi_layout_for(const struct lbtf *btf, uint32_t *cnt)
{
	/* split BTF without a layout of its own shares its base's (libbpf
	 * looks one level down, no further) */
	const struct lbtf *from = !btf->layout && btf->base ? btf->base : btf;

	*cnt = from->layout_cnt;
	return from->layout;
}

size_t lbtf_type_size(const struct lbtf *btf, const struct lbtf_type *t)
{
	size_t rec = lbtf_type_rec_size(t);
	unsigned int kind = lbtf_kind(t);
	const struct lbtf_layout *l;
	uint32_t cnt;

	if (rec)
		return rec;
	l = lbtfi_layout_for(btf, &cnt);
	if (!l || kind >= cnt || l[kind].info_sz % 4 || l[kind].elem_sz % 4)
		return 0;
	return sizeof(*t) + l[kind].info_sz + (size_t)l[kind].elem_sz * lbtf_vlen(t);
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
