// SPDX-License-Identifier: BSD-2-Clause
/*
 * Writing a .BTF section into an ELF file with libelf (no objcopy): the
 * whole file is rewritten section by section into a temporary file next to
 * the output, which is renamed over it only when complete.
 *
 * Relocatable objects get a fresh layout from libelf. Files with program
 * headers keep every offset (segments must not move): a .BTF that grows,
 * and a section name table that must grow, move to the end of the file.
 * A .rel.BTF (clang emits one: DATASEC offsets to be filled by a linker)
 * belonged to the old blob; the new blob's DATASECs carry final offsets and
 * sizes (as `bpftool gen object` output does), so nothing needs it: it is
 * removed from relocatable objects (section indices after it renumbered in
 * headers, symbols and groups) and emptied in linked files. A replacement
 * .BTF.ext (opts) must keep the old one's size when a .rel.BTF.ext patches it
 * in a linked file; in a relocatable object a .rel.BTF.ext of a .BTF.ext of
 * another layout is removed. A .BTF.base (opts: the distilled base of a
 * module's .BTF) is replaced or added; a relocatable object's old
 * .BTF.base is removed when none is given, as it described the old .BTF.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"
#include "elf/internal.h"
#include "io/io.h"

#define BTF_NAME ".BTF"
#define BTF_EXT_NAME ".BTF.ext"
#define BTF_BASE_NAME ".BTF.base"

static bool host_is_le(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 1;
}

int lbtf_elf_is_swapped(const char *path)
{
	unsigned char id[EI_NIDENT];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return lbtfi_err(errno, "%s: %s", path, strerror(errno));
	n = read(fd, id, sizeof(id));
	close(fd);
	if (n != (ssize_t)sizeof(id) || memcmp(id, ELFMAG, SELFMAG))
		return lbtfi_err(EINVAL, "%s: not an ELF file", path);
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB)
		return lbtfi_err(EINVAL, "%s: unknown ELF byte order %u", path, id[EI_DATA]);
	return (id[EI_DATA] == ELFDATA2LSB) != host_is_le();
}

struct elf_job {
	const char *in_path;
	Elf *in, *out;
	GElf_Ehdr eh;
	size_t shstrndx, nsec;
	size_t btf_idx;         /* 0: none yet */
	bool fixed_layout;      /* keep offsets (file has program headers) */
	char *shstr_buf;        /* grown section name table, if ".BTF" or ".BTF.ext" is new */
	size_t shstr_size;
	uint64_t end;           /* end of the laid-out contents (fixed layout) */
	const void *ext;        /* replacement .BTF.ext contents, or NULL */
	size_t ext_size;
	size_t ext_idx;         /* the .BTF.ext section (0: none) */
	const void *base;       /* new .BTF.base contents, or NULL */
	size_t base_size;
	size_t base_idx;        /* the .BTF.base section (0: none) */
	size_t *newidx;         /* input index -> output index (0: dropped) */
	bool dropping;          /* some section is dropped */
	void *owned[8];         /* data buffers made here, freed at the end */
	unsigned int n_owned;
};

static int elf_fail(const char *path, const char *what)
{
	return lbtfi_err(EINVAL, "%s: %s: %s", path, what, elf_errmsg(-1));
}

int lbtf_elf_has_section(const char *path, const char *name)
{
	struct lbtfi_elf e;
	struct lbtfi_shdr sh;
	size_t len;
	bool mapped;
	void *buf;
	int found;

	if ((found = lbtfi_file_read(path, &buf, &len, &mapped)))
		return found;
	found = lbtfi_elf_open(&e, path, buf, len);
	if (!found)
		found = lbtfi_elf_find(&e, name, &sh) && sh.type != SHT_NOBITS && sh.size;
	lbtfi_file_unload(buf, len, mapped);
	return found;
}

static int find_btf(struct elf_job *j)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(j->in, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return elf_fail(j->in_path, "bad section header");
		name = elf_strptr(j->in, j->shstrndx, sh.sh_name);
		if (name && !strcmp(name, BTF_NAME) && !j->btf_idx)
			j->btf_idx = elf_ndxscn(scn);
		if (name && !strcmp(name, BTF_EXT_NAME) && !j->ext_idx)
			j->ext_idx = elf_ndxscn(scn);
		if (name && !strcmp(name, BTF_BASE_NAME) && !j->base_idx)
			j->base_idx = elf_ndxscn(scn);
	}
	return 0;
}

static bool is_rel(const GElf_Shdr *sh)
{
	return sh->sh_type == SHT_REL || sh->sh_type == SHT_RELA;
}

/*
 * Which sections stay and their new indices: in a relocatable object the
 * relocations of .BTF go. A replaced .BTF.ext that changes size cannot keep
 * the relocations that patch it.
 */
static int plan_sections(struct elf_job *j)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr esh = { 0 };
	size_t next = 1;

	if (j->ext && j->ext_idx && !gelf_getshdr(elf_getscn(j->in, j->ext_idx), &esh))
		return elf_fail(j->in_path, "bad .BTF.ext section header");
	j->newidx = calloc(j->nsec ? j->nsec : 1, sizeof(*j->newidx));
	if (!j->newidx)
		return lbtfi_err(ENOMEM, "out of memory");
	while ((scn = elf_nextscn(j->in, scn))) {
		size_t idx = elf_ndxscn(scn);
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh) || idx >= j->nsec)
			return elf_fail(j->in_path, "bad section header");
		/* a new .BTF.ext layout (generated records, not rewritten ones):
		 * its relocations go, as `bpftool gen object` writes none */
		if (j->ext && j->ext_idx && is_rel(&sh) && sh.sh_info == j->ext_idx && sh.sh_size &&
		    j->ext_size != esh.sh_size && !j->fixed_layout) {
			j->dropping = true;
			continue;
		}
		if (j->ext && is_rel(&sh) && sh.sh_info == j->ext_idx && sh.sh_size &&
		    j->ext_size != esh.sh_size)
			return lbtfi_err(EINVAL, "%s: the new .BTF.ext (%zu bytes) does not keep the layout (%llu bytes) its relocations patch",
					 j->in_path, j->ext_size, (unsigned long long)esh.sh_size);
		if (!j->fixed_layout && j->btf_idx && is_rel(&sh) && sh.sh_info == j->btf_idx) {
			j->dropping = true;
			continue;
		}
		/* a stale distilled base: it described the old .BTF */
		if (!j->fixed_layout && idx == j->base_idx && !j->base) {
			j->dropping = true;
			continue;
		}
		j->newidx[idx] = next++;
	}
	return 0;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return a > 1 ? (v + a - 1) / a * a : v;
}

/* Give the output section one data buffer (not copied: the input or the
 * caller's blob stay alive until the file is written). */
static int set_data(Elf_Scn *scn, const void *buf, size_t size, Elf_Type type, size_t align)
{
	Elf_Data *d = elf_newdata(scn);

	if (!d)
		return -1;
	/* d_buf is not const in libelf's API, but writing the file only reads it */
	d->d_buf = (void *)(uintptr_t)buf;
	d->d_size = size;
	d->d_type = type;
	d->d_off = 0;
	d->d_align = align ? align : 1;
	d->d_version = EV_CURRENT;
	return 0;
}

/* Place a (moved or new) section at the end of the contents */
static void place_at_end(struct elf_job *j, GElf_Shdr *sh)
{
	sh->sh_offset = align_up(j->end, sh->sh_addralign ? sh->sh_addralign : 1);
	j->end = sh->sh_offset + sh->sh_size;
}

/* Output index of input section i (i itself when nothing is dropped) */
static size_t map_idx(const struct elf_job *j, size_t i)
{
	return j->dropping && i < j->nsec ? j->newidx[i] : i;
}

/* A private copy of an output section's (single) buffer, to renumber in */
static Elf_Data *own_data(struct elf_job *j, Elf_Scn *os)
{
	Elf_Data *od = elf_getdata(os, NULL);
	void *copy;

	if (!od || elf_getdata(os, od) || j->n_owned == sizeof(j->owned) / sizeof(j->owned[0]))
		return NULL;
	copy = malloc(od->d_size ? od->d_size : 1);
	if (!copy)
		return NULL;
	if (od->d_size)
		memcpy(copy, od->d_buf, od->d_size);
	j->owned[j->n_owned++] = copy;
	od->d_buf = copy;
	return od;
}

/* Section indices inside symbols, extended indices and groups */
static int renumber_contents(struct elf_job *j, Elf_Scn *os, const GElf_Shdr *sh)
{
	Elf_Data *od;

	if (sh->sh_type != SHT_SYMTAB && sh->sh_type != SHT_DYNSYM &&
	    sh->sh_type != SHT_SYMTAB_SHNDX && sh->sh_type != SHT_GROUP)
		return 0;
	if (!sh->sh_size)
		return 0;
	od = own_data(j, os);
	if (!od)
		return lbtfi_err(ENOMEM, "%s: cannot renumber the section indices of a %s", j->in_path,
				 sh->sh_type == SHT_GROUP ? "section group" : "symbol table");
	if (sh->sh_type == SHT_SYMTAB || sh->sh_type == SHT_DYNSYM) {
		size_t n = sh->sh_entsize ? od->d_size / sh->sh_entsize : 0;

		for (size_t i = 0; i < n; i++) {
			GElf_Sym sym;

			if (!gelf_getsym(od, (int)i, &sym))
				return elf_fail(j->in_path, "bad symbol");
			if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
				continue;
			if (!map_idx(j, sym.st_shndx))
				return lbtfi_err(EINVAL, "%s: symbol %zu is in a relocation section of .BTF",
						 j->in_path, i);
			sym.st_shndx = (uint16_t)map_idx(j, sym.st_shndx);
			if (!gelf_update_sym(od, (int)i, &sym))
				return elf_fail(j->in_path, "cannot renumber a symbol");
		}
	} else {
		uint32_t *w = od->d_buf;
		/* a group's first word is its flags, then section indices */
		size_t first = sh->sh_type == SHT_GROUP ? 1 : 0;

		for (size_t i = first; i < od->d_size / 4; i++)
			if (w[i] && w[i] < j->nsec)
				w[i] = (uint32_t)map_idx(j, w[i]);
	}
	return 0;
}

static int copy_sections(struct elf_job *j, const void *blob, size_t blob_size)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(j->in, scn))) {
		size_t idx = elf_ndxscn(scn);
		Elf_Scn *os;
		Elf_Data *d = NULL;
		GElf_Shdr sh;
		bool moved = false;
		int err = 0;

		if (j->dropping && !map_idx(j, idx))
			continue;
		os = elf_newscn(j->out);
		if (!os || !gelf_getshdr(scn, &sh))
			return elf_fail(j->in_path, "cannot copy section header");
		if (idx == j->btf_idx) {
			if (j->fixed_layout && (sh.sh_flags & SHF_ALLOC) && blob_size > sh.sh_size)
				return lbtfi_err(ENOSPC, "%s: allocated .BTF section (%llu bytes) cannot grow to %zu bytes in place",
						 j->in_path, (unsigned long long)sh.sh_size, blob_size);
			moved = blob_size > sh.sh_size || sh.sh_type == SHT_NOBITS;
			sh.sh_type = SHT_PROGBITS;
			sh.sh_size = blob_size;
			err = set_data(os, blob, blob_size, ELF_T_BYTE, sh.sh_addralign);
		} else if (idx == j->ext_idx && j->ext) {
			moved = j->ext_size > sh.sh_size;
			sh.sh_size = j->ext_size;
			err = set_data(os, j->ext, j->ext_size, ELF_T_BYTE, sh.sh_addralign);
		} else if (idx == j->base_idx && j->base) {
			moved = j->base_size > sh.sh_size;
			sh.sh_size = j->base_size;
			err = set_data(os, j->base, j->base_size, ELF_T_BYTE, sh.sh_addralign);
		} else if (is_rel(&sh) && j->btf_idx && sh.sh_info == j->btf_idx) {
			sh.sh_size = 0;
			err = set_data(os, NULL, 0, ELF_T_BYTE, sh.sh_addralign);
		} else if (idx == j->shstrndx && j->shstr_buf) {
			sh.sh_size = j->shstr_size;
			moved = true;
			err = set_data(os, j->shstr_buf, sh.sh_size, ELF_T_BYTE, sh.sh_addralign);
		} else {
			/* every data buffer of the section, as libelf translated it */
			while (!err && (d = elf_getdata(scn, d)))
				err = set_data(os, d->d_buf, d->d_size, d->d_type, d->d_align) ? -1 : 0;
			if (!err && sh.sh_type != SHT_NOBITS && sh.sh_size && !elf_getdata(scn, NULL))
				return elf_fail(j->in_path, "cannot read section data");
			/* several buffers: lay them out back to back */
			if (!err) {
				Elf_Data *od = NULL;
				size_t off = 0;
				while ((od = elf_getdata(os, od))) {
					od->d_off = (int64_t)align_up(off, od->d_align);
					off = (size_t)od->d_off + od->d_size;
				}
			}
		}
		if (err)
			return elf_fail(j->in_path, "cannot copy section data");
		if (j->dropping) {
			if (sh.sh_link && sh.sh_link < j->nsec && !(sh.sh_link = (uint32_t)map_idx(j, sh.sh_link)))
				return lbtfi_err(EINVAL, "%s: a section links to a relocation section of .BTF",
						 j->in_path);
			if ((is_rel(&sh) || (sh.sh_flags & SHF_INFO_LINK)) && sh.sh_info && sh.sh_info < j->nsec)
				sh.sh_info = (uint32_t)map_idx(j, sh.sh_info);
			if ((err = renumber_contents(j, os, &sh)))
				return err;
		}
		if (j->fixed_layout && moved)
			place_at_end(j, &sh);
		if (!gelf_update_shdr(os, &sh))
			return elf_fail(j->in_path, "cannot write section header");
	}
	return 0;
}

/* End of everything that keeps its offset: headers and section contents */
static int contents_end(struct elf_job *j)
{
	Elf_Scn *scn = NULL;
	size_t phnum;

	j->end = j->eh.e_ehsize;
	if (elf_getphdrnum(j->in, &phnum))
		return elf_fail(j->in_path, "bad program headers");
	if (phnum)
		j->end = j->eh.e_phoff + (uint64_t)phnum * j->eh.e_phentsize > j->end ?
				 j->eh.e_phoff + (uint64_t)phnum * j->eh.e_phentsize : j->end;
	while ((scn = elf_nextscn(j->in, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			return elf_fail(j->in_path, "bad section header");
		if (sh.sh_type != SHT_NOBITS && sh.sh_offset + sh.sh_size > j->end)
			j->end = sh.sh_offset + sh.sh_size;
	}
	return 0;
}

static int add_btf_section(struct elf_job *j, const void *blob, size_t blob_size, size_t name_off)
{
	Elf_Scn *os = elf_newscn(j->out);
	GElf_Shdr sh;

	if (!os || !gelf_getshdr(os, &sh))
		return elf_fail(j->in_path, "cannot add a section");
	memset(&sh, 0, sizeof(sh));
	sh.sh_name = name_off;
	sh.sh_type = SHT_PROGBITS;
	sh.sh_addralign = 4;
	sh.sh_size = blob_size;
	if (set_data(os, blob, blob_size, ELF_T_BYTE, 4))
		return elf_fail(j->in_path, "cannot add section data");
	if (j->fixed_layout)
		place_at_end(j, &sh);
	if (!gelf_update_shdr(os, &sh))
		return elf_fail(j->in_path, "cannot write section header");
	return 0;
}

static int copy_headers(struct elf_job *j)
{
	GElf_Ehdr oh;
	size_t phnum;

	if (!gelf_newehdr(j->out, gelf_getclass(j->in)) || !gelf_getehdr(j->out, &oh))
		return elf_fail(j->in_path, "cannot create ELF header");
	oh = j->eh;
	if (!gelf_update_ehdr(j->out, &oh))
		return elf_fail(j->in_path, "cannot write ELF header");
	if (elf_getphdrnum(j->in, &phnum))
		return elf_fail(j->in_path, "bad program headers");
	if (!phnum)
		return 0;
	if (!gelf_newphdr(j->out, phnum))
		return elf_fail(j->in_path, "cannot create program headers");
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(j->in, (int)i, &ph) || !gelf_update_phdr(j->out, (int)i, &ph))
			return elf_fail(j->in_path, "cannot copy program headers");
	}
	return 0;
}

/* The blob's magic must be in the ELF's byte order */
static int check_blob_order(struct elf_job *j, const void *blob, size_t size)
{
	uint16_t magic;
	bool elf_le = j->eh.e_ident[EI_DATA] == ELFDATA2LSB;
	uint16_t want = elf_le == host_is_le() ? LBTF_MAGIC : lbtf_bswap16(LBTF_MAGIC);

	if (size < 24)
		return lbtfi_err(EINVAL, "BTF blob too small (%zu bytes)", size);
	memcpy(&magic, blob, 2);
	if (magic != want)
		return lbtfi_err(EINVAL, "%s: BTF blob is not in the ELF's byte order (%s endian)",
				 j->in_path, elf_le ? "little" : "big");
	return 0;
}

/* The name table's index: in the ELF header, or past SHN_LORESERVE
 * sections in section 0's sh_link (libelf keeps the section count there) */
static int set_shstrndx(struct elf_job *j)
{
	GElf_Ehdr oh;

	if (!gelf_getehdr(j->out, &oh))
		return elf_fail(j->in_path, "cannot update the ELF header");
	size_t shstrndx = map_idx(j, j->shstrndx);

	if (shstrndx >= SHN_LORESERVE) {
		Elf_Scn *s0 = elf_getscn(j->out, 0);
		GElf_Shdr sh;

		if (!s0 || !gelf_getshdr(s0, &sh))
			return elf_fail(j->in_path, "cannot update section 0");
		sh.sh_link = (uint32_t)shstrndx;
		if (!gelf_update_shdr(s0, &sh))
			return elf_fail(j->in_path, "cannot update section 0");
		oh.e_shstrndx = SHN_XINDEX;
	} else {
		oh.e_shstrndx = (uint16_t)shstrndx;
	}
	if (!gelf_update_ehdr(j->out, &oh))
		return elf_fail(j->in_path, "cannot update the ELF header");
	return 0;
}

/* A section name appended to the grown name table: its offset */
static size_t append_name(struct elf_job *j, const char *name)
{
	size_t off = j->shstr_size, n = strlen(name) + 1;

	memcpy(j->shstr_buf + off, name, n);
	j->shstr_size += n;
	return off;
}

static int rewrite(struct elf_job *j, int fd_out, const void *blob, size_t size)
{
	size_t name_off = 0, ext_name_off = 0, base_name_off = 0;
	bool add_ext, add_base;
	int err;

	if (!gelf_getehdr(j->in, &j->eh))
		return elf_fail(j->in_path, "bad ELF header");
	if ((err = check_blob_order(j, blob, size)))
		return err;
	if (elf_getshdrstrndx(j->in, &j->shstrndx) || elf_getshdrnum(j->in, &j->nsec))
		return elf_fail(j->in_path, "bad section headers");
	if (!j->shstrndx)
		return lbtfi_err(EINVAL, "%s: no section name table", j->in_path);
	if ((err = find_btf(j)))
		return err;
	j->fixed_layout = j->eh.e_type != ET_REL;
	if ((err = plan_sections(j)))
		return err;
	/* a new .BTF, .BTF.ext and/or .BTF.base: their names join the name table */
	add_ext = j->ext && !j->ext_idx;
	add_base = j->base && !j->base_idx;
	if (!j->btf_idx || add_ext || add_base) {
		Elf_Data *d = elf_getdata(elf_getscn(j->in, j->shstrndx), NULL);

		if (!d)
			return elf_fail(j->in_path, "cannot read section names");
		j->shstr_size = d->d_size;
		j->shstr_buf = malloc(d->d_size + sizeof(BTF_NAME) + sizeof(BTF_EXT_NAME) +
				      sizeof(BTF_BASE_NAME));
		if (!j->shstr_buf)
			return lbtfi_err(ENOMEM, "out of memory");
		if (d->d_size)
			memcpy(j->shstr_buf, d->d_buf, d->d_size);
		if (!j->btf_idx)
			name_off = append_name(j, BTF_NAME);
		if (add_ext)
			ext_name_off = append_name(j, BTF_EXT_NAME);
		if (add_base)
			base_name_off = append_name(j, BTF_BASE_NAME);
	}
	j->out = elf_begin(fd_out, ELF_C_WRITE, NULL);
	if (!j->out)
		return elf_fail(j->in_path, "cannot start the output");
	if (j->fixed_layout) {
		elf_flagelf(j->out, ELF_C_SET, ELF_F_LAYOUT);
		if ((err = contents_end(j)))
			return err;
	}
	if ((err = copy_headers(j)) || (err = copy_sections(j, blob, size)))
		return err;
	if (!j->btf_idx && (err = add_btf_section(j, blob, size, name_off)))
		return err;
	if (add_ext && (err = add_btf_section(j, j->ext, j->ext_size, ext_name_off)))
		return err;
	if (add_base && (err = add_btf_section(j, j->base, j->base_size, base_name_off)))
		return err;
	if ((err = set_shstrndx(j)))
		return err;
	if (j->fixed_layout) {
		GElf_Ehdr oh;
		size_t align = gelf_getclass(j->in) == ELFCLASS32 ? 4 : 8;

		gelf_getehdr(j->out, &oh);
		oh.e_shoff = align_up(j->end, align);
		gelf_update_ehdr(j->out, &oh);
	}
	errno = 0;
	if (elf_update(j->out, ELF_C_WRITE) < 0) {
		/* libelf says "cannot write data to file" for every failed
		 * write: the errno of the write says whether the file system
		 * was full (ENOSPC, EDQUOT), failed (EIO) or memory ran out,
		 * which are not the input's fault */
		int e = errno;

		if (e == ENOSPC || e == EDQUOT || e == EIO || e == ENOMEM || e == EFBIG)
			return lbtfi_err(e, "%s: cannot write the new ELF: %s", j->in_path,
					 strerror(e));
		return elf_fail(j->in_path, "cannot write the new ELF");
	}
	return 0;
}

int lbtf_elf_write_btf(const char *in_path, const char *out_path, const void *data, size_t size,
		       const struct lbtf_elf_write_opts *opts)
{
	struct lbtf_elf_write_opts o;
	struct elf_job j = { .in_path = in_path };
	struct stat st;
	char *tmp;
	int fd_in, fd_out, err;

	if ((err = LBTFI_OPTS_COPY(&o, opts, lbtf_elf_write_opts)))
		return err;
	if (!o.btf_ext != !o.btf_ext_size)
		return lbtfi_err(EINVAL, "lbtf_elf_write_opts: btf_ext and btf_ext_size go together");
	j.ext = o.btf_ext;
	j.ext_size = o.btf_ext_size;
	if (!o.btf_base != !o.btf_base_size)
		return lbtfi_err(EINVAL, "lbtf_elf_write_opts: btf_base and btf_base_size go together");
	j.base = o.btf_base;
	j.base_size = o.btf_base_size;

	elf_version(EV_CURRENT);
	fd_in = open(in_path, O_RDONLY | O_CLOEXEC);
	if (fd_in < 0)
		return lbtfi_err(errno, "%s: %s", in_path, strerror(errno));
	if (fstat(fd_in, &st)) {
		err = lbtfi_err(errno, "%s: %s", in_path, strerror(errno));
		close(fd_in);
		return err;
	}
	j.in = elf_begin(fd_in, ELF_C_READ_MMAP, NULL);
	if (!j.in || elf_kind(j.in) != ELF_K_ELF) {
		err = lbtfi_err(EINVAL, "%s: not an ELF file", in_path);
		goto out_in;
	}
	/* nothing is written for a file whose layout cannot be trusted */
	err = lbtfi_elf_check_rewrite(j.in, in_path, (uint64_t)st.st_size);
	if (err)
		goto out_in;
	fd_out = lbtfi_atomic_open(out_path, &tmp, st.st_mode & 07777);
	if (fd_out < 0) {
		err = fd_out;
		goto out_in;
	}
	err = rewrite(&j, fd_out, data, size);
	if (j.out)
		elf_end(j.out);
	err = lbtfi_atomic_commit(fd_out, tmp, out_path, err);
out_in:
	if (j.in)
		elf_end(j.in);
	free(j.shstr_buf);
	free(j.newidx);
	for (unsigned int i = 0; i < j.n_owned; i++)
		free(j.owned[i]);
	close(fd_in);
	return err;
}
