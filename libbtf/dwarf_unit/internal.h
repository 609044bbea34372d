/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One unit's DIEs converted into a builder (libbtf/dwarf_unit), not
 * installed: the converters per DWARF tag, the DIE map, and the reuse of
 * types converted in earlier units of a group (sig.c, reuse.c). The driver
 * (libbtf/dwarf) runs it over groups of units on its threads; pahole's
 * function rules (libbtf/dwarf_funcs) plug into its walk through
 * dw_global.subprogram.
 */
#ifndef LIBBTF_DWARF_UNIT_INTERNAL_H
#define LIBBTF_DWARF_UNIT_INTERNAL_H

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdint.h>
#include "equiv/internal.h"
#include "dwarf_file/internal.h"
#include "dwarf_reader/internal.h"

#ifndef DW_TAG_LLVM_annotation
#define DW_TAG_LLVM_annotation 0x6000 /* clang's btf_type_tag / btf_decl_tag */
#endif

/* Word index of type-id slots inside builder records, for fixups */
#define W_TYPE 2                      /* size/type union */
#define W_ARRAY_ELEM 3                /* struct lbtf_array.type */
#define W_MEMBER(i) (3 + 3 * (i) + 1) /* struct lbtf_member.type */
#define W_PARAM(i) (3 + 2 * (i) + 1)  /* struct lbtf_param.type */

/* ---- DIE offset -> BTF id map (diemap.c) --------------------------- */

#define DW_ID_IN_PROGRESS UINT32_MAX

struct dw_diemap_slot {
	uint64_t key;
	uint32_t val;
	uint32_t gen;    /* the map's gen: in use; else empty */
};

struct dw_diemap {
	struct dw_diemap_slot *slots;
	uint32_t mask, cnt;
	uint32_t gen;    /* never 0 (a fresh slot's) */
};
int dw_diemap_init(struct dw_diemap *m);
void dw_diemap_clear(struct dw_diemap *m);
void dw_diemap_free(struct dw_diemap *m);
static inline uint32_t dw_diemap_slot_of(uint64_t key, uint32_t mask)
{
	key ^= key >> 29;
	key *= 0xbf58476d1ce4e5b9ull;
	key ^= key >> 32;
	return (uint32_t)key & mask;
}

/* Pointer to the value of key or NULL (inline: a lookup per reference) */
static inline uint32_t *dw_diemap_get(const struct dw_diemap *m, uint64_t key)
{
	struct dw_diemap_slot *e;
	uint32_t h;

	for (h = dw_diemap_slot_of(key, m->mask); (e = &m->slots[h])->gen == m->gen;
	     h = (h + 1) & m->mask)
		if (e->key == key)
			return &e->val;
	return NULL;
}

int dw_diemap_put(struct dw_diemap *m, uint64_t key, uint32_t val);

/*
 * What a unit knows of each DIE it met, by key (diemap.c): its BTF id, its
 * signature, what a reference to it led the signatures to. One table for
 * the three, so that a DIE costs one cache miss where it cost one per map.
 * Cleared with the unit (the signatures' arrays are cleared with it).
 */
#define DW_NONE (UINT32_MAX - 1) /* a field not known (yet) */

struct dw_die_slot {
	uint64_t key;
	uint32_t id;     /* BTF id, DW_ID_IN_PROGRESS or DW_NONE */
	uint32_t sig;    /* index in dw_sigs.sig, or DW_NONE */
	uint32_t ref;    /* a reference to the DIE in a signature: an entry as
			  * on dw_sigs.stack, or DW_NONE */
	uint32_t gen;    /* the table's gen: in use; else empty */
};

struct dw_dies {
	struct dw_die_slot *slots;
	uint32_t mask, cnt;
	uint32_t gen;    /* never 0 (a fresh slot's) */
	bool hashed;     /* slots by a hash of the key, not by its offset */
};
int dw_dies_init(struct dw_dies *m);
void dw_dies_clear(struct dw_dies *m);
void dw_dies_free(struct dw_dies *m);
int dw_dies_grow(struct dw_dies *m);
struct dw_die_slot *dw_dies_add_hashed(struct dw_dies *m, uint64_t key);

/*
 * Where a probe for key starts. By its offset: DIEs near each other in the
 * file, often met together, are near each other in the table, and a
 * unit's DIEs, a few bytes apart each, seldom collide. A table where that
 * makes a long run of slots (tiny DIEs, several units' keys on the same
 * slots) is hashed for the rest of the unit.
 */
#define DW_DIES_MAX_RUN 256

static inline uint32_t dw_dies_slot_of(const struct dw_dies *m, uint64_t key)
{
	if (m->hashed)
		return dw_diemap_slot_of(key, m->mask);
	return (uint32_t)((key >> 2) ^ (key >> 60)) & m->mask;
}

/* The slot of key, or NULL */
static inline struct dw_die_slot *dw_dies_get(const struct dw_dies *m, uint64_t key)
{
	struct dw_die_slot *e;
	uint32_t h;

	for (h = dw_dies_slot_of(m, key); (e = &m->slots[h])->gen == m->gen;
	     h = (h + 1) & m->mask)
		if (e->key == key)
			return e;
	return NULL;
}

/* The slot of key, made (every field DW_NONE) if there is none; NULL when
 * out of memory (error set). Any add may move every slot. */
static inline struct dw_die_slot *dw_dies_add(struct dw_dies *m, uint64_t key)
{
	struct dw_die_slot *e;
	uint32_t h, run = 0;

	if ((m->cnt + 1) * 2 > m->mask + 1 && dw_dies_grow(m))
		return NULL;
	for (h = dw_dies_slot_of(m, key); (e = &m->slots[h])->gen == m->gen;
	     h = (h + 1) & m->mask) {
		if (e->key == key)
			return e;
		if (++run == DW_DIES_MAX_RUN && !m->hashed)
			return dw_dies_add_hashed(m, key);
	}
	*e = (struct dw_die_slot){ key, DW_NONE, DW_NONE, DW_NONE, m->gen };
	m->cnt++;
	return e;
}

/* ---- per-unit conversion (types.c, decls.c) ------------------ */

/* A reference that pointed at a type still being built (a cycle through a
 * struct/union); patched when the unit is finished. */
struct dw_fixup {
	uint32_t id;      /* type whose record holds the slot */
	uint32_t word;    /* 32-bit word index of the slot in that record */
	uint64_t key;     /* DIE key of the referenced type */
};

/* A VAR placed in a section, to become a DATASEC entry (enum dw_extern:
 * dwarf_file/internal.h). */

struct dw_var {
	uint32_t id;      /* VAR (or extern FUNC) id in the unit's builder, later in the result */
	uint32_t sym;     /* index into dw_elf_info.syms */
	uint32_t size;    /* bytes */
	uint32_t ext;     /* enum dw_extern */
	const char *sec;  /* DW_EXT_SEC: the DATASEC's name (static or the input's .BTF) */
};

/* Warnings are collected as bits, reported once each at the end. */
enum dw_warning {
	DW_WARN_CXX_REFERENCE,
	DW_WARN_PTR_TO_MEMBER,
	DW_WARN_INHERITANCE,
	DW_WARN_TEMPLATE,
	DW_WARN_VARIANT_PART,
	DW_WARN_NAMESPACE,
	DW_WARN_OTHER_TAG,
	DW_WARN_ODD_INT,
	DW_WARN_COMPLEX_FLOAT,
	DW_WARN_BITFIELD_RANGE,
	DW_WARN_UNNAMED_PARAM,
	DW_WARN_LANG_CXX,
	DW_WARN_LANG_RUST,
	DW_WARN_LANG_OTHER,
	DW_WARN_BAD_NAME,
	DW_WARN_MEMBER_RANGE,
	DW_WARN_VAR_FUNC,
	DW_WARN_ARRAY_VOID,
	DW_WARN_NR,
};

/* ---- reuse of types converted in earlier units (sig.c, reuse.c) */

/* A reference to a named struct, union or enum inside a signature (hashed
 * by name: these are the types dedup matches with their declarations) */
struct dw_edge {
	struct dw_die die;      /* the struct/union DIE (after DW_AT_signature) */
	uint64_t key;           /* its key */
	const char *name;
	uint64_t name_id;       /* what the hash took: address or bytes' hash */
	uint32_t name_off;      /* in the group's builder: 0 not looked up yet,
				 * UINT32_MAX not there (the name of a type of
				 * an earlier unit: found or not for the unit) */
	uint8_t flavor;         /* enum lbtfi_flavor (equiv/internal.h) */
	bool is_def;            /* a definition, not a declaration */
	bool name_inline;       /* DW_FORM_string */
};

/* The structural signature of a type DIE (see sig.c) */
struct dw_sig {
	uint64_t a, b;
	uint32_t edges, nedges; /* range in dw_sigs.edge */
	uint8_t state;
};


/* A unit's signatures, memoised by DIE key (dw_die_slot.sig) */
struct dw_sigs {
	struct dw_sig *sig;
	uint32_t n, cap;
	uint32_t *edge;         /* the signatures' edges: indices in named */
	uint32_t nedge, capedge;
	/* what the signatures under construction used, in order: an index
	 * in sig (a signature whose edges they inherit) or DW_SIG_NAMED | an
	 * index in named (an edge of their own) */
	uint32_t *stack;
	uint32_t nstack, capstack;
	struct dw_edge *named;  /* the named aggregates references led to */
	uint32_t nnamed, capnamed;
	/* (what a reference led to is dw_die_slot.ref of the key it names,
	 * before any DW_AT_signature) */
};
#define DW_SIG_NAMED 0x80000000u

void dw_sigs_init(struct dw_sigs *s);
/* (only with the unit's DIE table: its slots index the arrays) */
void dw_sigs_clear(struct dw_sigs *s);
void dw_sigs_free(struct dw_sigs *s);

struct dw_group;

/* How arrays are spelled (arrays.c; enum lbtf_dwarf_style) */
struct dw_array_style {
	const char *index_name; /* the index INT: its name, size, encoding */
	uint32_t index_size, index_flags;
	bool flatten;           /* one ARRAY of the dimensions' product */
};

/* style: enum lbtf_dwarf_style, the spelling without a base (or over one
 * with no arrays); over a base with arrays, the base's */
void dw_array_style_init(struct dw_array_style *s, int style, const struct lbtf *base);

struct dw_unit;

struct dw_global {
	const struct dw_elf_info *ei;
	uint32_t features;
	const struct lbtf *base;
	bool big_endian;
	bool pahole;          /* LBTF_DWARF_STYLE_PAHOLE (see there) */
	struct dw_array_style arrays;
	/* a subprogram DIE as pahole encodes it (dwarf_funcs), when the
	 * driver loaded pahole's function table; else NULL */
	int (*subprogram)(struct dw_unit *u, struct dw_die *die);
};

struct dw_unit {
	const struct dw_global *g;
	struct dr_ctx *rd;        /* the thread's DIE reader */
	struct lbtf_builder *b;
	struct dw_dies map;       /* the DIEs met: ids, signatures */
	struct dw_fixup *fix;
	uint32_t nfix, capfix;
	struct dw_var *vars;
	uint32_t nvars, capvars;
	uint32_t array_index_id;  /* the arrays' index INT in this unit, 0 until needed */
	uint32_t byte_id;         /* unsigned char for odd-sized base types */
	uint32_t nfuncs;
	uint64_t warned;          /* bit per enum dw_warning */
	uint32_t other_tags[8];   /* first unsupported tags seen (for the message) */
	int err;
	const struct dr_unit *cu;  /* the unit being converted */
	bool no_annot;            /* its producer never writes DW_TAG_LLVM_annotation */
	bool producer_clang;      /* pahole master reads its parameters otherwise (funcs_abi.c) */
	struct dw_sigs sigs;      /* signatures of this unit's type DIEs */
	uint32_t first_id;        /* the first type id this unit adds */
	struct dw_group *grp;     /* types of earlier units of the group, or NULL */
	struct dw_scratch { void *p; size_t bytes; } *scr; /* per nesting level */
	uint32_t nscr, scr_depth;
};

/*
 * Scratch arrays of the converters (a struct's members, a prototype's
 * parameters): each call takes the buffer of its nesting level, kept from
 * one use to the next, and gives it back (grown or not) when it returns,
 * so that converting a type allocates nothing in the common case. take
 * returns the buffer (NULL, 0 when there is none yet) with room for *cap
 * elements; every take is paired with a give.
 */
void *dw_scratch_take(struct dw_unit *u, uint32_t *cap, size_t elem_size);
void dw_scratch_give(struct dw_unit *u, void *p, uint32_t cap, size_t elem_size);

/* BTF id for the type DIE (converted on first use); 0 is void. <0 errno */
int64_t dw_type_id(struct dw_unit *u, struct dw_die *die);
/* BTF id of the type a DW_AT_type attribute names (void when a is NULL), or
 * <0. It may return a placeholder 0 and set *pending_key when the target is
 * a struct being built; the caller must then queue a fixup of the slot once
 * the record exists (dw_fixup_add). */
int64_t dw_ref_attr(struct dw_unit *u, const struct dw_attr *a, uint64_t *pending_key);
/* The same for a DIE's own (integrated) DW_AT_type */
int64_t dw_ref_of(struct dw_unit *u, struct dw_die *die, uint64_t *pending_key);
int dw_fixup_add(struct dw_unit *u, uint32_t id, uint32_t word, uint64_t key);
int dw_fixups_apply(struct dw_unit *u);
void dw_warn(struct dw_unit *u, enum dw_warning w);
void dw_warn_tag(struct dw_unit *u, unsigned int tag);

/* Attribute helpers (attrs.c) */
static inline void dw_attrs_read(struct dw_unit *u, struct dw_die *die, struct dw_attrs *da)
{
	dr_attrs(u->rd, die, da, true);
}
/* false when die cannot have btf_type_tag/btf_decl_tag children, so the
 * child walk looking for them can be skipped */
bool dw_may_have_annotations(const struct dw_unit *u, const struct dw_die *die);
/* Make room for one more element in a growing array (*arr with *cap
 * elements of elem_size bytes, n in use): 0 or -ENOMEM with the error set */
int dw_grow_slow(void *arr, uint32_t *cap, uint32_t n, size_t elem_size, uint32_t first_cap);
/* (the test inline: called per signature item and edge, so often that the
 * calls that found room showed in a kernel's profile) */
static inline int dw_grow(void *arr, uint32_t *cap, uint32_t n, size_t elem_size,
			  uint32_t first_cap)
{
	return n < *cap ? 0 : dw_grow_slow(arr, cap, n, elem_size, first_cap);
}
/* n if it is a C identifier, else NULL (and a warning) */
const char *dw_c_ident(struct dw_unit *u, const char *n);
/* Byte size of the type a DW_AT_type names (as dwarf_aggregate_size), 0 unknown */
uint64_t dw_type_size(struct dw_unit *u, const struct dw_attr *type);
/* Elements of an array dimension (DW_TAG_subrange_type), 0 unknown or none */
uint32_t dw_subrange_count(struct dw_unit *u, struct dw_die *r);

/* Type references (types.c) */
/* The DIE a DW_AT_type names, through C11 _Atomic; false: void */
bool dw_type_target(struct dw_unit *u, const struct dw_attr *type, struct dw_die *out);
/* An LLVM annotation child named which ("btf_type_tag", "btf_decl_tag"),
 * with its string value */
bool dw_is_annotation(struct dw_unit *u, struct dw_die *c, const char *which,
		      const char **value);
int64_t dw_func_proto(struct dw_unit *u, struct dw_die *die, bool need_names,
		      struct dw_die **pdies, uint32_t *npdies);
bool dw_is_type_tag(unsigned int tag);
/* Aggregates (aggr.c) */
int64_t dw_conv_struct(struct dw_unit *u, struct dw_die *die);
int64_t dw_conv_enum(struct dw_unit *u, struct dw_die *die);

/* Declarations (decls.c) */
int dw_convert_subprogram(struct dw_unit *u, struct dw_die *die);
/* A variable DIE; func: the function it is a static of, in a relocatable
 * BPF object (the VAR is named as clang names it, "FUNC.NAME"), else NULL */
int dw_convert_variable(struct dw_unit *u, struct dw_die *die, struct dw_die *func);
/* Annotations of a DIE: type tags of a pointer, decl tags of a declaration */
int dw_add_decl_tags(struct dw_unit *u, struct dw_die *die, uint32_t target, int component_idx);
/* Whole unit: every type, function and variable under the unit DIE. 0, <0,
 * or 1 when a reused type did not hold (see dw_unit_rollback) */
int dw_convert_unit(struct dw_unit *u, struct dw_die *unit_die);

int dw_unit_init(struct dw_unit *u, const struct dw_global *g, struct dr_ctx *rd);
void dw_unit_reset(struct dw_unit *u); /* drops builder/vars, keeps allocations */
/* The next unit of a group: same builder and VARs, a fresh DIE map */
void dw_unit_next(struct dw_unit *u);
/* Where the builder and the unit's lists stood before a unit, to convert it
 * again (without reuse) after dw_convert_unit returned 1 */
struct dw_unit_mark {
	uint32_t nr_types, nvars, nfuncs;
	size_t nwords, strs_len;
};
void dw_unit_mark(const struct dw_unit *u, struct dw_unit_mark *m);
void dw_unit_rollback(struct dw_unit *u, const struct dw_unit_mark *m);
void dw_unit_free(struct dw_unit *u);
/* A FUNC's linkage for its ELF symbol (index into ei->syms) and whether the
 * source declares it external, in the style */
uint32_t dw_func_linkage(const struct dw_unit *u, int64_t sym, bool external);


/* The signature of a type DIE, or NULL when it has none (then *err says
 * whether that is an error) */
const struct dw_sig *dw_sig_of(struct dw_unit *u, struct dw_die *die, int *err);
/* Follow a DW_AT_signature stub to its type unit's DIE */
void dw_follow_signature(struct dw_unit *u, struct dw_die *die);

/*
 * A group of consecutive units converted into one builder by one worker:
 * a type DIE whose signature matches a type converted in an earlier unit of
 * the group is given that type's id (its named struct/union references are
 * checked: found at once, or queued and checked when the unit ends).
 */
struct dw_group *dw_group_new(void);
void dw_group_free(struct dw_group *g);
/* Start a unit (its builder is u->b, shared by the group) */
void dw_group_unit_begin(struct dw_unit *u);
/* Id of an earlier equal type, 0 if none, <0 error */
int64_t dw_reuse_find(struct dw_unit *u, struct dw_die *die);
/* die (already signed by dw_reuse_find) was converted to id in this unit */
int dw_reuse_note(struct dw_unit *u, struct dw_die *die, uint32_t id);
/* Unit done: check the queued references (converting their targets as
 * needed). 0: every reuse holds, 1: one did not (convert the unit again
 * without reuse), <0 error */
int dw_reuse_verify(struct dw_unit *u);
/* Make the unit's converted types reusable by later units */
int dw_reuse_commit(struct dw_unit *u);
/* Forget what the unit queued (it is converted again) */
void dw_reuse_abort(struct dw_unit *u);
/* The group is converted: references to FWDs that reuse resolved are
 * pointed at their struct/union */
void dw_group_finish(struct dw_unit *u);
/* The names of the structs, unions and enums whose declaration the group
 * paired with a definition: *names = "name\0name\0..." (malloc'd; NULL
 * if none), *len its size. 0 or -ENOMEM */
int dw_group_paired_names(struct dw_unit *u, char **names, size_t *len);
/* The names with several definitions in a deduplicated output (by id), or
 * with definitions of several shapes in one not deduplicated (shapes) */
struct dw_defs {
	const struct lbtf_builder *out;
	struct lbtfi_eq_defs defs; /* name offset -> its type/shape, or several */
};
int dw_defs_init(struct dw_defs *defs, const struct lbtf_builder *out, bool shapes);
void dw_defs_free(struct dw_defs *defs);
/* How many of the paired names (dw_group_paired_names) have several
 * definitions in the output */
int dw_defs_check(const struct dw_defs *defs, const char *names, size_t len);

/* The DIE that declares a function: an out-of-line or concrete instance
 * followed through its abstract origin / specification (decls.c) */
void dw_decl_origin(struct dw_unit *u, const struct dw_die *die, struct dw_die *out);



const char *dw_warning_text(enum dw_warning w);
/* The warnings (bits of enum dw_warning) and skipped tags, through o->warn */
void dw_report_warnings(const struct lbtf_dwarf_opts *o, uint64_t warned, const uint32_t *tags,
			uint32_t ntags);
/* Add the (up to 8, 0-ended) tags to all[*n], once each, up to cap */
void dw_merge_tags(uint32_t *all, uint32_t *n, uint32_t cap, const uint32_t *tags);
const char *dw_tag_name(unsigned int tag);

#endif
