// SPDX-License-Identifier: BSD-2-Clause
/*
 * libbtf/dwarf_file's lbtfi_dw_drop_read_once: a linked program compiled
 * here (with enough types and optimized code for several pages of
 * .debug_info, .debug_abbrev, location lists...) is opened as the converter
 * opens a kernel; once every page of its read-once sections has been
 * touched, the drop leaves none of their whole pages in this process's
 * memory (/proc/self/pagemap's present bit), .debug_str's pages stay, and
 * the bytes read afterwards are the file's bytes again.
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
#include <cmocka.h>
#include "dwarf_file/internal.h"

static char dir[] = "/tmp/test_read_onceXXXXXX";
static char prog[128];

/* many structs and optimized functions with parameters in registers */
static int setup(void **state)
{
	char path[160], cmd[512];
	FILE *f;
	int i;

	if (!mkdtemp(dir))
		return -1;
	snprintf(prog, sizeof(prog), "%s/prog", dir);
	snprintf(path, sizeof(path), "%s/prog.c", dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <signal.h>\n"
	      "#include <pthread.h>\n#include <sys/socket.h>\n#include <netinet/in.h>\n", f);
	for (i = 0; i < 300; i++)
		fprintf(f, "struct s%d { int a%d; long b; struct s%d *next; char name[%d]; };\n"
			"__attribute__((noinline)) long f%d(struct s%d *p, long k, int n)\n"
			"{ long r = 0; for (int i = 0; i < n; i++) r += p->b * k + p->name[i & 3] + i; "
			"return r + (p->next ? p->next->a%d : 0); }\n",
			i, i, i, i + 4, i, i, i);
	fputs("int main(int argc, char **argv) { long r = 0;\n", f);
	for (i = 0; i < 300; i++)
		fprintf(f, "{ struct s%d v = { argc }; r += f%d(&v, argc, argc); }\n", i, i);
	fputs("printf(\"%ld\\n\", r); return 0; }\n", f);
	if (fclose(f))
		return -1;
	snprintf(cmd, sizeof(cmd), "cc -g -O2 -o %s %s", prog, path);
	return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Pages of [p, p + len) wholly inside it, and how many of those are present */
static size_t whole_pages(const char *p, size_t len, size_t *present)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), n = 0;
	uintptr_t a = ((uintptr_t)p + pg - 1) & ~(uintptr_t)(pg - 1);
	uintptr_t b = ((uintptr_t)p + len) & ~(uintptr_t)(pg - 1);
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);

	assert_true(fd >= 0);
	*present = 0;
	for (; a < b; a += pg, n++) {
		uint64_t e;

		assert_int_equal(pread(fd, &e, sizeof(e), (off_t)(a / pg * sizeof(e))), sizeof(e));
		*present += e >> 63;
	}
	close(fd);
	return n;
}

/* Every byte of the span summed: touches each of its pages */
static uint64_t touch(const char *p, size_t len)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < len; i++)
		sum = sum * 31 + (unsigned char)((volatile const char *)p)[i];
	return sum;
}

/* .debug_str's bytes in the handle's mapping (not a read-once section) */
static const char *debug_str(Elf *elf, size_t *len)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	assert_int_equal(elf_getshdrstrndx(elf, &shstrndx), 0);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || strcmp(elf_strptr(elf, shstrndx, sh.sh_name), ".debug_str"))
			continue;
		d = elf_getdata(scn, NULL);
		assert_non_null(d);
		*len = d->d_size;
		return d->d_buf;
	}
	fail_msg("no .debug_str");
	return NULL;
}

static void test_drop_read_once(void **state)
{
	struct lbtfi_dw_handle h;
	size_t total = 0, present, n, str_len = 0;
	uint64_t sums[LBTFI_DW_ONCE_MAX];
	const char *str;
	unsigned int i;

	elf_version(EV_CURRENT);
	assert_int_equal(lbtfi_dw_handle_open(&h, prog, false), 0);
	/* .debug_info, .debug_abbrev, .debug_line and the location and
	 * range lists of the -O2 code, all mapped from the file */
	assert_true(h.nonce >= 4);
	for (i = 0; i < h.nonce; i++) {
		sums[i] = touch(h.once[i].p, h.once[i].len);
		n = whole_pages(h.once[i].p, h.once[i].len, &present);
		assert_int_equal(present, n);
		total += n;
	}
	assert_true(total >= 8); /* (something to drop) */
	str = debug_str(h.elf, &str_len);
	touch(str, str_len);

	lbtfi_dw_drop_read_once(&h);
	for (i = 0; i < h.nonce; i++) {
		whole_pages(h.once[i].p, h.once[i].len, &present);
		assert_int_equal(present, 0);
	}
	n = whole_pages(str, str_len, &present);
	assert_int_equal(present, n);
	/* read again from the file: the same bytes */
	for (i = 0; i < h.nonce; i++)
		assert_true(touch(h.once[i].p, h.once[i].len) == sums[i]);
	lbtfi_dw_handle_close(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drop_read_once),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
