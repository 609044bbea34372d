// SPDX-License-Identifier: BSD-2-Clause
/*
 * What libbpf 1.1's bpf_object__sanitize_btf() rewrites for a kernel that
 * lacks a BTF feature, one rule per type in its order: VAR and DECL_TAG
 * become a 1-byte INT, DATASEC a STRUCT ('.' in its name made '_'),
 * FUNC_PROTO an ENUM and FUNC a TYPEDEF (no FUNC support), a global FUNC
 * static, FLOAT an anonymous empty STRUCT, TYPE_TAG an anonymous CONST,
 * an ENUM loses its kind_flag and an ENUM64 becomes a UNION of one-byte
 * "enum64_placeholder" INT members (no ENUM64 support).
 */
#include <string.h>
#include "internal.h"

static int enum64_placeholder(struct octx *c, uint32_t *id)
{
	struct {
		struct lbtf_type t;
		uint32_t enc;
	} rec = { .t = { .info = lbtf_info(LBTF_KIND_INT, 0, false), .size = 1 }, .enc = 8 };
	int err;

	if (*id)
		return 0;
	if ((err = lbtfi_obj_btf_add_str(&c->b, "enum64_placeholder", &rec.t.name_off)))
		return err;
	return lbtfi_obj_btf_add_type(&c->b, &rec, sizeof(rec), id);
}

int lbtfi_obj_sanitize(struct octx *c)
{
	uint32_t have = c->features, placeholder = 0, nr = c->b.nr;
	bool datasec = have & LBTF_KFEAT_DATASEC, decl_tag = have & LBTF_KFEAT_DECL_TAG;
	bool func = have & LBTF_KFEAT_FUNC, global = have & LBTF_KFEAT_GLOBAL_FUNC;
	bool flt = have & LBTF_KFEAT_FLOAT, type_tag = have & LBTF_KFEAT_TYPE_TAG;
	bool enum64 = have & LBTF_KFEAT_ENUM64;
	int err;

	if ((have & LBTF_KFEAT_ALL) == LBTF_KFEAT_ALL)
		return 0;
	c->fixups |= LBTF_FIXUP_SANITIZE;
	/* (types added on the way, the placeholder, are visited too: libbpf's
	 * loop re-reads the count, and an INT needs no rule) */
	for (uint32_t id = 1; id <= nr; id++) {
		struct lbtf_type *t = lbtfi_obj_btf_type(&c->b, id);
		unsigned int k = lbtf_kind(t), vlen = lbtf_vlen(t);

		if ((!datasec && k == LBTF_KIND_VAR) || (!decl_tag && k == LBTF_KIND_DECL_TAG)) {
			c->sanitized |= k == LBTF_KIND_VAR ? LBTF_KFEAT_DATASEC : LBTF_KFEAT_DECL_TAG;
			t->info = lbtf_info(LBTF_KIND_INT, 0, false);
			t->size = 1;
			*(uint32_t *)(t + 1) = 8;
		} else if (!datasec && k == LBTF_KIND_DATASEC) {
			struct lbtf_var_secinfo *v = (struct lbtf_var_secinfo *)(t + 1);
			struct lbtf_member *m = (struct lbtf_member *)(t + 1);
			char *name = lbtfi_obj_btf_str(&c->b, t->name_off);

			for (; name && *name; name++)
				if (*name == '.')
					*name = '_';
			t->info = lbtf_info(LBTF_KIND_STRUCT, vlen, false);
			for (unsigned int j = 0; j < vlen; j++, v++, m++) {
				struct lbtf_var_secinfo s = *v;
				const struct lbtf_type *vt = lbtfi_obj_btf_type(&c->b, s.type);

				m->offset = s.offset * 8;
				m->type = s.type;
				m->name_off = vt ? vt->name_off : 0;
			}
			c->sanitized |= LBTF_KFEAT_DATASEC;
		} else if (!func && k == LBTF_KIND_FUNC_PROTO) {
			t->info = lbtf_info(LBTF_KIND_ENUM, vlen, false);
			t->size = 4;
			c->sanitized |= LBTF_KFEAT_FUNC;
		} else if (!func && k == LBTF_KIND_FUNC) {
			t->info = lbtf_info(LBTF_KIND_TYPEDEF, 0, false);
			c->sanitized |= LBTF_KFEAT_FUNC;
		} else if (!global && k == LBTF_KIND_FUNC) {
			t->info = lbtf_info(LBTF_KIND_FUNC, 0, false);
			c->sanitized |= LBTF_KFEAT_GLOBAL_FUNC;
		} else if (!flt && k == LBTF_KIND_FLOAT) {
			t->name_off = 0;
			t->info = lbtf_info(LBTF_KIND_STRUCT, 0, false);
			c->sanitized |= LBTF_KFEAT_FLOAT;
		} else if (!type_tag && k == LBTF_KIND_TYPE_TAG) {
			t->name_off = 0;
			t->info = lbtf_info(LBTF_KIND_CONST, 0, false);
			c->sanitized |= LBTF_KFEAT_TYPE_TAG;
		} else if (!enum64 && k == LBTF_KIND_ENUM) {
			if (lbtf_kflag(t))
				c->sanitized |= LBTF_KFEAT_ENUM64;
			t->info = lbtf_info(k, vlen, false);
		} else if (!enum64 && k == LBTF_KIND_ENUM64) {
			struct lbtf_member *m;

			if ((err = enum64_placeholder(c, &placeholder)))
				return err;
			t = lbtfi_obj_btf_type(&c->b, id); /* the buffer may have moved */
			m = (struct lbtf_member *)(t + 1);
			t->info = lbtf_info(LBTF_KIND_UNION, vlen, false);
			for (unsigned int j = 0; j < vlen; j++, m++) {
				m->type = placeholder;
				m->offset = 0;
			}
			c->sanitized |= LBTF_KFEAT_ENUM64;
		}
	}
	return 0;
}
