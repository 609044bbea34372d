// SPDX-License-Identifier: BSD-2-Clause
/*
 * lbtf_encode, the product job as a library call: options checked before
 * anything is read, the blob handed back equal to the file written, a BPF
 * object encoded in place, a blob the kernel would reject never written
 * (the old file kept, the verdict REJECTED), and lbtf_base_check naming a
 * base's first fault.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>
#include "libbtf.h"
#include "libbtf_encode.h"

static char dir[] = "/tmp/lbtf-encode-XXXXXX";
static char obj[300], out[300];

static const char *src =
	"struct pair { int a; long b; };\n"
	"struct pair g;\n"
	"int __attribute__((section(\"xdp\"))) prog(struct pair *p) { return p->a + (int)g.b; }\n"
	"char _license[] __attribute__((section(\"license\"))) = \"GPL\";\n";

static int setup(void **state)
{
	char cmd[1024];
	FILE *f;

	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(obj, sizeof(obj), "%s/prog.o", dir);
	snprintf(out, sizeof(out), "%s/out.btf", dir);
	snprintf(cmd, sizeof(cmd), "%s/prog.c", dir);
	f = fopen(cmd, "w");
	if (!f || fputs(src, f) < 0 || fclose(f))
		return -1;
	/* gcc: DWARF without a .BTF (the object a build hands btfgen) */
	snprintf(cmd, sizeof(cmd), "gcc -g -O1 -c -o %s %s/prog.c", obj, dir);
	return system(cmd) ? -1 : 0;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

static void *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	void *p = malloc(1 << 20);

	assert_non_null(f);
	assert_non_null(p);
	*size = fread(p, 1, 1 << 20, f);
	fclose(f);
	return p;
}

/* a job that is none is refused before any file is read or written */
static void test_opts_checked(void **state)
{
	struct lbtf_encode_opts bad = { .sz = 0 };
	struct stat st;

	(void)state;
	assert_int_equal(lbtf_encode(obj, &bad, NULL), -EINVAL);
	LBTF_OPTS(lbtf_encode_opts, both, .output = out, .in_place = true);
	assert_int_equal(lbtf_encode(obj, &both, NULL), -EINVAL);
	LBTF_OPTS(lbtf_encode_opts, dist, .in_place = true, .distilled_base = true);
	assert_int_equal(lbtf_encode(obj, &dist, NULL), -EINVAL);
	LBTF_OPTS(lbtf_encode_opts, self, .output = obj);
	assert_int_equal(lbtf_encode(obj, &self, NULL), -EEXIST);
	assert_non_null(strstr(lbtf_errmsg(), "refusing to overwrite"));
	assert_int_equal(stat(out, &st), -1);
}

/* no output: the verified blob comes back, the bytes a file gets */
static void test_blob_back(void **state)
{
	LBTF_OPTS(lbtf_encode_opts, to_file, .output = out, .jobs = 1);
	LBTF_OPTS(lbtf_encode_opts, back, .jobs = 1);
	struct lbtf_encode_result res = { .sz = sizeof(res) };
	size_t size;
	void *file;

	(void)state;
	assert_int_equal(lbtf_encode(obj, &to_file, &res), 0);
	assert_int_equal(res.verdict, LBTF_ENCODE_DONE);
	assert_null(res.data);
	file = slurp(out, &size);
	assert_int_equal(res.size, size);
	assert_int_equal(lbtf_encode(obj, &back, &res), 0);
	assert_non_null(res.data);
	assert_int_equal(res.size, size);
	assert_memory_equal(res.data, file, size);
	free(res.data);
	free(file);
	unlink(out);
}

/* in place: the object gets a .BTF that names its struct */
static void test_in_place(void **state)
{
	LBTF_OPTS(lbtf_encode_opts, o, .in_place = true);
	struct lbtf_encode_result res = { .sz = sizeof(res) };
	char copy[320], cmd[700];
	struct lbtf *btf;

	(void)state;
	snprintf(copy, sizeof(copy), "%s/copy.o", dir);
	snprintf(cmd, sizeof(cmd), "cp %s %s", obj, copy);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(lbtf_encode(copy, &o, &res), 0);
	assert_int_equal(res.verdict, LBTF_ENCODE_DONE);
	btf = lbtf_open_elf(copy, NULL);
	assert_non_null(btf);
	assert_true(lbtf_find_by_name_kind(btf, "pair", LBTF_KIND_STRUCT) > 0);
	lbtf_free(btf);
}

/* BTF of one INT: 64 bits in 4 bytes is what the kernel refuses */
static const uint32_t bad_int[] = {
	0x0001eb9f, 24, 0, 16, 16, 5,           /* header: magic/version/flags, hdr_len, types, strings */
	1, 1u << 24, 4, 64,                     /* INT "i" size 4, 64 bits */
	0x00006900, 0,                          /* "\0i\0" and padding */
};

/* nothing the kernel would reject is written: the old file stays */
static void test_rejected_not_written(void **state)
{
	LBTF_OPTS(lbtf_encode_opts, o, .output = out);
	struct lbtf_encode_result res = { .sz = sizeof(res) };
	size_t size;
	char *kept;
	FILE *f;

	(void)state;
	f = fopen(out, "w");
	assert_non_null(f);
	fputs("old", f);
	fclose(f);
	assert_int_equal(lbtf_encode_blob("bad.btf", bad_int, 40, &o, &res), -EINVAL);
	assert_int_equal(res.verdict, LBTF_ENCODE_REJECTED);
	assert_int_equal(res.verify_err, EINVAL);
	assert_non_null(strstr(lbtf_errmsg(), "bad.btf: the BTF made from it would be rejected"));
	kept = slurp(out, &size);
	assert_int_equal(size, 3);
	assert_memory_equal(kept, "old", 3);
	free(kept);
	unlink(out);
}

/* a base whose PTR names a type it lacks is named as such */
static void test_base_check(void **state)
{
	static const uint32_t ptr_past[] = {
		0x0001eb9f, 24, 0, 12, 12, 4,   /* header */
		0, 2u << 24, 5,                 /* PTR to [5]: there is no [5] */
		0,                              /* "\0" */
	};
	struct lbtf *base = lbtf_new(ptr_past, sizeof(ptr_past), NULL);

	(void)state;
	assert_non_null(base);
	assert_int_equal(lbtf_base_check(base, "b.btf", LBTF_BASE_CHECK_FULL), -EINVAL);
	assert_string_equal(lbtf_errmsg(), "b.btf: bad base BTF: type [1] refers to type id 5, "
			    "past its last type [1]");
	assert_int_equal(lbtf_base_check(base, "b.btf", 0), -EINVAL);
	lbtf_free(base);
}

/* a loop of references is the full check's: the ids alone are in range */
static void test_base_check_loop(void **state)
{
	static const uint32_t ptr_self[] = {
		0x0001eb9f, 24, 0, 12, 12, 4,   /* header */
		0, 2u << 24, 1,                 /* PTR to itself */
		0,
	};
	struct lbtf *base = lbtf_new(ptr_self, sizeof(ptr_self), NULL);

	(void)state;
	assert_non_null(base);
	assert_int_equal(lbtf_base_check(base, "b.btf", 0), 0);
	assert_int_equal(lbtf_base_check(base, "b.btf", LBTF_BASE_CHECK_FULL), -EINVAL);
	assert_non_null(strstr(lbtf_errmsg(), "b.btf: bad base BTF: type [1] refers to itself"));
	lbtf_free(base);
}

/* the verifier's check of a base: refs in range, a record the kernel refuses */
static void test_base_check_verify(void **state)
{
	static const uint32_t named_ptr[] = {
		0x0001eb9f, 24, 0, 12, 12, 4,   /* header */
		1, 2u << 24, 0,                 /* PTR named "i": pointers have no name */
		0x00006900,                     /* "\0i\0\0" */
	};
	struct lbtf *base = lbtf_new(named_ptr, sizeof(named_ptr), NULL);

	(void)state;
	assert_non_null(base);
	assert_int_equal(lbtf_base_check(base, "b.btf", LBTF_BASE_CHECK_FULL), 0);
	assert_int_equal(lbtf_base_check(base, "b.btf", LBTF_BASE_CHECK_VERIFY), -EINVAL);
	assert_non_null(strstr(lbtf_errmsg(), "b.btf: bad base BTF, the kernel would reject it: "));
	assert_non_null(strstr(lbtf_errmsg(), "(EINVAL)"));
	lbtf_free(base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opts_checked),
		cmocka_unit_test(test_blob_back),
		cmocka_unit_test(test_in_place),
		cmocka_unit_test(test_rejected_not_written),
		cmocka_unit_test(test_base_check),
		cmocka_unit_test(test_base_check_loop),
		cmocka_unit_test(test_base_check_verify),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
