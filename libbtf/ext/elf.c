// SPDX-License-Identifier: BSD-2-Clause
/* The .BTF.ext section of an ELF file, read with libelf. */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

struct lbtf_ext *lbtf_ext_open_elf(const char *path)
{
	struct lbtf_ext *ext = NULL;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int fd, err = 0;
	Elf *e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return lbtfi_err_ptr(errno, "%s: %s", path, strerror(errno));
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getshdrstrndx(e, &shstrndx)) {
		err = lbtfi_err(EINVAL, "%s: not an ELF file", path);
		goto out;
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh)) {
			err = lbtfi_err(EINVAL, "%s: bad section header (%s)", path, elf_errmsg(-1));
			goto out;
		}
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (!name || strcmp(name, ".BTF.ext"))
			continue;
		if (sh.sh_type == SHT_NOBITS) {
			err = lbtfi_err(ENODATA, "%s: .BTF.ext has no data (NOBITS)", path);
			goto out;
		}
		d = elf_rawdata(scn, NULL);
		if (!d) {
			err = lbtfi_err(EINVAL, "%s: cannot read .BTF.ext (%s)", path, elf_errmsg(-1));
			goto out;
		}
		ext = lbtf_ext_new(d->d_buf, d->d_size);
		if (!ext) {
			char msg[256];

			snprintf(msg, sizeof(msg), "%s", lbtf_errmsg());
			err = lbtfi_err(errno, "%s: %s", path, msg);
		}
		goto out;
	}
	err = lbtfi_err(ENODATA, "%s: no .BTF.ext section", path);
out:
	if (e)
		elf_end(e);
	close(fd);
	if (err) {
		errno = -err;
		return NULL;
	}
	return ext;
}
