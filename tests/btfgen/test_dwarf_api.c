// SPDX-License-Identifier: BSD-2-Clause
/*
 * libbtf DWARF -> BTF API: feature lists, argument and input errors, and a
 * real conversion of this test program itself (built with -g): same bytes
 * at any thread count, FUNCs and VARs present, stats filled in.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "libbtf.h"

/* Something for the converter to find in this very binary */
struct api_probe {
	int id;
	unsigned int flag : 1, kind : 7;
	const char *name;
};
struct api_probe api_probe_var = { 1, 1, 2, "probe" };

static void test_features(void **state)
{
	uint32_t f = 0;

	assert_int_equal(lbtf_dwarf_parse_features("float,enum64", &f), 0);
	assert_int_equal(f & LBTF_DWARF_FEAT_ALL, LBTF_DWARF_FEAT_FLOAT | LBTF_DWARF_FEAT_ENUM64);
	assert_int_equal(lbtf_dwarf_parse_features("default,-var", &f), 0);
	assert_true(f & LBTF_DWARF_FEAT_FUNC);
	assert_false(f & LBTF_DWARF_FEAT_VAR);
	assert_int_equal(lbtf_dwarf_parse_features("none", &f), 0);
	assert_int_equal(f & LBTF_DWARF_FEAT_ALL, 0);
	assert_true(f != 0); /* an explicit empty set, not "the defaults" */
	/* a list that starts with a removal changes the defaults */
	f = 0;
	assert_int_equal(lbtf_dwarf_parse_features("-float", &f), 0);
	assert_int_equal(f & LBTF_DWARF_FEAT_ALL, LBTF_DWARF_FEAT_DEFAULT & ~LBTF_DWARF_FEAT_FLOAT);
	assert_true(f & LBTF_DWARF_FEAT_INPUT_VARS);
	assert_int_equal(lbtf_dwarf_parse_features("all", &f), 0);
	assert_false(f & LBTF_DWARF_FEAT_INPUT_VARS);
	assert_int_equal(lbtf_dwarf_parse_features("nope", &f), -EINVAL);
	assert_non_null(strstr(lbtf_errmsg(), "nope"));
	assert_int_equal(lbtf_dwarf_parse_features(NULL, &f), -EINVAL);
}

static void test_bad_inputs(void **state)
{
	char path[] = "/tmp/lbtf_dwarf_api_XXXXXX";
	int fd;

	errno = 0;
	assert_null(lbtf_dwarf_to_btf(NULL, NULL));
	assert_int_equal(errno, EINVAL);
	assert_null(lbtf_dwarf_to_btf("/nonexistent/file", NULL));
	assert_int_equal(errno, ENOENT);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "not an elf file", 15), 15);
	close(fd);
	assert_null(lbtf_dwarf_to_btf(path, NULL));
	assert_int_equal(errno, ENOEXEC);
	assert_non_null(strstr(lbtf_errmsg(), "not an ELF file"));
	unlink(path);
}

static int nwarn;
static void count_warn(void *ctx, const char *msg)
{
	nwarn++;
}

static void convert_self(int jobs, void **data, size_t *size, struct lbtf_dwarf_stats *st)
{
	struct lbtf_dwarf_opts o = { .sz = sizeof(o), .jobs = jobs, .stats = st, .warn = count_warn };
	struct lbtf_builder *b = lbtf_dwarf_to_btf("/proc/self/exe", &o);

	assert_non_null(b);
	assert_int_equal(lbtf_builder_serialize(b, false, data, size), 0);
	lbtf_builder_free(b);
}

static void test_convert_self(void **state)
{
	struct lbtf_dwarf_stats s1 = { .sz = sizeof(s1) }, s3 = { .sz = sizeof(s3) };
	void *d1, *d3;
	size_t n1, n3;
	struct lbtf *btf;
	int id;
	const struct lbtf_type *t;

	convert_self(1, &d1, &n1, &s1);
	convert_self(3, &d3, &n3, &s3);
	assert_int_equal(n1, n3);
	assert_memory_equal(d1, d3, n1);
	assert_true(s1.units > 1);
	assert_true(s1.types_raw >= s1.types_out);
	assert_true(s1.funcs > 10);
	assert_true(s1.vars >= 1);

	btf = lbtf_new(d1, n1, NULL);
	assert_non_null(btf);
	id = lbtf_find_by_name_kind(btf, "api_probe", LBTF_KIND_STRUCT);
	assert_true(id > 0);
	t = lbtf_type_by_id(btf, id);
	assert_int_equal(lbtf_vlen(t), 4);
	assert_true(lbtf_kflag(t)); /* bitfields */
	assert_int_equal(lbtf_member_bitfield_size(t, 2), 7);
	id = lbtf_find_by_name_kind(btf, "api_probe_var", LBTF_KIND_VAR);
	assert_true(id > 0);
	assert_int_equal(lbtf_var(lbtf_type_by_id(btf, id))->linkage, LBTF_LINKAGE_GLOBAL);
	id = lbtf_find_by_name_kind(btf, "convert_self", LBTF_KIND_FUNC);
	if (id > 0) /* unless inlined */
		assert_int_equal(lbtf_vlen(lbtf_type_by_id(btf, id)), LBTF_LINKAGE_STATIC);
	id = lbtf_find_by_name_kind(btf, "main", LBTF_KIND_FUNC);
	assert_true(id > 0);
	assert_int_equal(lbtf_vlen(lbtf_type_by_id(btf, id)), LBTF_LINKAGE_GLOBAL);
	lbtf_free(btf);
	free(d1);
	free(d3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_convert_self),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
