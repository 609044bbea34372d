// SPDX-License-Identifier: BSD-2-Clause
/* Reading one input: a raw BTF blob, an ELF file's .BTF section, or stdin. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "btfcheck.h"

static int read_fd(int fd, unsigned char **out, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	unsigned char *p = malloc(cap);

	for (;;) {
		ssize_t r;

		if (!p)
			return -ENOMEM;
		if (n == cap) {
			unsigned char *q = realloc(p, cap * 2);
			if (!q) {
				free(p);
				return -ENOMEM;
			}
			p = q;
			cap *= 2;
		}
		r = read(fd, p + n, cap - n);
		if (r < 0) {
			int e = errno;
			free(p);
			return -e;
		}
		if (r == 0)
			break;
		n += r;
	}
	*out = p;
	*len = n;
	return 0;
}

/* The .BTF section's bytes exactly as stored (no byte swapping). */
static int elf_btf(unsigned char *img, size_t len, unsigned char **out, size_t *out_len,
		   const char **why)
{
	Elf *elf;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int err = -ENOENT;

	elf_version(EV_CURRENT);
	elf = elf_memory((char *)img, len);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx)) {
		*why = "malformed ELF file";
		if (elf)
			elf_end(elf);
		return -EINVAL;
	}
	*why = "ELF file has no .BTF section";
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strcmp(name, ".BTF"))
			continue;
		d = elf_rawdata(scn, NULL);
		if (!d || (!d->d_buf && d->d_size)) {
			*why = "cannot read the .BTF section";
			err = -EINVAL;
			break;
		}
		*out = malloc(d->d_size ? d->d_size : 1);
		if (!*out) {
			err = -ENOMEM;
			break;
		}
		memcpy(*out, d->d_buf, d->d_size);
		*out_len = d->d_size;
		err = 0;
		break;
	}
	elf_end(elf);
	return err;
}

int btfcheck_read_input(const char *path, struct btfcheck_input *in)
{
	unsigned char *img = NULL;
	size_t len = 0;
	int fd, err;

	memset(in, 0, sizeof(*in));
	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	if (fd < 0) {
		in->why = strerror(errno);
		return -errno;
	}
	err = read_fd(fd, &img, &len);
	if (fd)
		close(fd);
	if (err) {
		in->why = strerror(-err);
		return err;
	}
	if (len >= 4 && !memcmp(img, "\177ELF", 4)) {
		err = elf_btf(img, len, &in->data, &in->size, &in->why);
		free(img);
		return err;
	}
	in->data = img;
	in->size = len;
	return 0;
}
