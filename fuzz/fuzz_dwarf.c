// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: the DWARF -> BTF converter (lbtf_dwarf_to_btf) with its
 * own DIE reader, on DWARF sections taken from the input. Any input must
 * give a clean error or a builder that serializes.
 *
 * Input layout: three little-endian 32-bit lengths, then .debug_info,
 * .debug_abbrev and .debug_str of those lengths (cut short at the end of
 * the input); whatever follows is .debug_str_offsets. They are put in an
 * x86-64 ET_EXEC ELF written to a memfd, which the converter opens by path.
 */
#include <fcntl.h>
#include <gelf.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fuzz_common.h"
#include "libbtf_dwarf.h"

struct piece {
	const char *name;
	const uint8_t *p;
	size_t len;
};

static uint32_t take_len(const uint8_t **p, size_t *left)
{
	uint32_t v = 0;

	if (*left >= 4) {
		v = (uint32_t)(*p)[0] | (uint32_t)(*p)[1] << 8 | (uint32_t)(*p)[2] << 16 |
		    (uint32_t)(*p)[3] << 24;
		*p += 4;
		*left -= 4;
	}
	return v;
}

static Elf_Scn *add_section(Elf *e, const void *p, size_t len, size_t name_off, uint32_t type)
{
	Elf_Scn *scn = elf_newscn(e);
	Elf_Data *d = elf_newdata(scn);
	GElf_Shdr sh;

	d->d_buf = (void *)(uintptr_t)p; /* not const in libelf's API; only read */
	d->d_size = len;
	d->d_align = 1;
	d->d_type = ELF_T_BYTE;
	gelf_getshdr(scn, &sh);
	sh.sh_name = name_off;
	sh.sh_type = type;
	gelf_update_shdr(scn, &sh);
	return scn;
}

/* An ELF holding the pieces as sections, in the memfd fd; false on failure */
static bool write_elf(int fd, const struct piece *pcs, size_t n)
{
	static char shstr[256];
	size_t off[8], used = 1, i;
	Elf_Scn *scn;
	GElf_Ehdr eh;
	Elf *e;
	bool ok;

	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!e)
		return false;
	gelf_newehdr(e, ELFCLASS64);
	gelf_getehdr(e, &eh);
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_machine = EM_X86_64;
	eh.e_type = ET_EXEC;
	eh.e_version = EV_CURRENT;
	for (i = 0; i < n; i++) {
		off[i] = used;
		used += strlen(pcs[i].name) + 1;
		memcpy(shstr + off[i], pcs[i].name, strlen(pcs[i].name) + 1);
	}
	for (i = 0; i < n; i++)
		add_section(e, pcs[i].p, pcs[i].len, off[i], SHT_PROGBITS);
	memcpy(shstr + used, ".shstrtab", 10);
	scn = add_section(e, shstr, used + 10, used, SHT_STRTAB);
	eh.e_shstrndx = elf_ndxscn(scn);
	gelf_update_ehdr(e, &eh);
	ok = elf_update(e, ELF_C_WRITE) >= 0;
	elf_end(e);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct piece pcs[4] = {
		{ ".debug_info" }, { ".debug_abbrev" }, { ".debug_str" }, { ".debug_str_offsets" },
	};
	struct lbtf_dwarf_opts o = { .sz = sizeof(o), .jobs = 1 };
	const uint8_t *p = data;
	size_t left = size, i;
	struct lbtf_builder *b;
	char path[64];
	int fd;

	for (i = 0; i < 3; i++)
		pcs[i].len = take_len(&p, &left);
	for (i = 0; i < 4; i++) {
		if (i == 3 || pcs[i].len > left)
			pcs[i].len = left;
		pcs[i].p = p;
		p += pcs[i].len;
		left -= pcs[i].len;
	}
	fd = memfd_create("fuzz-dwarf", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write_elf(fd, pcs, 4)) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		b = lbtf_dwarf_to_btf(path, &o);
		if (b) {
			void *raw = NULL;
			size_t len;

			if (lbtf_builder_serialize(b, false, &raw, &len) == 0)
				free(raw);
			lbtf_builder_free(b);
		}
	}
	close(fd);
	return 0;
}
