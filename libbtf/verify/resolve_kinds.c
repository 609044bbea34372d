// SPDX-License-Identifier: BSD-2-Clause
/*
 * Pass 2's per-kind resolve steps (the kernel's resolve operations): each
 * runs for the vertex on top of the DFS stack and either pushes one more
 * vertex, pops this one as resolved, or fails with a message about it.
 */
#include "internal.h"

/*
 * The reference kinds (modifiers, PTR, VAR) look at their targets' kinds in
 * the dense kind array (vkind_id) and load a target's record only to push
 * it: a vmlinux has tens of thousands of them, each target a random access.
 */

/* PTR and VAR continue from a pointer that a modifier stopped at when it
 * was resolved in struct mode; returns 1 when nothing was pushed. */
static int continue_through_modifier(struct venv *env, unsigned int next_kind, uint32_t next_id)
{
	uint32_t rid;

	if (!vk_in(next_kind, M_MODIFIER))
		return 1;
	rid = lbtfi_vresolved_id(env, next_id);
	if (vkind_id(env, rid) == LBTF_KIND_PTR && lbtfi_vmust_descend_k(env, LBTF_KIND_PTR, rid))
		return lbtfi_vpush(env, lbtfi_vtype(env, rid), rid);
	return 1;
}

/* Shared by modifiers and PTR: the target may also be void, a FWD, a
 * FUNC_PROTO, or (already resolved) a FUNC through its proto. */
static int finish_ref(struct venv *env, struct vvertex *v, unsigned int next_kind,
		      uint32_t next_id)
{
	if (!lbtfi_vid_has_size(env, &next_id)) {
		if (lbtfi_vis_resolved(env, next_id)) {
			next_id = lbtfi_vresolved_id(env, next_id);
			next_kind = vkind_id(env, next_id);
		}
		if (!vk_in(next_kind, KB(UNKN) | KB(FWD) | KB(FUNC_PROTO))) { /* VK_NULL too */
			vlog_type(env, v->t, "Invalid type_id");
			return -EINVAL;
		}
	}
	lbtfi_vpop_resolved(env, next_id, 0);
	return 0;
}

/* The target lookup modifiers, PTR and VAR start with; 1: go on */
static int ref_target(struct venv *env, struct vvertex *v, unsigned int *next_kind)
{
	uint32_t id = v->t->type;

	*next_kind = vkind_id(env, id);
	if (*next_kind == VK_NULL || vk_in(*next_kind, M_SOURCE_ONLY)) {
		vlog_type(env, v->t, "Invalid type_id");
		return -EINVAL;
	}
	if (lbtfi_vmust_descend_k(env, *next_kind, id))
		return lbtfi_vpush(env, lbtfi_vtype(env, id), id);
	return 1;
}

/*
 * A resolved modifier's chain, for the type-tag check after pass 2
 * (verify.c): its length, and whether a TYPE_TAG follows another modifier
 * directly (every such fault has one). A modifier target is resolved
 * first, its chain known.
 */
static void note_chain(struct venv *env, const struct lbtf_type *t, uint32_t id,
		       unsigned int next_kind)
{
	uint32_t len = 1, next = t->type;

	if (vk_in(next_kind, M_MODIFIER)) {
		if (next < env->start_id)
			env->tags_suspect = true; /* through the base: not counted */
		else
			len += env->res[next - env->start_id].chain;
	}
	if (next_kind == LBTF_KIND_TYPE_TAG && vk(t) != LBTF_KIND_TYPE_TAG)
		env->tags_suspect = true;
	if (len > VMAX_MODIFIER_CHAIN) {
		env->tags_suspect = true;
		len = VMAX_MODIFIER_CHAIN + 1; /* saturated */
	}
	env->res[id - env->start_id].chain = len;
}

int lbtfi_vresolve_modifier(struct venv *env, struct vvertex *v)
{
	unsigned int next_kind;
	int r = ref_target(env, v, &next_kind);

	if (r <= 0)
		return r;
	r = finish_ref(env, v, next_kind, v->t->type);
	if (!r) /* popped: v still holds the vertex */
		note_chain(env, v->t, v->id, next_kind);
	return r;
}

int lbtfi_vresolve_ptr(struct venv *env, struct vvertex *v)
{
	unsigned int next_kind;
	int r = ref_target(env, v, &next_kind);

	if (r > 0)
		r = continue_through_modifier(env, next_kind, v->t->type);
	return r <= 0 ? r : finish_ref(env, v, next_kind, v->t->type);
}

int lbtfi_vresolve_var(struct venv *env, struct vvertex *v)
{
	unsigned int next_kind;
	uint32_t next_id = v->t->type;
	int r = ref_target(env, v, &next_kind);

	if (r > 0)
		r = continue_through_modifier(env, next_kind, next_id);
	if (r <= 0)
		return r;
	/* a variable needs something with a size */
	if (!lbtfi_vid_has_size(env, &next_id)) {
		vlog_type(env, v->t, "Invalid type_id");
		return -EINVAL;
	}
	lbtfi_vpop_resolved(env, next_id, 0);
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
	if (lbtfi_vmust_descend(env, idx, idx_id))
		return lbtfi_vpush(env, idx, idx_id);
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
	if (lbtfi_vmust_descend(env, elem, elem_id))
		return lbtfi_vpush(env, elem, elem_id);
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
	lbtfi_vpop_resolved(env, elem_id, elem_size * a->nelems);
	return 0;
}

/* The member's check by the kind of its type (k, from the kind array: a
 * pointer member's check never loads the pointer's record) */
static inline __attribute__((always_inline)) int check_member(struct venv *env,
							      const struct lbtf_type *st,
							      const struct lbtf_member *m,
							      unsigned int k)
{
	const struct vkind_ops *ops = &lbtfi_vops_table[k];
	const struct lbtf_type *mt = lbtfi_vtype(env, m->type);

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
		err = check_member(env, v->t, last, vkind_id(env, last->type));
		if (err)
			return err;
	}
	for (unsigned int i = v->next_member; i < lbtf_vlen(v->t); i++) {
		unsigned int k = vkind_id(env, m[i].type);

		lbtfi_vsf_member(env, v->t, v->id, m[i].type);
		if (k == VK_NULL || vk_in(k, M_NOSIZE | M_SOURCE_ONLY)) {
			lbtfi_vlog_member(env, v->t, &m[i], "Invalid member");
			return -EINVAL;
		}
		if (lbtfi_vmust_descend_k(env, k, m[i].type)) {
			v->next_member = i + 1;
			return lbtfi_vpush(env, lbtfi_vtype(env, m[i].type), m[i].type);
		}
		if ((err = check_member(env, v->t, &m[i], k)))
			return err;
	}
	lbtfi_vpop_resolved(env, 0, 0);
	return 0;
}

/* A FUNC's proto must exist and name every typed parameter: 0, -1 (no
 * proto), or the number of the first typed parameter without a name */
int lbtfi_vfunc_bad_arg(const struct venv *env, const struct lbtf_type *t)
{
	const struct lbtf_type *proto = lbtfi_vtype(env, t->type);
	const struct lbtf_param *p;

	if (!proto || vk(proto) != LBTF_KIND_FUNC_PROTO)
		return -1;
	p = lbtf_params(proto);
	for (unsigned int i = 0; i < lbtf_vlen(proto); i++)
		if (!p[i].name_off && p[i].type)
			return i + 1;
	return 0;
}

static int func_check(struct venv *env, const struct lbtf_type *t)
{
	int bad = lbtfi_vfunc_bad_arg(env, t);

	if (bad < 0)
		vlog_type(env, t, "Invalid type_id");
	else if (bad)
		vlog_type(env, t, "Invalid arg#%d", bad);
	return bad ? -EINVAL : 0;
}

int lbtfi_vresolve_func(struct venv *env, struct vvertex *v)
{
	int err = func_check(env, v->t);

	if (err)
		return err;
	lbtfi_vpop_resolved(env, v->t->type, 0);
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
		if (lbtfi_vmust_descend(env, var, vsi[i].type)) {
			v->next_member = i + 1;
			return lbtfi_vpush(env, var, vsi[i].type);
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
	lbtfi_vpop_resolved(env, 0, 0);
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
	if (lbtfi_vmust_descend(env, next, next_id))
		return lbtfi_vpush(env, next, next_id);
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
	lbtfi_vpop_resolved(env, next_id, 0);
	return 0;
}
