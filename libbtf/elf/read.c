// SPDX-License-Identifier: BSD-2-Clause
/* The ELF section-table view: headers read field by field (memcpy, so any
 * alignment of the image is fine), swapped when the file's order differs. */
#include <endian.h>
#include <errno.h>
#include <string.h>
#include "util/err.h"
#include "internal.h"

#define HOST_DATA (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB)

static uint16_t rd16(const struct lbtfi_elf *e, const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return e->swap ? __builtin_bswap16(v) : v;
}

static uint32_t rd32(const struct lbtfi_elf *e, const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return e->swap ? __builtin_bswap32(v) : v;
}

static uint64_t rd64(const struct lbtfi_elf *e, const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return e->swap ? __builtin_bswap64(v) : v;
}

#define F(type, field) offsetof(type, field)

/* Section header i's raw fields; no range check of its contents */
static void read_shdr(const struct lbtfi_elf *e, size_t i, struct lbtfi_shdr *sh)
{
	const unsigned char *p = e->img + e->shoff + i * e->shentsize;

	if (e->is64 && !e->swap) { /* a BPF object's: the header as it is */
		Elf64_Shdr s;

		memcpy(&s, p, sizeof(s));
		sh->name = s.sh_name;
		sh->type = s.sh_type;
		sh->flags = s.sh_flags;
		sh->addr = s.sh_addr;
		sh->offset = s.sh_offset;
		sh->size = s.sh_size;
		sh->link = s.sh_link;
		sh->info = s.sh_info;
		sh->entsize = s.sh_entsize;
	} else if (e->is64) {
		sh->name = rd32(e, p + F(Elf64_Shdr, sh_name));
		sh->type = rd32(e, p + F(Elf64_Shdr, sh_type));
		sh->flags = rd64(e, p + F(Elf64_Shdr, sh_flags));
		sh->addr = rd64(e, p + F(Elf64_Shdr, sh_addr));
		sh->offset = rd64(e, p + F(Elf64_Shdr, sh_offset));
		sh->size = rd64(e, p + F(Elf64_Shdr, sh_size));
		sh->link = rd32(e, p + F(Elf64_Shdr, sh_link));
		sh->info = rd32(e, p + F(Elf64_Shdr, sh_info));
		sh->entsize = rd64(e, p + F(Elf64_Shdr, sh_entsize));
	} else {
		sh->name = rd32(e, p + F(Elf32_Shdr, sh_name));
		sh->type = rd32(e, p + F(Elf32_Shdr, sh_type));
		sh->flags = rd32(e, p + F(Elf32_Shdr, sh_flags));
		sh->addr = rd32(e, p + F(Elf32_Shdr, sh_addr));
		sh->offset = rd32(e, p + F(Elf32_Shdr, sh_offset));
		sh->size = rd32(e, p + F(Elf32_Shdr, sh_size));
		sh->link = rd32(e, p + F(Elf32_Shdr, sh_link));
		sh->info = rd32(e, p + F(Elf32_Shdr, sh_info));
		sh->entsize = rd32(e, p + F(Elf32_Shdr, sh_entsize));
	}
}

int lbtfi_elf_open(struct lbtfi_elf *e, const char *path, const void *img, size_t len)
{
	const unsigned char *p = img;
	size_t ehsize, shnum, shstrndx;

	memset(e, 0, sizeof(*e));
	if (len < SELFMAG || memcmp(p, ELFMAG, SELFMAG))
		return lbtfi_err(EINVAL, "%s: not an ELF file", path);
	if (len < EI_NIDENT || (p[EI_CLASS] != ELFCLASS32 && p[EI_CLASS] != ELFCLASS64) ||
	    (p[EI_DATA] != ELFDATA2LSB && p[EI_DATA] != ELFDATA2MSB))
		return lbtfi_err(EINVAL, "%s: truncated or bad ELF header", path);
	e->img = p;
	e->len = len;
	e->is64 = p[EI_CLASS] == ELFCLASS64;
	e->swap = p[EI_DATA] != HOST_DATA;
	ehsize = e->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	if (len < ehsize)
		return lbtfi_err(EINVAL, "%s: truncated or bad ELF header", path);
	if (e->is64) {
		e->type = rd16(e, p + F(Elf64_Ehdr, e_type));
		e->machine = rd16(e, p + F(Elf64_Ehdr, e_machine));
		e->shoff = rd64(e, p + F(Elf64_Ehdr, e_shoff));
		e->shentsize = rd16(e, p + F(Elf64_Ehdr, e_shentsize));
		shnum = rd16(e, p + F(Elf64_Ehdr, e_shnum));
		shstrndx = rd16(e, p + F(Elf64_Ehdr, e_shstrndx));
	} else {
		e->type = rd16(e, p + F(Elf32_Ehdr, e_type));
		e->machine = rd16(e, p + F(Elf32_Ehdr, e_machine));
		e->shoff = rd32(e, p + F(Elf32_Ehdr, e_shoff));
		e->shentsize = rd16(e, p + F(Elf32_Ehdr, e_shentsize));
		shnum = rd16(e, p + F(Elf32_Ehdr, e_shnum));
		shstrndx = rd16(e, p + F(Elf32_Ehdr, e_shstrndx));
	}
	if (!e->shoff)
		return 0; /* no section header table: no sections */
	if (e->shentsize != (e->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr)))
		return lbtfi_err(EINVAL, "%s: bad ELF section headers (entry size %zu)", path,
				 e->shentsize);
	/* extended numbering: the real count and name table index are in
	 * section header 0 when they do not fit the ELF header */
	if (e->shoff > len || e->shentsize > len - e->shoff)
		goto truncated;
	if (shnum == 0 || shstrndx == SHN_XINDEX) {
		struct lbtfi_shdr sh0;

		read_shdr(e, 0, &sh0);
		if (shnum == 0)
			shnum = sh0.size;
		if (shstrndx == SHN_XINDEX)
			shstrndx = sh0.link;
	}
	if (shnum > (len - e->shoff) / e->shentsize)
		goto truncated;
	if (shstrndx >= shnum)
		return lbtfi_err(EINVAL, "%s: bad ELF section headers (name table %zu of %zu)", path,
				 shstrndx, shnum);
	e->shnum = shnum;
	e->shstrndx = shstrndx;
	return 0;
truncated:
	return lbtfi_err(EINVAL, "%s: truncated ELF file (section headers end past its %zu bytes)",
			 path, len);
}

bool lbtfi_elf_shdr(const struct lbtfi_elf *e, size_t i, struct lbtfi_shdr *sh)
{
	if (i >= e->shnum)
		return false;
	read_shdr(e, i, sh);
	return true;
}

const void *lbtfi_elf_sec_data(const struct lbtfi_elf *e, const struct lbtfi_shdr *sh)
{
	if (sh->type == SHT_NOBITS || sh->offset > e->len || sh->size > e->len - sh->offset)
		return NULL;
	return e->img + sh->offset;
}

const char *lbtfi_elf_str(const struct lbtfi_elf *e, size_t strndx, uint64_t off)
{
	struct lbtfi_shdr sh;
	const char *s;

	if (!strndx || !lbtfi_elf_shdr(e, strndx, &sh) || sh.type != SHT_STRTAB ||
	    off >= sh.size || !(s = lbtfi_elf_sec_data(e, &sh)))
		return NULL;
	/* the string must end inside its table: it does when the table ends
	 * with a NUL, as tables do (a look at one byte, not a scan per call) */
	if (!s[sh.size - 1])
		return s + off;
	return memchr(s + off, '\0', sh.size - off) ? s + off : NULL;
}

const char *lbtfi_elf_sec_name(const struct lbtfi_elf *e, const struct lbtfi_shdr *sh)
{
	return lbtfi_elf_str(e, e->shstrndx, sh->name);
}

size_t lbtfi_elf_find(const struct lbtfi_elf *e, const char *name, struct lbtfi_shdr *sh)
{
	for (size_t i = 1; i < e->shnum; i++) {
		const char *n;

		read_shdr(e, i, sh);
		if ((n = lbtfi_elf_sec_name(e, sh)) && !strcmp(n, name))
			return i;
	}
	return 0;
}

int lbtfi_elf_section_data(const struct lbtfi_elf *e, const char *path, const char *name,
			   const void **data, size_t *size)
{
	struct lbtfi_shdr sh;

	if (!lbtfi_elf_find(e, name, &sh))
		return lbtfi_err(ENODATA, "%s: no %s section", path, name);
	return lbtfi_elf_shdr_data(e, path, name, &sh, data, size);
}

int lbtfi_elf_shdr_data(const struct lbtfi_elf *e, const char *path, const char *name,
			const struct lbtfi_shdr *sh, const void **data, size_t *size)
{
	if (sh->type == SHT_NOBITS)
		return lbtfi_err(ENODATA, "%s: %s section has no data (NOBITS, stripped file?)", path,
				 name);
	if (!(*data = lbtfi_elf_sec_data(e, sh)))
		return lbtfi_err(EINVAL, "%s: %s section is truncated (offset %llu, size %llu, file %zu bytes)",
				 path, name, (unsigned long long)sh->offset, (unsigned long long)sh->size,
				 e->len);
	*size = sh->size;
	return 0;
}

size_t lbtfi_elf_nr_syms(const struct lbtfi_elf *e, const struct lbtfi_shdr *symtab)
{
	size_t ent = e->is64 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);

	if (symtab->entsize != ent || !lbtfi_elf_sec_data(e, symtab))
		return 0;
	return symtab->size / ent;
}

bool lbtfi_elf_sym(const struct lbtfi_elf *e, const struct lbtfi_shdr *symtab, size_t i,
		   Elf64_Sym *sym)
{
	const unsigned char *p;

	if (i >= lbtfi_elf_nr_syms(e, symtab))
		return false;
	p = e->img + symtab->offset + i * symtab->entsize;
	if (e->is64) {
		sym->st_name = rd32(e, p + F(Elf64_Sym, st_name));
		sym->st_info = p[F(Elf64_Sym, st_info)];
		sym->st_other = p[F(Elf64_Sym, st_other)];
		sym->st_shndx = rd16(e, p + F(Elf64_Sym, st_shndx));
		sym->st_value = rd64(e, p + F(Elf64_Sym, st_value));
		sym->st_size = rd64(e, p + F(Elf64_Sym, st_size));
	} else {
		sym->st_name = rd32(e, p + F(Elf32_Sym, st_name));
		sym->st_info = p[F(Elf32_Sym, st_info)];
		sym->st_other = p[F(Elf32_Sym, st_other)];
		sym->st_shndx = rd16(e, p + F(Elf32_Sym, st_shndx));
		sym->st_value = rd32(e, p + F(Elf32_Sym, st_value));
		sym->st_size = rd32(e, p + F(Elf32_Sym, st_size));
	}
	return true;
}
