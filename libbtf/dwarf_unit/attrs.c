// SPDX-License-Identifier: BSD-2-Clause
/*
 * Small helpers shared by the DWARF converter: the C identifier rule, the
 * warning bits a unit collects, and the few reads left to libdw.
 */
#include <stdlib.h>
#include "internal.h"

void lbtfi_dw_warn(struct lbtfi_dw_unit *u, enum lbtfi_dw_warning w)
{
	u->warned |= 1ull << w;
}

void lbtfi_dw_warn_tag(struct lbtfi_dw_unit *u, unsigned int tag)
{
	unsigned int i;

	lbtfi_dw_warn(u, LBTFI_DW_WARN_OTHER_TAG);
	for (i = 0; i < sizeof(u->other_tags) / sizeof(u->other_tags[0]); i++) {
		if (u->other_tags[i] == tag)
			return;
		if (!u->other_tags[i]) {
			u->other_tags[i] = tag;
			return;
		}
	}
}

/* 1: may start a C identifier, 2: may continue one */
static const uint8_t ident_class[256] = {
	['_'] = 3,
	['a' ... 'z'] = 3,
	['A' ... 'Z'] = 3,
	['0' ... '9'] = 2,
};

/* The name if it is a C identifier (what the kernel accepts for types and
 * members), else NULL: the type is then anonymous. */
const char *lbtfi_dw_c_ident(struct lbtfi_dw_unit *u, const char *n)
{
	const unsigned char *p = (const unsigned char *)n;

	if (!n || !(ident_class[*p] & 1))
		goto bad;
	for (p++; ident_class[*p] & 2; p++)
		;
	if (!*p && p - (const unsigned char *)n < 512)
		return n;
bad:
	if (n && *n)
		lbtfi_dw_warn(u, LBTFI_DW_WARN_BAD_NAME);
	return NULL;
}

bool lbtfi_dw_may_have_annotations(const struct lbtfi_dw_unit *u, const struct lbtfi_dw_die *die)
{
	return !(u->no_annot && die->u == u->cu);
}


void *lbtfi_dw_scratch_take(struct lbtfi_dw_unit *u, uint32_t *cap, size_t elem_size)
{
	uint32_t lv = u->scr_depth++;
	void *p;

	*cap = 0;
	if (lv >= u->nscr) {
		struct lbtfi_dw_scratch *n = realloc(u->scr, (size_t)(lv + 1) * sizeof(*n));

		if (!n)
			return NULL; /* (the caller allocates its own; give frees it) */
		u->scr = n;
		for (; u->nscr <= lv; u->nscr++)
			n[u->nscr] = (struct lbtfi_dw_scratch){ NULL, 0 };
	}
	p = u->scr[lv].p;
	*cap = (uint32_t)(u->scr[lv].bytes / elem_size);
	u->scr[lv] = (struct lbtfi_dw_scratch){ NULL, 0 }; /* (the caller's while in use) */
	return p;
}

void lbtfi_dw_scratch_give(struct lbtfi_dw_unit *u, void *p, uint32_t cap, size_t elem_size)
{
	uint32_t lv = --u->scr_depth;

	if (lv >= u->nscr) {
		free(p);
		return;
	}
	u->scr[lv] = (struct lbtfi_dw_scratch){ p, (size_t)cap * elem_size };
}

/* Type sizes ---------------------------------------------------------------- */

/*
 * Byte size of a type DIE as libdw's dwarf_aggregate_size has it: its
 * DW_AT_byte_size (or DW_AT_bit_size rounded up); through typedefs and
 * qualifiers to what they name; an array as element size times its
 * dimensions (the ones the array converter counts); a pointer or reference
 * without a size as the unit's address size. 0 when unknown (incomplete,
 * flexible or variable-length).
 */
static uint64_t die_size(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, int depth)
{
	struct lbtfi_dw_attrs da;
	struct lbtfi_dw_die t, c;
	uint64_t v, n;

	if (depth > 64)
		return 0;
	lbtfi_dw_attrs_read(u, die, &da);
	if (lbtfi_dw_attrs_udata(&da, DA_BYTE_SIZE, &v))
		return v;
	if (lbtfi_dw_attrs_udata(&da, DA_BIT_SIZE, &v))
		return (v + 7) / 8;
	switch (lbtfi_dr_tag(die)) {
	case DW_TAG_pointer_type: case DW_TAG_reference_type: case DW_TAG_rvalue_reference_type:
	case DW_TAG_ptr_to_member_type:
		return die->u->h->addr_size;
	case DW_TAG_typedef: case DW_TAG_const_type: case DW_TAG_volatile_type:
	case DW_TAG_restrict_type: case DW_TAG_atomic_type: case DW_TAG_shared_type:
	case DW_TAG_immutable_type: case DW_TAG_enumeration_type: case DW_TAG_subrange_type:
		if (!lbtfi_dw_attrs_get(&da, DA_TYPE) || !lbtfi_dr_ref(u->rd, lbtfi_dw_attrs_get(&da, DA_TYPE), &t))
			return 0;
		return die_size(u, &t, depth + 1);
	case DW_TAG_array_type:
		if (!lbtfi_dw_attrs_get(&da, DA_TYPE) || !lbtfi_dr_ref(u->rd, lbtfi_dw_attrs_get(&da, DA_TYPE), &t) ||
		    !(v = die_size(u, &t, depth + 1)) || !lbtfi_dr_child(die, &c))
			return 0;
		do {
			if (lbtfi_dr_tag(&c) != DW_TAG_subrange_type)
				continue;
			if (!(n = lbtfi_dw_subrange_count(u, &c)) || v > UINT64_MAX / n)
				return 0;
			v *= n;
		} while (lbtfi_dr_sibling(&c));
		return v;
	default:
		return 0;
	}
}

uint64_t lbtfi_dw_type_size(struct lbtfi_dw_unit *u, const struct lbtfi_dw_attr *type)
{
	struct lbtfi_dw_die t;

	return type && lbtfi_dr_ref(u->rd, type, &t) ? die_size(u, &t, 0) : 0;
}
