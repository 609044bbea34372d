// SPDX-License-Identifier: BSD-2-Clause
/*
 * Pass 1's per-kind checks (the kernel's check_meta operations), in the
 * kernel's order: each logs its type (and members, enumerators, section
 * entries) when it passes, or the first problem found.
 */
#include "verify_internal.h"

#define INT_MASK 0x0fffffffu

static bool type_id_ok(uint32_t id) { return id <= VMAX_TYPE; }
static uint32_t bits_roundup_bytes(uint32_t bits) { return (bits >> 3) + !!(bits & 7); }

int lbtfi_vmeta_int(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	uint32_t d, bits;
	unsigned int enc;

	if (lbtf_vlen(t)) {
		vlog_type(env, t, "vlen != 0");
		return -EINVAL;
	}
	if (lbtf_kflag(t)) {
		vlog_type(env, t, "Invalid btf_info kind_flag");
		return -EINVAL;
	}
	d = v_int_data(t);
	if (d & ~INT_MASK) {
		vlog_basic(env, t, "Invalid int_data:%x", d);
		return -EINVAL;
	}
	bits = (d & 0xff) + ((d >> 16) & 0xff);
	if (bits > 128) {
		vlog_type(env, t, "nr_bits exceeds %zu", (size_t)128);
		return -EINVAL;
	}
	if (bits_roundup_bytes(bits) > t->size) {
		vlog_type(env, t, "nr_bits exceeds type_size");
		return -EINVAL;
	}
	enc = (d >> 24) & 0x0f;
	if (enc && enc != LBTF_INT_SIGNED && enc != LBTF_INT_CHAR && enc != LBTF_INT_BOOL) {
		vlog_type(env, t, "Unsupported encoding");
		return -LBTF_ENOTSUPP;
	}
	vlog_type(env, t, NULL);
	return 0;
}

/* PTR, TYPEDEF, VOLATILE, CONST, RESTRICT, TYPE_TAG */
int lbtfi_vmeta_ref(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	unsigned int k = vk(t);
	bool bad_name;

	if (lbtf_vlen(t)) {
		vlog_type(env, t, "vlen != 0");
		return -EINVAL;
	}
	if (lbtf_kflag(t) && k != LBTF_KIND_TYPE_TAG) {
		vlog_type(env, t, "Invalid btf_info kind_flag");
		return -EINVAL;
	}
	if (!type_id_ok(t->type)) {
		vlog_type(env, t, "Invalid type_id");
		return -EINVAL;
	}
	if (k == LBTF_KIND_TYPEDEF) {
		bad_name = !t->name_off || !lbtfi_vname_ident(env, t->name_off);
	} else if (k == LBTF_KIND_TYPE_TAG) {
		const char *v = lbtfi_vstr(env, t->name_off);
		bad_name = !v || !v[0];
	} else {
		bad_name = t->name_off != 0;
	}
	if (bad_name) {
		vlog_type(env, t, "Invalid name");
		return -EINVAL;
	}
	vlog_type(env, t, NULL);
	return 0;
}

int lbtfi_vmeta_array(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	const struct lbtf_array *a = lbtf_array(t);

	if (t->name_off) {
		vlog_type(env, t, "Invalid name");
		return -EINVAL;
	}
	if (lbtf_vlen(t)) {
		vlog_type(env, t, "vlen != 0");
		return -EINVAL;
	}
	if (lbtf_kflag(t)) {
		vlog_type(env, t, "Invalid btf_info kind_flag");
		return -EINVAL;
	}
	if (t->size) {
		vlog_type(env, t, "size != 0");
		return -EINVAL;
	}
	if (!a->type || !type_id_ok(a->type)) {
		vlog_type(env, t, "Invalid elem");
		return -EINVAL;
	}
	if (!a->index_type || !type_id_ok(a->index_type)) {
		vlog_type(env, t, "Invalid index");
		return -EINVAL;
	}
	vlog_type(env, t, NULL);
	return 0;
}

int lbtfi_vmeta_struct(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	bool is_union = vk(t) == LBTF_KIND_UNION;
	const struct lbtf_member *m = lbtf_members(t);
	uint32_t last = 0;

	if (t->name_off && !lbtfi_vname_ident(env, t->name_off)) {
		vlog_type(env, t, "Invalid name");
		return -EINVAL;
	}
	vlog_type(env, t, NULL);
	for (unsigned int i = 0; i < lbtf_vlen(t); i++, m++) {
		uint32_t off = lbtf_kflag(t) ? m->offset & 0xffffff : m->offset;

		if (!lbtfi_vname_off_ok(env, m->name_off)) {
			lbtfi_vlog_member(env, t, m, "Invalid member name_offset:%u", m->name_off);
			return -EINVAL;
		}
		if (m->name_off && !lbtfi_vname_ident(env, m->name_off)) {
			lbtfi_vlog_member(env, t, m, "Invalid name");
			return -EINVAL;
		}
		if (!m->type || !type_id_ok(m->type)) {
			lbtfi_vlog_member(env, t, m, "Invalid type_id");
			return -EINVAL;
		}
		if ((is_union && off) || last > off) {
			lbtfi_vlog_member(env, t, m, "Invalid member bits_offset");
			return -EINVAL;
		}
		if (bits_roundup_bytes(off) > t->size) {
			lbtfi_vlog_member(env, t, m, "Member bits_offset exceeds its struct size");
			return -EINVAL;
		}
		lbtfi_vlog_member(env, t, m, NULL);
		last = off;
	}
	return 0;
}

/* The enumerator name checks ENUM and ENUM64 share; NULL name: stop */
static int enumerator_ok(struct venv *env, const struct lbtf_type *t, uint32_t name_off)
{
	if (!lbtfi_vname_off_ok(env, name_off)) {
		lbtfi_vlog(env, "\tInvalid name_offset:%u", name_off);
		return -EINVAL;
	}
	if (!name_off || !lbtfi_vname_ident(env, name_off)) {
		vlog_type(env, t, "Invalid name");
		return -EINVAL;
	}
	return 0;
}

static int enum_head_ok(struct venv *env, const struct lbtf_type *t)
{
	if (t->size > 8 || !t->size || (t->size & (t->size - 1))) {
		vlog_type(env, t, "Unexpected size");
		return -EINVAL;
	}
	if (t->name_off && !lbtfi_vname_ident(env, t->name_off)) {
		vlog_type(env, t, "Invalid name");
		return -EINVAL;
	}
	vlog_type(env, t, NULL);
	return 0;
}

int lbtfi_vmeta_enum(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	const struct lbtf_enum *e = lbtf_enums(t);
	int err = enum_head_ok(env, t);

	for (unsigned int i = 0; !err && i < lbtf_vlen(t); i++) {
		if ((err = enumerator_ok(env, t, e[i].name_off)))
			break;
		if (!lbtfi_vlog_dumps(env))
			continue;
		if (lbtf_kflag(t))
			lbtfi_vlog(env, "\t%s val=%d\n", lbtfi_vname(env, e[i].name_off), e[i].val);
		else
			lbtfi_vlog(env, "\t%s val=%u\n", lbtfi_vname(env, e[i].name_off),
				   (uint32_t)e[i].val);
	}
	return err;
}

int lbtfi_vmeta_enum64(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	const struct lbtf_enum64 *e = lbtf_enums64(t);
	int err = enum_head_ok(env, t);

	for (unsigned int i = 0; !err && i < lbtf_vlen(t); i++) {
		uint64_t v = lbtf_enum64_value(&e[i]);

		if ((err = enumerator_ok(env, t, e[i].name_off)))
			break;
		if (!lbtfi_vlog_dumps(env))
			continue;
		if (lbtf_kflag(t))
			lbtfi_vlog(env, "\t%s val=%lld\n", lbtfi_vname(env, e[i].name_off),
				   (long long)v);
		else
			lbtfi_vlog(env, "\t%s val=%llu\n", lbtfi_vname(env, e[i].name_off),
				   (unsigned long long)v);
	}
	return err;
}

int lbtfi_vmeta_fwd(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	if (lbtf_vlen(t)) {
		vlog_type(env, t, "vlen != 0");
		return -EINVAL;
	}
	if (t->type) {
		vlog_type(env, t, "type != 0");
		return -EINVAL;
	}
	if (!t->name_off || !lbtfi_vname_ident(env, t->name_off)) {
		vlog_type(env, t, "Invalid name");
		return -EINVAL;
	}
	vlog_type(env, t, NULL);
	return 0;
}

int lbtfi_vmeta_func(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	if (!t->name_off || !lbtfi_vname_ident(env, t->name_off)) {
		vlog_type(env, t, "Invalid name");
		return -EINVAL;
	}
	if (lbtf_vlen(t) > LBTF_LINKAGE_GLOBAL) {
		vlog_type(env, t, "Invalid func linkage");
		return -EINVAL;
	}
	if (lbtf_kflag(t)) {
		vlog_type(env, t, "Invalid btf_info kind_flag");
		return -EINVAL;
	}
	vlog_type(env, t, NULL);
	return 0;
}

int lbtfi_vmeta_func_proto(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	if (t->name_off) {
		vlog_type(env, t, "Invalid name");
		return -EINVAL;
	}
	if (lbtf_kflag(t)) {
		vlog_type(env, t, "Invalid btf_info kind_flag");
		return -EINVAL;
	}
	vlog_type(env, t, NULL);
	return 0;
}

int lbtfi_vmeta_var(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	uint32_t linkage = lbtf_var(t)->linkage;

	if (lbtf_vlen(t)) {
		vlog_type(env, t, "vlen != 0");
		return -EINVAL;
	}
	if (lbtf_kflag(t)) {
		vlog_type(env, t, "Invalid btf_info kind_flag");
		return -EINVAL;
	}
	if (!t->name_off || !lbtfi_vname_ident(env, t->name_off)) {
		vlog_type(env, t, "Invalid name");
		return -EINVAL;
	}
	if (!t->type || !type_id_ok(t->type)) {
		vlog_type(env, t, "Invalid type_id");
		return -EINVAL;
	}
	if (linkage != 0 && linkage != 1) {
		vlog_type(env, t, "Linkage not supported");
		return -EINVAL;
	}
	vlog_type(env, t, NULL);
	return 0;
}

int lbtfi_vmeta_datasec(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	const struct lbtf_var_secinfo *vsi = lbtf_secinfos(t);
	uint64_t last_end = 0, sum = 0;

	if (!t->size) {
		vlog_type(env, t, "size == 0");
		return -EINVAL;
	}
	if (lbtf_kflag(t)) {
		vlog_type(env, t, "Invalid btf_info kind_flag");
		return -EINVAL;
	}
	if (!t->name_off || !lbtfi_vname_section(env, t->name_off)) {
		vlog_type(env, t, "Invalid name");
		return -EINVAL;
	}
	vlog_type(env, t, NULL);
	for (unsigned int i = 0; i < lbtf_vlen(t); i++, vsi++) {
		if (!vsi->type || !type_id_ok(vsi->type)) {
			lbtfi_vlog_vsi(env, t, vsi, "Invalid type_id");
			return -EINVAL;
		}
		if (vsi->offset < last_end || vsi->offset >= t->size) {
			lbtfi_vlog_vsi(env, t, vsi, "Invalid offset");
			return -EINVAL;
		}
		if (!vsi->size || vsi->size > t->size) {
			lbtfi_vlog_vsi(env, t, vsi, "Invalid size");
			return -EINVAL;
		}
		last_end = (uint32_t)(vsi->offset + vsi->size); /* wraps like the kernel */
		if (last_end > t->size) {
			lbtfi_vlog_vsi(env, t, vsi, "Invalid offset+size");
			return -EINVAL;
		}
		lbtfi_vlog_vsi(env, t, vsi, NULL);
		sum += vsi->size;
	}
	if (sum > t->size) {
		vlog_type(env, t, "Invalid btf_info size");
		return -EINVAL;
	}
	return 0;
}

int lbtfi_vmeta_float(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	if (lbtf_vlen(t)) {
		vlog_type(env, t, "vlen != 0");
		return -EINVAL;
	}
	if (lbtf_kflag(t)) {
		vlog_type(env, t, "Invalid btf_info kind_flag");
		return -EINVAL;
	}
	if (t->size != 2 && t->size != 4 && t->size != 8 && t->size != 12 && t->size != 16) {
		vlog_type(env, t, "Invalid type_size");
		return -EINVAL;
	}
	vlog_type(env, t, NULL);
	return 0;
}

int lbtfi_vmeta_decl_tag(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	const char *v = lbtfi_vstr(env, t->name_off);

	if (!v || !v[0]) {
		vlog_type(env, t, "Invalid value");
		return -EINVAL;
	}
	if (lbtf_vlen(t)) {
		vlog_type(env, t, "vlen != 0");
		return -EINVAL;
	}
	if (lbtf_decl_tag(t)->component_idx < -1) {
		vlog_type(env, t, "Invalid component_idx");
		return -EINVAL;
	}
	vlog_type(env, t, NULL);
	return 0;
}
