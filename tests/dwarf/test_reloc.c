// SPDX-License-Identifier: BSD-2-Clause
/*
 * libbtf/dwarf_file/reloc.c against libdwfl: a relocatable object compiled here
 * (functions in .text, .init.text and their own sections, data, bss, a
 * per-CPU-like section) has every .debug_* section byte-identical whether
 * reloc.c or libdwfl relocated it, and the relocations did change them. A
 * copy with one relocation type the code does not know is refused
 * (-ENOTSUP), and lbtfi_dw_handle_open then relocates it with libdwfl. The same
 * when the sections are relocated in copies (lbtfi_dw_reloc_apply_copied).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include <cmocka.h>
#include "dwarf_file/internal.h"

static char dir[] = "/tmp/test_relocXXXXXX";
static char obj[128], bad[128];

static const char src[] =
	"struct s { int a; long b; struct s *next; };\n"
	"int gv = 3; static int sv; long arr[16];\n"
	"__attribute__((section(\".data..percpu\"))) struct s pcpu;\n"
	"__attribute__((section(\".init.text\"))) int init_fn(int x) { return x + gv; }\n"
	"static __attribute__((noinline)) long helper(struct s *p, long k) { return p->b * k + sv; }\n"
	"long use(struct s *p, int n) { long r = 0; for (int i = 0; i < n; i++) r += helper(p, i) + arr[i & 15]; return r; }\n"
	"int main_like(void) { sv = init_fn(1); return (int)use(&pcpu, 4); }\n";

static int setup(void **state)
{
	char cmd[512];
	FILE *f;

	if (!mkdtemp(dir))
		return -1;
	snprintf(obj, sizeof(obj), "%s/in.o", dir);
	snprintf(bad, sizeof(bad), "%s/bad.o", dir);
	snprintf(cmd, sizeof(cmd), "%s/in.c", dir);
	f = fopen(cmd, "w");
	if (!f)
		return -1;
	fputs(src, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "cc -g -O2 -ffunction-sections -fdata-sections -c -o %s %s/in.c",
		 obj, dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static bool host_machine_handled(Elf *elf)
{
	GElf_Ehdr eh;

	return gelf_getehdr(elf, &eh) && (eh.e_machine == EM_X86_64 || eh.e_machine == EM_AARCH64);
}

/* The section of that name, or NULL */
static Elf_Data *section(Elf *elf, const char *want)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		    !strcmp(name, want))
			return elf_getdata(scn, NULL);
	}
	return NULL;
}

static const Dwfl_Callbacks cbs = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* (copied: every densely relocated section relocated in a copy that its
 * Elf_Data points to, as lbtfi_dw_handle_open does for big ones) */
static void check_same_as_libdwfl(bool copied)
{
	static const char *const secs[] = { ".debug_info", ".debug_line", ".debug_loclists",
					     ".debug_rnglists", ".debug_aranges", ".debug_str_offsets",
					     ".debug_addr", ".debug_frame", ".debug_loc", ".debug_ranges" };
	int fd = open(obj, O_RDONLY), fd2 = open(obj, O_RDONLY), fd3 = open(obj, O_RDONLY);
	Elf *mine, *raw, *theirs;
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	unsigned int compared = 0, changed = 0;
	struct lbtfi_dw_reloc_copies copies = { .min_bytes = 1 };
	const char *map;
	size_t map_len;

	assert_true(fd >= 0 && fd2 >= 0 && fd3 >= 0);
	elf_version(EV_CURRENT);
	mine = elf_begin(fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	raw = elf_begin(fd3, ELF_C_READ, NULL);
	assert_non_null(mine);
	assert_non_null(raw);
	if (!host_machine_handled(mine)) {
		/* (another host: libdwfl's case, said so) */
		assert_int_equal(lbtfi_dw_reloc_apply(mine), -ENOTSUP);
		elf_end(mine);
		elf_end(raw);
		close(fd);
		close(fd2);
		close(fd3);
		return;
	}
	assert_int_equal(copied ? lbtfi_dw_reloc_apply_copied(mine, &copies) : lbtfi_dw_reloc_apply(mine), 0);
	map = elf_rawfile(mine, &map_len);
	assert_non_null(map);
	if (copied) { /* .debug_info is one of the copies, not in the mapping */
		const char *info = section(mine, ".debug_info")->d_buf;
		bool listed = false;

		for (size_t i = 0; i < copies.n; i++)
			listed |= copies.bufs[i] == info;
		assert_true(listed);
		assert_false(info >= map && info < map + map_len);
	}
	dwfl = dwfl_begin(&cbs);
	assert_non_null(dwfl);
	mod = dwfl_report_offline(dwfl, "", obj, fd2);
	assert_non_null(mod);
	assert_int_equal(dwfl_report_end(dwfl, NULL, NULL), 0);
	assert_non_null(dwfl_module_getdwarf(mod, &bias));
	theirs = dwarf_getelf(dwfl_module_getdwarf(mod, &bias));
	assert_non_null(theirs);
	for (size_t i = 0; i < sizeof(secs) / sizeof(secs[0]); i++) {
		Elf_Data *a = section(mine, secs[i]), *b = section(theirs, secs[i]);
		Elf_Data *r = section(raw, secs[i]);

		if (!a && !b)
			continue;
		assert_non_null(a);
		assert_non_null(b);
		assert_non_null(r);
		assert_int_equal(a->d_size, b->d_size);
		if (memcmp(a->d_buf, b->d_buf, a->d_size))
			fail_msg("%s: relocated differently from libdwfl", secs[i]);
		compared++;
		changed += !!memcmp(a->d_buf, r->d_buf, a->d_size);
	}
	/* .debug_info, .debug_line at least, and the relocations did something */
	assert_true(compared >= 2);
	assert_true(changed >= 2);
	dwfl_end(dwfl);
	elf_end(mine);
	lbtfi_dw_reloc_copies_free(&copies);
	elf_end(raw);
	close(fd);
	close(fd3);
}

static void test_same_as_libdwfl(void **state)
{
	check_same_as_libdwfl(false);
}

static void test_copied_same_as_libdwfl(void **state)
{
	check_same_as_libdwfl(true);
}

/* A copy of obj with the first relocation of .rela.debug_info of type 24
 * (R_X86_64_PC64 / R_AARCH64_NONE-range: a type reloc.c does not apply) */
static void make_bad_copy(void)
{
	int in = open(obj, O_RDONLY), out;
	Elf *elf;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	off_t at = -1;
	char buf[1 << 16];
	ssize_t n;

	assert_true(in >= 0);
	elf = elf_begin(in, ELF_C_READ, NULL);
	assert_non_null(elf);
	assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		    !strcmp(name, ".rela.debug_info"))
			at = (off_t)sh.sh_offset + 8; /* r_info of the first Elf64_Rela */
	}
	elf_end(elf);
	assert_true(at > 0);
	out = open(bad, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(out >= 0);
	lseek(in, 0, SEEK_SET);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		assert_int_equal(write(out, buf, (size_t)n), n);
	{
		uint64_t info;

		assert_int_equal(pread(out, &info, 8, at), 8);
		info = (info & ~0xffffffffull) | 24;
		assert_int_equal(pwrite(out, &info, 8, at), 8);
	}
	close(out);
	close(in);
}

static void test_unknown_type_goes_to_libdwfl(void **state)
{
	struct lbtfi_dw_handle h;
	bool handled;
	int fd;
	Elf *elf;

	make_bad_copy();
	fd = open(obj, O_RDONLY);
	assert_true(fd >= 0);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	handled = host_machine_handled(elf);
	elf_end(elf);
	close(fd);
	fd = open(bad, O_RDONLY);
	assert_true(fd >= 0);
	elf = elf_begin(fd, ELF_C_READ_MMAP_PRIVATE, NULL);
	assert_non_null(elf);
	assert_int_equal(lbtfi_dw_reloc_apply(elf), -ENOTSUP);
	elf_end(elf);
	close(fd);
	/* the handle: the good object without libdwfl, the other with it */
	assert_int_equal(lbtfi_dw_handle_open(&h, obj, true), 0);
	assert_true(handled ? !h.dwfl : !!h.dwfl);
	assert_non_null(h.dw);
	lbtfi_dw_handle_close(&h);
	assert_int_equal(lbtfi_dw_handle_open(&h, bad, true), 0);
	assert_non_null(h.dwfl);
	assert_non_null(h.dw);
	lbtfi_dw_handle_close(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_libdwfl),
		cmocka_unit_test(test_copied_same_as_libdwfl),
		cmocka_unit_test(test_unknown_type_goes_to_libdwfl),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
