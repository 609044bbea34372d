// SPDX-License-Identifier: BSD-2-Clause
/* The ELF facts libbpf's fixups read: section sizes, symbols, programs. */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "util/keep.h"
#include "util/tls.h"

/* the blocks of the section table and of the symbol indexes, kept for the
 * thread's next object */
static LBTFI_TLS struct lbtfi_keep kept_secs, kept_funcs, kept_vars;

bool lbtf_is_bpf_object(const void *data, size_t size)
{
	Elf64_Ehdr eh;

	/* (copied: the image may lie at any address) */
	if (size < sizeof(eh))
		return false;
	memcpy(&eh, data, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return false;
	if (eh.e_ident[EI_DATA] == ELFDATA2LSB)
		return le16toh(eh.e_type) == ET_REL && le16toh(eh.e_machine) == EM_BPF;
	return be16toh(eh.e_type) == ET_REL && be16toh(eh.e_machine) == EM_BPF;
}

/* A global or weak STT_OBJECT symbol: what a DATASEC's VAR is looked up in */
static bool global_var(const Elf64_Sym *sym)
{
	int bind = ELF64_ST_BIND(sym->st_info);

	return ELF64_ST_TYPE(sym->st_info) == STT_OBJECT && (bind == STB_GLOBAL || bind == STB_WEAK);
}

/* The STT_FUNC symbols, where programs and subprograms are, and the global
 * variables' symbols: listed once (e->funcs, e->vars), for the fixups that
 * look for them per section, variable and relocation. libbpf 1.1 counts a
 * program for every function in a non-empty executable PROGBITS section
 * (bpf_object__add_programs). */
static int index_syms(struct oelf *e, const char *path)
{
	Elf64_Sym sym;
	size_t nf = 0, nv = 0;

	for (size_t i = 0; i < e->nr_syms; i++) {
		lbtfi_obj_elf_sym(e, i, &sym);
		nf += ELF64_ST_TYPE(sym.st_info) == STT_FUNC;
		nv += global_var(&sym);
	}
	if ((nf && !(e->funcs = lbtfi_keep_take(&kept_funcs, nf * sizeof(*e->funcs), &e->funcs_cap))) ||
	    (nv && !(e->vars = lbtfi_keep_take(&kept_vars, nv * sizeof(*e->vars), &e->vars_cap))))
		return lbtfi_err(ENOMEM, "%s: out of memory", path);
	for (size_t i = 0; i < e->nr_syms; i++) {
		struct lbtfi_shdr sh;

		lbtfi_obj_elf_sym(e, i, &sym);
		if (global_var(&sym))
			e->vars[e->nr_vars++] = i;
		if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC)
			continue;
		e->funcs[e->nr_funcs++] = i;
		if (!sym.st_shndx || !lbtfi_obj_elf_sec(e, sym.st_shndx, &sh) ||
		    sh.type != SHT_PROGBITS || !(sh.flags & SHF_EXECINSTR) || !sh.size)
			continue;
		e->nr_progs++;
	}
	return 0;
}

/* The entry size libelf's elf_getdata() converts a section of this type in
 * (its data must be whole entries, else "invalid data"); 1: bytes */
static uint64_t libelf_entsize(uint32_t type)
{
	switch (type) {
	case SHT_RELA: case SHT_SYMTAB: case SHT_DYNSYM: return 24;
	case SHT_REL: case SHT_DYNAMIC: return 16;
	case SHT_INIT_ARRAY: case SHT_FINI_ARRAY: case SHT_PREINIT_ARRAY: return 8;
	case SHT_HASH: case SHT_GROUP: case SHT_SYMTAB_SHNDX: return 4;
	case SHT_GNU_versym: return 2;
	default: return 1;
	}
}

/* strncmp(s, p, strlen(p)) == 0, inline: libc's is a call and a loop
 * set up for any length, for every DWARF section of every object */
static bool has_prefix(const char *s, const char *p)
{
	while (*p && *s == *p) {
		s++;
		p++;
	}
	return !*p;
}

/* The sections bpf_object__elf_collect() skips by name: DWARF and the
 * relocations of DWARF, .BTF and .BTF.ext (ignore_elf_section()). The
 * first bytes are looked at before any compare: this runs for every
 * section of every object. */
static bool ignored_by_name(const char *name)
{
	if (name[0] != '.')
		return false;
	if (name[1] == 'r' && name[2] == 'e' && name[3] == 'l') {
		name += 4;
		if (!strcmp(name, ".BTF") || !strcmp(name, ".BTF.ext"))
			return true;
	}
	return name[1] == 'd' && has_prefix(name, ".debug_");
}

/* The string at off of a string table's n bytes s (NULL: none), or NULL
 * past it or when it does not end inside it: lbtfi_elf_str's answer for a
 * table found once, not looked up again per name */
static const char *table_str(const char *s, size_t n, size_t off)
{
	if (!s || off >= n)
		return NULL;
	return !s[n - 1] || memchr(s + off, '\0', n - off) ? s + off : NULL;
}

/* A string table section's bytes as lbtfi_elf_str finds them (NULL and 0:
 * none usable) */
static const char *strtab(const struct lbtfi_elf *elf, size_t ndx, size_t *n)
{
	struct lbtfi_shdr sh;
	const char *s;

	*n = 0;
	if (!ndx || !lbtfi_elf_shdr(elf, ndx, &sh) || sh.type != SHT_STRTAB || !sh.size ||
	    !(s = lbtfi_elf_sec_data(elf, &sh)))
		return NULL;
	*n = sh.size;
	return s;
}

/* The symbols' string table, found once: a name is then an offset into it
 * (lbtfi_elf_str would find and check the table's header for each one) */
static void sym_strtab(struct oelf *e)
{
	e->sym_strs = strtab(&e->elf, e->symtab.link, &e->sym_strs_len);
}

int lbtfi_obj_elf_open(struct oelf *e, const char *path, const void *image, size_t size)
{
	const unsigned char host_data = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ?
					ELFDATA2LSB : ELFDATA2MSB;
	const char *names = NULL;
	size_t names_len = 0;
	int err;

	memset(e, 0, sizeof(*e));
	if ((err = lbtfi_elf_open(&e->elf, path, image, size)))
		return err;
	if (((const unsigned char *)image)[EI_DATA] != host_data)
		return lbtfi_err(4003, "%s: endianness mismatch (libbpf opens only its own byte order)",
				 path);
	if (e->elf.shnum) {
		e->secs = lbtfi_keep_take(&kept_secs, e->elf.shnum * sizeof(*e->secs), &e->secs_cap);
		if (!e->secs)
			return lbtfi_err(ENOMEM, "%s: out of memory", path);
		names = strtab(&e->elf, e->elf.shstrndx, &names_len);
		lbtfi_elf_shdr(&e->elf, 0, &e->secs[0].sh);
		e->secs[0].name = table_str(names, names_len, e->secs[0].sh.name);
	}
	for (size_t i = 1; i < e->elf.shnum; i++) {
		struct lbtfi_shdr sh;
		const char *name;

		lbtfi_elf_shdr(&e->elf, i, &sh);
		name = table_str(names, names_len, sh.name); /* lbtfi_elf_sec_name's */
		e->secs[i].sh = sh;
		e->secs[i].name = name;
		/* libbpf's elf_collect names every section first */
		if (!name)
			return lbtfi_err(4001, "%s: elf: failed to get section name string at offset "
					 "%u: invalid section", path, sh.name);
		/* every section libbpf reads: elf_sec_data() must succeed */
		if (name && sh.type != SHT_NOBITS && (sh.type == SHT_SYMTAB ||
		    (!lbtfi_obj_ignored_section(&sh) && !ignored_by_name(name))) &&
		    sh.size % libelf_entsize(sh.type))
			return lbtfi_err(4001, "%s: elf: failed to get section(%zu) %s data from %s: invalid data",
					 path, i, name, path);
		if (sh.type == SHT_SYMTAB) {
			if (e->has_symtab)
				return lbtfi_err(4001, "%s: multiple symbol tables", path);
			e->has_symtab = true;
			e->symtab = sh;
			e->symtab_shndx = i;
		} else if (name[0] == 'l' && !lbtfi_obj_ignored_section(&sh) &&
			   !strcmp(name, "license") && sh.type == SHT_NOBITS) {
			/* bpf_object__init_license(): no bytes to copy */
			return lbtfi_err(4001, "%s: invalid license section in %s", path, path);
		} else if (name[0] == 'v' && !lbtfi_obj_ignored_section(&sh) &&
			   !strcmp(name, "version") && sh.size != 4) {
			/* bpf_object__init_kversion() */
			return lbtfi_err(4001, "%s: invalid kver section in %s", path, path);
		} else if (sh.type == SHT_PROGBITS && (sh.flags & SHF_EXECINSTR) && sh.size &&
			   !strcmp(name, ".text")) {
			e->text_shndx = i;
		}
	}
	if (e->has_symtab) {
		if (e->symtab.entsize != sizeof(Elf64_Sym))
			return lbtfi_err(4001, "%s: bad symbol table entry size", path);
		if (!lbtfi_elf_sec_data(&e->elf, &e->symtab))
			return lbtfi_err(4001, "%s: cannot read the symbol table", path);
		e->nr_syms = lbtfi_elf_nr_syms(&e->elf, &e->symtab);
		e->syms = lbtfi_elf_sec_data(&e->elf, &e->symtab);
		sym_strtab(e);
		return index_syms(e, path);
	}
	return 0;
}

void lbtfi_obj_elf_free(struct oelf *e)
{
	lbtfi_keep_give(&kept_secs, e->secs, e->secs_cap);
	e->secs = NULL;
	lbtfi_keep_give(&kept_funcs, e->funcs, e->funcs_cap);
	e->funcs = NULL;
	lbtfi_keep_give(&kept_vars, e->vars, e->vars_cap);
	e->vars = NULL;
	e->nr_vars = 0;
	e->nr_funcs = 0;
}

/* What lbtfi_elf_str(symtab.link, st_name) gives: NULL past the table or
 * for a name that does not end inside it */
const char *lbtfi_obj_elf_sym_name(const struct oelf *e, const Elf64_Sym *sym)
{
	return table_str(e->sym_strs, e->sym_strs_len, sym->st_name);
}

size_t lbtfi_obj_elf_find(const struct oelf *e, const char *name, struct lbtfi_shdr *sh)
{
	for (size_t i = 1; i < e->elf.shnum; i++) {
		const char *n = e->secs[i].name;

		if (n && n[0] == name[0] && !strcmp(n, name)) {
			*sh = e->secs[i].sh;
			return i;
		}
	}
	return 0;
}

int lbtfi_obj_elf_sec_size(const struct oelf *e, const char *name, uint32_t *size)
{
	struct lbtfi_shdr sh;

	if (!lbtfi_obj_elf_find(e, name, &sh))
		return -ENOENT;
	*size = (uint32_t)sh.size;
	return 0;
}

/* ignore_elf_section() of libbpf 1.1, for the sections it looks up by
 * name: string tables and .llvm_addrsig are skipped whatever their name */
bool lbtfi_obj_ignored_section(const struct lbtfi_shdr *sh)
{
	return sh->type == SHT_STRTAB || sh->type == 0x6fff4c03 /* SHT_LLVM_ADDRSIG */;
}
