// SPDX-License-Identifier: BSD-2-Clause
/*
 * Pass 2 (resolve): for each id in order, an iterative depth-first search
 * over references with the kernel's three modes, its 32-deep stack, loop
 * detection, and its per-kind resolve steps. The order-dependent verdicts
 * (PTR -> FUNC, the DATASEC size check) follow from doing exactly this.
 */
#include <stdlib.h>
#include "internal.h"

/* ---- one DFS from a root ---- */

static bool resolve_valid(const struct venv *env, const struct lbtf_type *t, uint32_t id)
{
	unsigned int k = vk(t);

	if (!lbtfi_vis_resolved(env, id))
		return false;
	if (v_is_struct(t) || k == LBTF_KIND_DATASEC)
		return !lbtfi_vresolved_id(env, id) && !lbtfi_vresolved_size(env, id);
	if (k == LBTF_KIND_DECL_TAG || k == LBTF_KIND_FUNC)
		return lbtfi_vresolved_id(env, id) && !lbtfi_vresolved_size(env, id);
	if (v_is_modifier(t) || k == LBTF_KIND_PTR || k == LBTF_KIND_VAR) {
		unsigned int rk = vkind_id(env, lbtfi_vresolved_id(env, id));

		return rk != VK_NULL && !vk_in(rk, M_MODIFIER | KB(VAR) | KB(DATASEC));
	}
	if (k == LBTF_KIND_ARRAY) {
		const struct lbtf_array *a = lbtf_array(t);
		uint32_t eid = a->type, esize;
		const struct lbtf_type *e = lbtfi_vid_size(env, &eid, &esize);
		return e && !v_is_modifier(e) && a->nelems * esize == lbtfi_vresolved_size(env, id);
	}
	return false;
}

static int resolve(struct venv *env, const struct lbtf_type *t, uint32_t id)
{
	uint32_t saved = env->log_id;
	int err;

	env->mode = RESOLVE_TBD;
	err = lbtfi_vpush(env, t, id);
	while (!err && env->top) {
		struct vvertex *v = &env->stack[env->top - 1];

		env->log_id = v->id;
		err = lbtfi_vops(v->t)->resolve(env, v);
	}
	env->log_id = id;
	if (err == -E2BIG)
		vlog_type(env, t, "Exceeded max resolving depth:%u", VMAX_RESOLVE_DEPTH);
	else if (err == -EEXIST)
		vlog_type(env, t, "Loop detected");
	if (!err && !resolve_valid(env, t, id)) {
		vlog_type(env, t, "Invalid resolve state");
		err = -EINVAL;
	}
	env->log_id = saved;
	return err;
}

/* A FUNC_PROTO's return and parameter types, checked when the main loop
 * reaches the proto (resolving them on demand). A good one is remembered
 * (a bit in env->arg_ok): the verdict cannot change once it is resolved,
 * and vmlinux's 110k protos name the same few thousand types over and
 * over. Inline: called for every return and parameter type. */
static inline bool arg_ok(const struct venv *env, uint32_t id)
{
	uint32_t i = id - env->start_id;

	return id >= env->start_id && i < env->nr_types && (env->arg_ok[i / 64] >> (i % 64) & 1);
}

static inline __attribute__((always_inline)) int check_proto_type(struct venv *env, uint32_t id, bool *bad)
{
	uint32_t i = id - env->start_id;
	unsigned int k;
	int err;

	*bad = false;
	if (arg_ok(env, id))
		return 0;
	k = vkind_id(env, id);
	*bad = k == VK_NULL || vk_in(k, M_SOURCE_ONLY);
	if (*bad)
		return 0;
	if (vk_in(k, M_NEEDS_RESOLVE) && !lbtfi_vis_resolved(env, id) &&
	    (err = resolve(env, lbtfi_vtype(env, id), id)))
		return err;
	*bad = !lbtfi_vid_has_size(env, &id);
	if (!*bad && i < env->nr_types) /* own ids only (i wraps below start_id) */
		env->arg_ok[i / 64] |= (uint64_t)1 << (i % 64);
	return 0;
}

static int func_proto_check(struct venv *env, const struct lbtf_type *t)
{
	const struct lbtf_param *p = lbtf_params(t);
	unsigned int n = lbtf_vlen(t);
	bool bad;
	int err;

	if (t->type) {
		if ((err = check_proto_type(env, t->type, &bad)))
			return err;
		if (bad) {
			vlog_type(env, t, "Invalid return type");
			return -EINVAL;
		}
	}
	if (!n)
		return 0;
	if (!p[n - 1].type) { /* vararg */
		if (p[n - 1].name_off) {
			vlog_type(env, t, "Invalid arg#%u", n);
			return -EINVAL;
		}
		n--;
	}
	for (unsigned int i = 0; i < n; i++) {
		/* the kernel checks the kind and the name before resolving: both
		 * fail with the same message, so a kind that check_proto_type()
		 * refuses is also refused before any resolving */
		bool ok = arg_ok(env, p[i].type);
		unsigned int k = ok ? LBTF_KIND_INT : vkind_id(env, p[i].type);

		if (k == VK_NULL || vk_in(k, M_SOURCE_ONLY) ||
		    (p[i].name_off && (!lbtfi_vname_off_ok(env, p[i].name_off) ||
				       !lbtfi_vname_ident(env, p[i].name_off)))) {
			vlog_type(env, t, "Invalid arg#%u", i + 1);
			return -EINVAL;
		}
		if (ok)
			continue;
		if ((err = check_proto_type(env, p[i].type, &bad)))
			return err;
		if (bad) {
			vlog_type(env, t, "Invalid arg#%u", i + 1);
			return -EINVAL;
		}
	}
	return 0;
}

/* lbtfi_vfunc_bad_arg() == 0 for a FUNC, remembered per proto: vmlinux
 * has two FUNCs a proto, and the proto is a random access away */
static bool func_good(struct venv *env, const struct lbtf_type *t)
{
	uint32_t pi = t->type - env->start_id;

	if (t->type < env->start_id || pi >= env->nr_types ||
	    env->kinds[pi] != LBTF_KIND_FUNC_PROTO)
		return !lbtfi_vfunc_bad_arg(env, t);
	if (env->res[pi].visit == PROTO_NAMED)
		return true;
	if (lbtfi_vfunc_bad_arg(env, t))
		return false;
	env->res[pi].visit = PROTO_NAMED;
	return true;
}

int lbtfi_vcheck_all_types(struct venv *env)
{
	uint32_t n = env->nr_types;

	/* res: zeroed in the arena (arena.c) */
	env->phase = PHASE_RESOLVE;
	for (uint32_t i = env->base ? 0 : 1; i < n; i++) {
		uint32_t id = env->start_id + i;
		unsigned int k = env->kinds[i];
		int err;

		env->log_id = id;
		/* a good FUNC root: what resolve() makes of it, without the DFS
		 * (one vertex, resolved to its proto); a bad one goes the whole
		 * way for the log */
		if (k == LBTF_KIND_FUNC && env->res[i].visit == NOT_VISITED &&
		    func_good(env, env->types[i])) {
			env->res[i].visit = RESOLVED;
			env->res[i].id = env->types[i]->type;
			continue;
		}
		if (vk_in(k, M_NEEDS_RESOLVE) && env->res[i].visit != RESOLVED &&
		    (err = resolve(env, env->types[i], id)))
			return err;
		if (k == LBTF_KIND_FUNC_PROTO && (err = func_proto_check(env, env->types[i])))
			return err;
	}
	return 0;
}
