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

/*
 * Function protos, arrays, modifiers and anonymous types are walked again at
 * every use (their meaning depends on the path), so a small hostile BTF can
 * make the walk exponential. Real BTF needs a few visits per type.
 */
static int too_much_work(struct lbtfi_dc *d, uint32_t id)
{
	return lbtfi_dc_fail(d, -E2BIG, "type graph too entangled (exponential walk)", id);
}

/* ---- ordering ---------------------------------------------------------- */

/* (a type is queued once, when it becomes ordered: the queue has room
 * for all, in the arena, never grown) */
static int queue_push(struct lbtfi_dc *d, uint32_t id)
{
	if (d->queue.cnt >= d->queue.cap)
		return lbtfi_dc_fail(d, -EOVERFLOW, "queue of definitions full", id);
	d->queue.ids[d->queue.cnt++] = id;
	return 0;
}

/*
 * The walk is iterative (an explicit stack of frames): chains of named
 * types can be as long as the BTF (a 450k-type chain of nested structs), and
 * which root comes first (id order or --sort) must not decide how deep a
 * recursion would go. A path longer than the number of types has a cycle.
 *
 * Per kind: enter() either answers at once (1 strong, 0 weak, <0 error) or
 * pushes a frame whose children are visited in turn; leave() gives the
 * frame's answer from its children's ("strong": the last child's answer,
 * or for a function prototype whether any was strong).
 */
/* The n-th type id ordering and top-level emission visit below t (.children);
 * false past the last. (Members first: most children are members.) */
static inline bool child_at(const struct lbtf_type *t, unsigned int ch, uint32_t n,
			    uint32_t *child)
{
	switch (ch) {
	case DC_CH_TYPE:
		*child = t->type;
		return n == 0;
	case DC_CH_ELEM:
		*child = lbtf_array(t)->type;
		return n == 0;
	case DC_CH_MEMBERS:
		if (n >= lbtf_vlen(t))
			return false;
		*child = lbtf_members(t)[n].type;
		return true;
	case DC_CH_PROTO: /* the return type, then the parameters */
		if (n > lbtf_vlen(t))
			return false;
		*child = n ? lbtf_params(t)[n - 1].type : t->type;
		return true;
	}
	return false;
}

static inline bool child_of(const struct lbtf_type *t, uint32_t n, uint32_t *child)
{
	if (lbtf_is_composite(t)) {
		if (n >= lbtf_vlen(t))
			return false;
		*child = lbtf_members(t)[n].type;
		return true;
	}
	return child_at(t, lbtfi_dc_kind_ops[lbtf_kind(t)].children, n, child);
}

/* The frame's next child (false when none is left); *ptr: seen through a
 * pointer (a pointer's target, or a function prototype's types behind one) */
static inline bool next_child(struct ord_frame *f, uint32_t *child, bool *ptr)
{
	if (!child_at(f->t, f->ch, f->next++, child))
		return false;
	*ptr = f->kids_ptr;
	return true;
}

/* First visit of id: an answer (>= 0 or <0), or 2 when a frame is needed. */
#define ORD_DESCEND 2
/* (inline, as push_frame(): 120,000 roots and 25,000 children a vmlinux) */
static inline __attribute__((always_inline)) int enter(struct lbtfi_dc *d, uint32_t id,
						     bool through_ptr)
{
	const struct lbtf_type *t;
	unsigned int k;
	int err;

	if (d->st[id].order == DC_ORDERED)
		return 1; /* lets a typedef know its target is already there */
	if (++d->steps > d->step_limit)
		return too_much_work(d, id);
	t = lbtfi_dc_type(d, id);
	k = lbtf_kind(t);
	if (d->st[id].order == DC_ORDERING) {
		/* a loop through a pointer to a named struct: forward declaration */
		if (lbtf_is_composite(t) && through_ptr && t->name_off)
			return 0;
		return lbtfi_dc_fail(d, -ELOOP, "unsatisfiable type cycle", id);
	}
	switch (k) {
	case LBTF_KIND_STRUCT:
	case LBTF_KIND_UNION:
		/* a named struct behind a pointer only needs a forward declaration */
		if (through_ptr && t->name_off)
			return 0;
		d->st[id].order = DC_ORDERING;
		return ORD_DESCEND;
	case LBTF_KIND_ENUM:
	case LBTF_KIND_ENUM64:
	case LBTF_KIND_FWD:
		/* named ones, and anonymous ones nobody uses, are top-level declarations */
		if ((t->name_off || !d->st[id].referenced) && (err = queue_push(d, id)))
			return err;
		d->st[id].order = DC_ORDERED;
		return 1;
	default:
		if (lbtfi_dc_kind_ops[k].children != DC_CH_NONE)
			return ORD_DESCEND;
		/* INT, FLOAT; FUNC, VAR, DATASEC, DECL_TAG are not types */
		d->st[id].order = DC_ORDERED;
		return 0;
	}
}

/* All children visited: the frame's answer. */
static int leave(struct lbtfi_dc *d, const struct ord_frame *f)
{
	const struct lbtf_type *t = f->t;
	int err;

	switch (f->kind) {
	case LBTF_KIND_PTR:
		d->st[f->id].order = DC_ORDERED;
		return f->strong;
	case LBTF_KIND_STRUCT:
	case LBTF_KIND_UNION:
		if (t->name_off && (err = queue_push(d, f->id)))
			return err;
		d->st[f->id].order = DC_ORDERED;
		return 1;
	case LBTF_KIND_TYPEDEF:
		/* like a struct: behind a pointer, a weak target needs nothing yet */
		if (f->through_ptr && !f->strong)
			return 0;
		if ((err = queue_push(d, f->id)))
			return err;
		d->st[f->id].order = DC_ORDERED;
		return 1;
	default: /* arrays, modifiers, function prototypes */
		return f->strong;
	}
}

static inline __attribute__((always_inline)) int push_frame(struct lbtfi_dc *d, uint32_t id,
							  bool through_ptr)
{
	struct lbtfi_dc_ords *o = &d->ords;
	const struct lbtf_type *t;
	unsigned int k;

	if (o->cnt >= d->nr_types) /* deeper than the number of types: a cycle */
		return lbtfi_dc_fail(d, -ELOOP, "unsatisfiable type cycle", id);
	if (LBTFI_GROW_FROM(o->v, o->cap, o->cnt + 1, 64))
		return lbtfi_dc_fail(d, -ENOMEM, "out of memory ordering types", id);
	t = lbtfi_dc_type(d, id);
	k = lbtf_kind(t);
	o->v[o->cnt++] = (struct ord_frame){
		.t = t, .id = id, .kind = (uint8_t)k, .ch = lbtfi_dc_kind_ops[k].children,
		.through_ptr = through_ptr,
		.kids_ptr = k == LBTF_KIND_PTR ||
			    (through_ptr && (k == LBTF_KIND_FUNC_PROTO ||
					     lbtfi_dc_kind_ops[k].children == DC_CH_TYPE)) };
	return 0;
}

/* Orders id and what it needs; 1 strong, 0 weak, <0 error. */
static int order(struct lbtfi_dc *d, uint32_t id, bool through_ptr)
{
	struct lbtfi_dc_ords *o = &d->ords;
	int res = enter(d, id, through_ptr);

	o->cnt = 0;
	if (res == ORD_DESCEND)
		res = push_frame(d, id, through_ptr);
	while (res >= 0 && o->cnt) {
		struct ord_frame *f = &o->v[o->cnt - 1];
		uint32_t child;
		bool ptr, more;

		/* children already ordered answer "strong" (1) at once */
		while ((more = next_child(f, &child, &ptr)) && d->st[child].order == DC_ORDERED)
			f->strong = 1;
		if (!more) {
			res = leave(d, f);
			o->cnt--;
		} else {
			res = enter(d, child, ptr);
			if (res == ORD_DESCEND) {
				res = push_frame(d, child, ptr);
				continue;
			}
		}
		/* a child's answer goes to its parent */
		if (res >= 0 && o->cnt) {
			f = &o->v[o->cnt - 1];
			if (f->kind == LBTF_KIND_FUNC_PROTO)
				f->strong |= res > 0;
			else
				f->strong = res;
		}
	}
	return res;
}

/* ---- emission ---------------------------------------------------------- */

static bool is_builtin_va_list(struct lbtfi_dc *d, const struct lbtf_type *t)
{
	/* compiler built-in: redefining it breaks compilation */
	return t->name_off && !strcmp(lbtfi_dc_str(d, t->name_off), "__builtin_va_list");
}

static void end_decl(struct lbtfi_dc *d)
{
	lbtfi_dc_write(&d->out, ";\n\n", 3);
}

static void emit_typedef_decl(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t)
{
	if (!is_builtin_va_list(d, t)) {
		lbtfi_dc_emit_typedef_def(d, id, t, 0);
		end_decl(d);
	}
	d->st[id].fwd_emitted = 1;
}

/* Reached again while its own definition is in progress (a cycle). */
static void emit_cycle(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id)
{
	if (d->st[id].fwd_emitted)
		return;
	if (lbtf_is_composite(t)) {
		/* inside its own definition, or anonymous (cannot be declared) */
		if (id == cont_id || !t->name_off)
			return;
		lbtfi_dc_emit_struct_fwd(d, id, t);
		end_decl(d);
		d->st[id].fwd_emitted = 1;
	} else if (lbtf_kind(t) == LBTF_KIND_TYPEDEF) {
		/* a typedef also serves as a forward declaration for pointers */
		emit_typedef_decl(d, id, t);
	}
}

bool lbtfi_dc_top_int(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		 uint32_t *child_cont)
{
	lbtfi_dc_emit_base_aliases(d, id);
	d->st[id].emit = DC_EMITTED;
	return false;
}

bool lbtfi_dc_top_enum(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		  uint32_t *child_cont)
{
	if (!cont_id) {
		lbtfi_dc_emit_enum_def(d, id, t, 0);
		end_decl(d);
	}
	d->st[id].emit = DC_EMITTED;
	return false;
}

bool lbtfi_dc_top_through(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		     uint32_t *child_cont)
{
	*child_cont = cont_id;
	return true;
}

bool lbtfi_dc_top_fwd(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		 uint32_t *child_cont)
{
	lbtfi_dc_emit_fwd_def(d, id, t);
	end_decl(d);
	d->st[id].emit = DC_EMITTED;
	return false;
}

bool lbtfi_dc_top_typedef(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		     uint32_t *child_cont)
{
	d->st[id].emit = DC_EMITTING;
	*child_cont = id;
	return true;
}

void lbtfi_dc_top_typedef_leave(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id)
{
	if (!d->st[id].fwd_emitted)
		emit_typedef_decl(d, id, t);
	d->st[id].emit = DC_EMITTED;
}

bool lbtfi_dc_top_composite(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		       uint32_t *child_cont)
{
	d->st[id].emit = DC_EMITTING;
	if (!cont_id || !t->name_off) {
		/* its body will be printed: members' types need declarations */
		*child_cont = t->name_off ? id : cont_id;
		return true;
	}
	if (!d->st[id].fwd_emitted && id != cont_id) {
		lbtfi_dc_emit_struct_fwd(d, id, t);
		end_decl(d);
		d->st[id].fwd_emitted = 1;
	}
	d->st[id].emit = DC_NOT_EMITTED;
	return false;
}

void lbtfi_dc_top_composite_leave(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t,
			     uint32_t cont_id)
{
	if (!cont_id) {
		lbtfi_dc_emit_struct_def(d, id, t, 0);
		end_decl(d);
		d->st[id].emit = DC_EMITTED;
	} else {
		d->st[id].emit = DC_NOT_EMITTED;
	}
}

/* First visit of id inside cont_id: pushes a frame when its children come
 * next; false after an error */
static bool top_enter(struct lbtfi_dc *d, uint32_t id, uint32_t cont_id)
{
	struct lbtfi_dc_walks *w = &d->tops;
	const struct lbtf_type *t;
	uint32_t child_cont = 0;
	lbtfi_dc_top_enter_fn fn;

	if (d->st[id].emit == DC_EMITTED || d->err || d->out.err)
		return !d->err && !d->out.err;
	if (++d->steps > d->step_limit) {
		too_much_work(d, id);
		return false;
	}
	t = lbtfi_dc_type(d, id);
	if (d->st[id].emit == DC_EMITTING) {
		emit_cycle(d, id, t, cont_id);
		return true;
	}
	fn = lbtfi_dc_ops(t)->top;
	if (!fn) { /* (floats, and what is not a type: nothing, ever) */
		d->st[id].emit = DC_EMITTED;
		return true;
	}
	if (!fn(d, id, t, cont_id, &child_cont))
		return true;
	if (LBTFI_GROW_FROM(w->v, w->cap, w->cnt + 1, 64)) {
		lbtfi_dc_fail(d, -ENOMEM, "out of memory emitting types", id);
		return false;
	}
	w->v[w->cnt++] = (struct lbtfi_dc_walk){ .t = t, .id = id, .cont_id = cont_id,
					   .child_cont = child_cont };
	return true;
}

/* Whether all t's children are emitted: then a pointer, modifier, array
 * or function prototype (which print nothing of their own here) needs
 * nothing more wherever it is met again */
static bool all_emitted(const struct lbtfi_dc *d, const struct lbtf_type *t)
{
	uint32_t child;

	for (uint32_t n = 0; child_of(t, n, &child); n++)
		if (d->st[child].emit != DC_EMITTED)
			return false;
	return true;
}

/*
 * Emits id at top level, what it needs first: the definitions its members,
 * targets and parameters need, anonymous ones walked through (their bodies
 * are printed inside their container's), on an explicit stack (anonymous
 * types nest as deep as the BTF does).
 */
void lbtfi_dc_top_emit(struct lbtfi_dc *d, uint32_t id)
{
	struct lbtfi_dc_walks *w = &d->tops;
	size_t base = w->cnt;

	if (!top_enter(d, id, 0))
		goto out;
	while (w->cnt > base) {
		struct lbtfi_dc_walk *f = &w->v[w->cnt - 1];
		const struct lbtf_type *t = f->t;
		uint32_t child;
		bool more;

		/* children already emitted need nothing */
		while ((more = child_of(t, f->next, &child)) && d->st[child].emit == DC_EMITTED &&
		       !d->out.err)
			f->next++;
		if (more) {
			f->next++;
			if (!top_enter(d, child, f->child_cont))
				break;
			continue;
		}
		w->cnt--; /* (f stays readable: nothing is pushed before the call) */
		if (lbtfi_dc_ops(t)->top_leave)
			lbtfi_dc_ops(t)->top_leave(d, f->id, t, f->cont_id);
		else if (lbtfi_dc_ops(t)->top == lbtfi_dc_top_through && all_emitted(d, t))
			d->st[f->id].emit = DC_EMITTED;
	}
out:
	w->cnt = base;
}

int lbtfi_dc_order_roots(struct lbtfi_dc *d, const uint32_t *ids, size_t cnt)
{
	for (size_t i = 0; i < cnt; i++) {
		uint32_t id = ids ? ids[i] : (uint32_t)i + 1;
		int err;

		/* (what is ordered, all types in --compat 7.1 past a few
		 * thousand roots, answers at once) */
		if (d->st[id].order == DC_ORDERED)
			continue;
		if ((err = order(d, id, false)) < 0)
			return err;
	}
	return 0;
}

void lbtfi_dc_emit_queue(struct lbtfi_dc *d)
{
	for (size_t i = 0; i < d->queue.cnt && !d->err && !d->out.err; i++)
		lbtfi_dc_top_emit(d, d->queue.ids[i]);
}
