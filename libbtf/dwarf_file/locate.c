// SPDX-License-Identifier: BSD-2-Clause
/*
 * Where the DWARF of a file is: in the file itself, or in a separate debug
 * file (objcopy --only-keep-debug) named by the file's build-id note or its
 * .gnu_debuglink section, looked for where gdb looks:
 *   /usr/lib/debug/.build-id/xx/yyyy.debug   (the build-id must match)
 *   DIR/NAME, DIR/.debug/NAME, /usr/lib/debug/DIR/NAME
 *                                            (the debuglink CRC must match)
 * DIR being the directory of the file (links resolved). And whether the
 * DWARF is split (-gsplit-dwarf): skeleton units whose types are in .dwo
 * files, which are not read.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <elfutils/libdwelf.h>
#include "internal.h"

#define DEBUG_ROOT "/usr/lib/debug"

/* The ELF has a .debug_info (or GNU-compressed .zdebug_info) with contents */
static bool has_debug_info(Elf *elf)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS || !sh.sh_size)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && (!strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info")))
			return true;
	}
	return false;
}

static uint32_t file_crc(int fd, bool *ok)
{
	unsigned char buf[1 << 16];
	uLong crc = crc32(0, NULL, 0);
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		crc = crc32(crc, buf, (uInt)n);
	*ok = n == 0;
	return (uint32_t)crc;
}

/* cand is usable: an ELF with DWARF, with the same build-id (id_len > 0)
 * or the debuglink's CRC. *crc_off set when only the CRC was wrong. */
static bool candidate_ok(const char *cand, const void *id, ssize_t id_len, bool check_crc,
			 uint32_t crc, bool *crc_off)
{
	int fd = open(cand, O_RDONLY | O_CLOEXEC);
	bool ok = false, read_ok;
	Elf *elf;

	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && has_debug_info(elf)) {
		if (id_len > 0) {
			const void *id2;
			ssize_t len2 = dwelf_elf_gnu_build_id(elf, &id2);

			ok = len2 == id_len && !memcmp(id, id2, (size_t)id_len);
		} else if (check_crc) {
			ok = file_crc(fd, &read_ok) == crc && read_ok;
			if (!ok)
				*crc_off = true;
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
	return ok;
}

static char *dir_of(const char *path)
{
	char *real = realpath(path, NULL), *slash;

	if (!real)
		return NULL;
	slash = strrchr(real, '/');
	if (slash == real)
		slash[1] = '\0'; /* "/" */
	else if (slash)
		*slash = '\0';
	return real;
}

int lbtfi_dw_locate_debug_file(const char *path, char **debug_path)
{
	char cand[PATH_MAX], tried[3 * PATH_MAX] = "";
	const void *id = NULL;
	const char *link = NULL;
	ssize_t id_len = 0;
	GElf_Word crc = 0;
	bool crc_off = false;
	char *dir = NULL;
	int fd, err = 0;
	Elf *elf;

	*debug_path = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0; /* reported by whoever opens it next */
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || has_debug_info(elf))
		goto out;
	id_len = dwelf_elf_gnu_build_id(elf, &id);
	link = dwelf_elf_gnu_debuglink(elf, &crc);
	if (id_len > 0) {
		int n = snprintf(cand, sizeof(cand), DEBUG_ROOT "/.build-id/%02x/", *(const unsigned char *)id);

		for (ssize_t i = 1; i < id_len && n > 0 && n < (int)sizeof(cand) - 8; i++)
			n += snprintf(cand + n, sizeof(cand) - n, "%02x", ((const unsigned char *)id)[i]);
		snprintf(cand + n, sizeof(cand) - n, ".debug");
		if (candidate_ok(cand, id, id_len, false, 0, &crc_off))
			goto found;
		snprintf(tried, sizeof(tried), "%s", cand);
	}
	if (!link) {
		if (*tried) /* the build-id's debug file, looked for in vain */
			err = lbtfi_err(ENODATA, "%s: no DWARF debug info here, and no debug file "
					"for its build-id (looked for %s): compile it with -g, or "
					"install the debug file or pass it instead", path, tried);
		goto out;
	}
	dir = dir_of(path);
	if (!dir)
		goto out;
	{
		const char *sep = strcmp(dir, "/") ? "/" : "";

		for (int i = 0; i < 3; i++) {
			size_t l = strlen(tried);

			snprintf(cand, sizeof(cand), "%s%s%s%s%s", i == 2 ? DEBUG_ROOT : "", dir, sep,
				 i == 1 ? ".debug/" : "", link);
			if (!strcmp(cand, path))
				continue;
			if (candidate_ok(cand, NULL, 0, true, crc, &crc_off))
				goto found;
			snprintf(tried + l, sizeof(tried) - l, "%s%s", l ? ", " : "", cand);
		}
	}
	err = lbtfi_err(ENODATA, "%s: no DWARF debug info here, and its .gnu_debuglink '%s' "
			"was not found%s (looked for %s): install the debug file or pass it "
			"instead", path, link, crc_off ? " with a matching CRC" : "", tried);
	goto out;
found:
	*debug_path = strdup(cand);
	if (!*debug_path)
		err = lbtfi_err(ENOMEM, "out of memory");
out:
	free(dir);
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

/*
 * Split DWARF: the units are skeletons (DWARF 5 DW_UT_skeleton, or GNU's
 * DWARF 4 units with DW_AT_GNU_dwo_name) and the types are in .dwo files.
 * Returns the number of skeleton units, with the first one's .dwo name in
 * dwo (empty if none is given).
 */
unsigned int lbtfi_dw_count_skeletons(Dwarf *dw, char *dwo, size_t dwo_sz)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie;
	Dwarf_Half version;
	uint8_t unit_type;
	unsigned int n = 0;

	if (dwo_sz)
		dwo[0] = '\0';
	while (dwarf_get_units(dw, cu, &cu, &version, &unit_type, &cudie, &subdie) == 0) {
		Dwarf_Attribute a;
		const char *name = NULL;

		if (dwarf_attr(&cudie, DW_AT_dwo_name, &a) || dwarf_attr(&cudie, DW_AT_GNU_dwo_name, &a))
			name = dwarf_formstring(&a);
		if (unit_type != DW_UT_skeleton && !name)
			continue;
		if (!n++ && name && dwo_sz)
			snprintf(dwo, dwo_sz, "%s", name);
	}
	return n;
}
