/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private state of the C header dumper, shared by its modules:
 *   dump_c.c        entry point, frame, root selection
 *   order.c  topological ordering (strong/weak links) and emission
 *                   of top-level definitions and forward declarations
 *   decl.c   C declarators (pointer/array/function nesting, modifiers)
 *   layout.c struct/union bodies, padding, packing, enums, alignment
 *   names.c  name clash counting (___N suffixes)
 *   out.c    buffered output to the FILE*
 *   sort.c   the diffable (--sort) order
 *   kfuncs.c optional kfunc prototypes
 *   kinds.c  the per-kind operations (dci_kind_ops) the others dispatch on
 */
#ifndef LIBBTF_DUMP_C_INTERNAL_H
#define LIBBTF_DUMP_C_INTERNAL_H

#include "core/internal.h"
#include "util/grow.h"
#include "util/htab.h"

/* ---- buffered output --------------------------------------------------- */

#define DC_OUT_BUF (1u << 16)

struct dc_out {
	FILE *f;
	size_t len;
	int err;        /* sticky: -EIO when a write failed, -EFBIG over limit */
	uint64_t total; /* bytes flushed so far */
	uint64_t limit; /* output budget (anonymous types nest exponentially) */
	char buf[DC_OUT_BUF];
};

void dci_flush(struct dc_out *o);
void dci_write(struct dc_out *o, const char *s, size_t n);

static inline void dci_putc(struct dc_out *o, char c)
{
	if (o->len == DC_OUT_BUF)
		dci_flush(o);
	o->buf[o->len++] = c;
}
static inline void dci_puts(struct dc_out *o, const char *s)
{
	dci_write(o, s, __builtin_strlen(s));
}
void dci_put_u64(struct dc_out *o, uint64_t v);
void dci_put_i64(struct dc_out *o, int64_t v);
/* lvl tabs, capped like the reference (at most 13) */
void dci_indent(struct dc_out *o, int lvl);

/* ---- names ------------------------------------------------------------- */

/* string -> occurrences; keys point into the BTF string data (no copies).
 * One slot holds key, hash and count: one cache line touch per probe. */
struct dc_name {
	const char *key;
	uint32_t count;
};
struct dc_names {
	struct lbtfi_htab tab;  /* name hash -> index into ent */
	struct dc_name *ent;
	size_t cnt, cap;
};

/* Counts one more occurrence of name; returns the new count (>= 1), 0 on ENOMEM. */
uint32_t dci_names_bump(struct dc_names *n, const char *name);
void dci_names_free(struct dc_names *n);
/* Sizes the table for about expected names up front (0 or -ENOMEM). */
int dci_names_reserve(struct dc_names *n, uint32_t expected);

/* ---- per-type state ---------------------------------------------------- */

enum { DC_UNORDERED, DC_ORDERING, DC_ORDERED };
enum { DC_NOT_EMITTED, DC_EMITTING, DC_EMITTED };

struct dc_tstate {
	uint8_t order : 2;
	uint8_t emit : 2;
	uint8_t fwd_emitted : 1;
	uint8_t name_resolved : 1;
	uint8_t referenced : 1;
};

#define DC_MAX_DEPTH 1024 /* recursion bound: hostile BTF must not blow the stack */

/* A growable array of type ids (dci_push_id) */
struct dc_ids {
	uint32_t *ids;
	size_t cnt, cap;
};

struct dc {
	const struct lbtf *btf;
	uint32_t nr_types; /* valid ids are < nr_types */
	int ptr_sz;
	bool attr_type_tags; /* kflag TYPE_TAG as __attribute__((NAME)) */
	int err;           /* first error (negative errno), sticky */
	uint64_t steps;    /* order/emit visits so far, against step_limit */
	uint64_t step_limit;
	struct dc_tstate *st;
	uint32_t *suffix;  /* ___N suffix of a resolved name, 0 for none */
	int8_t *align;     /* cached natural alignment, 0 = not computed yet */
	struct dc_ids queue; /* topologically ordered ids of one root */
	struct dc_ids stack; /* shared declarator stack, one frame per nesting */
	struct dc_names type_names;  /* struct/union/enum/fwd/int tags */
	struct dc_names ident_names; /* typedefs and enumerators */
	struct dc_out out;
};

static inline const struct lbtf_type *dci_type(const struct dc *d, uint32_t id)
{
	return lbtf_type_by_id(d->btf, id); /* ids were validated up front */
}
static inline const char *dci_str(const struct dc *d, uint32_t off)
{
	return lbtf_name_by_offset(d->btf, off); /* offsets validated up front */
}
/* Records the first error; returns it. */
int dci_fail(struct dc *d, int err, const char *what, uint32_t id);
/* Appends id to a (the capacity doubles, from first_cap); out of memory
 * fails the dump with what. */
int dci_push_id(struct dc *d, struct dc_ids *a, size_t first_cap, uint32_t id, const char *what);

/* Names as printed: original name, plus ___N when it clashed. */
#define DC_NAME_MAX 256
const char *dci_type_name(struct dc *d, uint32_t id, char buf[DC_NAME_MAX]);
const char *dci_ident_name(struct dc *d, uint32_t id, char buf[DC_NAME_MAX]);
void dci_put_type_name(struct dc *d, uint32_t id);  /* tag namespace */
void dci_put_ident_name(struct dc *d, uint32_t id); /* typedef namespace */

/* ---- per-kind operations (kinds.c) ------------------------------------ */

struct dc_frame; /* decl.c: one declarator chain on the shared stack */

/* How a declarator chain continues past a kind */
enum { DC_NEXT_END, DC_NEXT_TYPE, DC_NEXT_ELEM, DC_NEXT_BAD };
/* Where a kind's natural alignment comes from */
enum { DC_AL_NONE, DC_AL_SIZE, DC_AL_PTR, DC_AL_TYPE, DC_AL_ELEM, DC_AL_MEMBERS };
/* The type ids ordering visits below a kind, and how */
enum { DC_CH_NONE, DC_CH_TYPE, DC_CH_ELEM, DC_CH_MEMBERS, DC_CH_PROTO };

/* Prints the kind's part of a declarator, popped off frame f; true when it
 * wrote the rest of the declarator itself (arrays, function protos). */
typedef bool (*dc_decl_fn)(struct dc *d, struct dc_frame *f, uint32_t id,
			   const struct lbtf_type *t, const char *fname, int lvl, bool last_was_ptr);
/* Emits what a top-level definition of id needs, then id itself. */
typedef void (*dc_top_fn)(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
			  int depth);

/* What the C dumper does with one BTF kind; a zero field: nothing. */
struct dc_kind_ops {
	uint8_t next;      /* DC_NEXT_*: declarator chain */
	uint8_t align;     /* DC_AL_*: natural alignment */
	uint8_t children;  /* DC_CH_*: ordering */
	int8_t sort_rank;  /* --sort rank of a named type (0: after the ranked) */
	const char *qual;  /* C keyword of a qualifier */
	dc_decl_fn decl;   /* declarator part (FUNC, VAR, DATASEC, DECL_TAG: none) */
	dc_top_fn top;     /* top-level emission */
};

extern const struct dc_kind_ops dci_kind_ops[LBTF_NR_KINDS];

static inline const struct dc_kind_ops *dci_ops(const struct lbtf_type *t)
{
	return &dci_kind_ops[lbtf_kind(t)];
}

bool dci_decl_base(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		   const char *fname, int lvl, bool last_was_ptr);
bool dci_decl_composite(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
			const char *fname, int lvl, bool last_was_ptr);
bool dci_decl_enum(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		   const char *fname, int lvl, bool last_was_ptr);
bool dci_decl_fwd(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		  const char *fname, int lvl, bool last_was_ptr);
bool dci_decl_typedef(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		      const char *fname, int lvl, bool last_was_ptr);
bool dci_decl_ptr(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		  const char *fname, int lvl, bool last_was_ptr);
bool dci_decl_qual(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		   const char *fname, int lvl, bool last_was_ptr);
bool dci_decl_type_tag(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		       const char *fname, int lvl, bool last_was_ptr);
bool dci_decl_array(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		    const char *fname, int lvl, bool last_was_ptr);
bool dci_decl_proto(struct dc *d, struct dc_frame *f, uint32_t id, const struct lbtf_type *t,
		    const char *fname, int lvl, bool last_was_ptr);

void dci_top_int(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id, int depth);
void dci_top_enum(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id, int depth);
void dci_top_through(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		     int depth);
void dci_top_array(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id, int depth);
void dci_top_fwd(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id, int depth);
void dci_top_typedef(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		     int depth);
void dci_top_composite(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		       int depth);
void dci_top_proto(struct dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id, int depth);

/* order.c */
/* Emits id (and what it needs first) unless done; cont_id: the definition
 * being printed around it. */
void dci_top_emit(struct dc *d, uint32_t id, uint32_t cont_id, int depth);
void dci_mark_referenced(struct dc *d);
/* Orders root and everything it needs (dry run: nothing printed). */
int dci_order_root(struct dc *d, uint32_t id);
/* Orders root and everything it needs, then emits them. */
int dci_dump_root(struct dc *d, uint32_t id);

/* decl.c: `<type> <fname>` in C declarator syntax */
void dci_emit_decl(struct dc *d, uint32_t id, const char *fname, int lvl);

/* layout.c */
int dci_align_of(struct dc *d, uint32_t id);
void dci_emit_struct_fwd(struct dc *d, uint32_t id, const struct lbtf_type *t);
void dci_emit_struct_def(struct dc *d, uint32_t id, const struct lbtf_type *t, int lvl);
void dci_emit_enum_fwd(struct dc *d, uint32_t id);
void dci_emit_enum_def(struct dc *d, uint32_t id, const struct lbtf_type *t, int lvl);
void dci_emit_fwd_def(struct dc *d, uint32_t id, const struct lbtf_type *t);
void dci_emit_typedef_def(struct dc *d, uint32_t id, const struct lbtf_type *t, int lvl);
void dci_emit_base_aliases(struct dc *d, uint32_t id);

/* kfuncs.c: optional kfunc prototypes and their macros */
void dci_put_kfunc_macros(struct dc *d);
int dci_put_kfuncs(struct dc *d);

/* sort.c: ids 1..nr_types-1 in the diffable order (malloc'ed) */
uint32_t *dci_sorted_ids(struct dc *d, uint32_t *cnt);

#endif
