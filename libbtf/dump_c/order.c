// SPDX-License-Identifier: BSD-2-Clause
/*
 * Which definitions are printed, and in which order.
 *
 * Ordering is a depth-first topological sort over the type graph where an
 * edge is "strong" when the target must be complete at the point of use
 * (embedded member, array element, typedef target not behind a pointer, an
 * anonymous type that is defined inline) and "weak" when a forward
 * declaration is enough (behind a pointer, ending in a named struct/union
 * or a typedef of one). Each root's dependencies go to a queue, then the
 * queue is emitted; emission adds the forward declarations that weak links
 * still need. Per-kind behaviour lives in the two tables at the bottom.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* ---- marking types referenced by other types --------------------------- */

static int mark_id(uint32_t id, void *ctx)
{
	struct dc *d = ctx;

	d->st[id].referenced = 1;
	return 0;
}

/*
 * An anonymous enum that nothing refers to is a set of global constants and
 * is printed at top level; one that is referenced is printed inline where it
 * is used. A function prototype's return type does not count as a reference
 * (bpftool's behaviour, kept for identical output).
 */
void dci_mark_referenced(struct dc *d)
{
	for (uint32_t id = 1; id < d->nr_types; id++) {
		const struct lbtf_type *t = dci_type(d, id);

		if (lbtf_kind(t) == LBTF_KIND_FUNC_PROTO) {
			for (unsigned int i = 0; i < lbtf_vlen(t); i++)
				d->st[lbtf_params(t)[i].type].referenced = 1;
			continue;
		}
		lbtf_type_read_type_ids(t, mark_id, d);
	}
}

/*
 * Function protos, arrays, modifiers and anonymous types are walked again at
 * every use (their meaning depends on the path), so a small hostile BTF can
 * make the walk exponential. Real BTF needs a few visits per type.
 */
static int too_much_work(struct dc *d, uint32_t id)
{
	return dci_fail(d, -E2BIG, "type graph too entangled (exponential walk)", id);
}

/* ---- ordering ---------------------------------------------------------- */

static int queue_push(struct dc *d, uint32_t id)
{
	return dci_push_id(d, &d->queue, 256, id, "out of memory ordering types");
}

/* Returns 1 for a strong link, 0 for a weak one, <0 on error. */
typedef int (*order_fn)(struct dc *d, uint32_t id, const struct lbtf_type *t, bool through_ptr,
			int depth);

static int order(struct dc *d, uint32_t id, bool through_ptr, int depth);

static int order_base(struct dc *d, uint32_t id, const struct lbtf_type *t, bool through_ptr,
		      int depth)
{
	d->st[id].order = DC_ORDERED;
	return 0;
}

static int order_ptr(struct dc *d, uint32_t id, const struct lbtf_type *t, bool through_ptr,
		     int depth)
{
	int err = order(d, t->type, true, depth + 1);

	d->st[id].order = DC_ORDERED;
	return err;
}

static int order_array(struct dc *d, uint32_t id, const struct lbtf_type *t, bool through_ptr,
		       int depth)
{
	return order(d, lbtf_array(t)->type, false, depth + 1);
}

static int order_mod(struct dc *d, uint32_t id, const struct lbtf_type *t, bool through_ptr,
		     int depth)
{
	return order(d, t->type, through_ptr, depth + 1);
}

static int order_composite(struct dc *d, uint32_t id, const struct lbtf_type *t,
			   bool through_ptr, int depth)
{
	int err;

	/* a named struct behind a pointer only needs a forward declaration */
	if (through_ptr && t->name_off)
		return 0;
	d->st[id].order = DC_ORDERING;
	for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
		err = order(d, lbtf_members(t)[i].type, false, depth + 1);
		if (err < 0)
			return err;
	}
	if (t->name_off && (err = queue_push(d, id)))
		return err;
	d->st[id].order = DC_ORDERED;
	return 1;
}

static int order_enum_fwd(struct dc *d, uint32_t id, const struct lbtf_type *t,
			  bool through_ptr, int depth)
{
	int err;

	/* named ones, and anonymous ones nobody uses, are top-level declarations */
	if ((t->name_off || !d->st[id].referenced) && (err = queue_push(d, id)))
		return err;
	d->st[id].order = DC_ORDERED;
	return 1;
}

static int order_typedef(struct dc *d, uint32_t id, const struct lbtf_type *t,
			 bool through_ptr, int depth)
{
	int strong = order(d, t->type, through_ptr, depth + 1), err;

	if (strong < 0)
		return strong;
	/* like a struct: behind a pointer, a weak target needs nothing yet */
	if (through_ptr && !strong)
		return 0;
	if ((err = queue_push(d, id)))
		return err;
	d->st[id].order = DC_ORDERED;
	return 1;
}

static int order_proto(struct dc *d, uint32_t id, const struct lbtf_type *t, bool through_ptr,
		       int depth)
{
	int err = order(d, t->type, through_ptr, depth + 1);
	bool strong;

	if (err < 0)
		return err;
	strong = err > 0;
	for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
		err = order(d, lbtf_params(t)[i].type, through_ptr, depth + 1);
		if (err < 0)
			return err;
		strong |= err > 0;
	}
	return strong;
}

static int order_not_a_type(struct dc *d, uint32_t id, const struct lbtf_type *t,
			    bool through_ptr, int depth)
{
	d->st[id].order = DC_ORDERED;
	return 0;
}

static const order_fn order_ops[LBTF_NR_KINDS] = {
	[LBTF_KIND_INT] = order_base,
	[LBTF_KIND_FLOAT] = order_base,
	[LBTF_KIND_PTR] = order_ptr,
	[LBTF_KIND_ARRAY] = order_array,
	[LBTF_KIND_STRUCT] = order_composite,
	[LBTF_KIND_UNION] = order_composite,
	[LBTF_KIND_ENUM] = order_enum_fwd,
	[LBTF_KIND_ENUM64] = order_enum_fwd,
	[LBTF_KIND_FWD] = order_enum_fwd,
	[LBTF_KIND_TYPEDEF] = order_typedef,
	[LBTF_KIND_VOLATILE] = order_mod,
	[LBTF_KIND_CONST] = order_mod,
	[LBTF_KIND_RESTRICT] = order_mod,
	[LBTF_KIND_TYPE_TAG] = order_mod,
	[LBTF_KIND_FUNC_PROTO] = order_proto,
	[LBTF_KIND_FUNC] = order_not_a_type,
	[LBTF_KIND_VAR] = order_not_a_type,
	[LBTF_KIND_DATASEC] = order_not_a_type,
	[LBTF_KIND_DECL_TAG] = order_not_a_type,
};

static int order(struct dc *d, uint32_t id, bool through_ptr, int depth)
{
	const struct lbtf_type *t;

	if (d->st[id].order == DC_ORDERED)
		return 1; /* lets a typedef know its target is already there */
	if (depth > DC_MAX_DEPTH)
		return dci_fail(d, -ELOOP, "type chain too deep", id);
	if (++d->steps > d->step_limit)
		return too_much_work(d, id);
	t = dci_type(d, id);
	if (d->st[id].order == DC_ORDERING) {
		/* a loop through a pointer to a named struct: forward declaration */
		if (lbtf_is_composite(t) && through_ptr && t->name_off)
			return 0;
		return dci_fail(d, -ELOOP, "unsatisfiable type cycle", id);
	}
	return order_ops[lbtf_kind(t)](d, id, t, through_ptr, depth);
}

/* ---- emission ---------------------------------------------------------- */

typedef void (*emit_fn)(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
			int depth);

static void emit(struct dc *d, uint32_t id, uint32_t cont_id, int depth);

static bool is_builtin_va_list(struct dc *d, const struct lbtf_type *t)
{
	/* compiler built-in: redefining it breaks compilation */
	return t->name_off && !strcmp(dci_str(d, t->name_off), "__builtin_va_list");
}

static void end_decl(struct dc *d)
{
	dci_write(&d->out, ";\n\n", 3);
}

static void emit_typedef_decl(struct dc *d, uint32_t id, const struct lbtf_type *t)
{
	if (!is_builtin_va_list(d, t)) {
		dci_emit_typedef_def(d, id, t, 0);
		end_decl(d);
	}
	d->st[id].fwd_emitted = 1;
}

/* Reached again while its own definition is in progress (a cycle). */
static void emit_cycle(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id)
{
	if (d->st[id].fwd_emitted)
		return;
	if (lbtf_is_composite(t)) {
		/* inside its own definition, or anonymous (cannot be declared) */
		if (id == cont_id || !t->name_off)
			return;
		dci_emit_struct_fwd(d, id, t);
		end_decl(d);
		d->st[id].fwd_emitted = 1;
	} else if (lbtf_kind(t) == LBTF_KIND_TYPEDEF) {
		/* a typedef also serves as a forward declaration for pointers */
		emit_typedef_decl(d, id, t);
	}
}

static void emit_int(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		     int depth)
{
	dci_emit_base_aliases(d, id);
	d->st[id].emit = DC_EMITTED;
}

static void emit_enum(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		      int depth)
{
	if (!cont_id) {
		dci_emit_enum_def(d, id, t, 0);
		end_decl(d);
	}
	d->st[id].emit = DC_EMITTED;
}

static void emit_through(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
			 int depth)
{
	emit(d, t->type, cont_id, depth + 1);
}

static void emit_array(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		       int depth)
{
	emit(d, lbtf_array(t)->type, cont_id, depth + 1);
}

static void emit_fwd(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		     int depth)
{
	dci_emit_fwd_def(d, id, t);
	end_decl(d);
	d->st[id].emit = DC_EMITTED;
}

static void emit_typedef(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
			 int depth)
{
	d->st[id].emit = DC_EMITTING;
	emit(d, t->type, id, depth + 1);
	if (!d->st[id].fwd_emitted)
		emit_typedef_decl(d, id, t);
	d->st[id].emit = DC_EMITTED;
}

static void emit_composite(struct dc *d, uint32_t id, const struct lbtf_type *t,
			   uint32_t cont_id, int depth)
{
	bool top = !cont_id;

	d->st[id].emit = DC_EMITTING;
	if (top || !t->name_off) {
		/* its body will be printed: members' types need declarations */
		uint32_t inner = t->name_off ? id : cont_id;

		for (unsigned int i = 0; i < lbtf_vlen(t); i++)
			emit(d, lbtf_members(t)[i].type, inner, depth + 1);
	} else if (!d->st[id].fwd_emitted && id != cont_id) {
		dci_emit_struct_fwd(d, id, t);
		end_decl(d);
		d->st[id].fwd_emitted = 1;
	}
	if (top) {
		dci_emit_struct_def(d, id, t, 0);
		end_decl(d);
		d->st[id].emit = DC_EMITTED;
	} else {
		d->st[id].emit = DC_NOT_EMITTED;
	}
}

static void emit_proto(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		       int depth)
{
	emit(d, t->type, cont_id, depth + 1);
	for (unsigned int i = 0; i < lbtf_vlen(t); i++)
		emit(d, lbtf_params(t)[i].type, cont_id, depth + 1);
}

static const emit_fn emit_ops[LBTF_NR_KINDS] = {
	[LBTF_KIND_INT] = emit_int,
	[LBTF_KIND_ENUM] = emit_enum,
	[LBTF_KIND_ENUM64] = emit_enum,
	[LBTF_KIND_PTR] = emit_through,
	[LBTF_KIND_VOLATILE] = emit_through,
	[LBTF_KIND_CONST] = emit_through,
	[LBTF_KIND_RESTRICT] = emit_through,
	[LBTF_KIND_TYPE_TAG] = emit_through,
	[LBTF_KIND_ARRAY] = emit_array,
	[LBTF_KIND_FWD] = emit_fwd,
	[LBTF_KIND_TYPEDEF] = emit_typedef,
	[LBTF_KIND_STRUCT] = emit_composite,
	[LBTF_KIND_UNION] = emit_composite,
	[LBTF_KIND_FUNC_PROTO] = emit_proto,
	/* FLOAT, FUNC, VAR, DATASEC, DECL_TAG: nothing to print */
};

static void emit(struct dc *d, uint32_t id, uint32_t cont_id, int depth)
{
	const struct lbtf_type *t;
	emit_fn fn;

	if (d->st[id].emit == DC_EMITTED || d->err || d->out.err)
		return;
	if (depth > DC_MAX_DEPTH) {
		dci_fail(d, -ELOOP, "type chain too deep", id);
		return;
	}
	if (++d->steps > d->step_limit) {
		too_much_work(d, id);
		return;
	}
	t = dci_type(d, id);
	if (d->st[id].emit == DC_EMITTING) {
		emit_cycle(d, id, t, cont_id);
		return;
	}
	fn = emit_ops[lbtf_kind(t)];
	if (fn)
		fn(d, id, t, cont_id, depth);
}

int dci_order_root(struct dc *d, uint32_t id)
{
	int err;

	d->queue.cnt = 0;
	err = order(d, id, false, 0);
	return err < 0 ? err : 0;
}

int dci_dump_root(struct dc *d, uint32_t id)
{
	int err;

	if (d->out.err) /* output failed or over budget: reported by the caller */
		return 0;
	d->queue.cnt = 0;
	err = order(d, id, false, 0);
	if (err < 0)
		return err;
	for (size_t i = 0; i < d->queue.cnt && !d->err && !d->out.err; i++)
		emit(d, d->queue.ids[i], 0, 0);
	return d->err;
}
