// SPDX-License-Identifier: BSD-2-Clause
/*
 * C declarators. A BTF chain such as  PTR -> CONST -> FUNC_PROTO -> INT
 * must come out inside-out in C: `int (* const fname)(...)`. The chain is
 * pushed on a stack down to its terminal type (int, struct, typedef...),
 * then popped: base type first with the qualifiers that precede it, then
 * pointers with qualifiers to their right, and arrays / function protos
 * wrap the rest of the declarator in parentheses. Nested parts (the rest
 * of a chain inside parentheses, function parameters, an anonymous struct
 * defined in place) are jobs of the printing stack (jobs.c), never calls
 * into themselves: a declarator may nest as deep as the BTF does.
 * Parameters' declarators take their own frame of the one shared id stack;
 * frames are addressed by index, so growing the stack is safe.
 */
#include <stdlib.h>
#include "internal.h"

static inline uint32_t top(const struct lbtfi_dc *d, const struct lbtfi_dc_chain *c)
{
	return d->stack.ids[c->start + c->cnt - 1];
}

static void push_chain(struct lbtfi_dc *d, const struct lbtfi_dc_chain *c, bool last_was_ptr)
{
	struct lbtfi_dc_job j = { .kind = DC_JOB_CHAIN, .chain = *c };

	j.chain.last_was_ptr = last_was_ptr;
	lbtfi_dc_push_job(d, &j);
}

/* Qualifiers written before a base type: `const volatile int`. */
static void put_leading_mods(struct lbtfi_dc *d, struct lbtfi_dc_chain *c)
{
	while (c->cnt && top(d, c)) {
		const char *w = lbtfi_dc_ops(lbtfi_dc_type(d, top(d, c)))->qual;

		if (!w)
			return;
		lbtfi_dc_puts(&d->out, w);
		lbtfi_dc_putc(&d->out, ' ');
		c->cnt--;
	}
}

/* Qualifiers on arrays and function protos carry no meaning in C (GCC adds
 * them for const elements and noreturn functions): dropped. */
static void drop_mods(struct lbtfi_dc *d, struct lbtfi_dc_chain *c)
{
	while (c->cnt && top(d, c) && lbtf_is_mod(lbtfi_dc_type(d, top(d, c))))
		c->cnt--;
}

static void put_fname(struct lbtfi_dc *d, const char *fname, bool last_was_ptr)
{
	if (fname[0] && !last_was_ptr)
		lbtfi_dc_putc(&d->out, ' ');
	lbtfi_dc_puts(&d->out, fname);
}

bool lbtfi_dc_decl_base(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t)
{
	put_leading_mods(d, c);
	lbtfi_dc_puts(&d->out, lbtfi_dc_str(d, t->name_off));
	return false;
}

bool lbtfi_dc_decl_composite(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t)
{
	struct lbtfi_dc_job body = { .kind = DC_JOB_BODY, .body = { .id = id, .lvl = c->lvl } };

	put_leading_mods(d, c);
	if (t->name_off) {
		lbtfi_dc_emit_struct_fwd(d, id, t);
		return false;
	}
	/* anonymous: defined right here, then the rest of the chain */
	push_chain(d, c, false);
	lbtfi_dc_push_job(d, &body);
	return true;
}

bool lbtfi_dc_decl_enum(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t)
{
	put_leading_mods(d, c);
	if (!t->name_off)
		lbtfi_dc_emit_enum_def(d, id, t, c->lvl);
	else
		lbtfi_dc_emit_enum_fwd(d, id);
	return false;
}

bool lbtfi_dc_decl_fwd(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t)
{
	put_leading_mods(d, c);
	lbtfi_dc_emit_fwd_def(d, id, t);
	return false;
}

bool lbtfi_dc_decl_typedef(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t)
{
	put_leading_mods(d, c);
	lbtfi_dc_put_ident_name(d, id);
	return false;
}

bool lbtfi_dc_decl_ptr(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t)
{
	if (c->last_was_ptr) /* `int **p`, `int *p` */
		lbtfi_dc_putc(&d->out, '*');
	else
		lbtfi_dc_write(&d->out, " *", 2);
	return false;
}

bool lbtfi_dc_decl_qual(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t)
{
	lbtfi_dc_putc(&d->out, ' ');
	lbtfi_dc_puts(&d->out, lbtfi_dc_ops(t)->qual);
	return false;
}

bool lbtfi_dc_decl_type_tag(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t)
{
	put_leading_mods(d, c);
	if (d->attr_type_tags && lbtf_kflag(t)) {
		lbtfi_dc_puts(&d->out, " __attribute__((");
		lbtfi_dc_puts(&d->out, lbtfi_dc_str(d, t->name_off));
		lbtfi_dc_puts(&d->out, "))");
	} else {
		lbtfi_dc_puts(&d->out, " __attribute__((btf_type_tag(\"");
		lbtfi_dc_puts(&d->out, lbtfi_dc_str(d, t->name_off));
		lbtfi_dc_puts(&d->out, "\")))");
	}
	return false;
}

static void put_dim(struct lbtfi_dc *d, uint32_t id)
{
	lbtfi_dc_putc(&d->out, '[');
	lbtfi_dc_put_u64(&d->out, lbtf_array(lbtfi_dc_type(d, id))->nelems);
	lbtfi_dc_putc(&d->out, ']');
}

bool lbtfi_dc_decl_array(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t)
{
	struct lbtfi_dc_job dim = { .kind = DC_JOB_ARRAY, .array = { .id = id } };

	drop_mods(d, c);
	if (!c->cnt) {
		put_fname(d, c->fname, c->last_was_ptr);
		put_dim(d, id);
		return true;
	}
	/* int (*a)[3], but int a[2][3] without parentheses */
	dim.array.paren = lbtf_kind(lbtfi_dc_type(d, top(d, c))) != LBTF_KIND_ARRAY;
	if (c->fname[0] && !c->last_was_ptr)
		lbtfi_dc_putc(&d->out, ' ');
	if (dim.array.paren)
		lbtfi_dc_putc(&d->out, '(');
	/* the rest of the chain, then ")" and "[N]" */
	if (!lbtfi_dc_push_job(d, &dim))
		push_chain(d, c, true);
	return true;
}

void lbtfi_dc_step_array(struct lbtfi_dc *d, struct lbtfi_dc_job *j)
{
	if (j->array.paren)
		lbtfi_dc_putc(&d->out, ')');
	put_dim(d, j->array.id);
}

bool lbtfi_dc_decl_proto(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t)
{
	struct lbtfi_dc_job params = { .kind = DC_JOB_PARAMS, .params = { .id = id, .lvl = c->lvl } };
	struct lbtfi_dc_job close = { .kind = DC_JOB_CHAR, .c = ')' };

	drop_mods(d, c);
	if (lbtfi_dc_push_job(d, &params))
		return true;
	if (c->cnt) {
		/* " (" the rest of the chain ")", then the parameters */
		lbtfi_dc_write(&d->out, " (", 2);
		if (!lbtfi_dc_push_job(d, &close))
			push_chain(d, c, true);
	} else {
		put_fname(d, c->fname, c->last_was_ptr);
	}
	return true;
}

void lbtfi_dc_step_params(struct lbtfi_dc *d, struct lbtfi_dc_job *j)
{
	const struct lbtf_type *t = lbtfi_dc_type(d, j->params.id);
	const struct lbtf_param *p = lbtf_params(t);
	unsigned int vlen = lbtf_vlen(t);

	if (!j->params.started) {
		lbtfi_dc_putc(&d->out, '(');
		/* no parameters, or clang's lone void one: `(void)` (as the
		 * installed bpftool, built from linux 6.1.y, prints; older
		 * libbpf printed `()`) */
		if (!vlen || (vlen == 1 && !p->type)) {
			lbtfi_dc_write(&d->out, "void)", 5);
			return;
		}
		j->params.started = true;
	}
	for (;;) {
		unsigned int i = j->params.i;

		if (i == vlen) {
			lbtfi_dc_putc(&d->out, ')');
			return;
		}
		if (i)
			lbtfi_dc_write(&d->out, ", ", 2);
		if (i == vlen - 1 && !p[i].type) { /* trailing void: varargs */
			lbtfi_dc_write(&d->out, "...)", 4);
			return;
		}
		j->params.i++;
		/* this parameter's declarator, at once or as nested jobs (then
		 * back here for the next) */
		if (lbtfi_dc_decl_now(d, p[i].type, lbtfi_dc_str(d, p[i].name_off), j->params.lvl)) {
			if (d->err || d->out.err)
				return;
			continue;
		}
		if (!lbtfi_dc_push_job(d, j))
			lbtfi_dc_push_decl(d, p[i].type, lbtfi_dc_str(d, p[i].name_off), j->params.lvl);
		return;
	}
}

void lbtfi_dc_step_chain(struct lbtfi_dc *d, struct lbtfi_dc_chain *c)
{
	while (c->cnt) {
		uint32_t id = d->stack.ids[c->start + --c->cnt];
		const struct lbtf_type *t;
		unsigned int kind;

		if (!id) {
			put_leading_mods(d, c);
			lbtfi_dc_write(&d->out, "void", 4);
			c->last_was_ptr = false;
			continue;
		}
		t = lbtfi_dc_type(d, id);
		kind = lbtf_kind(t);
		if (!lbtfi_dc_kind_ops[kind].decl || lbtfi_dc_kind_ops[kind].decl(d, c, id, t))
			return;
		c->last_was_ptr = kind == LBTF_KIND_PTR;
	}
	put_fname(d, c->fname, c->last_was_ptr);
}

/*
 * Pushes the declarator chain of id on d->stack (c->start is set, c->cnt
 * is filled in): 1 when it prints without nested jobs (no function
 * prototype, no anonymous struct/union, no array inside another part),
 * 0 when it has nested parts, <0 after an error.
 */
static int build_chain(struct lbtfi_dc *d, uint32_t id, struct lbtfi_dc_chain *c)
{
	bool outer_mods = true; /* only modifiers outside so far */
	int flat = 1;

	for (;;) {
		const struct lbtf_type *t = lbtfi_dc_type(d, id);
		unsigned int next;

		if (lbtfi_dc_push_id(d, &d->stack, 64, id, "out of memory for a declarator"))
			return -1;
		if (!id)
			break;
		if (lbtf_kind(t) == LBTF_KIND_FUNC_PROTO || (lbtf_is_composite(t) && !t->name_off) ||
		    (lbtf_kind(t) == LBTF_KIND_ARRAY && !outer_mods))
			flat = 0;
		outer_mods = outer_mods && lbtf_is_mod(t);
		next = lbtfi_dc_ops(t)->next;
		if (next == DC_NEXT_TYPE)
			id = t->type;
		else if (next == DC_NEXT_ELEM)
			id = lbtf_array(t)->type;
		else
			break;
		/* longer than the number of types: it loops (ordering reports
		 * such cycles first; never spin on one) */
		if (d->stack.cnt - c->start > d->nr_types) {
			lbtfi_dc_fail(d, -ELOOP, "declarator chain loops", id);
			return -1;
		}
	}
	c->cnt = d->stack.cnt - c->start;
	return flat;
}

void lbtfi_dc_push_decl(struct lbtfi_dc *d, uint32_t id, const char *fname, int lvl)
{
	struct lbtfi_dc_job free_job = { .kind = DC_JOB_FREE, .free_to = d->stack.cnt };
	/* `(*name)`: no space before a lone pointer */
	struct lbtfi_dc_job chain = { .kind = DC_JOB_CHAIN,
				.chain = { .start = d->stack.cnt, .fname = fname, .lvl = lvl,
					   .last_was_ptr = true } };

	if (lbtfi_dc_push_job(d, &free_job))
		return;
	if (build_chain(d, id, &chain.chain) >= 0)
		lbtfi_dc_push_job(d, &chain);
}

/*
 * The most common declarators, a type the chain ends at (a base type,
 * typedef, named struct/union, enum, forward declaration or void) behind
 * none or a few pointers, printed as step_chain() prints their chain but
 * without building it: the type's part, " *" and "*"s, the name. False
 * for anything else (nothing printed).
 */
#define DC_FLAT_PTRS 4

static bool decl_flat(struct lbtfi_dc *d, uint32_t id, const char *fname, int lvl)
{
	struct lbtfi_dc_chain c = { .start = d->stack.cnt, .fname = fname, .lvl = lvl };
	const struct lbtf_type *t = NULL;
	unsigned int ptrs = 0, kind = 0;

	while (id) {
		t = lbtfi_dc_type(d, id);
		kind = lbtf_kind(t);
		if (kind != LBTF_KIND_PTR)
			break;
		if (++ptrs > DC_FLAT_PTRS)
			return false;
		id = t->type;
	}
	if (id) {
		if (lbtfi_dc_kind_ops[kind].next != DC_NEXT_END || (lbtf_is_composite(t) && !t->name_off))
			return false;
		lbtfi_dc_kind_ops[kind].decl(d, &c, id, t); /* (prints it all, nests nothing) */
	} else {
		lbtfi_dc_write(&d->out, "void", 4);
	}
	for (unsigned int i = 0; i < ptrs; i++) {
		if (i)
			lbtfi_dc_putc(&d->out, '*');
		else
			lbtfi_dc_write(&d->out, " *", 2);
	}
	put_fname(d, fname, ptrs > 0);
	return true;
}

bool lbtfi_dc_decl_now(struct lbtfi_dc *d, uint32_t id, const char *fname, int lvl)
{
	struct lbtfi_dc_chain c = { .start = d->stack.cnt, .fname = fname, .lvl = lvl,
			      .last_was_ptr = true };
	int flat;

	if (decl_flat(d, id, fname, lvl))
		return true;
	flat = build_chain(d, id, &c);

	if (flat > 0)
		lbtfi_dc_step_chain(d, &c);
	d->stack.cnt = c.start;
	return flat != 0;
}

void lbtfi_dc_emit_decl(struct lbtfi_dc *d, uint32_t id, const char *fname, int lvl)
{
	size_t base = d->jobs.cnt;

	if (lbtfi_dc_decl_now(d, id, fname, lvl))
		return;
	lbtfi_dc_push_decl(d, id, fname, lvl);
	lbtfi_dc_run_jobs(d, base);
}
