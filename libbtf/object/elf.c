// SPDX-License-Identifier: BSD-2-Clause
/* The ELF facts libbpf's fixups read: section sizes, symbols, programs. */
#include <endian.h>
#include <string.h>
#include "internal.h"

bool lbtf_is_bpf_object(const void *data, size_t size)
{
	const Elf64_Ehdr *eh = data;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		return false;
	if (eh->e_ident[EI_DATA] == ELFDATA2LSB)
		return le16toh(eh->e_type) == ET_REL && le16toh(eh->e_machine) == EM_BPF;
	return be16toh(eh->e_type) == ET_REL && be16toh(eh->e_machine) == EM_BPF;
}

static const char *sec_name(const struct oelf *e, const GElf_Shdr *sh)
{
	return elf_strptr(e->elf, e->shstrndx, sh->sh_name);
}

/* libbpf 1.1 counts a program for every STT_FUNC symbol in a non-empty
 * executable PROGBITS section (bpf_object__add_programs). */
static void count_programs(struct oelf *e)
{
	GElf_Sym sym;

	for (size_t i = 0; i < e->nr_syms; i++) {
		Elf_Scn *scn;
		GElf_Shdr sh;

		if (!oelf_sym(e, i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC)
			continue;
		scn = sym.st_shndx ? elf_getscn(e->elf, sym.st_shndx) : NULL;
		if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || !sh.sh_size)
			continue;
		e->nr_progs++;
	}
}

int oelf_open(struct oelf *e, const char *path, void *image, size_t size)
{
	const unsigned char host_data = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ?
					ELFDATA2LSB : ELFDATA2MSB;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;

	memset(e, 0, sizeof(*e));
	elf_version(EV_CURRENT);
	e->elf = elf_memory(image, size);
	if (!e->elf || !gelf_getehdr(e->elf, &eh) || elf_getshdrstrndx(e->elf, &e->shstrndx))
		return lbtfi_err(EINVAL, "%s: bad ELF (%s)", path, elf_errmsg(-1));
	if (eh.e_ident[EI_DATA] != host_data)
		return lbtfi_err(4003, "%s: endianness mismatch (libbpf opens only its own byte order)",
				 path);
	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return lbtfi_err(EINVAL, "%s: bad ELF section header", path);
		name = sec_name(e, &sh);
		if (sh.sh_type == SHT_SYMTAB) {
			if (e->symtab)
				return lbtfi_err(4001, "%s: multiple symbol tables", path);
			e->symtab = scn;
			e->symtab_sh = sh;
		} else if (name && !strcmp(name, ".text") && sh.sh_type == SHT_PROGBITS &&
			   (sh.sh_flags & SHF_EXECINSTR) && sh.sh_size) {
			e->text_shndx = elf_ndxscn(scn);
		}
	}
	if (e->symtab) {
		if (e->symtab_sh.sh_entsize != sizeof(Elf64_Sym))
			return lbtfi_err(4001, "%s: bad symbol table entry size", path);
		e->syms = elf_getdata(e->symtab, NULL);
		if (!e->syms)
			return lbtfi_err(4001, "%s: cannot read the symbol table", path);
		e->nr_syms = e->syms->d_size / sizeof(Elf64_Sym);
		count_programs(e);
	}
	return 0;
}

void oelf_close(struct oelf *e)
{
	if (e->elf)
		elf_end(e->elf);
	memset(e, 0, sizeof(*e));
}

bool oelf_sym(const struct oelf *e, size_t i, GElf_Sym *sym)
{
	return i < e->nr_syms && gelf_getsym(e->syms, (int)i, sym);
}

const char *oelf_sym_name(const struct oelf *e, const GElf_Sym *sym)
{
	return elf_strptr(e->elf, e->symtab_sh.sh_link, sym->st_name);
}

int oelf_sec_size(const struct oelf *e, const char *name, uint32_t *size)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		const char *n;

		if (!gelf_getshdr(scn, &sh) || !(n = sec_name(e, &sh)) || strcmp(n, name))
			continue;
		*size = (uint32_t)sh.sh_size;
		return 0;
	}
	return -ENOENT;
}
