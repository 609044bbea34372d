// SPDX-License-Identifier: BSD-2-Clause
/*
 * Checks of an ELF file before its .BTF section is rewritten: the rewrite
 * trusts section offsets and alignments, so a file whose headers no linker
 * or assembler would produce is refused before anything is written.
 *
 * - alignments: a power of two, at most ELF_ALIGN_MAX (real objects use at
 *   most a page or a huge page); a relocatable object is laid out again,
 *   and its padding may not exceed the bound below;
 * - contents: inside the file, and not over the ELF header or the program
 *   header table (a rewrite would write the section over them).
 */
#include <gelf.h>
#include <string.h>
#include "internal.h"

#define ELF_ALIGN_MAX (16ull << 20)
/* padding a relayout may add, beyond the input's size */
#define ELF_PAD_MIN (16ull << 20)

static const char *sec_name(Elf *e, size_t shstrndx, const GElf_Shdr *sh)
{
	const char *n = shstrndx ? elf_strptr(e, shstrndx, sh->sh_name) : NULL;

	return n ? n : "?";
}

int lbtfi_elf_check_rewrite(Elf *e, const char *path, uint64_t file_size)
{
	uint64_t ph_lo = 0, ph_hi = 0, pad = 0, pos, pad_max;
	size_t shstrndx = 0, phnum = 0;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;

	if (!gelf_getehdr(e, &eh) || elf_getphdrnum(e, &phnum))
		return lbtfi_err(EINVAL, "%s: bad ELF or program headers: %s", path, elf_errmsg(-1));
	if (elf_getshdrstrndx(e, &shstrndx))
		shstrndx = 0;
	if (phnum) {
		ph_lo = eh.e_phoff;
		ph_hi = eh.e_phoff + (uint64_t)phnum * eh.e_phentsize;
		if (ph_hi < ph_lo || ph_hi > file_size)
			return lbtfi_err(EINVAL, "%s: program header table past the end of the file", path);
	}
	pos = ph_hi > eh.e_ehsize ? ph_hi : eh.e_ehsize;
	pad_max = file_size > ELF_PAD_MIN ? file_size : ELF_PAD_MIN;
	while ((scn = elf_nextscn(e, scn))) {
		size_t idx = elf_ndxscn(scn);
		uint64_t a, lo, hi;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			return lbtfi_err(EINVAL, "%s: bad section header %zu: %s", path, idx, elf_errmsg(-1));
		a = sh.sh_addralign;
		if ((a & (a - 1)) || a > ELF_ALIGN_MAX)
			return lbtfi_err(EINVAL, "%s: section %zu (%s): alignment %llu is not a power of two of at most %llu; refusing to rewrite",
					 path, idx, sec_name(e, shstrndx, &sh), (unsigned long long)a,
					 ELF_ALIGN_MAX);
		if (sh.sh_type == SHT_NOBITS || !sh.sh_size)
			continue;
		lo = sh.sh_offset;
		hi = lo + sh.sh_size;
		if (hi < lo || hi > file_size)
			return lbtfi_err(EINVAL, "%s: section %zu (%s) extends past the end of the file; refusing to rewrite",
					 path, idx, sec_name(e, shstrndx, &sh));
		if (lo < eh.e_ehsize)
			return lbtfi_err(EINVAL, "%s: section %zu (%s) overlaps the ELF header; refusing to rewrite",
					 path, idx, sec_name(e, shstrndx, &sh));
		if (phnum && lo < ph_hi && hi > ph_lo)
			return lbtfi_err(EINVAL, "%s: section %zu (%s) overlaps the program header table; refusing to rewrite",
					 path, idx, sec_name(e, shstrndx, &sh));
		/* the padding a fresh layout (relocatable objects) would add */
		if (a > 1 && pos % a)
			pad += a - pos % a;
		pos += (a > 1 && pos % a ? a - pos % a : 0) + sh.sh_size;
	}
	if (eh.e_type == ET_REL && pad > pad_max)
		return lbtfi_err(EINVAL, "%s: section alignments would add %llu bytes of padding; refusing to rewrite",
				 path, (unsigned long long)pad);
	return 0;
}
