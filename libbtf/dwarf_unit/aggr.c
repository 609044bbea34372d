// SPDX-License-Identifier: BSD-2-Clause
/*
 * Aggregates: DWARF structs, unions and enums -> STRUCT/UNION (members with
 * bit offsets and bitfield sizes, kind_flag set by the builder), FWD, and
 * ENUM/ENUM64 with the signedness of the underlying type.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* Structs and unions -------------------------------------------------------- */

/* The children whose names are prefetched before a conversion reads them
 * (lbtfi_dr_prefetch_child_names) */
#define PREFETCH_NAMES 256

/* (f first: the members go to the builder in one call) */
struct member {
	struct lbtfi_builder_elem f;
	struct lbtfi_dw_die die;
	uint64_t pend;
};

static bool member_byte_offset(struct lbtfi_dw_attrs *ma, uint64_t *off)
{
	const uint8_t *p;
	uint64_t len;

	*off = 0;
	if (!(ma->have >> DA_MEMBER_LOC & 1))
		return true; /* union members */
	if (lbtfi_dr_udata(&ma->a[DA_MEMBER_LOC], off))
		return true;
	/* DWARF 2 style: a location expression of one DW_OP_plus_uconst N */
	if (!lbtfi_dr_block(&ma->a[DA_MEMBER_LOC], &p, &len) || len < 2 ||
	    (p[0] != DW_OP_plus_uconst && p[0] != DW_OP_constu))
		return false;
	return lbtfi_dr_expr_uleb(p + 1, p + len, off);
}

static int member_layout(struct lbtfi_dw_unit *u, struct lbtfi_dw_attrs *ma, struct member *out)
{
	uint64_t bits = 0, off, bitoff, storage, bs = 0;

	if (lbtfi_dw_attrs_udata(ma, DA_BIT_SIZE, &bits) && bits > 255) {
		lbtfi_dw_warn(u, LBTFI_DW_WARN_BITFIELD_RANGE);
		bits = 0;
	}
	out->f.bit_size = bits;
	if (lbtfi_dw_attrs_udata(ma, DA_DATA_BIT_OFFSET, &off)) {
		if (off > UINT32_MAX)
			return -1;
		out->f.bit_offset = off;
		return 0;
	}
	if (!member_byte_offset(ma, &off))
		return -1;
	off *= 8;
	if (bits && lbtfi_dw_attrs_udata(ma, DA_BIT_OFFSET, &bitoff)) {
		/* DWARF 2/3 bitfields: bit_offset counts from the storage unit's
		 * most significant bit */
		if (!lbtfi_dw_attrs_udata(ma, DA_BYTE_SIZE, &bs)) {
			struct lbtfi_dw_attrs ta;
			struct lbtfi_dw_die t;
			int tbs = 0;

			if (lbtfi_dw_type_target(u, lbtfi_dw_attrs_get(ma, DA_TYPE), &t)) {
				lbtfi_dw_attrs_read(u, &t, &ta);
				tbs = lbtfi_dw_attrs_bytesize(&ta);
			}
			bs = tbs > 0 ? (uint64_t)tbs : 0;
		}
		storage = bs * 8;
		if (u->g->big_endian)
			off += bitoff;
		else if (storage >= bitoff + bits)
			off += storage - bitoff - bits;
	}
	if (off > UINT32_MAX)
		return -1;
	out->f.bit_offset = off;
	return 0;
}

/*
 * Whether the kernel can place the member: a bit-field's storage (its bits
 * from the byte it starts in) is at most 128 bits, and the member ends
 * within the struct. Sizes of plain members are read for union members and
 * for struct members past the struct's last 16 bytes only (where a member
 * that does not fit would be), to keep the common case cheap.
 */
static bool member_fits(struct lbtfi_dw_unit *u, struct lbtfi_dw_attrs *ma, const struct member *m, int sz,
			bool is_union)
{
	uint64_t end = is_union ? 0 : m->f.bit_offset, size;

	if (sz < 0)
		return true; /* no size: a declaration-like aggregate */
	if (m->f.bit_size)
		return m->f.bit_size + (end & 7) <= 128 && end + m->f.bit_size <= (uint64_t)sz * 8;
	if (end > (uint64_t)sz * 8)
		return false;
	if (!is_union && end / 8 + 16 < (uint64_t)sz)
		return true;
	size = lbtfi_dw_type_size(u, lbtfi_dw_attrs_get(ma, DA_TYPE));
	return end / 8 + size <= (uint64_t)sz;
}

static int add_member_tags(struct lbtfi_dw_unit *u, struct member *ms, uint32_t n, uint32_t id)
{
	uint32_t i;
	int err;

	if (!(u->g->features & LBTF_DWARF_FEAT_DECL_TAG))
		return 0;
	for (i = 0; i < n; i++)
		if ((err = lbtfi_dw_add_decl_tags(u, &ms[i].die, id, i)))
			return err;
	return 0;
}

int64_t lbtfi_dw_conv_struct(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die)
{
	bool is_union = lbtfi_dr_tag(die) == DW_TAG_union_type;
	struct member *ms = NULL;
	struct lbtfi_dw_attrs ma, da;
	uint32_t n = 0, cap = 0, i;
	int64_t id = 0, err = 0, type;
	const char *name;
	struct lbtfi_dw_die c;
	int sz;

	lbtfi_dw_attrs_read(u, die, &da);
	name = lbtfi_dw_c_ident(u, lbtfi_dw_attrs_name(&da));
	sz = lbtfi_dw_attrs_bytesize(&da);
	if (lbtfi_dw_attrs_flag(&da, DA_DECLARATION)) {
		if (name && *name)
			return lbtf_builder_add_fwd(u->b, name, is_union ? LBTF_FWD_UNION : LBTF_FWD_STRUCT);
		/* a nameless FWD is invalid BTF: an empty aggregate says the same */
		return is_union ? lbtf_builder_add_union(u->b, NULL, 0) : lbtf_builder_add_struct(u->b, NULL, 0);
	}
	ms = lbtfi_dw_scratch_take(u, &cap, sizeof(*ms));
	lbtfi_dr_prefetch_child_names(die, PREFETCH_NAMES);
	if (lbtfi_dr_child(die, &c)) {
		do {
			struct member *m;
			int tag = lbtfi_dr_tag(&c);

			if (tag == DW_TAG_inheritance)
				lbtfi_dw_warn(u, LBTFI_DW_WARN_INHERITANCE);
			else if (tag == DW_TAG_template_type_parameter ||
				 tag == DW_TAG_template_value_parameter)
				lbtfi_dw_warn(u, LBTFI_DW_WARN_TEMPLATE);
			else if (tag == DW_TAG_variant_part)
				lbtfi_dw_warn(u, LBTFI_DW_WARN_VARIANT_PART);
			if (tag != DW_TAG_member)
				continue;
			lbtfi_dw_attrs_read(u, &c, &ma);
			/* C++ static data members are declarations */
			if (lbtfi_dw_attrs_flag(&ma, DA_DECLARATION) || lbtfi_dw_attrs_flag(&ma, DA_EXTERNAL))
				continue;
			if ((err = lbtfi_dw_grow(&ms, &cap, n, sizeof(*ms), 8)))
				goto out;
			m = &ms[n];
			m->die = c;
			m->f.name = (ma.have >> DA_NAME & 1) ? lbtfi_dw_c_ident(u, lbtfi_dw_attrs_name(&ma)) : NULL;
			if (member_layout(u, &ma, m))
				continue; /* a member at a computed location: not describable */
			m->pend = 0;
			type = lbtfi_dw_ref_attr(u, lbtfi_dw_attrs_get(&ma, DA_TYPE), &m->pend);
			if (type < 0) {
				err = type;
				goto out;
			}
			if (!type && !m->pend)
				continue; /* member of a type BTF cannot hold */
			m->f.type = (uint32_t)type; /* (an id: below 2^31) */
			if (!member_fits(u, &ma, m, sz, is_union)) {
				lbtfi_dw_warn(u, LBTFI_DW_WARN_MEMBER_RANGE);
				continue;
			}
			if (is_union)
				m->f.bit_offset = 0;
			n++;
		} while (lbtfi_dr_sibling(&c));
	}
	if (n > 0xffff)
		n = 0xffff;
	if (sz < 0)
		sz = 0;
	id = is_union ? lbtf_builder_add_union(u->b, name, sz) : lbtf_builder_add_struct(u->b, name, sz);
	if (id < 0) {
		err = id;
		goto out;
	}
	if ((err = lbtfi_builder_add_elems(u->b, n ? &ms[0].f : NULL, n, sizeof(*ms))) < 0)
		goto out;
	err = 0;
	for (i = 0; i < n; i++)
		if (ms[i].pend && (err = lbtfi_dw_fixup_add(u, id, W_MEMBER(i), ms[i].pend)))
			goto out;
	if (!(err = lbtfi_dw_add_decl_tags(u, die, id, -1)))
		err = add_member_tags(u, ms, n, id);
out:
	lbtfi_dw_scratch_give(u, ms, cap, sizeof(*ms));
	return err < 0 ? err : id;
}

/* Enums --------------------------------------------------------------------- */

static bool enum_is_signed(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, struct lbtfi_dw_attrs *da)
{
	struct lbtfi_dw_attrs ta;
	struct lbtfi_dw_die t, c;
	uint64_t enc;

	if ((da->have >> DA_TYPE & 1) && lbtfi_dr_ref(u->rd, &da->a[DA_TYPE], &t)) {
		while (lbtfi_dr_tag(&t) == DW_TAG_typedef || lbtfi_dr_tag(&t) == DW_TAG_const_type ||
		       lbtfi_dr_tag(&t) == DW_TAG_volatile_type) {
			lbtfi_dw_attrs_read(u, &t, &ta);
			if (!lbtfi_dw_type_target(u, lbtfi_dw_attrs_get(&ta, DA_TYPE), &t))
				return false;
		}
		lbtfi_dw_attrs_read(u, &t, &ta);
		return lbtfi_dw_attrs_udata(&ta, DA_ENCODING, &enc) &&
		       (enc == DW_ATE_signed || enc == DW_ATE_signed_char);
	}
	/* no underlying type (older DWARF): signed if a value is negative */
	if (lbtfi_dr_child(die, &c)) {
		do {
			const struct lbtfi_dw_attr *a;

			if (lbtfi_dr_tag(&c) != DW_TAG_enumerator)
				continue;
			lbtfi_dr_attrs(u->rd, &c, &ta, false);
			a = lbtfi_dw_attrs_get(&ta, DA_CONST_VALUE);
			if (a && lbtfi_dr_negative(a))
				return true;
		} while (lbtfi_dr_sibling(&c));
	}
	return false;
}

int64_t lbtfi_dw_conv_enum(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die)
{
	struct lbtfi_dw_attrs da;
	const char *name;
	bool sgn, is64;
	int sz, id;
	struct lbtfi_dw_die c;

	lbtfi_dw_attrs_read(u, die, &da);
	name = lbtfi_dw_c_ident(u, lbtfi_dw_attrs_name(&da));
	sz = lbtfi_dw_attrs_bytesize(&da);
	if (lbtfi_dw_attrs_flag(&da, DA_DECLARATION) && name && *name)
		return lbtf_builder_add_fwd(u->b, name, LBTF_FWD_ENUM);
	if (sz != 1 && sz != 2 && sz != 4 && sz != 8)
		sz = 4;
	sgn = enum_is_signed(u, die, &da);
	is64 = sz == 8 && (u->g->features & LBTF_DWARF_FEAT_ENUM64);
	id = is64 ? lbtf_builder_add_enum64(u->b, name, sz, sgn)
		  : lbtf_builder_add_enum(u->b, name, sz, sgn);
	if (id < 0)
		return id;
	lbtfi_dr_prefetch_child_names(die, PREFETCH_NAMES);
	if (!lbtfi_dr_child(die, &c))
		return id;
	do {
		const struct lbtfi_dw_attr *a;
		uint64_t raw = 0;
		const char *vn;
		int r;

		if (lbtfi_dr_tag(&c) != DW_TAG_enumerator)
			continue;
		lbtfi_dw_attrs_read(u, &c, &da);
		vn = lbtfi_dw_c_ident(u, lbtfi_dw_attrs_name(&da));
		a = lbtfi_dw_attrs_get(&da, DA_CONST_VALUE);
		if (!vn || !a)
			continue;
		if (!lbtfi_dr_udata(a, &raw))
			raw = 0;
		if (is64) {
			r = lbtf_builder_add_enum64_value(u->b, vn, raw);
		} else {
			/* 32-bit record: keep the low 32 bits, extended by signedness
			 * (values wider than the enum only exist without enum64) */
			uint32_t lo = (uint32_t)raw;

			if (sz < 4) {
				uint32_t bits = sz * 8, mask = (1u << bits) - 1;

				lo &= mask;
				if (sgn && (lo >> (bits - 1)))
					lo |= ~mask;
			}
			r = lbtf_builder_add_enum_value(u->b, vn, sgn ? (int64_t)(int32_t)lo : (int64_t)lo);
		}
		if (r < 0)
			return r;
	} while (lbtfi_dr_sibling(&c));
	return id;
}
