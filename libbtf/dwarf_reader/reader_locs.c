// SPDX-License-Identifier: BSD-2-Clause
/*
 * Location lists, as far as btfgen needs them: the sequence of location
 * expressions of a DW_AT_location (where a function's parameter lives along
 * the function: pahole's check of the registers parameters arrive in).
 * DWARF 2-4 keep address pairs and counted expressions in .debug_loc (a
 * pair of zeros ends the list, an all-ones start selects a base); DWARF 5
 * keeps encoded entries in .debug_loclists, named by offset or, through the
 * offsets table after the section's header, by index. The addresses are not
 * needed: only which expressions, in order.
 */
#include <dwarf.h>
#include "internal.h"

#ifndef DW_FORM_loclistx
#define DW_FORM_loclistx 0x22
#endif
#ifndef DW_LLE_GNU_view_pair
#define DW_LLE_GNU_view_pair 0x09
#endif

typedef bool (*expr_fn)(const uint8_t *p, uint64_t len, void *ctx);

/* A counted expression (ULEB128 length, DWARF 5); false to stop */
static bool counted(const uint8_t **p, const uint8_t *e, expr_fn fn, void *ctx, bool *stop)
{
	uint64_t n;

	if (!lbtfi_dr_uleb(p, e, &n) || n > (uint64_t)(e - *p))
		return false;
	*stop = !fn(*p, n, ctx);
	*p += n;
	return true;
}

static bool loclists(const struct lbtfi_dw_attr *a, expr_fn fn, void *ctx)
{
	const struct lbtfi_dr_unit *u = a->u;
	const struct lbtfi_dr_sect *s = &u->f->s[DS_LOCLISTS];
	unsigned int asz = u->h->addr_size, osz = u->h->offset_size;
	const uint8_t *p, *e = s->p + s->len;
	uint64_t off, x;
	bool stop = false;

	if (!s->p)
		return false;
	if (a->form == DW_FORM_loclistx) {
		/* (the offsets table right after the unit's v5 header: no
		 * DW_AT_loclists_base is read, gcc does not use this form
		 * outside split DWARF) */
		const uint8_t *q = a->p;
		uint64_t idx, base = osz == 8 ? 20 : 12, at;

		if (!lbtfi_dr_uleb(&q, u->end, &idx) || idx > s->len / osz)
			return false;
		at = base + idx * osz;
		if (at + osz > s->len)
			return false;
		off = base + lbtfi_dr_read(u->f->big_endian, s->p + at, osz);
	} else if (!lbtfi_dr_udata(a, &off)) {
		return false;
	}
	if (off >= s->len)
		return false;
	for (p = s->p + off; p < e && !stop;) {
		switch (*p++) {
		case DW_LLE_end_of_list:
			return true;
		case DW_LLE_base_addressx:
			if (!lbtfi_dr_uleb(&p, e, &x))
				return false;
			continue;
		case DW_LLE_GNU_view_pair:
			if (!lbtfi_dr_uleb(&p, e, &x) || !lbtfi_dr_uleb(&p, e, &x))
				return false;
			continue;
		case DW_LLE_base_address:
			if ((size_t)(e - p) < asz)
				return false;
			p += asz;
			continue;
		case DW_LLE_startx_endx:
		case DW_LLE_startx_length:
		case DW_LLE_offset_pair:
			if (!lbtfi_dr_uleb(&p, e, &x) || !lbtfi_dr_uleb(&p, e, &x))
				return false;
			break;
		case DW_LLE_default_location:
			break;
		case DW_LLE_start_end:
			if ((size_t)(e - p) < 2ull * asz)
				return false;
			p += 2 * asz;
			break;
		case DW_LLE_start_length:
			if ((size_t)(e - p) < asz)
				return false;
			p += asz;
			if (!lbtfi_dr_uleb(&p, e, &x))
				return false;
			break;
		default:
			return false;
		}
		if (!counted(&p, e, fn, ctx, &stop))
			return false;
	}
	return true;
}

static bool loc(const struct lbtfi_dw_attr *a, expr_fn fn, void *ctx)
{
	const struct lbtfi_dr_unit *u = a->u;
	const struct lbtfi_dr_sect *s = &u->f->s[DS_LOC];
	unsigned int asz = u->h->addr_size;
	uint64_t off, lo, hi, n;
	uint64_t all = asz == 8 ? UINT64_MAX : (1ull << (8 * asz)) - 1; /* base selection */

	if (!s->p || !lbtfi_dr_udata(a, &off) || asz < 1 || asz > 8)
		return false;
	while (off <= s->len && s->len - off >= 2ull * asz) {
		lo = lbtfi_dr_read(u->f->big_endian, s->p + off, asz);
		hi = lbtfi_dr_read(u->f->big_endian, s->p + off + asz, asz);
		off += 2ull * asz;
		if (!lo && !hi)
			return true;
		if (lo == all)
			continue;
		if (s->len - off < 2)
			return false;
		n = lbtfi_dr_read(u->f->big_endian, s->p + off, 2);
		off += 2;
		if (n > s->len - off)
			return false;
		if (!fn(s->p + off, n, ctx))
			return true;
		off += n;
	}
	return false;
}

bool lbtfi_dr_loc_exprs(const struct lbtfi_dw_attr *a, expr_fn fn, void *ctx)
{
	const uint8_t *p;
	uint64_t len;

	switch (a->form) {
	case DW_FORM_exprloc: case DW_FORM_block1: case DW_FORM_block2: case DW_FORM_block4:
	case DW_FORM_block:
		if (!lbtfi_dr_block(a, &p, &len))
			return false;
		fn(p, len, ctx);
		return true;
	case DW_FORM_loclistx:
		return loclists(a, fn, ctx);
	default:
		return a->u->h->version >= 5 ? loclists(a, fn, ctx) : loc(a, fn, ctx);
	}
}
