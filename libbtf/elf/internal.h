/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A read-only view of an ELF file's section table, in place, without libelf:
 * what finding .BTF and libbpf's object fixups need (section headers and
 * names, section bytes, symbols). ELF32 and ELF64 of either byte order;
 * every header, offset and size is checked against the image's length.
 *
 * Why not libelf: btfcheck runs once per object in a CI gate, and a fresh
 * process pays a page fault for each new page it touches. libelf's
 * descriptors (two ~7 KiB blocks per elf_memory) and its code are a large
 * share of the faults of `btfcheck OBJ` after main().
 */
#ifndef LIBBTF_ELF_INTERNAL_H
#define LIBBTF_ELF_INTERNAL_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lbtfi_elf {
	const unsigned char *img;
	size_t len;
	bool is64;
	bool swap;              /* the file's byte order is not the host's */
	uint16_t type, machine;
	uint64_t shoff;
	size_t shentsize;
	size_t shnum;           /* with extended numbering resolved */
	size_t shstrndx;        /* 0: no section names */
};

/* One section header, widened to ELF64 and in host byte order */
struct lbtfi_shdr {
	uint32_t name, type, link, info;
	uint64_t flags, addr, offset, size, entsize;
};

/*
 * Opens the view (nothing is copied or allocated). Errors (-EINVAL, the
 * message naming path): "not an ELF file", "truncated or bad ELF header",
 * "truncated ELF file (section headers end past ...)", "bad ELF section
 * headers".
 */
int lbtfi_elf_open(struct lbtfi_elf *e, const char *path, const void *img, size_t len);
/* Section header i (0 < i < shnum for real sections); false if out of range */
bool lbtfi_elf_shdr(const struct lbtfi_elf *e, size_t i, struct lbtfi_shdr *sh);
/* The NUL-terminated string at off of string-table section strndx, or NULL */
const char *lbtfi_elf_str(const struct lbtfi_elf *e, size_t strndx, uint64_t off);
/* A section's name, or NULL */
const char *lbtfi_elf_sec_name(const struct lbtfi_elf *e, const struct lbtfi_shdr *sh);
/* A section's bytes in the image, or NULL when NOBITS or past the end */
const void *lbtfi_elf_sec_data(const struct lbtfi_elf *e, const struct lbtfi_shdr *sh);
/* The first section named name (its index, *sh filled), or 0 */
size_t lbtfi_elf_find(const struct lbtfi_elf *e, const char *name, struct lbtfi_shdr *sh);
/*
 * The bytes of the first section named name, in place: 0, or -ENODATA
 * ("no NAME section", "NAME section has no data (NOBITS ...)") or -EINVAL
 * ("NAME section is truncated ..."), the message naming path.
 */
int lbtfi_elf_section_data(const struct lbtfi_elf *e, const char *path, const char *name,
			   const void **data, size_t *size);
/* The same for a section already found (sh, named name) */
int lbtfi_elf_shdr_data(const struct lbtfi_elf *e, const char *path, const char *name,
			const struct lbtfi_shdr *sh, const void **data, size_t *size);
/* Symbol i of the symbol table symtab, widened to Elf64_Sym, host order */
bool lbtfi_elf_sym(const struct lbtfi_elf *e, const struct lbtfi_shdr *symtab, size_t i,
		   Elf64_Sym *sym);
/* Symbols in symtab (0 when its entry size is not the class's) */
size_t lbtfi_elf_nr_syms(const struct lbtfi_elf *e, const struct lbtfi_shdr *symtab);

#endif
