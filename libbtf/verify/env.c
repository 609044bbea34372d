// SPDX-License-Identifier: BSD-2-Clause
/*
 * Type access for the verifier: ids to records (base BTF included), the
 * resolved ids and sizes of pass 2, and the kernel's btf_type_id_size().
 */
#include "internal.h"

const struct lbtf_type *lbtfi_vtype(const struct venv *env, uint32_t id)
{
	if (id < env->start_id)
		return lbtf_type_by_id(env->base, id);
	id -= env->start_id;
	return id < env->nr_types ? env->types[id] : NULL;
}

/* Base ids count as resolved: their target is found by skipping modifiers
 * and VARs (only --strict split verification gets here). */
static uint32_t base_resolved_id(const struct venv *env, uint32_t id)
{
	for (int i = 0; i < 64; i++) {
		const struct lbtf_type *t = lbtf_type_by_id(env->base, id);

		if (!t) /* the base is not verified: a dangling id ends as void */
			return 0;
		if (!(v_is_modifier(t) || vk(t) == LBTF_KIND_VAR))
			return id;
		id = t->type;
	}
	return 0;
}

uint32_t lbtfi_vresolved_id(const struct venv *env, uint32_t id)
{
	if (id < env->start_id)
		return base_resolved_id(env, id);
	return env->res_id[id - env->start_id];
}

uint32_t lbtfi_vresolved_size(const struct venv *env, uint32_t id)
{
	if (id < env->start_id) {
		int64_t s = lbtf_resolve_size(env->base, id);
		return s < 0 ? 0 : (uint32_t)s;
	}
	return env->res_size[id - env->start_id];
}

bool lbtfi_vis_resolved(const struct venv *env, uint32_t id)
{
	if (id < env->start_id)
		return true;
	return env->visit[id - env->start_id] == RESOLVED;
}

bool lbtfi_vint_regular(const struct lbtf_type *t)
{
	uint32_t d = v_int_data(t);
	uint8_t bits = d & 0xff;
	uint8_t bytes = (bits >> 3) + !!(bits & 7);

	if ((bits & 7) || ((d >> 16) & 0xff))
		return false;
	return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16;
}

/* Size of one step: own size, array's resolved size, pointer size */
static bool direct_size(const struct venv *env, const struct lbtf_type *t, uint32_t id,
			uint32_t *size)
{
	if (v_has_size(t))
		*size = t->size;
	else if (vk(t) == LBTF_KIND_ARRAY)
		*size = lbtfi_vresolved_size(env, id);
	else if (vk(t) == LBTF_KIND_PTR)
		*size = VPTR_SIZE;
	else
		return false;
	return true;
}

/* The kernel's btf_type_id_size(): NULL when the type has no size. Kinds
 * come from the dense kind array; records are loaded only for a size. */
const struct lbtf_type *lbtfi_vid_size(const struct venv *env, uint32_t *id, uint32_t *ret_size)
{
	uint32_t sid = *id, size = 0;
	unsigned int k = vkind_id(env, sid);
	const struct lbtf_type *t;

	if (k == VK_NULL || vk_in(k, M_NOSIZE))
		return NULL;
	if (vk_in(k, M_MODIFIER | KB(VAR))) {
		sid = lbtfi_vresolved_id(env, sid);
		k = vkind_id(env, sid);
		if (k == VK_NULL || vk_in(k, M_NOSIZE))
			return NULL;
	}
	t = lbtfi_vtype(env, sid);
	if (!direct_size(env, t, sid, &size))
		return NULL;
	*id = sid;
	if (ret_size)
		*ret_size = size;
	return t;
}
