// SPDX-License-Identifier: BSD-2-Clause
/*
 * Range lists, as far as btfgen needs them: where the first range of a
 * DW_AT_ranges starts (the entry of a function the compiler split into hot
 * and cold parts). DWARF 2-4 keep address pairs in .debug_ranges, relative
 * to the unit's base address unless an entry selects a new base; DWARF 5
 * keeps encoded entries in .debug_rnglists, named by offset or, through the
 * unit's offsets table (DW_AT_rnglists_base), by index.
 */
#include <dwarf.h>
#include "internal.h"

#ifndef DW_FORM_rnglistx
#define DW_FORM_rnglistx 0x23
#endif

/* The entry's offset in .debug_rnglists */
static bool rnglists_offset(const struct lbtfi_dw_attr *a, uint64_t *off)
{
	const struct lbtfi_dr_unit *u = a->u;
	const struct lbtfi_dr_sect *s = &u->f->s[DS_RNGLISTS];
	const uint8_t *q = a->p;
	unsigned int osz = u->h->offset_size;
	uint64_t idx, at;

	if (a->form != DW_FORM_rnglistx)
		return lbtfi_dr_udata(a, off);
	if (!lbtfi_dr_uleb(&q, u->end, &idx) || idx > s->len / osz)
		return false;
	at = u->rnglists_base + idx * osz;
	if (at < u->rnglists_base || at + osz > s->len)
		return false;
	*off = u->rnglists_base + lbtfi_dr_read(u->f->big_endian, s->p + at, osz);
	return true;
}

static bool first_rnglists(const struct lbtfi_dw_attr *a, uint64_t *start)
{
	const struct lbtfi_dr_unit *u = a->u;
	const struct lbtfi_dr_sect *s = &u->f->s[DS_RNGLISTS];
	unsigned int asz = u->h->addr_size;
	uint64_t off, base = u->base_addr, x, y;
	const uint8_t *p, *e = s->p + s->len;

	if (!s->p || !rnglists_offset(a, &off) || off >= s->len)
		return false;
	for (p = s->p + off; p < e;) {
		switch (*p++) {
		case DW_RLE_end_of_list:
			return false;
		case DW_RLE_base_addressx:
			if (!lbtfi_dr_uleb(&p, e, &x) || !lbtfi_dr_addrx(u, x, &base))
				return false;
			continue;
		case DW_RLE_base_address:
			if ((size_t)(e - p) < asz)
				return false;
			base = lbtfi_dr_read_addr(u, p);
			p += asz;
			continue;
		case DW_RLE_startx_endx:
		case DW_RLE_startx_length:
			return lbtfi_dr_uleb(&p, e, &x) && lbtfi_dr_uleb(&p, e, &y) && lbtfi_dr_addrx(u, x, start);
		case DW_RLE_offset_pair:
			if (!lbtfi_dr_uleb(&p, e, &x) || !lbtfi_dr_uleb(&p, e, &y))
				return false;
			if (x == y)
				continue; /* empty */
			*start = base + x;
			return true;
		case DW_RLE_start_end:
		case DW_RLE_start_length:
			if ((size_t)(e - p) < asz)
				return false;
			*start = lbtfi_dr_read_addr(u, p);
			return true;
		default:
			return false;
		}
	}
	return false;
}

static bool first_ranges(const struct lbtfi_dw_attr *a, uint64_t *start)
{
	const struct lbtfi_dr_unit *u = a->u;
	const struct lbtfi_dr_sect *s = &u->f->s[DS_RANGES];
	unsigned int asz = u->h->addr_size;
	uint64_t off, base = u->base_addr, lo, hi;
	uint64_t all = asz == 8 ? UINT64_MAX : (1ull << (8 * asz)) - 1; /* base selection */

	if (!s->p || !lbtfi_dr_udata(a, &off) || asz < 1 || asz > 8)
		return false;
	for (; off <= s->len && s->len - off >= 2ull * asz; off += 2ull * asz) {
		lo = lbtfi_dr_read(u->f->big_endian, s->p + off, asz);
		hi = lbtfi_dr_read(u->f->big_endian, s->p + off + asz, asz);
		if (!lo && !hi)
			return false;
		if (lo == all) {
			base = hi;
			continue;
		}
		if (lo == hi)
			continue; /* empty */
		*start = base + lo;
		return true;
	}
	return false;
}

bool lbtfi_dr_first_range(const struct lbtfi_dw_attr *a, uint64_t *start)
{
	return a->u->h->version >= 5 ? first_rnglists(a, start) : first_ranges(a, start);
}
