// SPDX-License-Identifier: BSD-2-Clause
/*
 * Pass 1 (check_meta): a linear walk that checks each type's fixed fields
 * in the kernel's order and dumps every type that passes to the log.
 */
#include <stdlib.h>
#include "internal.h"

#define INFO_MASK 0x9f00ffffu

/* Append to the type table; past the kernel's capacity the type is dropped
 * after a (non-fatal) message, exactly as btf_add_type's ignored error. */
static void add_type(struct venv *env, const struct lbtf_type *t)
{
	if (env->start_id + env->nr_types >= VMAX_TYPE) {
		lbtfi_vlog(env, "Exceeded max num of types");
		return;
	}
	env->kinds[env->nr_types] = vk(t);
	env->types[env->nr_types++] = t;
}

/* The common checks, then the kind's own; returns bytes used or -errno. */
static int64_t check_meta(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	const struct lbtf_kind_desc *d;
	uint32_t needed;
	int err;

	if (left < sizeof(*t)) {
		lbtfi_vlog(env, "[%u] meta_left:%u meta_needed:%zu", env->log_id, left, sizeof(*t));
		return -EINVAL;
	}
	left -= sizeof(*t);
	if (t->info & ~INFO_MASK) {
		lbtfi_vlog(env, "[%u] Invalid btf_info:%x", env->log_id, t->info);
		return -EINVAL;
	}
	if (vk(t) > LBTF_KIND_MAX || vk(t) == LBTF_KIND_UNKN) {
		lbtfi_vlog(env, "[%u] Invalid kind:%u", env->log_id, vk(t));
		return -EINVAL;
	}
	if (!lbtfi_vname_off_ok(env, t->name_off)) {
		lbtfi_vlog(env, "[%u] Invalid name_offset:%u", env->log_id, t->name_off);
		return -EINVAL;
	}
	/* every kind with trailing data checks it is all there first */
	d = lbtf_kind_desc(vk(t));
	needed = d->extra_size + (uint32_t)d->vlen_elem_size * lbtf_vlen(t);
	if (left < needed) {
		vlog_basic(env, t, "meta_left:%u meta_needed:%u", left, needed);
		return -EINVAL;
	}
	err = lbtfi_vops(t)->check_meta(env, t, left);
	if (err)
		return err;
	return sizeof(*t) + needed;
}

int lbtfi_vcheck_all_metas(struct venv *env)
{
	const unsigned char *cur = env->nohdr + env->hdr.type_off;
	const unsigned char *end = cur + env->hdr.type_len;
	uint32_t max = env->hdr.type_len / sizeof(struct lbtf_type) + 1;

	if (max > VMAX_TYPE)
		max = VMAX_TYPE;
	env->types_cap = max;
	env->types = malloc(sizeof(*env->types) * max);
	env->kinds = malloc(max);
	if (!env->types || !env->kinds)
		return -ENOMEM;
	if (!env->base) {
		static const struct lbtf_type void_type;
		env->kinds[env->nr_types] = LBTF_KIND_UNKN;
		env->types[env->nr_types++] = &void_type;
	}
	env->phase = PHASE_META;
	env->log_id = env->base ? env->start_id : 1;
	while (cur < end) {
		const struct lbtf_type *t = (const struct lbtf_type *)cur;
		int64_t used = check_meta(env, t, end - cur);

		if (used < 0)
			return (int)used;
		add_type(env, t);
		cur += used;
		env->log_id++;
	}
	return 0;
}
