// SPDX-License-Identifier: BSD-2-Clause
/*
 * Struct/union member checks of pass 2, dispatched on the member's kind
 * (plain and kind_flag variants). Arithmetic is unsigned 32-bit as in the
 * kernel.
 */
#include "internal.h"

#define BYTE_MASKED(bits) ((bits) & 7u)
#define ROUNDDOWN_BYTES(bits) ((bits) >> 3)
#define ROUNDUP_BYTES(bits) (ROUNDDOWN_BYTES(bits) + !!BYTE_MASKED(bits))

static int member_err(struct venv *env, const struct lbtf_type *st, const struct lbtf_member *m,
		      const char *msg)
{
	lbtfi_vlog_member(env, st, m, "%s", msg);
	return -EINVAL;
}

/* bytes [bit_off/8, +ceil(copy_bits/8)) must fit the struct */
static int int_bounds(struct venv *env, const struct lbtf_type *st, const struct lbtf_member *m,
		      uint32_t bit_off, uint32_t nbits)
{
	uint32_t bytes = ROUNDDOWN_BYTES(bit_off);
	uint32_t copy = nbits + BYTE_MASKED(bit_off);

	if (copy > 128)
		return member_err(env, st, m, "nr_copy_bits exceeds 128");
	if (st->size < bytes || st->size - bytes < ROUNDUP_BYTES(copy))
		return member_err(env, st, m, "Member exceeds struct_size");
	return 0;
}

int lbtfi_vmember_int(struct venv *env, const struct lbtf_type *st, const struct lbtf_member *m,
		      const struct lbtf_type *mt)
{
	uint32_t d = v_int_data(mt), int_off = (d >> 16) & 0xff;

	if (UINT32_MAX - m->offset < int_off)
		return member_err(env, st, m, "bits_offset exceeds U32_MAX");
	return int_bounds(env, st, m, m->offset + int_off, d & 0xff);
}

int lbtfi_vmember_int_kflag(struct venv *env, const struct lbtf_type *st,
			    const struct lbtf_member *m, const struct lbtf_type *mt)
{
	uint32_t nbits = m->offset >> 24, off = m->offset & 0xffffff;

	if (!lbtfi_vint_regular(mt))
		return member_err(env, st, m, "Invalid member base type");
	if (!nbits) {
		if (BYTE_MASKED(off))
			return member_err(env, st, m, "Invalid member offset");
		nbits = v_int_data(mt) & 0xff;
	} else if (nbits > (v_int_data(mt) & 0xff)) {
		return member_err(env, st, m, "Invalid member bitfield_size");
	}
	return int_bounds(env, st, m, off, nbits);
}

/* A modifier member is checked as its resolved type; the member line then
 * shows the resolved id. */
static int modifier_member(struct venv *env, const struct lbtf_type *st,
			   const struct lbtf_member *m, bool kflag)
{
	uint32_t rid = m->type;
	const struct lbtf_type *rt = lbtfi_vid_size(env, &rid, NULL);
	struct lbtf_member rm;
	const struct vkind_ops *ops;

	if (!rt)
		return member_err(env, st, m, "Invalid member");
	rm = *m;
	rm.type = rid;
	ops = lbtfi_vops(rt);
	return kflag ? ops->check_kflag_member(env, st, &rm, rt) : ops->check_member(env, st, &rm, rt);
}

int lbtfi_vmember_modifier(struct venv *env, const struct lbtf_type *st,
			   const struct lbtf_member *m, const struct lbtf_type *mt)
{
	return modifier_member(env, st, m, false);
}

int lbtfi_vmember_modifier_kflag(struct venv *env, const struct lbtf_type *st,
				 const struct lbtf_member *m, const struct lbtf_type *mt)
{
	return modifier_member(env, st, m, true);
}

/* byte-aligned member of a known byte size */
static int sized_member(struct venv *env, const struct lbtf_type *st, const struct lbtf_member *m,
			uint32_t size)
{
	if (BYTE_MASKED(m->offset))
		return member_err(env, st, m, "Member is not byte aligned");
	if (st->size - ROUNDDOWN_BYTES(m->offset) < size)
		return member_err(env, st, m, "Member exceeds struct_size");
	return 0;
}

int lbtfi_vmember_ptr(struct venv *env, const struct lbtf_type *st, const struct lbtf_member *m,
		      const struct lbtf_type *mt)
{
	return sized_member(env, st, m, VPTR_SIZE);
}

int lbtfi_vmember_array(struct venv *env, const struct lbtf_type *st, const struct lbtf_member *m,
			const struct lbtf_type *mt)
{
	uint32_t id = m->type, size = 0;

	if (BYTE_MASKED(m->offset))
		return member_err(env, st, m, "Member is not byte aligned");
	lbtfi_vid_size(env, &id, &size);
	return sized_member(env, st, m, size);
}

/* STRUCT, UNION, ENUM, ENUM64 */
int lbtfi_vmember_struct(struct venv *env, const struct lbtf_type *st,
			 const struct lbtf_member *m, const struct lbtf_type *mt)
{
	return sized_member(env, st, m, mt->size);
}

int lbtfi_vmember_enum(struct venv *env, const struct lbtf_type *st, const struct lbtf_member *m,
		       const struct lbtf_type *mt)
{
	return sized_member(env, st, m, mt->size);
}

int lbtfi_vmember_enum_kflag(struct venv *env, const struct lbtf_type *st,
			     const struct lbtf_member *m, const struct lbtf_type *mt)
{
	uint32_t off = m->offset & 0xffffff, nbits = m->offset >> 24;

	if (!nbits) {
		if (BYTE_MASKED(off))
			return member_err(env, st, m, "Member is not byte aligned");
		nbits = 32; /* the kernel assumes int-sized enums here */
	} else if (nbits > 32) {
		return member_err(env, st, m, "Invalid member bitfield_size");
	}
	if (st->size < ROUNDUP_BYTES(off + nbits))
		return member_err(env, st, m, "Member exceeds struct_size");
	return 0;
}

int lbtfi_vmember_float(struct venv *env, const struct lbtf_type *st, const struct lbtf_member *m,
			const struct lbtf_type *mt)
{
	uint64_t align_bits = (uint64_t)(mt->size < VPTR_SIZE ? mt->size : VPTR_SIZE) * 8;

	if (m->offset % align_bits)
		return member_err(env, st, m, "Member is not properly aligned");
	if ((uint64_t)m->offset / 8 + mt->size > st->size)
		return member_err(env, st, m, "Member exceeds struct_size");
	return 0;
}

/* PTR, ARRAY, STRUCT, UNION, FLOAT under kind_flag: no bitfields */
int lbtfi_vmember_generic_kflag(struct venv *env, const struct lbtf_type *st,
				const struct lbtf_member *m, const struct lbtf_type *mt)
{
	if (m->offset >> 24)
		return member_err(env, st, m, "Invalid member bitfield_size");
	return lbtfi_vops(mt)->check_member(env, st, m, mt);
}

/* Kinds that can never be members (rejected before these are reached) */
int lbtfi_vmember_unsupported(struct venv *env, const struct lbtf_type *st,
			      const struct lbtf_member *m, const struct lbtf_type *mt)
{
	vlog_basic(env, st, "Unsupported check_member");
	return -EINVAL;
}

int lbtfi_vmember_unsupported_kflag(struct venv *env, const struct lbtf_type *st,
				    const struct lbtf_member *m, const struct lbtf_type *mt)
{
	vlog_basic(env, st, "Unsupported check_kflag_member");
	return -EINVAL;
}
