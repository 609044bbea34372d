// SPDX-License-Identifier: BSD-2-Clause
/*
 * The value a relocation puts into its instruction, for the local spec (what
 * the compiler wrote) and a target spec (what libbpf writes), libbpf's
 * arithmetic (1.8's, or 1.1's where they differ: field_signed() and
 * load_size()): byte offsets of fields and bitfields (widened until one load
 * covers the bits), sizes, signedness, the shifts that extract a bitfield
 * from a u64, type ids, existence, enumerator values; no target spec means
 * "not found": 0 for the existence kinds, poison for the others.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

#define POISON_REQ (-EUCLEAN) /* libbpf's way of asking for poison */

/* libbpf 1.1's integer encoding of any type: the word after its header,
 * which for a type that is not an INT is whatever follows it in the blob */
static uint32_t encoding_11(const struct lbtf *btf, const struct lbtf_type *t)
{
	const unsigned char *p = (const unsigned char *)(t + 1);
	uint32_t w;

	if (lbtf_kind(t) == LBTF_KIND_INT)
		return lbtf_int_encoding(t);
	if (p < btf->data || p + 4 > btf->data + btf->size)
		return 0;
	memcpy(&w, p, 4);
	return (w >> 24) & 0x0f;
}

/* FIELD_SIGNED of a field of type mt: a signed enum, or a signed integer
 * (1.8; 1.1 reads any other type's next word as an integer encoding) */
static bool field_signed(const struct lbtf *btf, const struct lbtf_type *mt,
			 enum lbtf_core_rules rules)
{
	if (lbtf_is_enum(mt) && lbtf_kflag(mt))
		return true;
	if (rules == LBTF_CORE_RULES_LIBBPF_1_1)
		return encoding_11(btf, mt) & LBTF_INT_SIGNED;
	return lbtf_kind(mt) == LBTF_KIND_INT && (lbtf_int_encoding(mt) & LBTF_INT_SIGNED);
}

/* The size a load or store of type id moves: an array's innermost element
 * (1.8: that is what one instruction reads; 1.1: the whole array) */
static int64_t load_size(const struct lbtf *btf, uint32_t id, enum lbtf_core_rules rules)
{
	const struct lbtf_type *t;

	if (rules != LBTF_CORE_RULES_LIBBPF_1_1)
		while ((t = relo_skip(btf, &id)) && lbtf_kind(t) == LBTF_KIND_ARRAY)
			id = lbtf_array(t)->type;
	return lbtf_resolve_size(btf, id);
}

static int calc_field(uint32_t kind, const struct rspec *spec, enum lbtf_core_rules rules,
		      uint64_t *val, uint32_t *field_sz, uint32_t *type_id, bool *validate, char *why,
		      size_t why_len)
{
	const struct racc *acc;
	const struct lbtf_type *t, *mt;
	uint32_t byte_off, byte_sz, bit_off, bit_sz, ftid;
	bool bitfield;
	int64_t sz;

	*field_sz = 0;
	if (kind == LBTF_CORE_FIELD_EXISTS) {
		*val = spec ? 1 : 0;
		return 0;
	}
	if (!spec)
		return POISON_REQ;
	acc = &spec->acc[spec->len - 1];
	t = lbtf_type_by_id(spec->btf, acc->type_id);
	if (!acc->name) { /* an array element */
		if (kind == LBTF_CORE_FIELD_BYTE_OFFSET) {
			*val = spec->bit_off / 8;
			if ((sz = load_size(spec->btf, acc->type_id, rules)) < 0)
				return -EINVAL;
			*field_sz = (uint32_t)sz;
			*type_id = acc->type_id;
		} else if (kind == LBTF_CORE_FIELD_BYTE_SIZE) {
			if ((sz = lbtf_resolve_size(spec->btf, acc->type_id)) < 0)
				return -EINVAL;
			*val = (uint64_t)sz;
		} else {
			snprintf(why, why_len, "%s can't be applied to an array element",
				 lbtf_core_relo_kind_name(kind));
			return -EINVAL;
		}
		if (validate)
			*validate = true;
		return 0;
	}
	ftid = lbtf_members(t)[acc->idx].type;
	if (!(mt = relo_skip(spec->btf, &ftid)))
		return -EINVAL;
	bit_off = spec->bit_off;
	bit_sz = lbtf_member_bitfield_size(t, acc->idx);
	bitfield = bit_sz > 0;
	if (bitfield) {
		byte_sz = mt->size;
		if (!byte_sz)
			return -EINVAL;
		byte_off = bit_off / 8 / byte_sz * byte_sz;
		while (bit_off + bit_sz - byte_off * 8 > byte_sz * 8) {
			if (byte_sz >= 8) {
				snprintf(why, why_len, "bitfield can't be read with one 64-bit load");
				return -E2BIG;
			}
			byte_sz *= 2;
			byte_off = bit_off / 8 / byte_sz * byte_sz;
		}
	} else {
		if ((sz = lbtf_resolve_size(spec->btf, ftid)) < 0)
			return -EINVAL;
		byte_sz = (uint32_t)sz;
		byte_off = spec->bit_off / 8;
		bit_sz = byte_sz * 8;
	}
	/* bitfield values may differ from the compiler's: not checked */
	if (validate)
		*validate = !bitfield;
	switch (kind) {
	case LBTF_CORE_FIELD_BYTE_OFFSET:
		*val = byte_off;
		if (!bitfield) {
			if ((sz = load_size(spec->btf, ftid, rules)) < 0)
				return -EINVAL;
			*field_sz = (uint32_t)sz;
			*type_id = ftid;
		}
		break;
	case LBTF_CORE_FIELD_BYTE_SIZE:
		*val = byte_sz;
		break;
	case LBTF_CORE_FIELD_SIGNED:
		*val = field_signed(spec->btf, mt, rules);
		if (validate)
			*validate = true;
		break;
	case LBTF_CORE_FIELD_LSHIFT_U64:
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		*val = 64 - (bit_off + bit_sz - byte_off * 8);
#else
		*val = (8 - byte_sz) * 8 + (bit_off - byte_off * 8);
#endif
		break;
	case LBTF_CORE_FIELD_RSHIFT_U64:
		*val = 64 - bit_sz;
		if (validate)
			*validate = true;
		break;
	default:
		return -EOPNOTSUPP;
	}
	return 0;
}

static int calc_type(uint32_t kind, const struct rspec *spec, uint64_t *val, bool *validate)
{
	int64_t sz;

	if (validate)
		*validate = true;
	if (!spec) {
		*val = 0;
		return 0;
	}
	switch (kind) {
	case LBTF_CORE_TYPE_ID_TARGET:
		*val = spec->root_id;
		/* ids change when objects are linked: never checked */
		if (validate)
			*validate = false;
		return 0;
	case LBTF_CORE_TYPE_EXISTS: case LBTF_CORE_TYPE_MATCHES:
		*val = 1;
		return 0;
	case LBTF_CORE_TYPE_SIZE:
		if ((sz = lbtf_resolve_size(spec->btf, spec->root_id)) < 0)
			return -EINVAL;
		*val = (uint64_t)sz;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static int calc_enumval(uint32_t kind, const struct rspec *spec, uint64_t *val)
{
	const struct lbtf_type *t;

	if (kind == LBTF_CORE_ENUMVAL_EXISTS) {
		*val = spec ? 1 : 0;
		return 0;
	}
	if (kind != LBTF_CORE_ENUMVAL_VALUE)
		return -EOPNOTSUPP;
	if (!spec)
		return POISON_REQ;
	t = lbtf_type_by_id(spec->btf, spec->acc[0].type_id);
	if (lbtf_kind(t) == LBTF_KIND_ENUM)
		*val = (uint64_t)(int64_t)lbtf_enums(t)[spec->acc[0].idx].val;
	else
		*val = lbtf_enum64_value(&lbtf_enums64(t)[spec->acc[0].idx]);
	return 0;
}

/* Whether a load or store may change size: pointers, or unsigned integers */
static bool memsz_safe(const struct lbtf *lb, uint32_t lid, const struct lbtf *tb, uint32_t tid)
{
	const struct lbtf_type *a = lbtf_type_by_id(lb, lid), *b = lbtf_type_by_id(tb, tid);

	if (!a || !b)
		return false;
	if (lbtf_kind(a) == LBTF_KIND_PTR && lbtf_kind(b) == LBTF_KIND_PTR)
		return true;
	return lbtf_kind(a) == LBTF_KIND_INT && lbtf_kind(b) == LBTF_KIND_INT &&
	       lbtf_int_encoding(a) != LBTF_INT_SIGNED && lbtf_int_encoding(b) != LBTF_INT_SIGNED;
}

int relo_calc(uint32_t kind, const struct rspec *local, const struct rspec *targ,
	      enum lbtf_core_rules rules, struct rres *res, char *why, size_t why_len)
{
	int err = -EOPNOTSUPP;

	memset(res, 0, sizeof(*res));
	res->validate = true;
	if (relo_is_field(kind)) {
		err = calc_field(kind, local, rules, &res->orig, &res->orig_sz, &res->orig_tid,
				 &res->validate, why, why_len);
		if (!err)
			err = calc_field(kind, targ, rules, &res->new, &res->new_sz, &res->new_tid, NULL,
					 why, why_len);
		if (!err && res->orig_sz != res->new_sz &&
		    !memsz_safe(local->btf, res->orig_tid, targ->btf, res->new_tid))
			res->memsz_fail = true;
	} else if (relo_is_type(kind)) {
		err = calc_type(kind, local, &res->orig, &res->validate);
		if (!err)
			err = calc_type(kind, targ, &res->new, NULL);
	} else if (relo_is_enumval(kind)) {
		err = calc_enumval(kind, local, &res->orig);
		if (!err)
			err = calc_enumval(kind, targ, &res->new);
	}
	if (err == POISON_REQ) {
		res->poison = true;
		return 0;
	}
	if (err == -EOPNOTSUPP)
		snprintf(why, why_len, "unrecognized CO-RE relocation kind %u", kind);
	return err;
}
