// SPDX-License-Identifier: BSD-2-Clause
/*
 * Small helpers shared by the DWARF converter: attribute reads, the C
 * identifier rule, and the warning bits a unit collects.
 */
#include <stdlib.h>
#include "dwarf_internal.h"

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

const char *dw_die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;

	return dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
}

bool dw_die_flag(Dwarf_Die *die, unsigned int at)
{
	Dwarf_Attribute a;
	bool v = false;

	if (!dwarf_attr_integrate(die, at, &a))
		return false;
	return dwarf_formflag(&a, &v) == 0 && v;
}

bool dw_die_udata(Dwarf_Die *die, unsigned int at, Dwarf_Word *out)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, at, &a) && dwarf_formudata(&a, out) == 0;
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

/* A flag of the DIE itself (a definition that points at its declaration
 * with DW_AT_specification must not inherit DW_AT_declaration from it) */
bool dw_own_flag(Dwarf_Die *die, unsigned int at)
{
	Dwarf_Attribute a;
	bool v = false;

	return dwarf_attr(die, at, &a) && dwarf_formflag(&a, &v) == 0 && v;
}

bool dw_may_have_annotations(const struct dw_unit *u, Dwarf_Die *die)
{
	return !(u->no_annot && die->cu == u->cu);
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
