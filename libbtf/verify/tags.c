// SPDX-License-Identifier: BSD-2-Clause
/*
 * Type-tag chain check: along a chain of modifiers every TYPE_TAG must come
 * before any CONST/VOLATILE/RESTRICT/TYPEDEF, and chains are at most 32
 * long. Chains already walked from a smaller id are not walked again.
 */
#include "internal.h"

int lbtfi_vcheck_type_tags(struct venv *env)
{
	uint32_t first = env->base ? env->start_id : 1;
	uint32_t n = env->start_id + env->nr_types;
	int64_t good_id = (int64_t)first - 1;

	for (uint32_t i = first; i < n; i++) {
		const struct lbtf_type *t = lbtfi_vtype(env, i);
		uint32_t cur = i;
		int limit = 32;
		bool in_tags;

		if (!t)
			return -EINVAL;
		if (!v_is_modifier(t))
			continue;
		in_tags = vk(t) == LBTF_KIND_TYPE_TAG;
		while (v_is_modifier(t)) {
			if (!limit--) {
				lbtfi_vlog(env, "Max chain length or cycle detected");
				return -ELOOP;
			}
			if (vk(t) == LBTF_KIND_TYPE_TAG) {
				if (!in_tags) {
					lbtfi_vlog(env, "Type tags don't precede modifiers");
					return -EINVAL;
				}
			} else {
				in_tags = false;
			}
			if ((int64_t)cur <= good_id)
				break;
			cur = t->type;
			t = lbtfi_vtype(env, cur);
			if (!t)
				return -EINVAL;
		}
		good_id = i;
	}
	return 0;
}
