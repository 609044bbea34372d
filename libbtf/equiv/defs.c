// SPDX-License-Identifier: BSD-2-Clause
/*
 * The one definition rule, for dedup's unambiguous FWDs and for checking
 * the declarations btfgen's reuse paired with definitions: which names
 * have one definition, which several.
 */
#include "internal.h"

int lbtfi_eq_defs_init(struct lbtfi_eq_defs *defs)
{
	memset(defs, 0, sizeof(*defs));
	if (lbtfi_offmap_init(&defs->aggr, 1024) || lbtfi_offmap_init(&defs->enums, 256)) {
		lbtfi_eq_defs_free(defs);
		return lbtfi_err(ENOMEM, "out of memory");
	}
	return 0;
}

void lbtfi_eq_defs_free(struct lbtfi_eq_defs *defs)
{
	lbtfi_offmap_free(&defs->aggr);
	lbtfi_offmap_free(&defs->enums);
}

int lbtfi_eq_defs_add(struct lbtfi_eq_defs *defs, const struct lbtf_type *t, uint32_t key)
{
	enum lbtfi_flavor f = lbtfi_eq_flavor(t);
	struct lbtfi_offmap *m;
	uint32_t v;

	if (!lbtfi_eq_is_def(t))
		return 0;
	m = f == LBTFI_FLAVOR_ENUM ? &defs->enums : &defs->aggr;
	if (!lbtfi_offmap_get(m, t->name_off, &v))
		return lbtfi_offmap_put(m, t->name_off, key) ? lbtfi_err(ENOMEM, "out of memory") : 0;
	if (v == key || v == LBTFI_EQ_SEVERAL)
		return 0;
	return lbtfi_offmap_put(m, t->name_off, LBTFI_EQ_SEVERAL) ? lbtfi_err(ENOMEM, "out of memory")
								   : 0;
}

uint32_t lbtfi_eq_def_shape(const struct lbtf_builder *b, const struct lbtf_type *t)
{
	uint32_t h = lbtfi_hash_mix(lbtf_kind(t) == LBTF_KIND_UNION, t->size), i;

	h = lbtfi_hash_mix(h, t->info & 0x8000ffff); /* kflag, vlen */
	for (i = 0; i < lbtf_vlen(t); i++) {
		if (lbtf_is_enum(t)) {
			const struct lbtf_enum64 *e = lbtf_enums64(t) + i;
			const struct lbtf_enum *e32 = lbtf_enums(t) + i;

			h = lbtf_kind(t) == LBTF_KIND_ENUM64 ?
				    lbtfi_hash_mix(lbtfi_hash_mix(lbtfi_hash_mix(h, e->name_off),
								  e->val_lo32), e->val_hi32) :
				    lbtfi_hash_mix(lbtfi_hash_mix(h, e32->name_off), (uint32_t)e32->val);
			continue;
		}
		h = lbtfi_hash_mix(h, lbtf_members(t)[i].name_off);
		h = lbtfi_hash_mix(h, lbtf_members(t)[i].offset);
		h = lbtfi_member_sig(b, lbtf_members(t)[i].type, h);
	}
	h = lbtfi_hash_fin(h);
	return h == LBTFI_EQ_SEVERAL || h == LBTFI_HTAB_FREE ? 1 : h;
}
