// SPDX-License-Identifier: BSD-2-Clause
/*
 * The relocations of a relocatable object's (a kernel module's) debug
 * sections, applied here instead of by libdwfl for the common case: a
 * 64-bit object in the host's byte order, SHT_RELA sections with the
 * absolute relocation types of x86-64 and arm64, against symbols of the
 * object's own sections. libdwfl pays a symbol lookup through gelf and a
 * translated store for each relocation, and a large module has hundreds
 * of thousands of them in .debug_info; here each takes a few dozen
 * instructions.
 *
 * The values are libdwfl's: the SHF_ALLOC sections are laid out one after
 * the other from the same start address, each aligned, and a symbol's
 * value is its section's address plus st_value (non-allocated sections
 * are at 0). Anything else (another machine or type, REL sections,
 * compressed targets, an undefined, common or extended-index symbol, an
 * offset out of range) returns -ENOTSUP, and libdwfl relocates the file.
 *
 * The sections are changed in place: the ELF must be opened with
 * ELF_C_READ_MMAP_PRIVATE (a copy-on-write mapping) or read into memory,
 * and be dropped on -ENOTSUP (some relocations may have been applied).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "internal.h"
#include "util/grow.h"

/* libdwfl's first address for the sections of an offline module */
#define LAYOUT_START 0x10000u

#ifndef R_AARCH64_ABS64
#define R_AARCH64_ABS64 257
#define R_AARCH64_ABS32 258
#endif

/* The bytes a relocation type stores (4 or 8), 0 for none, -1 unknown */
static int reloc_width(unsigned int machine, unsigned int type)
{
	if (machine == EM_X86_64) {
		switch (type) {
		case R_X86_64_NONE: return 0;
		case R_X86_64_64: return 8;
		case R_X86_64_32: case R_X86_64_32S: return 4;
		}
	} else if (machine == EM_AARCH64) {
		switch (type) {
		case R_AARCH64_NONE: return 0;
		case R_AARCH64_ABS64: return 8;
		case R_AARCH64_ABS32: return 4;
		}
	}
	return -1;
}

struct rsec {
	GElf_Shdr sh;
	Elf_Scn *scn;
	uint64_t addr; /* laid out (SHF_ALLOC) or 0 */
};

struct relocator {
	Elf *elf;
	unsigned int machine;
	struct rsec *secs;
	size_t nsecs;
	struct lbtfi_dw_reloc_copies *copies; /* or NULL: in place only */
};

static bool host_le(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 1;
}

static int load_secs(struct relocator *r)
{
	uint64_t end = LAYOUT_START;

	if (elf_getshdrnum(r->elf, &r->nsecs) || !r->nsecs)
		return -ENOTSUP;
	r->secs = calloc(r->nsecs, sizeof(*r->secs));
	if (!r->secs)
		return -ENOMEM;
	for (size_t i = 1; i < r->nsecs; i++) {
		struct rsec *s = &r->secs[i];

		s->scn = elf_getscn(r->elf, i);
		if (!s->scn || !gelf_getshdr(s->scn, &s->sh))
			return -ENOTSUP;
		if (s->sh.sh_flags & SHF_ALLOC) {
			uint64_t align = s->sh.sh_addralign ? s->sh.sh_addralign : 1;

			if (s->sh.sh_addr || (align & (align - 1)))
				return -ENOTSUP; /* laid out already: not libdwfl's case */
			s->addr = (end + align - 1) & ~(align - 1);
			end = s->addr + s->sh.sh_size;
		}
	}
	return 0;
}

/* The relocation section's parts, checked; 0, or -ENOTSUP (not handled
 * here), or 1 when it is not a debug section's (left alone) */
static int rela_parts(struct relocator *r, const struct rsec *rs, Elf_Data **rel,
		      Elf_Data **syms, uint8_t **target, uint64_t *tlen)
{
	const struct rsec *ts, *ss;
	Elf_Data *td;

	if (rs->sh.sh_type == SHT_REL)
		return -ENOTSUP;
	if (rs->sh.sh_type != SHT_RELA)
		return 1;
	if (rs->sh.sh_info == 0 || rs->sh.sh_info >= r->nsecs || rs->sh.sh_link == 0 ||
	    rs->sh.sh_link >= r->nsecs)
		return -ENOTSUP;
	ts = &r->secs[rs->sh.sh_info];
	ss = &r->secs[rs->sh.sh_link];
	/* (libdwfl relocates the debug sections: not the loaded ones) */
	if ((ts->sh.sh_flags & SHF_ALLOC) || ts->sh.sh_type == SHT_NOBITS || !ts->sh.sh_size)
		return 1;
	if ((ts->sh.sh_flags & SHF_COMPRESSED) || ss->sh.sh_type != SHT_SYMTAB)
		return -ENOTSUP;
	*rel = elf_getdata(rs->scn, NULL);
	*syms = elf_getdata(ss->scn, NULL);
	td = elf_getdata(ts->scn, NULL);
	if (!*rel || (*rel)->d_type != ELF_T_RELA || !(*rel)->d_buf ||
	    ((uintptr_t)(*rel)->d_buf & 7) || !*syms || (*syms)->d_type != ELF_T_SYM ||
	    !(*syms)->d_buf || ((uintptr_t)(*syms)->d_buf & 7) || !td || !td->d_buf ||
	    td->d_size != ts->sh.sh_size || elf_getdata(ts->scn, td))
		return -ENOTSUP;
	*target = td->d_buf;
	*tlen = td->d_size;
	return 0;
}

static size_t copy_from(const struct lbtfi_dw_reloc_copies *c)
{
	return c->min_bytes ? c->min_bytes : LBTFI_BIG_BYTES;
}

static Elf_Data *rs_target(struct relocator *r, const struct rsec *rs)
{
	return elf_getdata(r->secs[rs->sh.sh_info].scn, NULL);
}

/*
 * The section's bytes copied out of the file mapping into a block of huge
 * pages, which libelf's Elf_Data then points to (what libdw and the reader
 * read): copy-on-write faults come a 4 KiB page at a time, and each costs
 * microseconds in a virtual machine. The block is freed with the handle
 * (libelf never frees a d_buf it did not allocate). False when out of
 * memory: then the section is relocated in place.
 */
static bool copy_section(struct relocator *r, Elf_Data *td, uint8_t **t)
{
	struct lbtfi_dw_reloc_copies *c = r->copies;
	void *buf;

	if (LBTFI_GROW(c->bufs, c->cap, c->n + 1) || !(buf = lbtfi_malloc_big(td->d_size)))
		return false;
	memcpy(buf, td->d_buf, td->d_size);
	/* (the file's pages just copied, unmapped again: not counted twice) */
	lbtfi_madvise_inside(td->d_buf, td->d_size, 0, MADV_DONTNEED);
	td->d_buf = buf;
	c->bufs[c->n++] = buf;
	*t = buf;
	return true;
}

void lbtfi_dw_reloc_copies_free(struct lbtfi_dw_reloc_copies *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->bufs[i]);
	free(c->bufs);
	c->bufs = NULL;
	c->n = c->cap = 0;
}

/* Every debug relocation, checked and applied */
static int apply_all(struct relocator *r)
{
	for (size_t i = 1; i < r->nsecs; i++) {
		const Elf64_Rela *rel;
		const Elf64_Sym *sym;
		Elf_Data *rd, *sd;
		uint8_t *t;
		uint64_t tlen;
		size_t nrel, nsym;
		int err = rela_parts(r, &r->secs[i], &rd, &sd, &t, &tlen);

		if (err == 1)
			continue;
		if (err)
			return err;
		rel = rd->d_buf;
		nrel = rd->d_size / sizeof(*rel);
		sym = sd->d_buf;
		nsym = sd->d_size / sizeof(*sym);
		/* a debug section's relocations touch nearly every page of it:
		 * its copy-on-write copies made in one call, not fault by fault
		 * (thousands of faults for a large module), or a big
		 * one read into huge pages (copy_section) */
		if (nrel > tlen / 4096 && !(r->copies && tlen >= copy_from(r->copies) &&
					    copy_section(r, rs_target(r, &r->secs[i]), &t)))
			lbtfi_prefault(t, tlen);
		for (size_t k = 0; k < nrel; k++) {
			uint64_t si = ELF64_R_SYM(rel[k].r_info), v;
			int w = reloc_width(r->machine, ELF64_R_TYPE(rel[k].r_info));
			uint16_t shndx;

			if (w == 0)
				continue;
			if (w < 0 || si >= nsym || rel[k].r_offset > tlen || tlen - rel[k].r_offset < (uint64_t)w)
				return -ENOTSUP;
			shndx = sym[si].st_shndx;
			if (shndx == SHN_ABS) {
				v = sym[si].st_value;
			} else if (shndx == SHN_UNDEF || shndx >= SHN_LORESERVE || shndx >= r->nsecs) {
				return -ENOTSUP;
			} else {
				v = r->secs[shndx].addr + sym[si].st_value;
			}
			v += (uint64_t)rel[k].r_addend;
			if (w == 8) {
				memcpy(t + rel[k].r_offset, &v, 8);
			} else {
				uint32_t v32 = (uint32_t)v;

				memcpy(t + rel[k].r_offset, &v32, 4);
			}
		}
	}
	return 0;
}

int lbtfi_dw_reloc_apply(Elf *elf)
{
	return lbtfi_dw_reloc_apply_copied(elf, NULL);
}

int lbtfi_dw_reloc_apply_copied(Elf *elf, struct lbtfi_dw_reloc_copies *copies)
{
	struct relocator r = { .elf = elf, .copies = copies };
	GElf_Ehdr eh;
	int err;

	if (!gelf_getehdr(elf, &eh) || eh.e_type != ET_REL || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != (host_le() ? ELFDATA2LSB : ELFDATA2MSB))
		return -ENOTSUP;
	r.machine = eh.e_machine;
	if (r.machine != EM_X86_64 && r.machine != EM_AARCH64)
		return -ENOTSUP;
	err = load_secs(&r);
	if (!err)
		err = apply_all(&r);
	free(r.secs);
	return err;
}
