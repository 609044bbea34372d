/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libbtf DWARF -> BTF: read the DWARF of an ELF file (BPF object, user
 * binary, vmlinux) with libdw and build its BTF.
 *
 * Compile units are converted in parallel into one builder each, appended in
 * unit order and deduplicated once, so the output is the same at any thread
 * count. Functions get their linkage from the ELF symbol table; variables
 * with a symbol become VARs grouped in one DATASEC per ELF section, with the
 * section's real size and each variable's offset and size.
 */
#ifndef LIBBTF_DWARF_H
#define LIBBTF_DWARF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Everything declared here is exported; the rest of libbtf is built with
 * -fvisibility=hidden (see libbtf.map for the versioned list). */
#pragma GCC visibility push(default)

struct lbtf;
struct lbtf_builder;

/* What to encode (--features). */
enum lbtf_dwarf_feature {
	LBTF_DWARF_FEAT_FLOAT = 1u << 0,      /* float/double as FLOAT (else INT, old pahole) */
	LBTF_DWARF_FEAT_ENUM64 = 1u << 1,     /* 8-byte enums as ENUM64 (else ENUM, truncated) */
	LBTF_DWARF_FEAT_TYPE_TAG = 1u << 2,   /* btf_type_tag annotations -> TYPE_TAG */
	LBTF_DWARF_FEAT_DECL_TAG = 1u << 3,   /* btf_decl_tag annotations -> DECL_TAG */
	LBTF_DWARF_FEAT_FUNC = 1u << 4,       /* FUNC for every function with a symbol */
	LBTF_DWARF_FEAT_VAR = 1u << 5,        /* VAR + DATASEC for every variable with a symbol */
	LBTF_DWARF_FEAT_PERCPU_VAR = 1u << 6, /* VAR + DATASEC for .data..percpu variables only */
	LBTF_DWARF_FEAT_DEDUP = 1u << 7,      /* deduplicate the result */
	LBTF_DWARF_FEAT_REUSE = 1u << 8,      /* reuse types of earlier units (same result, faster) */
	/* pahole v1.31's function set (kernel builds; not in "default" or "all";
	 * any of these three turns it on): FUNCs by symbol name up to its first
	 * '.' (foo.isra.0 is foo), one per subprogram instance of such a name */
	LBTF_DWARF_FEAT_OPTIMIZED_FUNC = 1u << 9,
	/* with it: names with inconsistent prototypes, symbols at several
	 * addresses or parameters in unexpected registers get no FUNC */
	LBTF_DWARF_FEAT_CONSISTENT_FUNC = 1u << 10,
	/* with it: DECL_TAG "bpf_kfunc" on the kfuncs of .BTF_ids BTF_SET8s */
	LBTF_DWARF_FEAT_DECL_TAG_KFUNCS = 1u << 11,
	/* with DECL_TAG_KFUNCS: the pointers a kfunc's BTF_SET8 flags mark as
	 * arena pointers (KF_ARENA_RET/ARG1/ARG2) point to TYPE_TAG
	 * "address_space(1)" with kind_flag (an attribute), as pahole >= 1.30's
	 * "attributes" feature */
	LBTF_DWARF_FEAT_ATTRIBUTES = 1u << 12,
	/* pahole master's function rules (after v1.31; with the set above):
	 * no FUNC for a function whose copies at its symbols are all
	 * .constprop/.isra clones with parameters optimized out (callers pass
	 * other arguments than its prototype says), nor for one whose
	 * out-of-line copy lists its parameters at other indexes; unexpected
	 * registers and symbols at several addresses leave a function out even
	 * without consistent_func; prototypes compared parameter by parameter */
	LBTF_DWARF_FEAT_ABI_FUNC = 1u << 13,
	/* pahole master's "true_signature" (implies the rules above, but
	 * keeps the clones): a function with an out-of-line copy at a
	 * '.'-suffixed symbol gets one FUNC under that symbol's name
	 * (foo.isra.0) with the copy's own parameters, instead of a FUNC foo */
	LBTF_DWARF_FEAT_TRUE_SIGNATURE = 1u << 14,
};
/* Defaults: everything; variables of a kernel image or module (an ELF with
 * a .data..percpu or .gnu.linkonce.this_module section) only for
 * .data..percpu, as kernel builds do. */
#define LBTF_DWARF_FEAT_DEFAULT                                                        \
	(LBTF_DWARF_FEAT_FLOAT | LBTF_DWARF_FEAT_ENUM64 | LBTF_DWARF_FEAT_TYPE_TAG |     \
	 LBTF_DWARF_FEAT_DECL_TAG | LBTF_DWARF_FEAT_FUNC | LBTF_DWARF_FEAT_VAR |          \
	 LBTF_DWARF_FEAT_DEDUP | LBTF_DWARF_FEAT_REUSE)

/* every feature of the default kind (not the pahole function modes) */
#define LBTF_DWARF_FEAT_ALL 0x1ffu
/* Bits a parsed list carries besides the features (lbtf_dwarf_parse_features) */
#define LBTF_DWARF_FEAT_LIST (1u << 31)       /* an explicit set: none is none, not the defaults */
#define LBTF_DWARF_FEAT_INPUT_VARS (1u << 30) /* "default": var means per-CPU vars on kernel images */

/*
 * Parse a comma-separated feature list: names "float", "enum64", "type_tag",
 * "decl_tag", "func", "var", "percpu_var", "dedup", "reuse", or "default"
 * (the input's defaults), "all", "none"; a name prefixed with '-' removes it.
 * Starts from *feat, or from the defaults when *feat holds no list yet and
 * the first name is a removal ("-float": the defaults minus float). The
 * result carries LBTF_DWARF_FEAT_LIST, so "none" converts with no optional
 * feature. 0 or -EINVAL.
 */
int lbtf_dwarf_parse_features(const char *list, uint32_t *feat);

struct lbtf_dwarf_stats {
	size_t sz;            /* sizeof(struct lbtf_dwarf_stats): written up to it */
	uint32_t units;       /* compile (and partial) units converted */
	uint32_t types_raw;   /* types before dedup */
	uint32_t types_out;   /* types in the result (without base) */
	uint32_t funcs;       /* FUNCs emitted (before dedup) */
	uint32_t vars;        /* VARs placed in a DATASEC */
	uint32_t datasecs;
};

/*
 * Whose conventions the BTF follows where two encoders write the same C
 * differently:
 *  - arrays: clang (and btfgen) write one ARRAY per dimension (int m[2][3]:
 *    ARRAY(2) of ARRAY(3) of int) indexed by an unsigned 4-byte INT
 *    "__ARRAY_SIZE_TYPE__"; pahole one ARRAY of the dimensions' product
 *    (ARRAY(6) of int) indexed by the signed "int". Dedup compares both, so
 *    split BTF shares its base's types only when it spells arrays as its
 *    base does: over a base with arrays, the base's spelling is used
 *    whatever the style;
 *  - FUNC linkage: clang's (global or static, from the symbol); pahole v1.31
 *    writes static for every FUNC;
 *  - a DATASEC's size: the ELF section's (clang); pahole's ends at the end
 *    of its last variable;
 *  - unreferenced anonymous types (a pointer type only a local variable
 *    uses): dropped (clang keeps only what its BTF refers to); pahole keeps
 *    every type of every unit.
 * LBTF_DWARF_STYLE_PAHOLE gives pahole v1.31's type graph (btfgen-pahole).
 */
enum lbtf_dwarf_style {
	LBTF_DWARF_STYLE_CLANG = 0,
	LBTF_DWARF_STYLE_PAHOLE = 1,
};

struct lbtf_dwarf_opts {
	size_t sz;                 /* sizeof(struct lbtf_dwarf_opts) */
	/* Worker threads; <= 0: online CPUs. 1: all the work on one thread,
	 * one step at a time (the CPU time of one), on a thread of the
	 * library's own while the caller waits (the stack conversion needs) */
	int jobs;
	const struct lbtf *base;   /* build split BTF over this base (or NULL) */
	uint32_t features;         /* LBTF_DWARF_FEAT_* or a parsed list; 0: the input's defaults */
	/* Called as units complete (done <= total), never two at once: from
	 * the calling thread, or with jobs 1 from the library's (see jobs) */
	void (*progress)(void *ctx, uint32_t done, uint32_t total);
	/* Non-fatal notes (skipped constructs), each reported once, in a stable order. */
	void (*warn)(void *ctx, const char *msg);
	void *ctx;
	struct lbtf_dwarf_stats *stats; /* optional out */
	int style;                 /* an enum lbtf_dwarf_style: see there */
};

/*
 * Convert the DWARF of the ELF file at path to BTF. Returns a builder the
 * caller serializes (lbtf_builder_serialize, in the ELF's byte order: see
 * lbtf_elf_is_swapped) and frees; NULL with errno set and lbtf_errmsg():
 * ENOENT/EACCES (cannot open), ENOEXEC (not an ELF file), ENODATA (no DWARF).
 */
struct lbtf_builder *lbtf_dwarf_to_btf(const char *path, const struct lbtf_dwarf_opts *opts);

struct lbtf_ext_writer;

struct lbtf_dwarf_ext_opts {
	size_t sz; /* sizeof(struct lbtf_dwarf_ext_opts) */
	/* Notes (e.g. a source file that cannot be read), each once. */
	void (*warn)(void *ctx, const char *msg);
	void *ctx;
};

/*
 * The func_info and line_info clang would write into .BTF.ext, made for the
 * BPF object at path (ET_REL, EM_BPF; e.g. gcc-bpf's, which writes none)
 * from its symbol table and DWARF line table, onto the BTF being built in b
 * (the FUNCs are looked up there by name; section names, file names and
 * source lines join its strings) and added to w: per code section one
 * func_info per function symbol, and line_info for the instructions where
 * the source location changes, one at every function entry; insn_off in
 * bytes. Source lines are read from the files the line table names (empty
 * when unreadable, with a note). 0 or a negative errno (-ENOENT: a function
 * without a FUNC in b; -EINVAL: not a BPF object).
 */
int lbtf_dwarf_ext_lines(const char *path, struct lbtf_builder *b, struct lbtf_ext_writer *w,
			 const struct lbtf_dwarf_ext_opts *opts);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
