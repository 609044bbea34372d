/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The file the DWARF converter reads (libbtf/dwarf_file), not installed:
 * its ELF sections and symbols, read once and shared by the threads
 * (symtab.c); a DWARF handle per thread and the list of its units
 * (file.c); the separate debug file that holds its DWARF (locate.c); the
 * relocation of an ET_REL file's debug sections (reloc.c). Nothing here
 * knows of BTF types: the converter (libbtf/dwarf) asks.
 */
#ifndef LIBBTF_DWARF_FILE_INTERNAL_H
#define LIBBTF_DWARF_FILE_INTERNAL_H

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>
#include "libbtf.h"
#include "util/err.h"
#include "util/grow.h"
#include "util/htab.h"
#include "dwarf_reader/internal.h"

/* Where an extern VAR or FUNC goes (lbtfi_dw_extern_place; the converter's
 * DATASEC entries, struct lbtfi_dw_var) */
enum lbtfi_dw_extern {
	LBTFI_DW_EXT_NONE,  /* defined here: the DATASEC of its symbol's section */
	LBTFI_DW_EXT_SEC,   /* extern in the DATASEC named sec (.ksyms, .kconfig, .maps) */
	LBTFI_DW_EXT_PLAIN, /* extern in no DATASEC (resolved by static linking) */
};

/* ---- the ELF file: sections and symbols (symtab.c) ---------------- */

struct lbtfi_dw_section {
	const char *name;
	uint64_t addr, size;
	bool alloc;          /* SHF_ALLOC */
};

struct lbtfi_dw_symbol {
	const char *name;
	uint64_t value;      /* st_value */
	uint64_t size;
	uint32_t shndx;
	uint8_t type;        /* STT_* */
	uint8_t bind;        /* STB_* */
};

/* Read-only after loading; shared by all worker threads. */
struct lbtfi_dw_elf_info {
	int fd;
	Elf *elf;
	bool is_rel;             /* ET_REL: DWARF relocations must be applied */
	bool is_kernel;          /* vmlinux or module: .data..percpu or .gnu.linkonce.this_module */
	bool is_bpf;             /* EM_BPF: externs are resolved by libbpf */
	struct lbtfi_dw_section *secs; /* indexed by section number */
	size_t nsecs;
	struct lbtfi_dw_symbol *syms;  /* defined FUNC/OBJECT symbols */
	uint32_t nsyms;
	struct lbtfi_htab by_name; /* name hash -> index into syms */
	struct lbtf *btf;        /* the BPF object's own .BTF (clang's), or NULL */
	/* pahole's function table (the converter's funcs.c), or NULL: made
	 * and freed by the converter (lbtfi_dw_pfuncs_load, lbtfi_dw_pfuncs_free) */
	struct lbtfi_dw_pfuncs *pfuncs;
};

int lbtfi_dw_elf_info_load(struct lbtfi_dw_elf_info *ei, const char *path);
void lbtfi_dw_elf_info_free(struct lbtfi_dw_elf_info *ei);
/*
 * Symbol of that name and STT type. When several match, the one at addr
 * (if addr is known, i.e. not UINT64_MAX) is preferred, then a global one if
 * want_global, then the first. Index into ei->syms or -1.
 */
int64_t lbtfi_dw_sym_find(const struct lbtfi_dw_elf_info *ei, const char *name, uint8_t stt,
		    uint64_t addr, bool want_global);

/*
 * A function-scope static of a relocatable object, as clang names its
 * symbol: "FUNC.NAME", or "FUNC.NAME.N" when several statics share a name
 * (N from one counter for the whole object, so not predictable). The only
 * such symbol, else the only one at section offset off (the variable's
 * DW_OP_addr in a relocatable file), else -1.
 */
int64_t lbtfi_dw_sym_local_static(const struct lbtfi_dw_elf_info *ei, const char *func, const char *name,
			    uint64_t off);
/* Undefined (extern) symbol of a relocatable object, or -1 */
int64_t lbtfi_dw_sym_undef(const struct lbtfi_dw_elf_info *ei, const char *name);
/*
 * Where the extern VAR (or FUNC, is_func) name goes: LBTFI_DW_EXT_SEC with *sec
 * the DATASEC name, or LBTFI_DW_EXT_PLAIN. From the object's own .BTF when it has
 * one (clang put the extern in the DATASEC of its section attribute); for
 * DWARF alone (no section attributes there): a variable of a BTF-defined
 * map's type (map_def: a struct of pointer members, one named "type") in
 * .maps, then libbpf's naming rule: CONFIG_* and LINUX_* variables in
 * .kconfig, every other extern in .ksyms.
 */
enum lbtfi_dw_extern lbtfi_dw_extern_place(const struct lbtfi_dw_elf_info *ei, const char *name, bool is_func,
			       bool map_def, const char **sec);
/* The only symbol of that name and type, or -1 (none or several) */
int64_t lbtfi_dw_sym_unique(const struct lbtfi_dw_elf_info *ei, const char *name, uint8_t stt);
/* A local function symbol the compiler made as a copy of function name
 * (gcc: name.isra.0, name.constprop.0, name.part.0), or -1 */
int64_t lbtfi_dw_sym_copy(const struct lbtfi_dw_elf_info *ei, const char *name);

/* ---- one DWARF handle per thread (file.c) ------------------------- */

#define LBTFI_DW_ONCE_MAX 8

struct lbtfi_dw_handle {
	int fd;
	Elf *elf;
	Dwfl *dwfl;  /* ET_REL relocated by libdwfl (else by reloc.c, or linked) */
	Dwarf *dw;
	/* .debug_info is the file's bytes at info_foff (linked files only):
	 * its unit headers and units are read from fd (lbtfi_dr_ctx_read_units) */
	bool info_in_file;
	uint64_t info_foff;
	/* the sections read once, unit after unit, where they are pages of
	 * the file's mapping (lbtfi_dw_drop_read_once) */
	struct lbtfi_dw_span {
		const char *p;
		size_t len;
	} once[LBTFI_DW_ONCE_MAX];
	unsigned int nonce;
	struct lbtfi_dw_reloc_copies {  /* debug sections relocated in copies */
		void **bufs;
		size_t n, cap;
		size_t min_bytes; /* sections copied from this size on (0: 2 MiB) */
	} copies;
};

/* 0 or negative errno (-ENODATA when the file has no DWARF) */
int lbtfi_dw_handle_open(struct lbtfi_dw_handle *h, const char *path, bool is_rel);
/* -ENODATA, the message saying what to do about a file without DWARF */
int lbtfi_dw_err_no_dwarf(const char *path);
/* locate.c: the separate debug file holding path's DWARF (malloc'ed, or
 * NULL when path has its own or names none); 0 or an error naming where
 * it looked */
int lbtfi_dw_locate_debug_file(const char *path, char **debug_path);
/* locate.c: skeleton units of split DWARF, the first .dwo name in dwo */
unsigned int lbtfi_dw_count_skeletons(Dwarf *dw, char *dwo, size_t dwo_sz);
void lbtfi_dw_handle_close(struct lbtfi_dw_handle *h);
/* The resident pages of elf's mapping of its file dropped (read from the
 * file again if touched): between conversions, when they are not needed */
void lbtfi_dw_drop_file_pages(Elf *elf);
/*
 * The resident pages of h's sections that a conversion reads once, unit
 * after unit (abbreviations, location and range lists, line programs),
 * dropped: they are read again from the file if touched. Called as units
 * are done, it keeps them out of the peak memory (a kernel's location
 * lists alone are 23 MB). Nothing for a file that is not mapped (libelf's
 * own copy) or is relocated (the pages are the relocated ones).
 */
void lbtfi_dw_drop_read_once(const struct lbtfi_dw_handle *h);
/* reloc.c: the debug sections of an ET_REL file relocated in place (opened
 * ELF_C_READ_MMAP_PRIVATE); -ENOTSUP is libdwfl's case (another machine,
 * byte order, relocation or symbol kind): that Elf is then dropped, since
 * some relocations may have been applied */
int lbtfi_dw_reloc_apply(Elf *elf);
/* The same, big densely relocated sections first copied into memory of
 * huge pages that their Elf_Data then points to, listed in copies: to be
 * freed after elf_end (also after a failure) */
int lbtfi_dw_reloc_apply_copied(Elf *elf, struct lbtfi_dw_reloc_copies *copies);
void lbtfi_dw_reloc_copies_free(struct lbtfi_dw_reloc_copies *c);

/* Every compile and partial unit of the file, in file order */
struct lbtfi_dw_unit_list {
	uint64_t *die_offs;  /* offset of each unit's root DIE */
	uint32_t n;
};
int lbtfi_dw_list_units(const struct lbtfi_dr_file *f, struct lbtfi_dw_unit_list *ul);

#endif
