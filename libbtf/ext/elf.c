// SPDX-License-Identifier: BSD-2-Clause
/* The .BTF.ext section of an ELF file. */
#include <errno.h>
#include <stdio.h>
#include "internal.h"
#include "elf/internal.h"
#include "io/io.h"

struct lbtf_ext *lbtf_ext_open_elf(const char *path)
{
	struct lbtf_ext *ext = NULL;
	struct lbtfi_elf e;
	const void *sec;
	size_t len, sec_len;
	bool mapped;
	void *buf;
	int err;

	if (lbtfi_file_read(path, &buf, &len, &mapped))
		return NULL;
	err = lbtfi_elf_open(&e, path, buf, len);
	err = err ?: lbtfi_elf_section_data(&e, path, ".BTF.ext", &sec, &sec_len);
	if (!err) {
		ext = lbtf_ext_new(sec, sec_len);
		if (!ext) {
			char msg[256];

			snprintf(msg, sizeof(msg), "%s", lbtf_errmsg());
			err = lbtfi_err(errno, "%s: %s", path, msg);
		}
	}
	lbtfi_file_unload(buf, len, mapped);
	if (err) {
		errno = -err;
		return NULL;
	}
	return ext;
}
