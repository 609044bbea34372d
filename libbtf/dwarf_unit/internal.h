/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One unit's DIEs converted into a builder (libbtf/dwarf_unit), not
 * installed: the converters per DWARF tag, over the reuse of types
 * converted in earlier units of a group (libbtf/dwarf_reuse). The driver
 * (libbtf/dwarf) runs it over groups of units on its threads; pahole's
 * function rules (libbtf/dwarf_funcs) plug into its walk through
 * lbtfi_dw_global.subprogram.
 */
#ifndef LIBBTF_DWARF_UNIT_INTERNAL_H
#define LIBBTF_DWARF_UNIT_INTERNAL_H

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdint.h>
#include "dwarf_file/internal.h"
#include "dwarf_reader/internal.h"
#include "dwarf_reuse/internal.h"

#ifndef DW_TAG_LLVM_annotation
#define DW_TAG_LLVM_annotation 0x6000 /* clang's btf_type_tag / btf_decl_tag */
#endif

/* Word index of type-id slots inside builder records, for fixups */
#define W_TYPE 2                      /* size/type union */
#define W_ARRAY_ELEM 3                /* struct lbtf_array.type */
#define W_MEMBER(i) (3 + 3 * (i) + 1) /* struct lbtf_member.type */
#define W_PARAM(i) (3 + 2 * (i) + 1)  /* struct lbtf_param.type */

/* ---- per-unit conversion (types.c, decls.c) ------------------ */

/* A reference that pointed at a type still being built (a cycle through a
 * struct/union); patched when the unit is finished. */
struct lbtfi_dw_fixup {
	uint32_t id;      /* type whose record holds the slot */
	uint32_t word;    /* 32-bit word index of the slot in that record */
	uint64_t key;     /* DIE key of the referenced type */
};

/* A VAR placed in a section, to become a DATASEC entry (enum lbtfi_dw_extern:
 * dwarf_file/internal.h). */

struct lbtfi_dw_var {
	uint32_t id;      /* VAR (or extern FUNC) id in the unit's builder, later in the result */
	uint32_t sym;     /* index into lbtfi_dw_elf_info.syms */
	uint32_t size;    /* bytes */
	uint32_t ext;     /* enum lbtfi_dw_extern */
	const char *sec;  /* LBTFI_DW_EXT_SEC: the DATASEC's name (static or the input's .BTF) */
};

/* Warnings are collected as bits, reported once each at the end. */
enum lbtfi_dw_warning {
	LBTFI_DW_WARN_CXX_REFERENCE,
	LBTFI_DW_WARN_PTR_TO_MEMBER,
	LBTFI_DW_WARN_INHERITANCE,
	LBTFI_DW_WARN_TEMPLATE,
	LBTFI_DW_WARN_VARIANT_PART,
	LBTFI_DW_WARN_NAMESPACE,
	LBTFI_DW_WARN_OTHER_TAG,
	LBTFI_DW_WARN_ODD_INT,
	LBTFI_DW_WARN_COMPLEX_FLOAT,
	LBTFI_DW_WARN_BITFIELD_RANGE,
	LBTFI_DW_WARN_UNNAMED_PARAM,
	LBTFI_DW_WARN_LANG_CXX,
	LBTFI_DW_WARN_LANG_RUST,
	LBTFI_DW_WARN_LANG_OTHER,
	LBTFI_DW_WARN_BAD_NAME,
	LBTFI_DW_WARN_MEMBER_RANGE,
	LBTFI_DW_WARN_VAR_FUNC,
	LBTFI_DW_WARN_ARRAY_VOID,
	LBTFI_DW_WARN_NR,
};


/* How arrays are spelled (arrays.c; enum lbtf_dwarf_style) */
struct lbtfi_dw_array_style {
	const char *index_name; /* the index INT: its name, size, encoding */
	uint32_t index_size, index_flags;
	bool flatten;           /* one ARRAY of the dimensions' product */
};

/* style: enum lbtf_dwarf_style, the spelling without a base (or over one
 * with no arrays); over a base with arrays, the base's */
void lbtfi_dw_array_style_init(struct lbtfi_dw_array_style *s, int style, const struct lbtf *base);

struct lbtfi_dw_unit;

struct lbtfi_dw_global {
	const struct lbtfi_dw_elf_info *ei;
	uint32_t features;
	const struct lbtf *base;
	bool big_endian;
	bool pahole;          /* LBTF_DWARF_STYLE_PAHOLE (see there) */
	struct lbtfi_dw_array_style arrays;
	/* a subprogram DIE as pahole encodes it (dwarf_funcs), when the
	 * driver loaded pahole's function table; else NULL */
	int (*subprogram)(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die);
};

struct lbtfi_dw_unit {
	const struct lbtfi_dw_global *g;
	struct lbtfi_dr_ctx *rd;        /* the thread's DIE reader */
	struct lbtf_builder *b;
	struct lbtfi_dw_reuse_unit ru;  /* what the reuse sees: the DIEs met (ids,
				   * signatures), the group (lbtfi_dw_ru) */
	struct lbtfi_dw_fixup *fix;
	uint32_t nfix, capfix;
	struct lbtfi_dw_var *vars;
	uint32_t nvars, capvars;
	uint32_t array_index_id;  /* the arrays' index INT in this unit, 0 until needed */
	uint32_t byte_id;         /* unsigned char for odd-sized base types */
	uint32_t nfuncs;
	uint64_t warned;          /* bit per enum lbtfi_dw_warning */
	uint32_t other_tags[8];   /* first unsupported tags seen (for the message) */
	int err;
	const struct lbtfi_dr_unit *cu;  /* the unit being converted */
	bool no_annot;            /* its producer never writes DW_TAG_LLVM_annotation */
	bool no_annot_reached;    /* no_annot, and every abstract origin and specification
				   * of the unit lies in it: no DIE reached from it has one */
	bool producer_clang;      /* pahole master reads its parameters otherwise (funcs_abi.c) */
	uint32_t func_tag_offs[8]; /* where dwarf_funcs' DECL_TAG values were in b's strings
				    * (lbtfi_builder_add_decl_tag_memo) */
	uint32_t first_id;        /* the first type id this unit adds */
	struct lbtfi_dw_scratch { void *p; size_t bytes; } *scr; /* per nesting level */
	uint32_t nscr, scr_depth;
};

/* The unit as the reuse sees it, its builder brought up to date (the
 * driver gives a unit its group's builder in u->b) */
static inline struct lbtfi_dw_reuse_unit *lbtfi_dw_ru(struct lbtfi_dw_unit *u)
{
	u->ru.b = u->b;
	return &u->ru;
}

/*
 * Scratch arrays of the converters (a struct's members, a prototype's
 * parameters): each call takes the buffer of its nesting level, kept from
 * one use to the next, and gives it back (grown or not) when it returns,
 * so that converting a type allocates nothing in the common case. take
 * returns the buffer (NULL, 0 when there is none yet) with room for *cap
 * elements; every take is paired with a give.
 */
void *lbtfi_dw_scratch_take(struct lbtfi_dw_unit *u, uint32_t *cap, size_t elem_size);
void lbtfi_dw_scratch_give(struct lbtfi_dw_unit *u, void *p, uint32_t cap, size_t elem_size);

/* BTF id for the type DIE (converted on first use); 0 is void. <0 errno */
int64_t lbtfi_dw_type_id(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die);
/* BTF id of the type a DW_AT_type attribute names (void when a is NULL), or
 * <0. It may return a placeholder 0 and set *pending_key when the target is
 * a struct being built; the caller must then queue a fixup of the slot once
 * the record exists (lbtfi_dw_fixup_add). */
int64_t lbtfi_dw_ref_attr(struct lbtfi_dw_unit *u, const struct lbtfi_dw_attr *a, uint64_t *pending_key);
/* The same for a DIE's own (integrated) DW_AT_type */
int64_t lbtfi_dw_ref_of(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, uint64_t *pending_key);
int lbtfi_dw_fixup_add(struct lbtfi_dw_unit *u, uint32_t id, uint32_t word, uint64_t key);
int lbtfi_dw_fixups_apply(struct lbtfi_dw_unit *u);
void lbtfi_dw_warn(struct lbtfi_dw_unit *u, enum lbtfi_dw_warning w);
void lbtfi_dw_warn_tag(struct lbtfi_dw_unit *u, unsigned int tag);

/* Attribute helpers (attrs.c) */
static inline void lbtfi_dw_attrs_read(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, struct lbtfi_dw_attrs *da)
{
	lbtfi_dr_attrs(u->rd, die, da, true);
}
/* false when die cannot have btf_type_tag/btf_decl_tag children, so the
 * child walk looking for them can be skipped */
bool lbtfi_dw_may_have_annotations(const struct lbtfi_dw_unit *u, const struct lbtfi_dw_die *die);
/* n if it is a C identifier, else NULL (and a warning) */
const char *lbtfi_dw_c_ident(struct lbtfi_dw_unit *u, const char *n);
/* Byte size of the type a DW_AT_type names (as dwarf_aggregate_size), 0 unknown */
uint64_t lbtfi_dw_type_size(struct lbtfi_dw_unit *u, const struct lbtfi_dw_attr *type);
/* Elements of an array dimension (DW_TAG_subrange_type), 0 unknown or none */
uint32_t lbtfi_dw_subrange_count(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *r);

/* Type references (types.c) */
/* The DIE a DW_AT_type names, through C11 _Atomic; false: void */
bool lbtfi_dw_type_target(struct lbtfi_dw_unit *u, const struct lbtfi_dw_attr *type, struct lbtfi_dw_die *out);
/* An LLVM annotation child named which ("btf_type_tag", "btf_decl_tag"),
 * with its string value */
bool lbtfi_dw_is_annotation(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *c, const char *which,
		      const char **value);
int64_t lbtfi_dw_func_proto(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, bool need_names,
		      struct lbtfi_dw_die **pdies, uint32_t *npdies);
/* The converters by DWARF tag (types.c), the tag's name for messages */
struct lbtfi_dw_tag_desc {
	const char *name;
	int64_t (*conv)(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die); /* NULL: not a type */
};
#define LBTFI_DW_NR_STD_TAGS 0x4c
extern const struct lbtfi_dw_tag_desc lbtfi_dw_std_tags[LBTFI_DW_NR_STD_TAGS];
/* (inline: the unit walk asks for every DIE) */
static inline bool lbtfi_dw_is_type_tag(unsigned int tag)
{
	return tag < LBTFI_DW_NR_STD_TAGS && lbtfi_dw_std_tags[tag].conv;
}
/* Aggregates (aggr.c) */
int64_t lbtfi_dw_conv_struct(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die);
int64_t lbtfi_dw_conv_enum(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die);

/* Declarations (decls.c) */
int lbtfi_dw_convert_subprogram(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die);
/* A variable DIE; func: the function it is a static of, in a relocatable
 * BPF object (the VAR is named as clang names it, "FUNC.NAME"), else NULL */
int lbtfi_dw_convert_variable(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, struct lbtfi_dw_die *func);
/* Annotations of a DIE: type tags of a pointer, decl tags of a declaration */
int lbtfi_dw_add_decl_tags(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, uint32_t target, int component_idx);
/* Whole unit: every type, function and variable under the unit DIE. 0, <0,
 * or 1 when a reused type did not hold (see lbtfi_dw_unit_rollback) */
int lbtfi_dw_convert_unit(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *unit_die);

int lbtfi_dw_unit_init(struct lbtfi_dw_unit *u, const struct lbtfi_dw_global *g, struct lbtfi_dr_ctx *rd);
void lbtfi_dw_unit_reset(struct lbtfi_dw_unit *u); /* drops builder/vars, keeps allocations */
/* The next unit of a group: same builder and VARs, a fresh DIE map */
void lbtfi_dw_unit_next(struct lbtfi_dw_unit *u);
/* Where the builder and the unit's lists stood before a unit, to convert it
 * again (without reuse) after lbtfi_dw_convert_unit returned 1 */
struct lbtfi_dw_unit_mark {
	uint32_t nr_types, nvars, nfuncs;
	size_t nwords, strs_len;
};
void lbtfi_dw_unit_mark(const struct lbtfi_dw_unit *u, struct lbtfi_dw_unit_mark *m);
void lbtfi_dw_unit_rollback(struct lbtfi_dw_unit *u, const struct lbtfi_dw_unit_mark *m);
void lbtfi_dw_unit_free(struct lbtfi_dw_unit *u);
/* A FUNC's linkage for its ELF symbol (index into ei->syms) and whether the
 * source declares it external, in the style */
uint32_t lbtfi_dw_func_linkage(const struct lbtfi_dw_unit *u, int64_t sym, bool external);



/* The DIE that declares a function: an out-of-line or concrete instance
 * followed through its abstract origin / specification (decls.c) */
void lbtfi_dw_decl_origin(struct lbtfi_dw_unit *u, const struct lbtfi_dw_die *die, struct lbtfi_dw_die *out);



const char *lbtfi_dw_warning_text(enum lbtfi_dw_warning w);
/* The warnings (bits of enum lbtfi_dw_warning) and skipped tags, through o->warn */
void lbtfi_dw_report_warnings(const struct lbtf_dwarf_opts *o, uint64_t warned, const uint32_t *tags,
			uint32_t ntags);
/* Add the (up to 8, 0-ended) tags to all[*n], once each, up to cap */
void lbtfi_dw_merge_tags(uint32_t *all, uint32_t *n, uint32_t cap, const uint32_t *tags);
const char *lbtfi_dw_tag_name(unsigned int tag);

#endif
