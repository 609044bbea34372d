/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private state of the C header dumper, shared by its modules:
 *   dump_c.c        entry point, frame, root selection
 *   order.c  topological ordering (strong/weak links) and emission
 *                   of top-level definitions and forward declarations
 *   decl.c   C declarators (pointer/array/function nesting, modifiers)
 *   jobs.c   the explicit stack nested declarations are printed on
 *   layout.c struct/union bodies, padding, packing, enums, alignment
 *   names.c  name clash counting (___N suffixes)
 *   out.c    buffered output to the FILE*
 *   sort.c   the diffable (--sort) order
 *   kfuncs.c optional kfunc prototypes
 *   kinds.c  the per-kind operations (lbtfi_dc_kind_ops) the others dispatch on
 */
#ifndef LIBBTF_DUMP_C_INTERNAL_H
#define LIBBTF_DUMP_C_INTERNAL_H

#include "core/internal.h"
#include "util/grow.h"
#include "util/htab.h"

/* ---- buffered output --------------------------------------------------- */

#define DC_OUT_BUF (1u << 16)

struct lbtfi_dc_out {
	FILE *f;
	size_t len;
	int err;        /* sticky: -EIO when a write failed, -EFBIG over limit */
	uint64_t total; /* bytes flushed so far */
	uint64_t limit; /* output budget (anonymous types nest exponentially) */
	char buf[DC_OUT_BUF];
};

void lbtfi_dc_flush(struct lbtfi_dc_out *o);
/* lbtfi_dc_write() of what does not fit in the buffer */
void lbtfi_dc_write_split(struct lbtfi_dc_out *o, const char *s, size_t n);

/* (inline: 3 MB of output come in a million small pieces) */
static inline void lbtfi_dc_write(struct lbtfi_dc_out *o, const char *s, size_t n)
{
	if (__builtin_expect(n <= DC_OUT_BUF - o->len, 1)) {
		__builtin_memcpy(o->buf + o->len, s, n);
		o->len += n;
		if (o->len == DC_OUT_BUF)
			lbtfi_dc_flush(o);
		return;
	}
	lbtfi_dc_write_split(o, s, n);
}

static inline void lbtfi_dc_putc(struct lbtfi_dc_out *o, char c)
{
	if (o->len == DC_OUT_BUF)
		lbtfi_dc_flush(o);
	o->buf[o->len++] = c;
}
static inline void lbtfi_dc_puts(struct lbtfi_dc_out *o, const char *s)
{
	lbtfi_dc_write(o, s, __builtin_strlen(s));
}
void lbtfi_dc_put_u64(struct lbtfi_dc_out *o, uint64_t v);
void lbtfi_dc_put_i64(struct lbtfi_dc_out *o, int64_t v);
/* lvl tabs, capped like the reference (at most 13) */
/* lvl tabs (13 at most): one 16-byte store of tabs when the buffer has
 * room for it (the bytes past lvl are written over next), as members and
 * enumerators each start a line with it */
static inline void lbtfi_dc_indent(struct lbtfi_dc_out *o, int lvl)
{
	static const char tabs[16] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";

	if (lvl > 13)
		lvl = 13;
	if (lvl <= 0)
		return;
	if (__builtin_expect(DC_OUT_BUF - o->len >= sizeof(tabs), 1)) {
		__builtin_memcpy(o->buf + o->len, tabs, sizeof(tabs));
		o->len += (size_t)lvl;
		return;
	}
	lbtfi_dc_write(o, tabs, (size_t)lvl);
}

/* ---- names ------------------------------------------------------------- */

struct lbtfi_dc;

/* name -> occurrences; a name is a string offset of the BTF (no copies).
 * 8-byte entries, the table 3/4 full at most: the counting is a cache
 * miss or two per name, and a vmlinux has 40,000 names to count. */
struct lbtfi_dc_name {
	uint32_t off;
	uint32_t count;
};
struct lbtfi_dc_names {
	struct lbtfi_htab tab;  /* name hash -> index into ent */
	struct lbtfi_dc_name *ent;
	size_t cnt, cap;
	bool ent_lent;          /* ent is room in the arena, not its own block */
};

/* Counts one more occurrence of the name at string offset off; returns
 * the new count (>= 1), 0 on ENOMEM. */
uint32_t lbtfi_dc_names_bump(const struct lbtfi_dc *d, struct lbtfi_dc_names *n, uint32_t off);
void lbtfi_dc_names_free(struct lbtfi_dc_names *n);
/* Sizes the table for about expected names up front, their entries in
 * room (expected of them) when given: 0 or -ENOMEM. */
int lbtfi_dc_names_reserve(struct lbtfi_dc_names *n, uint32_t expected, struct lbtfi_dc_name *room);

/* ---- per-type state ---------------------------------------------------- */

enum { DC_UNORDERED, DC_ORDERING, DC_ORDERED };
enum { DC_NOT_EMITTED, DC_EMITTING, DC_EMITTED };

struct lbtfi_dc_tstate {
	uint8_t order : 2;
	uint8_t emit : 2;
	uint8_t fwd_emitted : 1;
	uint8_t name_resolved : 1;
	uint8_t referenced : 1;
	uint8_t renamed : 1; /* printed with a ___N suffix (d->renames) */
};

/* A growable array of type ids (lbtfi_dc_push_id) */
struct lbtfi_dc_ids {
	uint32_t *ids;
	size_t cnt, cap;
};

/* ---- the printing stack (jobs.c) ---------------------------------------
 *
 * Declarations nest: an anonymous struct is defined inside the declarator
 * of the member that has it, inside its container's body, as deep as the
 * BTF goes (the kernel loads 30,000 nested anonymous structs), and so do
 * declarators (arrays of arrays, function pointers' parameters). Nothing
 * of that recurses on the machine stack: printing runs on a stack of jobs.
 * A job that reaches a nested part pushes itself back with its state, then
 * the part, and the part runs to its end first.
 */
enum { DC_JOB_CHAIN, DC_JOB_BODY, DC_JOB_PARAMS, DC_JOB_ARRAY, DC_JOB_CHAR, DC_JOB_FREE };

/* A declarator being printed (decl.c): its ids are slots [start, start +
 * cnt) of d->stack still to pop, base type last pushed... first popped */
struct lbtfi_dc_chain {
	size_t start, cnt;
	const char *fname;
	int lvl;
	bool last_was_ptr; /* the previous element printed was a pointer */
};

/* A struct/union body (layout.c) */
struct lbtfi_dc_body {
	uint32_t id;
	uint32_t i;        /* members started */
	int lvl;
	bool started;      /* the head ("struct {") is out */
	bool open;         /* member i - 1's declarator is out, its end is not */
	bool packed, prev_bitfield;
	int64_t off;       /* bits laid out so far */
};

struct lbtfi_dc_job {
	uint8_t kind; /* DC_JOB_* */
	union {
		struct lbtfi_dc_chain chain;
		struct lbtfi_dc_body body;
		struct {
			uint32_t id, i; /* a FUNC_PROTO, its parameters started */
			int lvl;
			bool started;   /* "(" is out */
		} params;
		struct {
			uint32_t id;    /* the ARRAY: "[N]" to print */
			bool paren;     /* ")" first */
		} array;
		char c;                 /* DC_JOB_CHAR */
		size_t free_to;         /* DC_JOB_FREE: d->stack back to this */
	};
};

struct lbtfi_dc_jobs {
	struct lbtfi_dc_job *v;
	size_t cnt, cap;
};

/* A frame of the explicit stacks of lbtfi_dc_top_emit (order.c) and
 * lbtfi_dc_align_of (layout.c) */
struct lbtfi_dc_walk {
	const struct lbtf_type *t; /* top: id's type */
	uint32_t id;
	uint32_t cont_id;  /* top: the definition around it; align: unused */
	uint32_t child_cont; /* top: the container its children get */
	uint32_t next;     /* next child to visit */
	int max;           /* align: largest member alignment so far */
};

/* A frame of the ordering walk (order.c) */
struct ord_frame {
	const struct lbtf_type *t;
	uint32_t id;
	uint32_t next;     /* next child to visit */
	uint8_t kind;
	uint8_t ch;        /* DC_CH_* of its kind */
	bool through_ptr;
	bool kids_ptr;     /* its children are seen through a pointer */
	int strong;
};

struct lbtfi_dc_ords {
	struct ord_frame *v;
	size_t cnt, cap;
};

struct lbtfi_dc_walks {
	struct lbtfi_dc_walk *v;
	size_t cnt, cap;
};

struct lbtfi_dc {
	const struct lbtf *btf;
	/* the object's own types and strings, for the lookups below (a
	 * million of them in a vmlinux.h: one load fewer each) */
	const unsigned char *types;
	const uint32_t *type_offs;
	const char *strs;
	uint32_t start_id, own_types, start_str_off, str_len;
	uint32_t nr_types; /* valid ids are < nr_types */
	int ptr_sz;
	bool attr_type_tags; /* kflag TYPE_TAG as __attribute__((NAME)) */
	int err;           /* first error (negative errno), sticky */
	uint64_t steps;    /* order/emit visits so far, against step_limit */
	uint64_t step_limit;
	struct lbtfi_dc_tstate *st;
	int8_t *align;     /* cached natural alignment, 0 = not computed yet */
	struct lbtfi_dc_ids queue; /* topologically ordered ids of all roots (at
			      * most one entry a type: sized once) */
	struct lbtfi_dc_ids stack; /* shared declarator stack, one frame per nesting */
	struct lbtfi_dc_jobs jobs; /* the printing stack (jobs.c) */
	struct lbtfi_dc_ords ords;  /* the ordering walk's stack */
	struct lbtfi_dc_walks tops; /* lbtfi_dc_top_emit's stack */
	struct lbtfi_dc_walks aligns; /* lbtfi_dc_align_of's stack */
	struct lbtfi_dc_names type_names;  /* struct/union/enum/fwd/int tags */
	struct lbtfi_dc_names ident_names; /* typedefs and enumerators */
	struct lbtfi_htab renames;   /* id -> N of a type printed as name___N */
	/* the arrays sized up front, in one block: per-type state, queue,
	 * name entries, sort keys (see lbtf_dump_c()) */
	char *arena;
	size_t arena_len, arena_used;
	struct lbtfi_dc_out out;
};

/* Ids and offsets were validated up front. The object's own types and
 * strings are read in place (the dumper's most frequent operation); void
 * and a split BTF's base go through the library's lookups. */
static inline const struct lbtf_type *lbtfi_dc_type(const struct lbtfi_dc *d, uint32_t id)
{
	uint32_t i = id - d->start_id;

	if (__builtin_expect(i < d->own_types, 1)) /* start_id >= 1: never void */
		return (const struct lbtf_type *)(d->types + d->type_offs[i]);
	return lbtf_type_by_id(d->btf, id);
}
static inline const char *lbtfi_dc_str(const struct lbtfi_dc *d, uint32_t off)
{
	uint32_t o = off - d->start_str_off;

	if (__builtin_expect(o < d->str_len, 1))
		return d->strs + o;
	return lbtf_name_by_offset(d->btf, off);
}
/*
 * 8 bytes of the name at string offset off from its byte pos (pos at most
 * its length) as an integer, the first byte the most significant, zeros
 * from the name's end on: comparing two is comparing the names' bytes as
 * strcmp() does. *ended: the name ends inside them. One load where 8
 * bytes of the object's own strings are left, else byte by byte (never
 * past the end): the same integer either way. (Sort keys and name hashes
 * take names 8 bytes a step with it.)
 */
static inline uint64_t lbtfi_dc_name_chunk(const struct lbtfi_dc *d, uint32_t off, size_t pos,
					   bool *ended)
{
	const char *p = lbtfi_dc_str(d, off) + pos;
	uint32_t o = off - d->start_str_off;
	uint64_t w = 0;
	int i = 0;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	if (o < d->str_len && d->str_len - o - pos >= 8) {
		uint64_t zero;

		__builtin_memcpy(&w, p, 8);
		/* the lowest flag is the first zero byte's: cut there */
		zero = (w - 0x0101010101010101ull) & ~w & 0x8080808080808080ull;
		if (zero)
			w &= ((zero & -zero) >> 7) - 1;
		*ended = zero != 0;
		return __builtin_bswap64(w);
	}
#endif
	for (; i < 8 && p[i]; i++)
		w |= (uint64_t)(unsigned char)p[i] << (56 - 8 * i);
	*ended = i < 8;
	return w;
}

/* Records the first error; returns it. */
int lbtfi_dc_fail(struct lbtfi_dc *d, int err, const char *what, uint32_t id);
/* The next bytes of the arena (aligned to 8), NULL when it has no room */
void *lbtfi_dc_arena(struct lbtfi_dc *d, size_t bytes);
/* Appends id to a (the capacity doubles, from first_cap); out of memory
 * fails the dump with what. */
int lbtfi_dc_push_id_grow(struct lbtfi_dc *d, struct lbtfi_dc_ids *a, size_t first_cap, uint32_t id,
		     const char *what);
static inline int lbtfi_dc_push_id(struct lbtfi_dc *d, struct lbtfi_dc_ids *a, size_t first_cap, uint32_t id,
			      const char *what)
{
	if (__builtin_expect(a->cnt < a->cap, 1)) {
		a->ids[a->cnt++] = id;
		return 0;
	}
	return lbtfi_dc_push_id_grow(d, a, first_cap, id, what);
}

/* Names as printed: original name, plus ___N when it clashed. */
#define DC_NAME_MAX 256
const char *lbtfi_dc_type_name(struct lbtfi_dc *d, uint32_t id, char buf[DC_NAME_MAX]);
const char *lbtfi_dc_ident_name(struct lbtfi_dc *d, uint32_t id, char buf[DC_NAME_MAX]);
void lbtfi_dc_put_type_name(struct lbtfi_dc *d, uint32_t id);  /* tag namespace */
void lbtfi_dc_put_ident_name(struct lbtfi_dc *d, uint32_t id); /* typedef namespace */

/* ---- per-kind operations (kinds.c) ------------------------------------ */

/* How a declarator chain continues past a kind */
enum { DC_NEXT_END, DC_NEXT_TYPE, DC_NEXT_ELEM, DC_NEXT_BAD };
/* Where a kind's natural alignment comes from */
enum { DC_AL_NONE, DC_AL_SIZE, DC_AL_PTR, DC_AL_TYPE, DC_AL_ELEM, DC_AL_MEMBERS };
/* The type ids ordering and top-level emission visit below a kind */
enum { DC_CH_NONE, DC_CH_TYPE, DC_CH_ELEM, DC_CH_MEMBERS, DC_CH_PROTO };

/* Prints the kind's part of declarator c, just popped; true when the chain
 * ends there (the part printed the rest, or pushed the jobs that will). */
typedef bool (*lbtfi_dc_decl_fn)(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id,
			   const struct lbtf_type *t);
/* Top-level emission of id (order.c): enter() on the first visit, true
 * when the kind's children (.children) are emitted next, each with
 * *child_cont as the definition around it; leave() after them. */
typedef bool (*lbtfi_dc_top_enter_fn)(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t,
				uint32_t cont_id, uint32_t *child_cont);
typedef void (*lbtfi_dc_top_leave_fn)(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t,
				uint32_t cont_id);

/* What the C dumper does with one BTF kind; a zero field: nothing. */
struct lbtfi_dc_kind_ops {
	uint8_t next;      /* DC_NEXT_*: declarator chain */
	uint8_t align;     /* DC_AL_*: natural alignment */
	uint8_t children;  /* DC_CH_*: ordering, top-level emission */
	int8_t sort_rank;  /* --sort rank of a named type (0: after the ranked) */
	const char *qual;  /* C keyword of a qualifier */
	lbtfi_dc_decl_fn decl;   /* declarator part (FUNC, VAR, DATASEC, DECL_TAG: none) */
	lbtfi_dc_top_enter_fn top;      /* top-level emission */
	lbtfi_dc_top_leave_fn top_leave;
};

extern const struct lbtfi_dc_kind_ops lbtfi_dc_kind_ops[LBTF_NR_KINDS];

static inline const struct lbtfi_dc_kind_ops *lbtfi_dc_ops(const struct lbtf_type *t)
{
	return &lbtfi_dc_kind_ops[lbtf_kind(t)];
}


bool lbtfi_dc_decl_base(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t);
bool lbtfi_dc_decl_composite(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t);
bool lbtfi_dc_decl_enum(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t);
bool lbtfi_dc_decl_fwd(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t);
bool lbtfi_dc_decl_typedef(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t);
bool lbtfi_dc_decl_ptr(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t);
bool lbtfi_dc_decl_qual(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t);
bool lbtfi_dc_decl_type_tag(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t);
bool lbtfi_dc_decl_array(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t);
bool lbtfi_dc_decl_proto(struct lbtfi_dc *d, struct lbtfi_dc_chain *c, uint32_t id, const struct lbtf_type *t);

bool lbtfi_dc_top_int(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		 uint32_t *child_cont);
bool lbtfi_dc_top_enum(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		  uint32_t *child_cont);
bool lbtfi_dc_top_fwd(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		 uint32_t *child_cont);
/* pointers, modifiers, arrays, function protos: what they lead to */
bool lbtfi_dc_top_through(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		     uint32_t *child_cont);
bool lbtfi_dc_top_typedef(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		     uint32_t *child_cont);
void lbtfi_dc_top_typedef_leave(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id);
bool lbtfi_dc_top_composite(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, uint32_t cont_id,
		       uint32_t *child_cont);
void lbtfi_dc_top_composite_leave(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t,
			     uint32_t cont_id);

/* jobs.c */
/* Pushes a job (0, or the error after lbtfi_dc_fail: out of memory) */
int lbtfi_dc_push_job(struct lbtfi_dc *d, const struct lbtfi_dc_job *j);
/* Runs the jobs above base (and every job they push) to their end, or
 * drops them at the first error */
void lbtfi_dc_run_jobs(struct lbtfi_dc *d, size_t base);
/* A job's step (decl.c, layout.c); j is popped, a copy it may push back */
void lbtfi_dc_step_chain(struct lbtfi_dc *d, struct lbtfi_dc_chain *c);
void lbtfi_dc_step_params(struct lbtfi_dc *d, struct lbtfi_dc_job *j);
void lbtfi_dc_step_array(struct lbtfi_dc *d, struct lbtfi_dc_job *j);
void lbtfi_dc_step_body(struct lbtfi_dc *d, struct lbtfi_dc_job *j);
/* decl.c: pushes the jobs that print `<type of id> <fname>` */
void lbtfi_dc_push_decl(struct lbtfi_dc *d, uint32_t id, const char *fname, int lvl);
/* decl.c: prints `<type of id> <fname>` at once when it has no nested
 * parts (most declarators: no jobs); false when it has (nothing printed:
 * lbtfi_dc_push_decl() then) */
bool lbtfi_dc_decl_now(struct lbtfi_dc *d, uint32_t id, const char *fname, int lvl);

/* order.c */
/* Emits id (and what it needs first) unless done, at top level. */
void lbtfi_dc_top_emit(struct lbtfi_dc *d, uint32_t id);
/* Orders the roots ids[0, cnt) (NULL: ids 1..cnt) in turn and everything
 * each needs not ordered yet: appends what is to be emitted to d->queue
 * (nothing printed); 0 or the first error. */
int lbtfi_dc_order_roots(struct lbtfi_dc *d, const uint32_t *ids, size_t cnt);
/* Emits the queued definitions in order. */
void lbtfi_dc_emit_queue(struct lbtfi_dc *d);

/* decl.c: `<type> <fname>` in C declarator syntax */
void lbtfi_dc_emit_decl(struct lbtfi_dc *d, uint32_t id, const char *fname, int lvl);

/* layout.c: natural alignment (cached; computed by lbtfi_dc_align_walk()) */
int lbtfi_dc_align_walk(struct lbtfi_dc *d, uint32_t id);
static inline int lbtfi_dc_align_of(struct lbtfi_dc *d, uint32_t id)
{
	int a = d->align[id];

	return a > 0 ? a : lbtfi_dc_align_walk(d, id);
}
void lbtfi_dc_emit_struct_fwd(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t);
void lbtfi_dc_emit_struct_def(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, int lvl);
void lbtfi_dc_emit_enum_fwd(struct lbtfi_dc *d, uint32_t id);
void lbtfi_dc_emit_enum_def(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, int lvl);
void lbtfi_dc_emit_fwd_def(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t);
void lbtfi_dc_emit_typedef_def(struct lbtfi_dc *d, uint32_t id, const struct lbtf_type *t, int lvl);
void lbtfi_dc_emit_base_aliases(struct lbtfi_dc *d, uint32_t id);

/* kfuncs.c: optional kfunc prototypes and their macros */
void lbtfi_dc_put_kfunc_macros(struct lbtfi_dc *d);
int lbtfi_dc_put_kfuncs(struct lbtfi_dc *d);

/* Whether the sort orders t (a root). FUNC, VAR, DATASEC and DECL_TAG
 * roots print nothing and order nothing (their types come out through
 * other roots, as in bpftool), so where they sort does not matter: they
 * are left out (45% of a vmlinux's types are FUNCs). */
static inline bool lbtfi_dc_sorts(const struct lbtf_type *t)
{
	unsigned int kind = lbtf_kind(t);

	return kind != LBTF_KIND_FUNC && kind != LBTF_KIND_VAR && kind != LBTF_KIND_DATASEC &&
	       kind != LBTF_KIND_DECL_TAG;
}
/* sort.c: the arena bytes the sort of kept types needs; their ids in the
 * diffable order (at the start of the sort's room in the arena), NULL
 * when it has no room */
size_t lbtfi_dc_sort_bytes(uint32_t kept);
uint32_t *lbtfi_dc_sorted_ids(struct lbtfi_dc *d, uint32_t kept, uint32_t *cnt);

#endif
