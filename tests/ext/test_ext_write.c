// SPDX-License-Identifier: BSD-2-Clause
/*
 * .BTF.ext writer: records of the three kinds in two ELF sections written
 * and read back by the parser in both byte orders (sections in the order
 * first named, records in the order added, line/column packed), an empty
 * writer gives a header only, and a line or column too wide is refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "libbtf_ext.h"

static struct lbtf_ext_writer *filled(void)
{
	struct lbtf_ext_writer *w = lbtf_ext_writer_new();
	struct lbtf_ext_func_info f1 = { 0, 3 }, f2 = { 16, 4 }, f3 = { 0, 9 };
	struct lbtf_ext_line_info l1 = { 0, 20, 30, 42, 7 }, l2 = { 8, 20, 31, 0x3fffff, 0x3ff };
	struct lbtf_ext_core_relo c1 = { 24, 5, 40, LBTF_CORE_FIELD_EXISTS };

	assert_non_null(w);
	assert_int_equal(lbtf_ext_writer_add_func_info(w, 11, &f1), 0);
	assert_int_equal(lbtf_ext_writer_add_func_info(w, 12, &f3), 0);
	assert_int_equal(lbtf_ext_writer_add_func_info(w, 11, &f2), 0);
	assert_int_equal(lbtf_ext_writer_add_line_info(w, 12, &l1), 0);
	assert_int_equal(lbtf_ext_writer_add_line_info(w, 12, &l2), 0);
	assert_int_equal(lbtf_ext_writer_add_core_relo(w, 11, &c1), 0);
	return w;
}

static void check_read(bool swapped)
{
	struct lbtf_ext_writer *w = filled();
	struct lbtf_ext_sec sec;
	struct lbtf_ext_func_info f;
	struct lbtf_ext_line_info l;
	struct lbtf_ext_core_relo c;
	struct lbtf_ext *ext;
	void *data;
	size_t size;

	assert_int_equal(lbtf_ext_writer_rec_cnt(w, LBTF_EXT_FUNC_INFO), 3);
	assert_int_equal(lbtf_ext_writer_rec_cnt(w, LBTF_EXT_LINE_INFO), 2);
	assert_int_equal(lbtf_ext_writer_finish(w, swapped, &data, &size), 0);
	/* header 32 + func (4 + 8 + 16 + 8 + 8) + line (4 + 8 + 32) + core (4 + 8 + 16) */
	assert_int_equal(size, 32 + 44 + 44 + 28);
	ext = lbtf_ext_new(data, size);
	assert_non_null(ext);
	assert_int_equal(lbtf_ext_is_swapped(ext), swapped);
	assert_int_equal(lbtf_ext_sec_cnt(ext, LBTF_EXT_FUNC_INFO), 2);
	assert_int_equal(lbtf_ext_sec(ext, LBTF_EXT_FUNC_INFO, 0, &sec), 0);
	assert_int_equal(sec.sec_name_off, 11);
	assert_int_equal(sec.rec_cnt, 2);
	assert_int_equal(lbtf_ext_func_info(ext, 0, 1, &f), 0);
	assert_int_equal(f.insn_off, 16);
	assert_int_equal(f.type_id, 4);
	assert_int_equal(lbtf_ext_sec(ext, LBTF_EXT_FUNC_INFO, 1, &sec), 0);
	assert_int_equal(sec.sec_name_off, 12);
	assert_int_equal(lbtf_ext_func_info(ext, 1, 0, &f), 0);
	assert_int_equal(f.type_id, 9);
	assert_int_equal(lbtf_ext_sec_cnt(ext, LBTF_EXT_LINE_INFO), 1);
	assert_int_equal(lbtf_ext_line_info(ext, 0, 1, &l), 0);
	assert_int_equal(l.insn_off, 8);
	assert_int_equal(l.file_name_off, 20);
	assert_int_equal(l.line_off, 31);
	assert_int_equal(l.line, 0x3fffff);
	assert_int_equal(l.col, 0x3ff);
	assert_int_equal(lbtf_ext_line_info(ext, 0, 0, &l), 0);
	assert_int_equal(l.line, 42);
	assert_int_equal(l.col, 7);
	assert_int_equal(lbtf_ext_sec_cnt(ext, LBTF_EXT_CORE_RELO), 1);
	assert_int_equal(lbtf_ext_core_relo(ext, 0, 0, &c), 0);
	assert_int_equal(c.insn_off, 24);
	assert_int_equal(c.type_id, 5);
	assert_int_equal(c.access_str_off, 40);
	assert_int_equal(c.kind, LBTF_CORE_FIELD_EXISTS);
	lbtf_ext_free(ext);
	free(data);
	lbtf_ext_writer_free(w);
}

static void test_roundtrip(void **state)
{
	(void)state;
	check_read(false);
}

static void test_roundtrip_swapped(void **state)
{
	(void)state;
	check_read(true);
}

static void test_empty_and_range(void **state)
{
	struct lbtf_ext_writer *w = lbtf_ext_writer_new();
	struct lbtf_ext_line_info wide = { 0, 1, 1, 0x400000, 0 }, col = { 0, 1, 1, 1, 0x400 };
	struct lbtf_ext *ext;
	void *data;
	size_t size;

	(void)state;
	assert_int_equal(lbtf_ext_writer_add_line_info(w, 1, &wide), -ERANGE);
	assert_int_equal(lbtf_ext_writer_add_line_info(w, 1, &col), -ERANGE);
	assert_int_equal(lbtf_ext_writer_finish(w, false, &data, &size), 0);
	assert_int_equal(size, 32);
	ext = lbtf_ext_new(data, size);
	assert_non_null(ext);
	assert_int_equal(lbtf_ext_sec_cnt(ext, LBTF_EXT_LINE_INFO), 0);
	lbtf_ext_free(ext);
	free(data);
	lbtf_ext_writer_free(w);
	lbtf_ext_writer_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_roundtrip_swapped),
		cmocka_unit_test(test_empty_and_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
