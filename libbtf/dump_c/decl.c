// SPDX-License-Identifier: BSD-2-Clause
/*
 * C declarators. A BTF chain such as  PTR -> CONST -> FUNC_PROTO -> INT
 * must come out inside-out in C: `int (* const fname)(...)`. The chain is
 * pushed on a stack down to its terminal type (int, struct, typedef...),
 * then popped: base type first with the qualifiers that precede it, then
 * pointers with qualifiers to their right, and arrays / function protos
 * wrap the rest of the declarator in parentheses and recurse. Nested
 * declarators (function parameters) use their own frame of the one shared
 * stack; frames are addressed by index, so growing the stack is safe.
 */
#include <stdlib.h>
#include "internal.h"

struct dc_frame {
	size_t start; /* first stack slot of this frame */
	size_t cnt;   /* slots still to pop */
};

static inline uint32_t top(const struct dc *d, const struct dc_frame *f)
{
	return d->stack.ids[f->start + f->cnt - 1];
}

static int push(struct dc *d, uint32_t id)
{
	return dci_push_id(d, &d->stack, 64, id, "out of memory for a declarator");
}

/* Qualifiers written before a base type: `const volatile int`. */
static void put_leading_mods(struct dc *d, struct dc_frame *f)
{
	while (f->cnt && top(d, f)) {
		const char *w = dci_ops(dci_type(d, top(d, f)))->qual;

		if (!w)
			return;
		dci_puts(&d->out, w);
		dci_putc(&d->out, ' ');
		f->cnt--;
	}
}

/* Qualifiers on arrays and function protos carry no meaning in C (GCC adds
 * them for const elements and noreturn functions): dropped. */
static void drop_mods(struct dc *d, struct dc_frame *f)
{
	while (f->cnt && top(d, f) && lbtf_is_mod(dci_type(d, top(d, f))))
		f->cnt--;
}

static void put_fname(struct dc *d, const char *fname, bool last_was_ptr)
{
	if (fname[0] && !last_was_ptr)
		dci_putc(&d->out, ' ');
	dci_puts(&d->out, fname);
}

/* One element of the chain, popped (dci_kind_ops[].decl); chain() pops the rest. */
static void chain(struct dc *d, struct dc_frame *f, const char *fname, int lvl);

bool dci_decl_base(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		   const char *fname, int lvl, bool last_was_ptr)
{
	put_leading_mods(d, f);
	dci_puts(&d->out, dci_str(d, t->name_off));
	return false;
}

bool dci_decl_composite(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
			const char *fname, int lvl, bool last_was_ptr)
{
	put_leading_mods(d, f);
	if (!t->name_off) /* anonymous: defined right here */
		dci_emit_struct_def(d, id, t, lvl);
	else
		dci_emit_struct_fwd(d, id, t);
	return false;
}

bool dci_decl_enum(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		   const char *fname, int lvl, bool last_was_ptr)
{
	put_leading_mods(d, f);
	if (!t->name_off)
		dci_emit_enum_def(d, id, t, lvl);
	else
		dci_emit_enum_fwd(d, id);
	return false;
}

bool dci_decl_fwd(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		  const char *fname, int lvl, bool last_was_ptr)
{
	put_leading_mods(d, f);
	dci_emit_fwd_def(d, id, t);
	return false;
}

bool dci_decl_typedef(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		      const char *fname, int lvl, bool last_was_ptr)
{
	put_leading_mods(d, f);
	dci_put_ident_name(d, id);
	return false;
}

bool dci_decl_ptr(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		  const char *fname, int lvl, bool last_was_ptr)
{
	dci_puts(&d->out, last_was_ptr ? "*" : " *"); /* `int **p`, `int *p` */
	return false;
}

bool dci_decl_qual(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		   const char *fname, int lvl, bool last_was_ptr)
{
	dci_putc(&d->out, ' ');
	dci_puts(&d->out, dci_ops(t)->qual);
	return false;
}

bool dci_decl_type_tag(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		       const char *fname, int lvl, bool last_was_ptr)
{
	put_leading_mods(d, f);
	if (d->attr_type_tags && lbtf_kflag(t)) {
		dci_puts(&d->out, " __attribute__((");
		dci_puts(&d->out, dci_str(d, t->name_off));
		dci_puts(&d->out, "))");
	} else {
		dci_puts(&d->out, " __attribute__((btf_type_tag(\"");
		dci_puts(&d->out, dci_str(d, t->name_off));
		dci_puts(&d->out, "\")))");
	}
	return false;
}

bool dci_decl_array(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		    const char *fname, int lvl, bool last_was_ptr)
{
	bool multidim;

	drop_mods(d, f);
	if (!f->cnt) {
		put_fname(d, fname, last_was_ptr);
	} else {
		/* int (*a)[3], but int a[2][3] without parentheses */
		multidim = lbtf_kind(dci_type(d, top(d, f))) == LBTF_KIND_ARRAY;
		if (fname[0] && !last_was_ptr)
			dci_putc(&d->out, ' ');
		if (!multidim)
			dci_putc(&d->out, '(');
		chain(d, f, fname, lvl);
		if (!multidim)
			dci_putc(&d->out, ')');
	}
	dci_putc(&d->out, '[');
	dci_put_u64(&d->out, lbtf_array(t)->nelems);
	dci_putc(&d->out, ']');
	return true;
}

bool dci_decl_proto(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		    const char *fname, int lvl, bool last_was_ptr)
{
	const struct lbtf_param *p = lbtf_params(t);
	unsigned int vlen = lbtf_vlen(t);

	drop_mods(d, f);
	if (f->cnt) {
		dci_write(&d->out, " (", 2);
		chain(d, f, fname, lvl);
		dci_putc(&d->out, ')');
	} else {
		put_fname(d, fname, last_was_ptr);
	}
	dci_putc(&d->out, '(');
	/* no parameters, or clang's lone void one: `(void)` (as the installed
	 * bpftool, built from linux 6.1.y, prints; older libbpf printed `()`) */
	if (!vlen || (vlen == 1 && !p->type)) {
		dci_write(&d->out, "void)", 5);
		return true;
	}
	for (unsigned int i = 0; i < vlen; i++) {
		if (i)
			dci_write(&d->out, ", ", 2);
		if (i == vlen - 1 && !p[i].type) { /* trailing void: varargs */
			dci_write(&d->out, "...", 3);
			break;
		}
		dci_emit_decl(d, p[i].type, dci_str(d, p[i].name_off), lvl);
	}
	dci_putc(&d->out, ')');
	return true;
}

static void chain(struct dc *d, struct dc_frame *f, const char *fname, int lvl)
{
	bool last_was_ptr = true; /* `(*name)`: no space before a lone pointer */

	while (f->cnt) {
		uint32_t id = d->stack.ids[f->start + --f->cnt];
		const struct lbtf_type *t;
		unsigned int kind;

		if (!id) {
			put_leading_mods(d, f);
			dci_write(&d->out, "void", 4);
			last_was_ptr = false;
			continue;
		}
		t = dci_type(d, id);
		kind = lbtf_kind(t);
		if (!dci_kind_ops[kind].decl ||
		    dci_kind_ops[kind].decl(d, f, id, t, fname, lvl, last_was_ptr))
			return;
		last_was_ptr = kind == LBTF_KIND_PTR;
	}
	put_fname(d, fname, last_was_ptr);
}

void dci_emit_decl(struct dc *d, uint32_t id, const char *fname, int lvl)
{
	struct dc_frame f;
	size_t start = d->stack.cnt;

	for (;;) {
		const struct lbtf_type *t = dci_type(d, id);
		unsigned int next;

		if (push(d, id))
			goto out;
		if (!id)
			break;
		next = dci_ops(t)->next;
		if (next == DC_NEXT_TYPE)
			id = t->type;
		else if (next == DC_NEXT_ELEM)
			id = lbtf_array(t)->type;
		else
			break;
		/* the stack holds the declarators of every enclosing definition
		 * too (anonymous structs, parameters): the bound is on the whole
		 * nesting, which recurses */
		if (d->stack.cnt > DC_MAX_DEPTH) {
			dci_fail(d, -ELOOP, "declarators or anonymous types nested too deeply", id);
			goto out;
		}
	}
	f.start = start;
	f.cnt = d->stack.cnt - start;
	chain(d, &f, fname, lvl);
out:
	d->stack.cnt = start;
}
