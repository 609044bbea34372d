// SPDX-License-Identifier: BSD-2-Clause
/*
 * Special-field discovery (the kernel's btf_find_field): which members of a
 * struct are bpf_spin_lock & co., kptrs or graph roots, with arrays
 * flattened and nested structs descended into.
 */
#include <stdlib.h>
#include <string.h>
#include "special.h"

/* Special struct types by name, in the kernel's matching order, with the
 * size and alignment of the kernel's own definition. */
static const struct sf_desc {
	uint32_t type;
	const char *name;
	bool unique;
	uint8_t size, align;
} sf_types[] = {
	{ SF_SPIN_LOCK, "bpf_spin_lock", true, 4, 4 },
	{ SF_RES_SPIN_LOCK, "bpf_res_spin_lock", true, 4, 4 },
	{ SF_TIMER, "bpf_timer", true, 16, 8 },
	{ SF_WQ, "bpf_wq", true, 16, 8 },
	{ SF_TASK_WORK, "bpf_task_work", true, 8, 8 },
	{ SF_LIST_HEAD, "bpf_list_head", false, 16, 8 },
	{ SF_LIST_NODE, "bpf_list_node", false, 24, 8 },
	{ SF_RB_ROOT, "bpf_rb_root", false, 16, 8 },
	{ SF_RB_NODE, "bpf_rb_node", false, 32, 8 },
	{ SF_REFCOUNT, "bpf_refcount", false, 4, 4 },
};

uint32_t lbtfi_vsf_field_size(uint32_t type)
{
	for (size_t i = 0; i < sizeof(sf_types) / sizeof(sf_types[0]); i++)
		if (sf_types[i].type == type)
			return sf_types[i].size;
	return 8; /* kptrs */
}

/* First id of that kind and name (btf_find_by_name_kind) */
int lbtfi_vsf_find_by_name_kind(const struct venv *env, const char *name, unsigned int kind)
{
	for (uint32_t id = 1; id < env->nr_types; id++) {
		const struct lbtf_type *t = env->types[id];
		const char *s;

		if (vk(t) != kind)
			continue;
		s = lbtfi_vstr(env, t->name_off);
		if (s && !strcmp(s, name))
			return id;
	}
	return -ENOENT;
}

static const struct lbtf_type *skip_modifiers(const struct venv *env, uint32_t id, uint32_t *res)
{
	const struct lbtf_type *t = lbtfi_vtype(env, id);

	while (t && v_is_modifier(t)) {
		id = t->type;
		t = lbtfi_vtype(env, id);
	}
	*res = id;
	return t;
}

uint32_t lbtfi_vsf_tag_type(const char *tag)
{
	if (!strcmp(tag, "kptr_untrusted"))
		return SF_KPTR_UNREF;
	if (!strcmp(tag, "kptr"))
		return SF_KPTR_REF;
	if (!strcmp(tag, "percpu_kptr"))
		return SF_KPTR_PERCPU;
	if (!strcmp(tag, "uptr"))
		return SF_UPTR;
	return 0;
}

int lbtfi_vsf_find_kptr(const struct venv *env, const struct lbtf_type *t, uint32_t off,
		     struct finfo *info, uint32_t mask)
{
	uint32_t type, res_id;

	if (vk(t) == LBTF_KIND_VOLATILE)
		t = lbtfi_vtype(env, t->type);
	if (!t || vk(t) != LBTF_KIND_PTR)
		return IGNORE;
	t = lbtfi_vtype(env, t->type);
	if (!t || vk(t) != LBTF_KIND_TYPE_TAG || lbtf_kflag(t))
		return IGNORE;
	if (lbtfi_vtype(env, t->type) && vk(lbtfi_vtype(env, t->type)) == LBTF_KIND_TYPE_TAG)
		return -EINVAL; /* extra tags */
	type = lbtfi_vsf_tag_type(sf_name(env, t));
	if (!type)
		return -EINVAL;
	if (!(type & mask))
		return IGNORE;
	t = skip_modifiers(env, t->type, &res_id);
	if (!sf_is_struct(t))
		return -EINVAL;
	info->type = type;
	info->off = off;
	info->kptr_id = res_id;
	return FOUND;
}

/* The special type a member's type names; 0 none; -E2BIG a duplicate */
static int field_type_of(const struct venv *env, const struct lbtf_type *vt, uint32_t mask,
			 uint32_t *seen, uint32_t *align, uint32_t *size)
{
	const char *name = sf_name(env, vt);

	for (size_t i = 0; i < sizeof(sf_types) / sizeof(sf_types[0]); i++) {
		const struct sf_desc *d = &sf_types[i];

		if (!(mask & d->type) || strcmp(name, d->name))
			continue;
		if (d->unique) {
			if (*seen & d->type)
				return -E2BIG;
			*seen |= d->type;
		}
		*size = d->size;
		*align = d->align;
		return d->type;
	}
	if ((mask & (SF_KPTR | SF_UPTR)) && !sf_is_struct(vt)) {
		*size = *align = 8;
		return SF_KPTR_REF;
	}
	return 0;
}

static int repeat_fields(struct finfo *info, int info_cnt, uint32_t field_cnt, uint32_t repeat,
			 uint32_t elem_size)
{
	uint32_t cur = field_cnt;

	for (uint32_t i = 0; i < field_cnt; i++)
		if (!(info[i].type & (SF_KPTR | SF_UPTR | SF_GRAPH_ROOT)))
			return -EINVAL;
	if ((uint64_t)field_cnt * (repeat + 1) > (uint64_t)info_cnt)
		return -E2BIG;
	for (uint32_t i = 0; i < repeat; i++) {
		memcpy(&info[cur], &info[0], field_cnt * sizeof(info[0]));
		for (uint32_t j = 0; j < field_cnt; j++)
			info[cur++].off += (i + 1) * elem_size;
	}
	return 0;
}

/* The single "contains:" decl tag of member comp_idx of struct pt */
static const char *contains_tag(const struct venv *env, const struct lbtf_type *pt, int comp_idx,
				int *err)
{
	static const char key[] = "contains:";
	const char *value = NULL;

	for (uint32_t id = 1; id < env->nr_types; id++) {
		const struct lbtf_type *t = env->types[id];

		if (vk(t) != LBTF_KIND_DECL_TAG || lbtfi_vtype(env, t->type) != pt ||
		    lbtf_decl_tag(t)->component_idx != comp_idx ||
		    strncmp(sf_name(env, t), key, sizeof(key) - 1))
			continue;
		if (value) {
			*err = -EEXIST;
			return NULL;
		}
		value = sf_name(env, t) + sizeof(key) - 1;
	}
	*err = value ? 0 : -ENOENT;
	return value;
}

static int find_graph_root(const struct venv *env, const struct lbtf_type *pt,
			   const struct lbtf_type *t, int comp_idx, uint32_t off, uint32_t size,
			   struct finfo *info, uint32_t head_type)
{
	const char *value, *node;
	char *type_name;
	int err, id;

	if (!sf_is_struct(t) || t->size != size)
		return IGNORE;
	value = contains_tag(env, pt, comp_idx, &err);
	if (!value)
		return -EINVAL;
	node = strchr(value, ':');
	if (!node)
		return -EINVAL;
	type_name = strndup(value, node - value);
	if (!type_name)
		return -ENOMEM;
	id = lbtfi_vsf_find_by_name_kind(env, type_name, LBTF_KIND_STRUCT);
	free(type_name);
	if (id < 0)
		return id;
	node++;
	if (!*node)
		return -EINVAL;
	info->type = head_type;
	info->off = off;
	info->value_id = id;
	info->node_name = node;
	return FOUND;
}

static int find_nested(const struct venv *env, const struct lbtf_type *t, uint32_t off,
		       uint32_t nelems, uint32_t mask, struct finfo *info, int info_cnt,
		       uint32_t level)
{
	int ret, err;

	if (++level >= VMAX_RESOLVE_DEPTH)
		return -E2BIG;
	ret = lbtfi_vsf_find_struct_fields(env, t, mask, info, info_cnt, level, NULL);
	if (ret <= 0)
		return ret;
	for (int i = 0; i < ret; i++)
		info[i].off += off;
	if (nelems > 1) {
		err = repeat_fields(info, info_cnt, ret, nelems - 1, t->size);
		ret = err ? err : ret * (int)nelems;
	}
	return ret;
}

/* One member: arrays flattened, then a special type, a kptr, or a nested
 * struct. Returns the number of fields found or -errno. */
static int find_field_one(const struct venv *env, const struct lbtf_type *pt,
			  const struct lbtf_type *vt, int idx, uint32_t off, uint32_t mask,
			  uint32_t *seen, struct finfo *info, int info_cnt, uint32_t level)
{
	uint32_t nelems = 1, align = 0, size = 0;
	struct finfo tmp, *dst = info_cnt ? &info[0] : &tmp;
	int type, ret, i;

	for (i = 0; i < VMAX_RESOLVE_DEPTH && vk(vt) == LBTF_KIND_ARRAY; i++) {
		nelems *= lbtf_array(vt)->nelems;
		vt = lbtfi_vtype(env, lbtf_array(vt)->type);
	}
	if (i == VMAX_RESOLVE_DEPTH)
		return -E2BIG;
	if (!nelems)
		return 0;
	type = field_type_of(env, vt, mask, seen, &align, &size);
	if (!type && sf_is_struct(vt))
		return find_nested(env, vt, off, nelems, mask, info, info_cnt, level);
	if (type <= 0)
		return type;
	if (off % align)
		return 0;
	if (type & (SF_KPTR | SF_UPTR))
		ret = lbtfi_vsf_find_kptr(env, vt, off, dst, mask);
	else if (type & SF_GRAPH_ROOT)
		ret = find_graph_root(env, pt, vt, idx, off, size, dst, type);
	else if (sf_is_struct(vt) && vt->size == size)
		ret = (dst->type = type, dst->off = off, FOUND);
	else
		ret = IGNORE;
	if (ret <= 0)
		return ret;
	if (!info_cnt)
		return -E2BIG;
	if (nelems > 1 && (ret = repeat_fields(info, info_cnt, 1, nelems - 1, size)) < 0)
		return ret;
	return nelems;
}

int lbtfi_vsf_find_struct_fields(const struct venv *env, const struct lbtf_type *t, uint32_t mask,
			      struct finfo *info, int info_cnt, uint32_t level, int *bad)
{
	const struct lbtf_member *m = lbtf_members(t);
	uint32_t seen = 0;
	int idx = 0, ret;

	for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
		uint32_t off = lbtf_member_bit_offset(t, i);

		if (off % 8) {
			if (bad)
				*bad = (int)i;
			return -EINVAL;
		}
		ret = find_field_one(env, t, lbtfi_vtype(env, m[i].type), i, off / 8, mask, &seen,
				     &info[idx], info_cnt - idx, level);
		if (ret < 0) {
			if (bad)
				*bad = (int)i;
			return ret;
		}
		idx += ret;
	}
	return idx;
}
