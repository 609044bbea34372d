/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private state of the object module: the BTF of a BPF object as libbpf
 * 1.1 holds it between bpf_object__open() and BPF_BTF_LOAD (a mutable copy
 * of .BTF, which grows only when a type is added), and the ELF facts its
 * fixups read (section sizes, symbols).
 */
#ifndef LIBBTF_OBJECT_INTERNAL_H
#define LIBBTF_OBJECT_INTERNAL_H

#include <stdbool.h>
#include <string.h>
#include "core/internal.h"
#include "elf/internal.h"
#include "libbtf_object.h"

/* The BTF being fixed up. Until a type or string is added, types and strs
 * point into raw (a copy of .BTF, written in place, as libbpf's btf__new
 * copy is); after, they are separate buffers written out in the canonical
 * layout (header, types, strings), as libbpf's btf__raw_data() then does. */
struct obtf {
	unsigned char *raw;
	size_t raw_size, raw_cap; /* raw_cap: its block's size (util/keep.h) */
	struct lbtf_header hdr;
	unsigned char *types;
	size_t types_len, types_cap;
	char *strs;
	size_t strs_len, strs_cap;
	uint32_t *offs;          /* offs[id - 1]: offset of type id in types */
	size_t offs_cap;
	/* the DATASECs' ids in order, as read and added: the fixups look for
	 * sections among these, not among all types (sanitizing, the last
	 * step, may turn them into other kinds) */
	uint32_t *dsecs;         /* dsecs_here, or malloc'ed past its room */
	size_t nr_dsecs, dsecs_cap;
	uint32_t dsecs_here[16]; /* objects have a few (no allocation, no fresh page) */
	uint32_t nr;             /* types, without void */
	bool grown;              /* types/strs are our own buffers */
	bool in_place;           /* raw is the caller's .BTF, fixed where it lies */
};

/* A section header and its name, read once by lbtfi_obj_elf_open */
struct osec {
	struct lbtfi_shdr sh;
	const char *name;        /* NULL: none readable */
};

/* The ELF object's sections and symbols */
struct oelf {
	struct lbtfi_elf elf;
	struct osec *secs;       /* elf.shnum of them (NULL: none) */
	size_t secs_cap;         /* their block's size in bytes (util/keep.h) */
	bool has_symtab;
	struct lbtfi_shdr symtab;
	size_t symtab_shndx;
	size_t nr_syms;
	const unsigned char *syms; /* the symbol table's nr_syms Elf64_Sym */
	const char *sym_strs;    /* its string table's bytes (NULL: none usable) */
	size_t sym_strs_len;
	uint32_t *funcs;         /* the indexes of its STT_FUNC symbols, in order */
	size_t funcs_cap;        /* their block's size in bytes (util/keep.h) */
	uint32_t *vars;          /* the indexes of its global/weak STT_OBJECT symbols */
	size_t nr_vars, vars_cap;
	size_t nr_funcs;
	size_t text_shndx;       /* 0: no .text */
	size_t nr_progs;         /* program symbols, as libbpf counts them */
};

struct octx {
	const char *path;
	struct obtf b;
	struct oelf e;
	uint32_t fixups;         /* enum lbtf_fixup */
	uint32_t sanitized;      /* LBTF_KFEAT_* whose kinds were rewritten */
	uint32_t features;       /* what the target kernel supports */
	const void *ext;         /* .BTF.ext bytes in place of the section's (opts) */
	size_t ext_size;
	size_t maps_shndx;       /* the .maps section (0: none) */
	uint32_t *map_offs;      /* its maps' offsets, as DATASEC '.maps' has them */
	size_t map_offs_cap;     /* their block's size in bytes (util/keep.h) */
	size_t nr_maps;
};

/* btf.c */
/* in_place: data may be written (lbtf_object_opts.in_place), and is used
 * as it lies when 4-byte aligned */
int lbtfi_obj_btf_init(struct obtf *b, const char *path, const void *data, size_t size,
		       bool in_place);
void lbtfi_obj_btf_free(struct obtf *b);
/* Type id (a zeroed void record for 0, writable), or NULL past the last:
 * inline, the fixups' walks call it for every type they look at */
struct lbtf_type *lbtfi_obj_btf_void(void);
static inline struct lbtf_type *lbtfi_obj_btf_type(const struct obtf *b, uint32_t id)
{
	if (id - 1 < b->nr)
		return (struct lbtf_type *)(b->types + b->offs[id - 1]);
	return id ? NULL : lbtfi_obj_btf_void();
}
char *lbtfi_obj_btf_str(const struct obtf *b, uint32_t off);
int lbtfi_obj_btf_add_str(struct obtf *b, const char *s, uint32_t *off);
int lbtfi_obj_btf_add_type(struct obtf *b, const void *rec, size_t len, uint32_t *id);
int lbtfi_obj_btf_resolve_size(const struct obtf *b, uint32_t id, int64_t *size);
int lbtfi_obj_btf_align_of(const struct obtf *b, uint32_t id);
uint32_t lbtfi_obj_btf_find_int32(const struct obtf *b);
/* The BTF as one buffer for the caller to free (b's own copy when no type
 * or string was added: b no longer holds it then), or, *in_elf set, the
 * caller's .BTF fixed in place (nothing to free) */
int lbtfi_obj_btf_output(struct obtf *b, void **data, size_t *size, bool *in_elf);
/* Done with what lbtfi_obj_btf_output gave (size bytes; NULL: nothing) */
void lbtfi_obj_btf_data_give(void *data, size_t size);

/* elf.c */
int lbtfi_obj_elf_open(struct oelf *e, const char *path, const void *image, size_t size);
void lbtfi_obj_elf_free(struct oelf *e);
const char *lbtfi_obj_elf_sym_name(const struct oelf *e, const Elf64_Sym *sym);

/* The object is ELF64 in the host's byte order (lbtf_is_bpf_object and the
 * open's check) with whole Elf64_Sym entries (entsize checked): a symbol is
 * the table's bytes as they are. The fixups look symbols up in loops over
 * all of them, per section, variable and relocation: a copy here (inline),
 * not lbtfi_elf_sym's bounds checks and field-by-field reads. */
static inline bool lbtfi_obj_elf_sym(const struct oelf *e, size_t i, Elf64_Sym *sym)
{
	if (i >= e->nr_syms)
		return false;
	memcpy(sym, e->syms + i * sizeof(*sym), sizeof(*sym));
	return true;
}
/* first section named name: its data size (sh_size for NOBITS) */
int lbtfi_obj_elf_sec_size(const struct oelf *e, const char *name, uint32_t *size);
/* Section i's header (a copy) and its name from the table the open read:
 * what lbtfi_elf_shdr and lbtfi_elf_sec_name give, without reading and
 * checking the header and the name table's again; false/NULL past it */
static inline bool lbtfi_obj_elf_sec(const struct oelf *e, size_t i, struct lbtfi_shdr *sh)
{
	if (i >= e->elf.shnum)
		return false;
	*sh = e->secs[i].sh;
	return true;
}

static inline const char *lbtfi_obj_elf_sec_name(const struct oelf *e, size_t i)
{
	return i < e->elf.shnum ? e->secs[i].name : NULL;
}
/* lbtfi_elf_find from that table: the first section named name (its index,
 * its header in *sh), 0: none */
size_t lbtfi_obj_elf_find(const struct oelf *e, const char *name, struct lbtfi_shdr *sh);

/* a section libbpf's ELF walk skips (bpf_object__elf_collect) */
bool lbtfi_obj_ignored_section(const struct lbtfi_shdr *sh);

/* ext.c: the .BTF.ext as btf_ext__new() parses it (bpf_object__init_btf) */
int lbtfi_obj_check_btf_ext(struct octx *c);
/* maps.c: BTF-defined maps as bpf_object__init_user_btf_maps() reads them */
int lbtfi_obj_init_btf_maps(struct octx *c);
void lbtfi_obj_maps_free(struct octx *c);
/* progs.c: programs (bpf_object__add_programs) and their relocations
 * (bpf_object__collect_prog_relos), after lbtfi_obj_init_btf_maps */
int lbtfi_obj_collect_progs(struct octx *c);
int lbtfi_obj_collect_prog_relos(struct octx *c);

/* externs.c, datasec.c, sanitize.c */
/* the first symbol libbpf takes for an extern (its name), or NULL */
const char *lbtfi_obj_first_extern(const struct oelf *e);
int lbtfi_obj_collect_externs(struct octx *c);
int lbtfi_obj_fixup_datasecs(struct octx *c);
int lbtfi_obj_mark_static_subprogs(struct octx *c);
int lbtfi_obj_sanitize(struct octx *c);

#endif
