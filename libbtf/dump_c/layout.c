// SPDX-License-Identifier: BSD-2-Clause
/*
 * Bodies of definitions: struct/union members with the padding that
 * reproduces the BTF layout under the C compiler's rules, packing,
 * enums with their size attributes, typedefs and forward declarations.
 *
 * BTF records offsets and sizes but no alignment, so the layout is
 * rebuilt from natural alignment: a struct whose members sit off their
 * natural alignment (or whose size is not a multiple of it) is printed
 * packed, and gaps become anonymous bitfields (`long: 64;`, `int: 24;`,
 * and `long: 0;` to force an alignment the compiler would not choose).
 */
#include <string.h>
#include "internal.h"

/* ---- alignment ----------------------------------------------------------- */

/* Like C's roundup for positive y; never divides by zero. */
static int64_t round_up(int64_t x, int64_t y)
{
	return y ? (x + y - 1) / y * y : x;
}

/*
 * Natural alignment (cached in d->align), or a negative errno for kinds
 * that have none. A struct's is its largest member's, 1 when its own
 * layout shows it is packed (a member off its alignment, a size that is
 * not a multiple). Computed on an explicit stack (nested anonymous structs
 * go as deep as the BTF): a frame waits while the member it needs is
 * computed above it.
 */
#define AL_BUSY INT8_MIN /* on the stack: reached again, it contains itself */

/* The alignment of f's type from its children's, or 0 after pushing the
 * child it still needs */
static int align_step(struct lbtfi_dc *d, struct lbtfi_dc_walk *f, uint32_t *need)
{
	const struct lbtf_type *t = lbtfi_dc_type(d, f->id);
	uint32_t child;

	switch (lbtfi_dc_ops(t)->align) {
	case DC_AL_SIZE: /* integers wider than a pointer align like a pointer */
		return t->size < (uint32_t)d->ptr_sz ? (int)t->size : d->ptr_sz;
	case DC_AL_PTR:
		return d->ptr_sz;
	case DC_AL_TYPE:
	case DC_AL_ELEM:
		child = lbtfi_dc_ops(t)->align == DC_AL_TYPE ? t->type : lbtf_array(t)->type;
		if (!d->align[child]) {
			*need = child;
			return 0;
		}
		return d->align[child] == AL_BUSY ? -ELOOP : d->align[child];
	case DC_AL_MEMBERS:
		for (; f->next < lbtf_vlen(t); f->next++) {
			const struct lbtf_member *m = &lbtf_members(t)[f->next];
			int a = d->align[m->type];

			if (!a) {
				*need = m->type;
				return 0;
			}
			if (a == AL_BUSY)
				return -ELOOP;
			if (a < 0)
				return a;
			if (a > f->max)
				f->max = a;
			if (!lbtf_member_bitfield_size(t, f->next) && m->offset % (8u * a))
				return 1;
		}
		return t->size % f->max ? 1 : f->max;
	default:
		return -EINVAL;
	}
}

static int push_align(struct lbtfi_dc *d, uint32_t id)
{
	struct lbtfi_dc_walks *w = &d->aligns;

	if (LBTFI_GROW_FROM(w->v, w->cap, w->cnt + 1, 64))
		return lbtfi_dc_fail(d, -ENOMEM, "out of memory computing alignments", id);
	w->v[w->cnt++] = (struct lbtfi_dc_walk){ .id = id, .max = 1 };
	d->align[id] = AL_BUSY;
	return 0;
}

int lbtfi_dc_align_walk(struct lbtfi_dc *d, uint32_t id)
{
	struct lbtfi_dc_walks *w = &d->aligns;
	size_t base = w->cnt;
	int a = d->align[id];

	if (a)
		return a == AL_BUSY ? -ELOOP : a;
	if ((a = push_align(d, id)))
		return a;
	while (w->cnt > base) {
		uint32_t need = 0;

		a = align_step(d, &w->v[w->cnt - 1], &need);
		if (need) {
			if ((a = push_align(d, need)))
				break;
			continue;
		}
		if (a == -ELOOP) /* a type containing itself has none */
			break;
		/* 0 (a base type of size 0, invalid BTF) is kept as "none",
		 * 0 meaning "not known yet" */
		d->align[w->v[--w->cnt].id] = (int8_t)(a > 64 ? 64 : a ? a : -EINVAL);
	}
	if (w->cnt == base)
		return d->align[id];
	/* a loop or no memory: nothing on the path is known, none is kept */
	while (w->cnt > base)
		d->align[w->v[--w->cnt].id] = 0;
	return a;
}

/* Needs __attribute__((packed)) to keep its layout. */
static bool is_packed(struct lbtfi_dc *d, const struct lbtf_type *t)
{
	int max = 1;

	for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
		const struct lbtf_member *m = &lbtf_members(t)[i];
		int a = lbtfi_dc_align_of(d, m->type);

		if (a > 0 && !lbtf_member_bitfield_size(t, i) && m->offset % (8u * a))
			return true;
		if (a > max)
			max = a;
	}
	return t->size % max != 0;
}

/* ---- padding -------------------------------------------------------------- */

#define DC_MAX_PAD_BITS (1ll << 24)

static void put_pad(struct lbtfi_dc *d, const char *type, int64_t bits, int lvl)
{
	lbtfi_dc_putc(&d->out, '\n');
	lbtfi_dc_indent(&d->out, lvl);
	lbtfi_dc_puts(&d->out, type);
	lbtfi_dc_write(&d->out, ": ", 2);
	lbtfi_dc_put_i64(&d->out, bits);
	lbtfi_dc_putc(&d->out, ';');
}

/*
 * Fills the bits [cur, next) with anonymous bitfields. First reach the
 * largest natural boundary (long, int, short, char) that does not pass
 * next, with an explicit `type: N` / `type: 0` only when the compiler
 * would not get there by itself; then fill whole units, then the rest
 * with the smallest type that holds it.
 */
static void emit_padding(struct lbtfi_dc *d, uint32_t id, int64_t cur, int64_t next, int next_align,
			 bool in_bitfield, int lvl)
{
	const struct {
		const char *name;
		int bits;
	} pads[] = { { "long", d->ptr_sz * 8 }, { "int", 32 }, { "short", 16 }, { "char", 8 } };
	const int npads = sizeof(pads) / sizeof(pads[0]);
	int64_t new_off = cur;
	int pad_bits = 8, i;
	const char *pad_type = "char";

	if (cur >= next)
		return;
	/* hostile sizes would otherwise mean gigabytes of `long: 64;` */
	if (next - cur > DC_MAX_PAD_BITS) {
		lbtfi_dc_fail(d, -E2BIG, "padding gap of more than 2 MiB in a struct", id);
		return;
	}
	for (i = 0; i < npads; i++) {
		pad_bits = pads[i].bits;
		pad_type = pads[i].name;
		new_off = round_up(cur, pad_bits);
		if (new_off <= next)
			break;
	}
	if (new_off > cur && new_off <= next) {
		if (in_bitfield ||
		    (new_off == next && round_up(cur, (int64_t)next_align * 8) != new_off) ||
		    (new_off != next && next - new_off <= new_off - cur))
			put_pad(d, pad_type, in_bitfield ? new_off - cur : 0, lvl);
		cur = new_off;
	}
	while (cur != next) {
		int64_t bits = next - cur < pad_bits ? next - cur : pad_bits;

		if (bits == pad_bits) {
			put_pad(d, pad_type, pad_bits, lvl);
			cur += bits;
			continue;
		}
		for (i = npads - 1; i >= 0; i--) {
			pad_type = pads[i].name;
			pad_bits = pads[i].bits;
			if (pad_bits >= bits)
				break;
		}
		if (i < 0) /* cannot happen for sane pointer sizes; never loop */
			return;
		put_pad(d, pad_type, bits, lvl);
		cur += bits;
	}
}

/* ---- struct / union ----------------------------------------------------- */

static void put_tag(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t)
{
	if (lbtf_kind(t) == LBTF_KIND_STRUCT)
		lbtfi_dc_write(&d->out, "struct", 6);
	else
		lbtfi_dc_write(&d->out, "union", 5);
	if (t->name_off) {
		lbtfi_dc_putc(&d->out, ' ');
		lbtfi_dc_put_type_name(d, id);
	}
}

void lbtfi_dc_emit_struct_fwd(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t)
{
	put_tag(d, id, t);
}

/*
 * A member's size in bytes, as lbtf_resolve_size() gives it: the common
 * chains (a base type, struct or pointer under typedefs, modifiers and
 * arrays) walked here with the dumper's own inline lookups, anything else
 * (errors, long chains, sizes past 32 bits) left to it.
 */
static int64_t member_size(struct lbtfi_dc *d, uint32_t root)
{
	uint64_t nelems = 1;
	uint32_t id = root;

	for (int depth = 0; depth < 16; depth++) {
		const struct lbtf_type *t = lbtfi_dc_type(d, id);

		switch (lbtf_kind(t)) {
		case LBTF_KIND_INT: case LBTF_KIND_STRUCT: case LBTF_KIND_UNION:
		case LBTF_KIND_ENUM: case LBTF_KIND_ENUM64: case LBTF_KIND_FLOAT:
			if (nelems * t->size > UINT32_MAX)
				return lbtf_resolve_size(d->btf, root);
			return (int64_t)(nelems * t->size);
		case LBTF_KIND_PTR:
			return (int64_t)nelems * d->btf->ptr_size;
		case LBTF_KIND_TYPEDEF: case LBTF_KIND_VOLATILE: case LBTF_KIND_CONST:
		case LBTF_KIND_RESTRICT: case LBTF_KIND_TYPE_TAG:
			id = t->type;
			break;
		case LBTF_KIND_ARRAY:
			nelems *= lbtf_array(t)->nelems;
			if (nelems > UINT32_MAX)
				return lbtf_resolve_size(d->btf, root);
			id = lbtf_array(t)->type;
			break;
		default:
			return lbtf_resolve_size(d->btf, root);
		}
	}
	return lbtf_resolve_size(d->btf, root);
}

/* Member i - 1's declarator is out: its bitfield size, ';' */
static void end_member(struct lbtfi_dc *d, struct lbtfi_dc_body *b, const struct lbtf_type *t)
{
	const struct lbtf_member *m = &lbtf_members(t)[b->i - 1];
	int64_t m_sz = lbtf_member_bitfield_size(t, b->i - 1);
	int64_t m_off = lbtf_member_bit_offset(t, b->i - 1);

	if (m_sz) {
		lbtfi_dc_write(&d->out, ": ", 2);
		lbtfi_dc_put_i64(&d->out, m_sz);
		b->off = m_off + m_sz;
		b->prev_bitfield = true;
	} else {
		int64_t sz = member_size(d, m->type);

		b->off = m_off + (sz > 0 ? sz : 0) * 8;
		b->prev_bitfield = false;
	}
	lbtfi_dc_putc(&d->out, ';');
	b->open = false;
}

void lbtfi_dc_step_body(struct lbtfi_dc *d, struct lbtfi_dc_job *j)
{
	struct lbtfi_dc_body *b = &j->body;
	const struct lbtf_type *t = lbtfi_dc_type(d, b->id);
	bool is_struct = lbtf_kind(t) == LBTF_KIND_STRUCT;

	if (!b->started) {
		b->packed = is_struct && is_packed(d, t);
		put_tag(d, b->id, t);
		lbtfi_dc_write(&d->out, " {", 2);
		b->started = true;
	}
	for (;;) {
		const struct lbtf_member *m;
		int64_t m_sz, m_off;
		const char *name;
		int m_align;

		if (b->open)
			end_member(d, b, t);
		if (b->i >= lbtf_vlen(t))
			break;
		m = &lbtf_members(t)[b->i];
		m_sz = lbtf_member_bitfield_size(t, b->i);
		m_off = lbtf_member_bit_offset(t, b->i);
		name = lbtfi_dc_str(d, m->name_off);

		if (b->off < m_off) { /* (most members follow the previous one) */
			m_align = b->packed ? 1 : lbtfi_dc_align_of(d, m->type);
			emit_padding(d, b->id, b->off, m_off, m_align, b->prev_bitfield && m_sz,
				     b->lvl + 1);
		}
		lbtfi_dc_putc(&d->out, '\n');
		lbtfi_dc_indent(&d->out, b->lvl + 1);
		b->i++;
		b->open = true;
		/* the member's declarator at once, or as nested jobs, then
		 * back here for its end */
		if (!lbtfi_dc_decl_now(d, m->type, name, b->lvl + 1)) {
			if (!lbtfi_dc_push_job(d, j))
				lbtfi_dc_push_decl(d, m->type, name, b->lvl + 1);
			return;
		}
		if (d->err || d->out.err)
			return;
	}
	if (is_struct)
		emit_padding(d, b->id, b->off, (int64_t)t->size * 8, lbtfi_dc_align_of(d, b->id), false,
			     b->lvl + 1);
	/* `struct empty {}` stays on one line */
	if (lbtf_vlen(t) || t->size) {
		lbtfi_dc_putc(&d->out, '\n');
		lbtfi_dc_indent(&d->out, b->lvl);
	}
	lbtfi_dc_putc(&d->out, '}');
	if (b->packed)
		lbtfi_dc_puts(&d->out, " __attribute__((packed))");
}

void lbtfi_dc_emit_struct_def(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, int lvl)
{
	struct lbtfi_dc_job body = { .kind = DC_JOB_BODY, .body = { .id = id, .lvl = lvl } };
	size_t base = d->jobs.cnt;

	if (!lbtfi_dc_push_job(d, &body))
		lbtfi_dc_run_jobs(d, base);
}

/* ---- enums ---------------------------------------------------------------- */

void lbtfi_dc_emit_enum_fwd(struct lbtfi_dc *d, uint32_t id)
{
	lbtfi_dc_write(&d->out, "enum ", 5);
	lbtfi_dc_put_type_name(d, id);
}

/* Enumerators share the ordinary identifier namespace with typedefs. */
static void put_enumerator(struct lbtfi_dc *d, uint32_t name_off, int lvl)
{
	const char *name = lbtfi_dc_str(d, name_off);
	uint32_t dup = lbtfi_dc_names_bump(d, &d->ident_names, name_off);

	lbtfi_dc_putc(&d->out, '\n');
	lbtfi_dc_indent(&d->out, lvl);
	lbtfi_dc_puts(&d->out, name);
	if (dup > 1) {
		lbtfi_dc_write(&d->out, "___", 3);
		lbtfi_dc_put_u64(&d->out, dup);
	}
	lbtfi_dc_write(&d->out, " = ", 3);
}

/* An 8-byte enum needs mode(word) unless some value already needs 64 bits. */
static bool needs_word_mode(const struct lbtf_type *t)
{
	if (lbtf_kind(t) == LBTF_KIND_ENUM)
		return true;
	for (unsigned int i = 0; i < lbtf_vlen(t); i++)
		if (lbtf_enums64(t)[i].val_hi32)
			return false;
	return true;
}

void lbtfi_dc_emit_enum_def(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, int lvl)
{
	bool is_signed = lbtf_kflag(t);

	lbtfi_dc_write(&d->out, "enum", 4);
	if (t->name_off) {
		lbtfi_dc_putc(&d->out, ' ');
		lbtfi_dc_put_type_name(d, id);
	}
	if (!lbtf_vlen(t))
		return;
	lbtfi_dc_write(&d->out, " {", 2);
	for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
		if (lbtf_kind(t) == LBTF_KIND_ENUM) {
			const struct lbtf_enum *e = &lbtf_enums(t)[i];

			put_enumerator(d, e->name_off, lvl + 1);
			if (is_signed)
				lbtfi_dc_put_i64(&d->out, e->val);
			else
				lbtfi_dc_put_u64(&d->out, (uint32_t)e->val);
		} else {
			const struct lbtf_enum64 *e = &lbtf_enums64(t)[i];
			uint64_t v = lbtf_enum64_value(e);

			put_enumerator(d, e->name_off, lvl + 1);
			if (is_signed) {
				lbtfi_dc_put_i64(&d->out, (int64_t)v);
				lbtfi_dc_write(&d->out, "LL", 2);
			} else {
				lbtfi_dc_put_u64(&d->out, v);
				lbtfi_dc_write(&d->out, "ULL", 3);
			}
		}
		lbtfi_dc_putc(&d->out, ',');
	}
	lbtfi_dc_putc(&d->out, '\n');
	lbtfi_dc_indent(&d->out, lvl);
	lbtfi_dc_putc(&d->out, '}');
	if (t->size == 1)
		lbtfi_dc_puts(&d->out, " __attribute__((mode(byte)))");
	else if (t->size == 2) /* our addition: bpftool leaves these 4 bytes wide */
		lbtfi_dc_puts(&d->out, " __attribute__((mode(HI)))");
	else if (t->size == 8 && d->ptr_sz == 8 && needs_word_mode(t))
		lbtfi_dc_puts(&d->out, " __attribute__((mode(word)))");
}

/* ---- forward declarations, typedefs, base types --------------------------- */

void lbtfi_dc_emit_fwd_def(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t)
{
	lbtfi_dc_puts(&d->out, lbtf_kflag(t) ? "union " : "struct ");
	lbtfi_dc_put_type_name(d, id);
}

void lbtfi_dc_emit_typedef_def(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, int lvl)
{
	char buf[DC_NAME_MAX];
	const char *name = lbtfi_dc_ident_name(d, id, buf);

	/* old GCC wrote __gnuc_va_list as a typedef of void */
	if (!t->type && !strcmp(name, "__gnuc_va_list")) {
		lbtfi_dc_puts(&d->out, "typedef __builtin_va_list __gnuc_va_list");
		return;
	}
	lbtfi_dc_write(&d->out, "typedef ", 8);
	lbtfi_dc_emit_decl(d, t->type, name, lvl);
}

/* GCC's Arm SIMD __PolyN_t base types get plain C aliases. */
void lbtfi_dc_emit_base_aliases(struct lbtfi_dc *d, uint32_t id)
{
	static const char *const aliases[][2] = {
		{ "__Poly8_t", "unsigned char" },
		{ "__Poly16_t", "unsigned short" },
		{ "__Poly64_t", "unsigned long long" },
		{ "__Poly128_t", "unsigned __int128" },
	};
	char buf[DC_NAME_MAX];
	const char *name = lbtfi_dc_type_name(d, id, buf);

	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		if (!strcmp(name, aliases[i][0])) {
			lbtfi_dc_write(&d->out, "typedef ", 8);
			lbtfi_dc_puts(&d->out, aliases[i][1]);
			lbtfi_dc_putc(&d->out, ' ');
			lbtfi_dc_puts(&d->out, name);
			lbtfi_dc_write(&d->out, ";\n\n", 3);
			break;
		}
	}
}
