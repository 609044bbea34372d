// SPDX-License-Identifier: BSD-2-Clause
/*
 * Small helpers shared by the DWARF converter: the C identifier rule, the
 * warning bits a unit collects, and the few reads left to libdw.
 */
#include <stdlib.h>
#include "internal.h"

void dw_warn(struct dw_unit *u, enum dw_warning w)
{
	u->warned |= 1ull << w;
}

void dw_warn_tag(struct dw_unit *u, unsigned int tag)
{
	unsigned int i;

	dw_warn(u, DW_WARN_OTHER_TAG);
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
const char *dw_c_ident(struct dw_unit *u, const char *n)
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
		dw_warn(u, DW_WARN_BAD_NAME);
	return NULL;
}

bool dw_may_have_annotations(const struct dw_unit *u, const struct dw_die *die)
{
	return !(u->no_annot && die->u == u->cu);
}

int dw_grow(void *arr, uint32_t *cap, uint32_t n, size_t elem_size, uint32_t first_cap)
{
	void **pa = arr, *p;
	uint32_t c;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : first_cap;
	p = realloc(*pa, (size_t)c * elem_size);
	if (!p)
		return lbtfi_err(ENOMEM, "out of memory");
	*pa = p;
	*cap = c;
	return 0;
}

/* The rare reads left to libdw ------------------------------------------- */

bool dw_libdw_die(struct dw_unit *u, const struct dw_die *die, Dwarf_Die *out)
{
	if (die->u->key_base == DW_KEY_TYPES)
		return dwarf_offdie_types(u->dw, die->off, out);
	if (die->u->key_base == DW_KEY_ALT)
		return dwarf_getalt(u->dw) && dwarf_offdie(dwarf_getalt(u->dw), die->off, out);
	return dwarf_offdie(u->dw, die->off, out);
}

uint64_t dw_type_size(struct dw_unit *u, const struct dw_attr *type)
{
	struct dw_die t;
	Dwarf_Die ld;
	Dwarf_Word size;

	if (!type || !dr_ref(u->rd, type, &t) || !dw_libdw_die(u, &t, &ld) ||
	    dwarf_aggregate_size(&ld, &size))
		return 0;
	return size;
}
