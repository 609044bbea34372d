// SPDX-License-Identifier: BSD-2-Clause
/*
 * Pass 2 (resolve): for each id in order, an iterative depth-first search
 * over references with the kernel's three modes, its 32-deep stack, loop
 * detection, and its per-kind resolve steps. The order-dependent verdicts
 * (PTR -> FUNC, the DATASEC size check) follow from doing exactly this.
 */
#include <stdlib.h>
#include "verify_internal.h"

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

/* ---- the DFS stack ---- */

static int push(struct venv *env, const struct lbtf_type *t, uint32_t id)
{
	struct vvertex *v;

	if (env->top == VMAX_RESOLVE_DEPTH)
		return -E2BIG;
	if (id < env->start_id || env->visit[id - env->start_id] != NOT_VISITED)
		return -EEXIST;
	env->visit[id - env->start_id] = VISITED;
	v = &env->stack[env->top++];
	v->t = t;
	v->id = id;
	v->next_member = 0;
	if (env->mode == RESOLVE_TBD) {
		if (vk(t) == LBTF_KIND_PTR)
			env->mode = RESOLVE_PTR;
		else if (v_is_struct(t) || vk(t) == LBTF_KIND_ARRAY)
			env->mode = RESOLVE_STRUCT_OR_ARRAY;
	}
	return 0;
}

static void pop_resolved(struct venv *env, uint32_t res_id, uint32_t res_size)
{
	uint32_t i = env->stack[--env->top].id - env->start_id;

	env->visit[i] = RESOLVED;
	env->res_id[i] = res_id;
	env->res_size[i] = res_size;
}

static bool is_sink_k(const struct venv *env, unsigned int k)
{
	switch (env->mode) {
	case RESOLVE_TBD:
		return !vk_in(k, M_NEEDS_RESOLVE);
	case RESOLVE_PTR:
		return !vk_in(k, M_MODIFIER | KB(PTR));
	default:
		return !vk_in(k, M_MODIFIER | KB(ARRAY) | M_STRUCT);
	}
}

/* "descend into": not final yet, so it has to be pushed first */
static bool must_descend_k(const struct venv *env, unsigned int k, uint32_t id)
{
	return !is_sink_k(env, k) && !lbtfi_vis_resolved(env, id);
}

static bool must_descend(const struct venv *env, const struct lbtf_type *t, uint32_t id)
{
	return must_descend_k(env, vk(t), id);
}

/* ---- per-kind resolve steps ---- */

/* PTR and VAR continue from a pointer that a modifier stopped at when it
 * was resolved in struct mode; returns 1 when nothing was pushed. */
static int continue_through_modifier(struct venv *env, const struct lbtf_type *next,
				     uint32_t next_id)
{
	uint32_t rid;
	const struct lbtf_type *r;

	if (!v_is_modifier(next))
		return 1;
	rid = lbtfi_vresolved_id(env, next_id);
	r = lbtfi_vtype(env, rid);
	if (r && vk(r) == LBTF_KIND_PTR && must_descend(env, r, rid))
		return push(env, r, rid);
	return 1;
}

/* Shared by modifiers and PTR: the target may also be void, a FWD, a
 * FUNC_PROTO, or (already resolved) a FUNC through its proto. */
static int finish_ref(struct venv *env, struct vvertex *v, const struct lbtf_type *next,
		      uint32_t next_id)
{
	if (!lbtfi_vid_size(env, &next_id, NULL)) {
		if (lbtfi_vis_resolved(env, next_id)) {
			next_id = lbtfi_vresolved_id(env, next_id);
			next = lbtfi_vtype(env, next_id);
		}
		if (!next || (!v_is_void(next) && vk(next) != LBTF_KIND_FWD &&
			      vk(next) != LBTF_KIND_FUNC_PROTO)) {
			vlog_type(env, v->t, "Invalid type_id");
			return -EINVAL;
		}
	}
	pop_resolved(env, next_id, 0);
	return 0;
}

/* The target lookup modifiers, PTR and VAR start with; 1: go on */
static int ref_target(struct venv *env, struct vvertex *v, const struct lbtf_type **next)
{
	*next = lbtfi_vtype(env, v->t->type);
	if (!*next || v_source_only(*next)) {
		vlog_type(env, v->t, "Invalid type_id");
		return -EINVAL;
	}
	if (must_descend(env, *next, v->t->type))
		return push(env, *next, v->t->type);
	return 1;
}

int lbtfi_vresolve_modifier(struct venv *env, struct vvertex *v)
{
	const struct lbtf_type *next;
	int r = ref_target(env, v, &next);

	return r <= 0 ? r : finish_ref(env, v, next, v->t->type);
}

int lbtfi_vresolve_ptr(struct venv *env, struct vvertex *v)
{
	const struct lbtf_type *next;
	int r = ref_target(env, v, &next);

	if (r > 0)
		r = continue_through_modifier(env, next, v->t->type);
	return r <= 0 ? r : finish_ref(env, v, next, v->t->type);
}

int lbtfi_vresolve_var(struct venv *env, struct vvertex *v)
{
	const struct lbtf_type *next;
	uint32_t next_id = v->t->type;
	int r = ref_target(env, v, &next);

	if (r > 0)
		r = continue_through_modifier(env, next, next_id);
	if (r <= 0)
		return r;
	/* a variable needs something with a size */
	if (!lbtfi_vid_size(env, &next_id, NULL)) {
		vlog_type(env, v->t, "Invalid type_id");
		return -EINVAL;
	}
	pop_resolved(env, next_id, 0);
	return 0;
}

int lbtfi_vresolve_array(struct venv *env, struct vvertex *v)
{
	const struct lbtf_array *a = lbtf_array(v->t);
	uint32_t idx_id = a->index_type, elem_id = a->type, elem_size;
	const struct lbtf_type *idx = lbtfi_vtype(env, idx_id), *elem;

	if (v_nosize_or_null(idx) || v_source_only(idx)) {
		vlog_type(env, v->t, "Invalid index");
		return -EINVAL;
	}
	if (must_descend(env, idx, idx_id))
		return push(env, idx, idx_id);
	idx = lbtfi_vid_size(env, &idx_id, NULL);
	if (!idx || vk(idx) != LBTF_KIND_INT || !lbtfi_vint_regular(idx)) {
		vlog_type(env, v->t, "Invalid index");
		return -EINVAL;
	}

	elem = lbtfi_vtype(env, elem_id);
	if (v_nosize_or_null(elem) || v_source_only(elem)) {
		vlog_type(env, v->t, "Invalid elem");
		return -EINVAL;
	}
	if (must_descend(env, elem, elem_id))
		return push(env, elem, elem_id);
	elem = lbtfi_vid_size(env, &elem_id, &elem_size);
	if (!elem) {
		vlog_type(env, v->t, "Invalid elem");
		return -EINVAL;
	}
	if (vk(elem) == LBTF_KIND_INT && !lbtfi_vint_regular(elem)) {
		vlog_type(env, v->t, "Invalid array of int");
		return -EINVAL;
	}
	if (a->nelems && elem_size > UINT32_MAX / a->nelems) {
		vlog_type(env, v->t, "Array size overflows U32_MAX");
		return -EINVAL;
	}
	pop_resolved(env, elem_id, elem_size * a->nelems);
	return 0;
}

static int check_member(struct venv *env, const struct lbtf_type *st, const struct lbtf_member *m,
			const struct lbtf_type *mt)
{
	const struct vkind_ops *ops = lbtfi_vops(mt);

	return lbtf_kflag(st) ? ops->check_kflag_member(env, st, m, mt)
			      : ops->check_member(env, st, m, mt);
}

int lbtfi_vresolve_struct(struct venv *env, struct vvertex *v)
{
	const struct lbtf_member *m = lbtf_members(v->t);
	int err;

	/* the member pushed last time is resolved now: check it */
	if (v->next_member) {
		const struct lbtf_member *last = &m[v->next_member - 1];

		if (!lbtfi_vis_resolved(env, last->type))
			return -EINVAL;
		err = check_member(env, v->t, last, lbtfi_vtype(env, last->type));
		if (err)
			return err;
	}
	for (unsigned int i = v->next_member; i < lbtf_vlen(v->t); i++) {
		unsigned int k = vkind_id(env, m[i].type);

		if (k == VK_NULL || vk_in(k, M_NOSIZE | M_SOURCE_ONLY)) {
			lbtfi_vlog_member(env, v->t, &m[i], "Invalid member");
			return -EINVAL;
		}
		if (must_descend_k(env, k, m[i].type)) {
			v->next_member = i + 1;
			return push(env, lbtfi_vtype(env, m[i].type), m[i].type);
		}
		if ((err = check_member(env, v->t, &m[i], lbtfi_vtype(env, m[i].type))))
			return err;
	}
	pop_resolved(env, 0, 0);
	return 0;
}

/* A FUNC's proto must exist and name every typed parameter. */
static int func_check(struct venv *env, const struct lbtf_type *t)
{
	const struct lbtf_type *proto = lbtfi_vtype(env, t->type);
	const struct lbtf_param *p;

	if (!proto || vk(proto) != LBTF_KIND_FUNC_PROTO) {
		vlog_type(env, t, "Invalid type_id");
		return -EINVAL;
	}
	p = lbtf_params(proto);
	for (unsigned int i = 0; i < lbtf_vlen(proto); i++) {
		if (!p[i].name_off && p[i].type) {
			vlog_type(env, t, "Invalid arg#%u", i + 1);
			return -EINVAL;
		}
	}
	return 0;
}

int lbtfi_vresolve_func(struct venv *env, struct vvertex *v)
{
	int err = func_check(env, v->t);

	if (err)
		return err;
	pop_resolved(env, v->t->type, 0);
	return 0;
}

int lbtfi_vresolve_datasec(struct venv *env, struct vvertex *v)
{
	const struct lbtf_var_secinfo *vsi = lbtf_secinfos(v->t);

	env->mode = RESOLVE_TBD;
	for (unsigned int i = v->next_member; i < lbtf_vlen(v->t); i++) {
		const struct lbtf_type *var = lbtfi_vtype(env, vsi[i].type);
		uint32_t tid, tsize = 0;

		if (!var || vk(var) != LBTF_KIND_VAR) {
			lbtfi_vlog_vsi(env, v->t, &vsi[i], "Not a VAR kind member");
			return -EINVAL;
		}
		/* resuming starts after this entry: its size goes unchecked */
		if (must_descend(env, var, vsi[i].type)) {
			v->next_member = i + 1;
			return push(env, var, vsi[i].type);
		}
		tid = var->type;
		if (!lbtfi_vid_size(env, &tid, &tsize)) {
			lbtfi_vlog_vsi(env, v->t, &vsi[i], "Invalid type");
			return -EINVAL;
		}
		if (vsi[i].size < tsize) {
			lbtfi_vlog_vsi(env, v->t, &vsi[i], "Invalid size");
			return -EINVAL;
		}
	}
	pop_resolved(env, 0, 0);
	return 0;
}

int lbtfi_vresolve_decl_tag(struct venv *env, struct vvertex *v)
{
	uint32_t next_id = v->t->type;
	const struct lbtf_type *next = lbtfi_vtype(env, next_id);
	int32_t idx = lbtf_decl_tag(v->t)->component_idx;
	unsigned int k = next ? vk(next) : 0;

	if (!next || !(k == LBTF_KIND_FUNC || v_is_struct(next) || k == LBTF_KIND_VAR ||
		       k == LBTF_KIND_TYPEDEF)) {
		vlog_type(env, v->t, "Invalid type_id");
		return -EINVAL;
	}
	if (must_descend(env, next, next_id))
		return push(env, next, next_id);
	if (idx != -1) {
		uint32_t vlen;

		if (k == LBTF_KIND_VAR || k == LBTF_KIND_TYPEDEF) {
			vlog_type(env, v->t, "Invalid component_idx");
			return -EINVAL;
		}
		if (v_is_struct(next)) {
			vlen = lbtf_vlen(next);
		} else {
			const struct lbtf_type *proto = lbtfi_vtype(env, next->type);
			vlen = proto ? lbtf_vlen(proto) : 0;
		}
		if ((uint32_t)idx >= vlen) {
			vlog_type(env, v->t, "Invalid component_idx");
			return -EINVAL;
		}
	}
	pop_resolved(env, next_id, 0);
	return 0;
}

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
		const struct lbtf_type *r = lbtfi_vtype(env, lbtfi_vresolved_id(env, id));
		return r && !v_is_modifier(r) && vk(r) != LBTF_KIND_VAR &&
		       vk(r) != LBTF_KIND_DATASEC;
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
	err = push(env, t, id);
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
 * reaches the proto (resolving them on demand). */
static int check_proto_type(struct venv *env, uint32_t id, bool *bad)
{
	unsigned int k = vkind_id(env, id);
	int err;

	*bad = k == VK_NULL || vk_in(k, M_SOURCE_ONLY);
	if (*bad)
		return 0;
	if (vk_in(k, M_NEEDS_RESOLVE) && !lbtfi_vis_resolved(env, id) &&
	    (err = resolve(env, lbtfi_vtype(env, id), id)))
		return err;
	*bad = !lbtfi_vid_size(env, &id, NULL);
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
		unsigned int k = vkind_id(env, p[i].type);

		if (k == VK_NULL || vk_in(k, M_SOURCE_ONLY) ||
		    (p[i].name_off && (!lbtfi_vname_off_ok(env, p[i].name_off) ||
				       !lbtfi_vname_ident(env, p[i].name_off)))) {
			vlog_type(env, t, "Invalid arg#%u", i + 1);
			return -EINVAL;
		}
		if ((err = check_proto_type(env, p[i].type, &bad)))
			return err;
		if (bad) {
			vlog_type(env, t, "Invalid arg#%u", i + 1);
			return -EINVAL;
		}
	}
	return 0;
}

int lbtfi_vcheck_all_types(struct venv *env)
{
	uint32_t n = env->nr_types;

	env->visit = calloc(n, 1);
	env->res_id = calloc(n, sizeof(uint32_t));
	env->res_size = calloc(n, sizeof(uint32_t));
	if (!env->visit || !env->res_id || !env->res_size)
		return -ENOMEM;
	env->phase = PHASE_RESOLVE;
	for (uint32_t i = env->base ? 0 : 1; i < n; i++) {
		uint32_t id = env->start_id + i;
		unsigned int k = env->kinds[i];
		int err;

		env->log_id = id;
		if (vk_in(k, M_NEEDS_RESOLVE) && env->visit[i] != RESOLVED &&
		    (err = resolve(env, env->types[i], id)))
			return err;
		if (k == LBTF_KIND_FUNC_PROTO && (err = func_proto_check(env, env->types[i])))
			return err;
	}
	return 0;
}
