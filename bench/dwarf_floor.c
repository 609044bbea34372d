// SPDX-License-Identifier: BSD-2-Clause
/*
 * The floor of a DWARF -> BTF encoder (bench/bench_btfgen.sh, issue 34): one
 * pass over an object's .debug_info that does nothing but walk its DIEs,
 * every unit, every DIE once (first child, next sibling), and counts them.
 * Whatever an encoder does beyond that (reading attributes, building,
 * deduplicating, writing) is its cost above the floor.
 *   dwarf_floor reader FILE   this project's DWARF reader (the one btfgen
 *                             uses), units read with pread as btfgen reads them
 *   dwarf_floor libdw FILE    libdw's dwarf_child/dwarf_siblingof walk
 * Prints "units dies" on stdout. Exit 0, 1 on an unreadable file or
 * malformed DWARF (the message names the file), 2 on usage.
 * For linked files (a vmlinux): relocatable objects' .debug_info would need
 * their relocations applied first, which neither walk does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gelf.h>
#include <elfutils/libdw.h>
/* The project's DWARF reader, its one header */
#include "dwarf_reader/internal.h"

static uint64_t ndies;

/* d and its subtree, depth first */
static void walk_reader(struct lbtfi_dw_die *d)
{
	struct lbtfi_dw_die c;

	ndies++;
	if (!lbtfi_dr_child(d, &c))
		return;
	do
		walk_reader(&c);
	while (lbtfi_dr_sibling(&c));
}

static void walk_libdw(Dwarf_Die *d)
{
	Dwarf_Die c;

	ndies++;
	if (dwarf_child(d, &c) != 0)
		return;
	do
		walk_libdw(&c);
	while (dwarf_siblingof(&c, &c) == 0);
}

/* File offset of .debug_info when it is the file's own bytes (not
 * compressed), else -1: the reader then reads units through libdw's copy */
static int64_t info_file_offset(Elf *elf)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return -1;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)) ||
		    strcmp(name, ".debug_info"))
			continue;
		return sh.sh_flags & SHF_COMPRESSED || sh.sh_type != SHT_PROGBITS ? -1
										: (int64_t)sh.sh_offset;
	}
	return -1;
}

static int run_reader(const char *path, int fd, Elf *elf, Dwarf *dw, uint64_t *nunits)
{
	int64_t foff = info_file_offset(elf);
	struct lbtfi_dr_info_src src = { fd, (uint64_t)foff };
	struct lbtfi_dr_file f;
	struct lbtfi_dr_ctx c;
	int err;

	memset(&f, 0, sizeof(f));
	err = lbtfi_dr_file_open(&f, dw, NULL, foff >= 0 ? &src : NULL);
	if (err) {
		fprintf(stderr, "dwarf_floor: %s: cannot read its unit headers (%s)\n", path,
			strerror(-err));
		return 1;
	}
	lbtfi_dr_ctx_init(&c, &f);
	if (foff >= 0)
		lbtfi_dr_ctx_read_units(&c, fd, (uint64_t)foff);
	for (uint32_t i = 0; i < f.nunits; i++) {
		struct lbtfi_dw_die d;

		if (!f.units[i].tag)
			continue; /* (a unit the headers could not read: counted bad below) */
		if (lbtfi_dr_die_at(&c, &f, f.units[i].die_off, &d)) {
			lbtfi_dr_bad_off = f.units[i].die_off;
			break;
		}
		walk_reader(&d);
		lbtfi_dr_ctx_trim(&c, 8); /* (as btfgen does between units) */
	}
	*nunits = f.nunits;
	lbtfi_dr_ctx_free(&c);
	lbtfi_dr_file_close(&f);
	if (lbtfi_dr_bad_off != UINT64_MAX) {
		fprintf(stderr, "dwarf_floor: %s: malformed DWARF at .debug_info offset %#llx\n",
			path, (unsigned long long)lbtfi_dr_bad_off);
		return 1;
	}
	return 0;
}

static int run_libdw(const char *path, Dwarf *dw, uint64_t *nunits)
{
	Dwarf_Off off = 0, next;
	size_t hsize;
	int r;

	while ((r = dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL)) == 0) {
		Dwarf_Die cu;

		if (!dwarf_offdie(dw, off + hsize, &cu)) {
			fprintf(stderr, "dwarf_floor: %s: unit at %#llx: %s\n", path,
				(unsigned long long)off, dwarf_errmsg(-1));
			return 1;
		}
		walk_libdw(&cu);
		++*nunits;
		off = next;
	}
	if (r < 0) {
		fprintf(stderr, "dwarf_floor: %s: %s\n", path, dwarf_errmsg(-1));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	uint64_t nunits = 0;
	Dwarf *dw;
	Elf *elf;
	int fd, rc;

	if (argc != 3 || (strcmp(argv[1], "reader") && strcmp(argv[1], "libdw"))) {
		fprintf(stderr, "usage: %s reader|libdw FILE\n", argv[0]);
		return 2;
	}
	elf_version(EV_CURRENT);
	fd = open(argv[2], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "dwarf_floor: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	dw = elf ? dwarf_begin_elf(elf, DWARF_C_READ, NULL) : NULL;
	if (!dw) {
		fprintf(stderr, "dwarf_floor: %s: no DWARF (%s)\n", argv[2],
			elf ? dwarf_errmsg(-1) : elf_errmsg(-1));
		elf_end(elf);
		close(fd);
		return 1;
	}
	rc = !strcmp(argv[1], "reader") ? run_reader(argv[2], fd, elf, dw, &nunits)
					: run_libdw(argv[2], dw, &nunits);
	dwarf_end(dw);
	elf_end(elf);
	close(fd);
	if (rc)
		return rc;
	if (printf("%llu %llu\n", (unsigned long long)nunits, (unsigned long long)ndies) < 0 ||
	    fflush(stdout)) {
		fprintf(stderr, "dwarf_floor: stdout: %s\n", strerror(errno));
		return 1;
	}
	return 0;
}
