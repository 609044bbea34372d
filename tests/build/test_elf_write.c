// SPDX-License-Identifier: BSD-2-Clause
/*
 * lbtf_elf_write_btf against real files and tools: a clang-16 BPF object's
 * .BTF replaced (read back by libbtf, bpftool, llvm-objdump, libbpf, and
 * its program loaded by the kernel), .BTF added to objects and to a linked
 * executable that must still run, a big-endian object, an object with
 * more than 65280 sections, and failures that leave the original file
 * untouched.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <dirent.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include <bpf/libbpf.h>
#include "libbtf.h"

static char dir[] = "/tmp/lbtf-elf-XXXXXX";
static char path_buf[8][256];

static const char *P(int slot, const char *name)
{
	snprintf(path_buf[slot], sizeof(path_buf[slot]), "%s/%s", dir, name);
	return path_buf[slot];
}

__attribute__((format(printf, 1, 2)))
static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static const char *prog_src =
	"struct { int (*type)[2]; int (*max_entries)[4]; int *key; long *value; } m __attribute__((section(\".maps\")));\n"
	"int counter = 3;\n"
	"struct S { int a; long b; };\n"
	"int __attribute__((section(\"xdp\"))) prog(struct S *s) { return counter + 2; }\n"
	"char _license[] __attribute__((section(\"license\"))) = \"GPL\";\n";

static const char *main_src =
	"#include <stdio.h>\n"
	"struct point { int x, y; };\n"
	"int main(void) { struct point p = { 3, 4 }; printf(\"%d\\n\", p.x * p.y); return 0; }\n";

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	void *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* BTF of src (all its types, same ids) plus a struct lbtf_marker, as a blob
 * in the byte order of the ELF file elf_path */
static void *marked_blob(const struct lbtf *src, const char *elf_path, int pad_fields, size_t *size)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);
	int swapped = lbtf_elf_is_swapped(elf_path);
	void *data;
	int i_int;

	assert_true(swapped == 0 || swapped == 1);
	for (uint32_t id = 1; src && id < lbtf_type_cnt(src); id++)
		assert_int_equal(lbtf_builder_add_type_copy(b, src, id), (int)id);
	i_int = lbtf_builder_add_int(b, "lbtf_int", 4, LBTF_INT_SIGNED);
	lbtf_builder_add_struct(b, "lbtf_marker", 4 * (uint32_t)(pad_fields + 1));
	lbtf_builder_add_field(b, "m", (uint32_t)i_int, 0, 0);
	for (int k = 0; k < pad_fields; k++) {
		char name[32];
		snprintf(name, sizeof(name), "pad_field_%d", k);
		lbtf_builder_add_field(b, name, (uint32_t)i_int, 32 * (uint32_t)(k + 1), 0);
	}
	assert_int_equal(lbtf_builder_serialize(b, swapped == 1, &data, size), 0);
	lbtf_builder_free(b);
	return data;
}

static void check_marker(const char *path, uint32_t expect_cnt)
{
	struct lbtf *btf = lbtf_open_elf(path, NULL);

	if (!btf)
		fail_msg("%s: %s", path, lbtf_errmsg());
	assert_true(lbtf_find_by_name_kind(btf, "lbtf_marker", LBTF_KIND_STRUCT) > 0);
	if (expect_cnt)
		assert_int_equal(lbtf_type_cnt(btf), expect_cnt);
	lbtf_free(btf);
	assert_int_equal(sh("bpftool btf dump file %s | grep -q \"STRUCT 'lbtf_marker'\"", path), 0);
	assert_int_equal(sh("llvm-objdump -h %s >/dev/null", path), 0);
}

static void test_replace_bpf_object(void **state)
{
	const char *src = P(0, "prog.c"), *obj = P(1, "prog.o");
	struct lbtf *orig;
	struct bpf_object *bo;
	uint32_t cnt;
	void *blob;
	size_t size;

	write_text(src, prog_src);
	assert_int_equal(sh("clang-16 -g -O2 -target bpf -c %s -o %s", src, obj), 0);
	orig = lbtf_open_elf(obj, NULL);
	assert_non_null(orig);
	cnt = lbtf_type_cnt(orig);
	blob = marked_blob(orig, obj, 0, &size);
	/* in place: the output is the input */
	assert_int_equal(lbtf_elf_write_btf(obj, obj, blob, size, NULL), 0);
	check_marker(obj, cnt + 2);
	/* .rel.BTF is gone (its relocations belonged to clang's blob; the new
	 * one has final DATASEC offsets), .rel.BTF.ext stays, and the section
	 * indices after it still match: symbols, relocation targets */
	assert_int_equal(sh("llvm-readelf -S %s | grep -q '\\.rel\\.BTF '", obj), 1);
	assert_int_equal(sh("llvm-readelf -S %s | grep -q '\\.rel\\.BTF\\.ext '", obj), 0);
	/* map m's symbol names the .maps section by its new index */
	assert_int_equal(sh("i=$(llvm-readelf -sW %1$s | awk '$8 == \"m\" {print $7}'); "
			    "llvm-readelf -SW %1$s | grep -q \"\\[ *$i\\] \\.maps \"", obj), 0);
	assert_int_equal(sh("llvm-readelf -r %s | grep -A2 \"'.rel.BTF.ext'\" | grep -q ' xdp'", obj), 0);
	/* libbpf opens it, finds the BTF-defined map; the kernel loads the program */
	bo = bpf_object__open_file(obj, NULL);
	assert_non_null(bo);
	assert_non_null(bpf_object__find_map_by_name(bo, "m"));
	if (geteuid() == 0) {
		int err = bpf_object__load(bo);
		if (err)
			fail_msg("kernel/libbpf refused the rewritten object: %d", err);
		assert_true(bpf_map__btf_value_type_id(bpf_object__find_map_by_name(bo, "m")) > 0);
	}
	bpf_object__close(bo);
	/* a much larger blob replaces it again (the section grows) */
	free(blob);
	blob = marked_blob(orig, obj, 3000, &size);
	assert_int_equal(lbtf_elf_write_btf(obj, P(2, "prog2.o"), blob, size, NULL), 0);
	check_marker(P(2, "prog2.o"), cnt + 2);
	free(blob);
	lbtf_free(orig);
}

static void test_add_to_objects_and_executable(void **state)
{
	const char *src = P(0, "main.c"), *obj = P(1, "main.o"), *exe = P(2, "main"),
		   *exe2 = P(3, "main.btf");
	void *blob;
	size_t size;

	write_text(src, main_src);
	/* host relocatable object without any .BTF */
	assert_int_equal(sh("clang-16 -g -O2 -c %s -o %s", src, obj), 0);
	assert_int_equal(sh("llvm-readelf -S %s | grep -q '\\.BTF'", obj), 1);
	blob = marked_blob(NULL, obj, 0, &size);
	assert_int_equal(lbtf_elf_write_btf(obj, obj, blob, size, NULL), 0);
	check_marker(obj, 3);
	/* a linked executable: segments keep their offsets, it still runs */
	assert_int_equal(sh("gcc -g -O2 %s -o %s", src, exe), 0);
	assert_int_equal(lbtf_elf_write_btf(exe, exe2, blob, size, NULL), 0);
	check_marker(exe2, 3);
	assert_int_equal(sh("test \"$(%s)\" = 12", exe2), 0);
	assert_int_equal(sh("test -x %s", exe2), 0); /* mode kept */
	/* replace it in the executable with a larger one: still runs */
	free(blob);
	blob = marked_blob(NULL, exe2, 500, &size);
	assert_int_equal(lbtf_elf_write_btf(exe2, exe2, blob, size, NULL), 0);
	check_marker(exe2, 3);
	assert_int_equal(sh("test \"$(%s)\" = 12", exe2), 0);
	free(blob);
}

/* An executable whose .BTF is loaded (SHF_ALLOC, like vmlinux's): a blob
 * that fits is written in place and the program still runs; a bigger one
 * is refused and the file left as it was */
static void test_allocated_btf(void **state)
{
	const char *src = P(0, "alloc.c"), *exe = P(1, "alloc"), *out = P(2, "alloc.new");
	void *blob, *before, *after;
	size_t size, n1, n2;

	write_text(src, "#include <stdio.h>\n"
			"__attribute__((section(\".BTF\"), used)) const char room[4096] = { 1 };\n"
			"int main(void) { printf(\"%d\\n\", room[0] + 41); return 0; }\n");
	assert_int_equal(sh("gcc -O2 %s -o %s", src, exe), 0);
	assert_int_equal(sh("llvm-readelf -S %s | grep -qE '\\.BTF +PROGBITS .* A '", exe), 0);
	blob = marked_blob(NULL, exe, 0, &size);
	assert_true(size <= 4096);
	assert_int_equal(lbtf_elf_write_btf(exe, out, blob, size, NULL), 0);
	check_marker(out, 3);
	assert_int_equal(sh("test \"$(%s)\" = 42", out), 0);
	free(blob);
	blob = marked_blob(NULL, exe, 2000, &size);
	assert_true(size > 4096);
	before = read_all(exe, &n1);
	assert_int_equal(lbtf_elf_write_btf(exe, exe, blob, size, NULL), -ENOSPC);
	after = read_all(exe, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(before, after, n1);
	free(before);
	free(after);
	free(blob);
}

static void test_big_endian(void **state)
{
	const char *src = P(0, "prog.c"), *obj = P(1, "progeb.o");
	struct lbtf *orig, *back;
	void *blob;
	size_t size;

	write_text(src, prog_src);
	assert_int_equal(sh("clang-16 -g -O2 -target bpfeb -c %s -o %s", src, obj), 0);
	assert_int_equal(lbtf_elf_is_swapped(obj), 1);
	orig = lbtf_open_elf(obj, NULL);
	assert_non_null(orig);
	blob = marked_blob(orig, obj, 0, &size);
	assert_int_equal(lbtf_elf_write_btf(obj, obj, blob, size, NULL), 0);
	back = lbtf_open_elf(obj, NULL);
	assert_non_null(back);
	assert_true(lbtf_is_swapped(back));
	assert_true(lbtf_find_by_name_kind(back, "lbtf_marker", LBTF_KIND_STRUCT) > 0);
	assert_int_equal(sh("llvm-objdump -h %s >/dev/null", obj), 0);
	lbtf_free(back);
	lbtf_free(orig);
	free(blob);
}

/* More than SHN_LORESERVE sections: the name table index lives in
 * section 0 (extended numbering) and must survive the rewrite */
static void test_many_sections(void **state)
{
	const char *src = P(0, "many.s"), *obj = P(1, "many.o");
	FILE *f = fopen(src, "w");
	void *blob;
	size_t size;

	assert_non_null(f);
	for (int i = 0; i < 66000; i++)
		fprintf(f, ".section .s%d,\"a\"\n.byte 1\n", i);
	fclose(f);
	assert_int_equal(sh("as %s -o %s", src, obj), 0);
	blob = marked_blob(NULL, obj, 0, &size);
	assert_int_equal(lbtf_elf_write_btf(obj, obj, blob, size, NULL), 0);
	check_marker(obj, 3);
	free(blob);
}

static int count_files(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void test_failure_leaves_original(void **state)
{
	const char *src = P(0, "prog.c"), *obj = P(1, "keep.o"), *txt = P(2, "not-elf.txt");
	void *before, *after, *blob;
	size_t n1, n2, size;
	int files;

	write_text(src, prog_src);
	assert_int_equal(sh("clang-16 -g -O2 -target bpf -c %s -o %s", src, obj), 0);
	before = read_all(obj, &n1);
	blob = marked_blob(NULL, obj, 0, &size);
	files = count_files();
	/* wrong byte order for this ELF */
	{
		struct lbtf_builder *b = lbtf_builder_new(NULL);
		void *wrong;
		size_t wsize;
		lbtf_builder_add_int(b, "int", 4, 0);
		assert_int_equal(lbtf_builder_serialize(b, true, &wrong, &wsize), 0);
		assert_int_equal(lbtf_elf_write_btf(obj, obj, wrong, wsize, NULL), -EINVAL);
		assert_true(strstr(lbtf_errmsg(), "byte order") != NULL);
		free(wrong);
		lbtf_builder_free(b);
	}
	/* truncated blob */
	assert_int_equal(lbtf_elf_write_btf(obj, obj, blob, 10, NULL), -EINVAL);
	/* not an ELF input */
	write_text(txt, "hello\n");
	assert_true(lbtf_elf_write_btf(txt, obj, blob, size, NULL) < 0);
	assert_true(lbtf_elf_is_swapped(txt) < 0);
	/* missing input, unwritable output directory */
	assert_true(lbtf_elf_write_btf(P(3, "missing.o"), obj, blob, size, NULL) < 0);
	assert_true(lbtf_elf_write_btf(obj, "/nonexistent-dir/x.o", blob, size, NULL) < 0);
	after = read_all(obj, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(before, after, n1);
	assert_int_equal(count_files(), files + 1); /* only not-elf.txt; no temp files */
	free(before);
	free(after);
	free(blob);
}

static int need_tools(void)
{
	const char *tools[] = { "clang-16", "gcc", "as", "bpftool", "llvm-objdump", "llvm-readelf" };

	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++)
		if (sh("command -v %s >/dev/null 2>&1", tools[i])) {
			printf("SKIP: %s not installed\n", tools[i]);
			return 77;
		}
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replace_bpf_object),
		cmocka_unit_test(test_add_to_objects_and_executable),
		cmocka_unit_test(test_allocated_btf),
		cmocka_unit_test(test_big_endian),
		cmocka_unit_test(test_many_sections),
		cmocka_unit_test(test_failure_leaves_original),
	};
	int ret;

	if ((ret = need_tools()))
		return ret;
	if (!mkdtemp(dir))
		return 1;
	libbpf_set_print(NULL);
	ret = cmocka_run_group_tests(tests, NULL, NULL);
	sh("rm -rf %s", dir);
	return ret;
}
