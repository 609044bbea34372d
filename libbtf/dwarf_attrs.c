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

/* Gathered attributes ------------------------------------------------------- */

#define DA_ORIGIN DA_NR       /* internal slots: where to integrate from */
#define DA_SPEC (DA_NR + 1)

static const uint8_t attr_slot[DW_AT_data_bit_offset + 1] = {
	[DW_AT_name] = DA_NAME + 1,
	[DW_AT_type] = DA_TYPE + 1,
	[DW_AT_byte_size] = DA_BYTE_SIZE + 1,
	[DW_AT_bit_size] = DA_BIT_SIZE + 1,
	[DW_AT_data_bit_offset] = DA_DATA_BIT_OFFSET + 1,
	[DW_AT_data_member_location] = DA_MEMBER_LOC + 1,
	[DW_AT_bit_offset] = DA_BIT_OFFSET + 1,
	[DW_AT_declaration] = DA_DECLARATION + 1,
	[DW_AT_external] = DA_EXTERNAL + 1,
	[DW_AT_encoding] = DA_ENCODING + 1,
	[DW_AT_const_value] = DA_CONST_VALUE + 1,
	[DW_AT_count] = DA_COUNT + 1,
	[DW_AT_upper_bound] = DA_UPPER_BOUND + 1,
	[DW_AT_lower_bound] = DA_LOWER_BOUND + 1,
	[DW_AT_abstract_origin] = DA_ORIGIN + 1,
	[DW_AT_specification] = DA_SPEC + 1,
};

static int gather_attr(Dwarf_Attribute *a, void *arg)
{
	struct dw_attrs *g = arg;
	unsigned int at = dwarf_whatattr(a);

	if (at < sizeof(attr_slot) && attr_slot[at]) {
		g->a[attr_slot[at] - 1] = *a;
		g->have |= 1u << (attr_slot[at] - 1);
	}
	return DWARF_CB_OK;
}

/* Rare: fill the slots da lacks from the DIEs its origin chain points at */
static void integrate(struct dw_attrs *da)
{
	const uint32_t mine = (1u << DA_NR) - 1;
	struct dw_attrs g;
	int guard = 16;
	Dwarf_Die next;
	uint32_t s;

	g.have = da->have;
	g.a[DA_ORIGIN] = da->a[DA_ORIGIN];
	g.a[DA_SPEC] = da->a[DA_SPEC];
	da->have &= mine;
	/* dwarf_attr_integrate's order: the abstract origin, else the
	 * specification */
	while (guard-- && (g.have >> DA_NR) &&
	       dwarf_formref_die(&g.a[(g.have >> DA_ORIGIN & 1) ? DA_ORIGIN : DA_SPEC], &next)) {
		uint32_t add;

		g.have = 0;
		dwarf_getattrs(&next, gather_attr, &g, 0);
		add = g.have & mine & ~da->have;
		for (s = 0; add >> s; s++)
			if (add >> s & 1)
				da->a[s] = g.a[s];
		da->have |= add;
	}
}

void dw_attrs_read(Dwarf_Die *die, struct dw_attrs *da)
{
	da->have = 0;
	dwarf_getattrs(die, gather_attr, da, 0);
	if (da->have >> DA_NR)
		integrate(da);
}

const char *dw_attrs_name(struct dw_attrs *da)
{
	return dwarf_formstring(dw_attrs_get(da, DA_NAME));
}

bool dw_attrs_flag(struct dw_attrs *da, enum dw_attr_slot s)
{
	bool v = false;

	return (da->have >> s & 1) && dwarf_formflag(&da->a[s], &v) == 0 && v;
}

bool dw_attrs_udata(struct dw_attrs *da, enum dw_attr_slot s, Dwarf_Word *out)
{
	return (da->have >> s & 1) && dwarf_formudata(&da->a[s], out) == 0;
}

int dw_attrs_bytesize(struct dw_attrs *da)
{
	Dwarf_Word v;

	return dw_attrs_udata(da, DA_BYTE_SIZE, &v) ? (int)v : -1;
}
