// SPDX-License-Identifier: BSD-2-Clause
/*
 * Opening the DWARF of a file, one handle per thread (libdw's per-unit caches
 * are not shared safely between threads). The debug sections of ET_REL
 * objects are relocated first: by reloc.c in a copy-on-write mapping (the
 * common case), else by libdwfl; linked files are read with dwarf_begin_elf
 * directly.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "internal.h"

/* Never look for separate debug files: the input's own DWARF is converted. */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	return -1;
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = no_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/*
 * libdw found no DWARF: say why. Out of memory (libdw's or libelf's own
 * word, or errno from the allocation or mapping that failed, under a
 * `ulimit -v` say) is a system error, not an input without debug info.
 * errno was cleared before the call.
 */
static int no_dwarf(const char *path)
{
	int e = errno;
	const char *dw = dwarf_errmsg(-1), *el = elf_errmsg(-1);

	if (e == ENOMEM || (dw && strstr(dw, "out of memory")) ||
	    (el && strstr(el, "out of memory")))
		return lbtfi_err(ENOMEM, "%s: out of memory reading its DWARF debug info", path);
	return lbtfi_dw_err_no_dwarf(path);
}

static int open_rel(struct lbtfi_dw_handle *h, const char *path)
{
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	int fd = dup(h->fd);

	if (fd < 0)
		return lbtfi_err(errno, "%s: %s", path, strerror(errno));
	h->dwfl = dwfl_begin(&offline_callbacks);
	if (!h->dwfl) {
		close(fd);
		return lbtfi_err(ENOMEM, "libdwfl: %s", dwfl_errmsg(-1));
	}
	/* dwfl takes over fd */
	mod = dwfl_report_offline(h->dwfl, "", path, fd);
	if (!mod || dwfl_report_end(h->dwfl, NULL, NULL))
		return lbtfi_err(ENOEXEC, "%s: %s", path, dwfl_errmsg(-1));
	errno = 0;
	h->dw = dwfl_module_getdwarf(mod, &bias);
	if (!h->dw)
		return no_dwarf(path);
	return 0;
}

/*
 * Whether [p, p + size) lies in one mapping of a file (/proc/self/maps: an
 * inode). libelf reads a file it cannot map into memory of its own, which
 * dropped pages would leave zeroed: only a file's pages are read again.
 */
static bool file_mapping(const char *p, size_t size)
{
	FILE *f = fopen("/proc/self/maps", "re");
	unsigned long long lo, hi, ino;
	char line[512];
	bool file = false;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%llx %*s %*s %*s %llu", &lo, &hi, &ino) == 3 &&
		    (uintptr_t)p >= lo && (uintptr_t)p < hi) {
			file = ino != 0 && (uintptr_t)p + size <= hi;
			break;
		}
	if (f)
		fclose(f);
	return file;
}

/* Sections read once, unit after unit (lbtfi_dw_drop_read_once) */
static const char *const read_once[] = {
	".debug_abbrev", ".debug_loclists", ".debug_loc", ".debug_rnglists",
	".debug_ranges", ".debug_line", ".debug_info",
};
_Static_assert(sizeof(read_once) / sizeof(*read_once) <= LBTFI_DW_ONCE_MAX, "room for them");

static bool is_read_once(const char *name)
{
	for (size_t i = 0; i < sizeof(read_once) / sizeof(*read_once); i++)
		if (!strcmp(name, read_once[i]))
			return true;
	return false;
}

/*
 * Where the sections are the file's own bytes, where libelf hands out the
 * file's image itself (not a decompressed or converted copy): .debug_info's
 * units can then be read from the file (pread at info_foff), and when the
 * image is a mapping of the file, the pages of the sections read once can
 * be dropped (h->once).
 */
static void find_mapped_sections(struct lbtfi_dw_handle *h)
{
	size_t shstrndx, fsize;
	const char *raw = elf_rawfile(h->elf, &fsize);
	bool mapped = raw && file_mapping(raw, fsize);
	Elf_Scn *scn = NULL;

	if (!raw || elf_getshdrstrndx(h->elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(h->elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_flags & SHF_COMPRESSED))
			continue;
		name = elf_strptr(h->elf, shstrndx, sh.sh_name);
		if (!name || !is_read_once(name))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || (const char *)d->d_buf < raw ||
		    (const char *)d->d_buf + d->d_size > raw + fsize)
			continue;
		if (!strcmp(name, ".debug_info")) {
			h->info_in_file = true;
			h->info_foff = (uint64_t)((const char *)d->d_buf - raw);
		}
		if (mapped && h->nonce < LBTFI_DW_ONCE_MAX)
			h->once[h->nonce++] = (struct lbtfi_dw_span){ d->d_buf, d->d_size };
	}
}

int lbtfi_dw_err_no_dwarf(const char *path)
{
	return lbtfi_err(ENODATA, "%s: no DWARF debug info (.debug_info): compile it with -g, "
			 "or pass its separate debug file", path);
}

int lbtfi_dw_handle_open(struct lbtfi_dw_handle *h, const char *path, bool is_rel)
{
	memset(h, 0, sizeof(*h));
	h->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (h->fd < 0)
		return lbtfi_err(errno, "%s: %s", path, strerror(errno));
	if (is_rel) {
		/* (pages of a relocated mapping are never given back: read
		 * again from the file they would lose the relocations) */
		h->elf = elf_begin(h->fd, ELF_C_READ_MMAP_PRIVATE, NULL);
		if (h->elf && !lbtfi_dw_reloc_apply_copied(h->elf, &h->copies)) {
			errno = 0;
			h->dw = dwarf_begin_elf(h->elf, DWARF_C_READ, NULL);
			if (!h->dw)
				return no_dwarf(path);
			return 0;
		}
		if (h->elf)
			elf_end(h->elf);
		h->elf = NULL;
		lbtfi_dw_reloc_copies_free(&h->copies);
		return open_rel(h, path);
	}
	errno = 0;
	h->elf = elf_begin(h->fd, ELF_C_READ_MMAP, NULL);
	if (!h->elf && errno == ENOMEM)
		return lbtfi_err(ENOMEM, "%s: out of memory reading it", path);
	if (!h->elf)
		return lbtfi_err(ENOEXEC, "%s: not an ELF file", path);
	errno = 0;
	h->dw = dwarf_begin_elf(h->elf, DWARF_C_READ, NULL);
	if (!h->dw)
		return no_dwarf(path);
	find_mapped_sections(h);
	return 0;
}

void lbtfi_dw_drop_file_pages(Elf *elf)
{
	size_t size;
	char *raw = elf ? elf_rawfile(elf, &size) : NULL;

	if (raw && file_mapping(raw, size))
		lbtfi_madvise_inside(raw, size, 0, MADV_DONTNEED);
}

void lbtfi_dw_drop_read_once(const struct lbtfi_dw_handle *h)
{
	for (unsigned int i = 0; i < h->nonce; i++)
		lbtfi_madvise_inside(h->once[i].p, h->once[i].len, 0, MADV_DONTNEED);
}

void lbtfi_dw_handle_close(struct lbtfi_dw_handle *h)
{
	if (h->dwfl)
		dwfl_end(h->dwfl); /* owns its Dwarf */
	else if (h->dw)
		dwarf_end(h->dw);
	if (h->elf)
		elf_end(h->elf);
	lbtfi_dw_reloc_copies_free(&h->copies);
	if (h->fd >= 0)
		close(h->fd);
	memset(h, 0, sizeof(*h));
	h->fd = -1;
}

int lbtfi_dw_list_units(const struct lbtfi_dr_file *f, struct lbtfi_dw_unit_list *ul)
{
	uint32_t i;

	memset(ul, 0, sizeof(*ul));
	ul->die_offs = malloc((f->nunits + 1) * sizeof(*ul->die_offs));
	if (!ul->die_offs) {
		memset(ul, 0, sizeof(*ul));
		return lbtfi_err(ENOMEM, "out of memory");
	}
	/* Skeleton/split and type units have no C types of their own here;
	 * compile and partial (dwz) units are converted. */
	for (i = 0; i < f->nunits; i++) {
		unsigned int tag = f->units[i].tag;

		if (tag != DW_TAG_compile_unit && tag != DW_TAG_partial_unit)
			continue;
		ul->die_offs[ul->n++] = f->units[i].die_off;
	}
	return 0;
}
