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

struct frame {
	size_t start; /* first stack slot of this frame */
	size_t cnt;   /* slots still to pop */
};

static inline uint32_t top(const struct dc *d, const struct frame *f)
{
	return d->stack.ids[f->start + f->cnt - 1];
}

static int push(struct dc *d, uint32_t id)
{
	return dci_push_id(d, &d->stack, 64, id, "out of memory for a declarator");
}

/* How a declarator chain continues past each kind. */
enum { NEXT_END, NEXT_TYPE, NEXT_ELEM, NEXT_BAD };
static const uint8_t next_of[LBTF_NR_KINDS] = {
	[LBTF_KIND_UNKN] = NEXT_BAD,
	[LBTF_KIND_PTR] = NEXT_TYPE,
	[LBTF_KIND_VOLATILE] = NEXT_TYPE,
	[LBTF_KIND_CONST] = NEXT_TYPE,
	[LBTF_KIND_RESTRICT] = NEXT_TYPE,
	[LBTF_KIND_FUNC_PROTO] = NEXT_TYPE,
	[LBTF_KIND_TYPE_TAG] = NEXT_TYPE,
	[LBTF_KIND_ARRAY] = NEXT_ELEM,
	[LBTF_KIND_FUNC] = NEXT_BAD,
	[LBTF_KIND_VAR] = NEXT_BAD,
	[LBTF_KIND_DATASEC] = NEXT_BAD,
	[LBTF_KIND_DECL_TAG] = NEXT_BAD,
	/* INT, STRUCT, UNION, ENUM, ENUM64, FWD, TYPEDEF, FLOAT end the chain */
};

/* Qualifiers written before a base type: `const volatile int`. */
static void put_leading_mods(struct dc *d, struct frame *f)
{
	static const char *const words[LBTF_NR_KINDS] = {
		[LBTF_KIND_VOLATILE] = "volatile ",
		[LBTF_KIND_CONST] = "const ",
		[LBTF_KIND_RESTRICT] = "restrict ",
	};

	while (f->cnt) {
		const char *w = words[lbtf_kind(dci_type(d, top(d, f)))];

		if (!w || !top(d, f))
			return;
		dci_puts(&d->out, w);
		f->cnt--;
	}
}

/* Qualifiers on arrays and function protos carry no meaning in C (GCC adds
 * them for const elements and noreturn functions): dropped. */
static void drop_mods(struct dc *d, struct frame *f)
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

static void chain(struct dc *d, struct frame *f, const char *fname, int lvl);

/*
 * One element of the chain, popped. Returns true when the element wrote the
 * rest of the declarator itself (arrays, function protos).
 */
typedef bool (*part_fn)(struct dc *d, struct frame *f, uint32_t id, const struct lbtf_type *t,
			const char *fname, int lvl, bool last_was_ptr);

static bool part_base(struct dc *d, struct frame *f, uint32_t id, const struct lbtf_type *t,
		      const char *fname, int lvl, bool last_was_ptr)
{
	put_leading_mods(d, f);
	dci_puts(&d->out, dci_str(d, t->name_off));
	return false;
}

static bool part_composite(struct dc *d, struct frame *f, uint32_t id,
			   const struct lbtf_type *t, const char *fname, int lvl, bool last_was_ptr)
{
	put_leading_mods(d, f);
	if (!t->name_off) /* anonymous: defined right here */
		dci_emit_struct_def(d, id, t, lvl);
	else
		dci_emit_struct_fwd(d, id, t);
	return false;
}

static bool part_enum(struct dc *d, struct frame *f, uint32_t id, const struct lbtf_type *t,
		      const char *fname, int lvl, bool last_was_ptr)
{
	put_leading_mods(d, f);
	if (!t->name_off)
		dci_emit_enum_def(d, id, t, lvl);
	else
		dci_emit_enum_fwd(d, id);
	return false;
}

static bool part_fwd(struct dc *d, struct frame *f, uint32_t id, const struct lbtf_type *t,
		     const char *fname, int lvl, bool last_was_ptr)
{
	put_leading_mods(d, f);
	dci_emit_fwd_def(d, id, t);
	return false;
}

static bool part_typedef(struct dc *d, struct frame *f, uint32_t id, const struct lbtf_type *t,
			 const char *fname, int lvl, bool last_was_ptr)
{
	put_leading_mods(d, f);
	dci_put_ident_name(d, id);
	return false;
}

static bool part_ptr(struct dc *d, struct frame *f, uint32_t id, const struct lbtf_type *t,
		     const char *fname, int lvl, bool last_was_ptr)
{
	dci_puts(&d->out, last_was_ptr ? "*" : " *"); /* `int **p`, `int *p` */
	return false;
}

static bool part_qual(struct dc *d, struct frame *f, uint32_t id, const struct lbtf_type *t,
		      const char *fname, int lvl, bool last_was_ptr)
{
	static const char *const words[LBTF_NR_KINDS] = {
		[LBTF_KIND_VOLATILE] = " volatile",
		[LBTF_KIND_CONST] = " const",
		[LBTF_KIND_RESTRICT] = " restrict",
	};

	dci_puts(&d->out, words[lbtf_kind(t)]);
	return false;
}

static bool part_type_tag(struct dc *d, struct frame *f, uint32_t id, const struct lbtf_type *t,
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

static bool part_array(struct dc *d, struct frame *f, uint32_t id, const struct lbtf_type *t,
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

static bool part_proto(struct dc *d, struct frame *f, uint32_t id, const struct lbtf_type *t,
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

static const part_fn parts[LBTF_NR_KINDS] = {
	[LBTF_KIND_INT] = part_base,
	[LBTF_KIND_FLOAT] = part_base,
	[LBTF_KIND_STRUCT] = part_composite,
	[LBTF_KIND_UNION] = part_composite,
	[LBTF_KIND_ENUM] = part_enum,
	[LBTF_KIND_ENUM64] = part_enum,
	[LBTF_KIND_FWD] = part_fwd,
	[LBTF_KIND_TYPEDEF] = part_typedef,
	[LBTF_KIND_PTR] = part_ptr,
	[LBTF_KIND_VOLATILE] = part_qual,
	[LBTF_KIND_CONST] = part_qual,
	[LBTF_KIND_RESTRICT] = part_qual,
	[LBTF_KIND_TYPE_TAG] = part_type_tag,
	[LBTF_KIND_ARRAY] = part_array,
	[LBTF_KIND_FUNC_PROTO] = part_proto,
	/* FUNC, VAR, DATASEC, DECL_TAG cannot appear in a declarator */
};

static void chain(struct dc *d, struct frame *f, const char *fname, int lvl)
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
		if (!parts[kind] || parts[kind](d, f, id, t, fname, lvl, last_was_ptr))
			return;
		last_was_ptr = kind == LBTF_KIND_PTR;
	}
	put_fname(d, fname, last_was_ptr);
}

void dci_emit_decl(struct dc *d, uint32_t id, const char *fname, int lvl)
{
	struct frame f;
	size_t start = d->stack.cnt;

	for (;;) {
		const struct lbtf_type *t = dci_type(d, id);
		unsigned int next;

		if (push(d, id))
			goto out;
		if (!id)
			break;
		next = next_of[lbtf_kind(t)];
		if (next == NEXT_TYPE)
			id = t->type;
		else if (next == NEXT_ELEM)
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
