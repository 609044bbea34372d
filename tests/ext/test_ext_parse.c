// SPDX-License-Identifier: BSD-2-Clause
/*
 * .BTF.ext parser: a hand-made section with two ELF sections of func_info,
 * line_info and CO-RE records, read back in both byte orders; malformed
 * sections refused with a reason; access strings resolved against BTF built
 * here (members, arrays, enumerators, refusals).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "libbtf.h"
#include "libbtf_build.h"
#include "libbtf_ext.h"

static uint32_t words[128];
static int nw;

static void w(uint32_t v) { words[nw++] = v; }

/* header (32 bytes) + func_info + line_info + core_relo blocks */
static size_t make_ext(void)
{
	int fi, li, cr, end;

	nw = 0;
	w(0x0001eB9F); /* magic, version 1, flags 0 (little-endian host) */
	w(32);
	w(0); w(0); w(0); w(0); w(0); w(0); /* patched below */
	fi = nw;
	w(8);                         /* func_info rec_size */
	w(5); w(2); w(0); w(10); w(16); w(11);  /* sec "5": 2 records */
	w(7); w(1); w(0); w(12);                /* sec "7": 1 record */
	li = nw;
	w(16);
	w(5); w(1); w(8); w(20); w(30); w((42u << 10) | 7);
	cr = nw;
	w(16);
	w(7); w(1); w(24); w(3); w(40); w(LBTF_CORE_FIELD_BYTE_OFFSET);
	end = nw;
	words[2] = (uint32_t)(fi - 8) * 4;
	words[3] = (uint32_t)(li - fi) * 4;
	words[4] = (uint32_t)(li - 8) * 4;
	words[5] = (uint32_t)(cr - li) * 4;
	words[6] = (uint32_t)(cr - 8) * 4;
	words[7] = (uint32_t)(end - cr) * 4;
	return (size_t)end * 4;
}

static void check_records(struct lbtf_ext *ext)
{
	struct lbtf_ext_func_info fi;
	struct lbtf_ext_line_info li;
	struct lbtf_ext_core_relo cr;
	struct lbtf_ext_sec s;

	assert_int_equal(lbtf_ext_sec_cnt(ext, LBTF_EXT_FUNC_INFO), 2);
	assert_int_equal(lbtf_ext_sec_cnt(ext, LBTF_EXT_LINE_INFO), 1);
	assert_int_equal(lbtf_ext_sec_cnt(ext, LBTF_EXT_CORE_RELO), 1);
	assert_int_equal(lbtf_ext_sec(ext, LBTF_EXT_FUNC_INFO, 1, &s), 0);
	assert_int_equal(s.sec_name_off, 7);
	assert_int_equal(s.rec_cnt, 1);
	assert_int_equal(s.rec_size, 8);
	assert_int_equal(lbtf_ext_func_info(ext, 0, 1, &fi), 0);
	assert_int_equal(fi.insn_off, 16);
	assert_int_equal(fi.type_id, 11);
	assert_int_equal(lbtf_ext_func_info(ext, 1, 0, &fi), 0);
	assert_int_equal(fi.type_id, 12);
	assert_int_equal(lbtf_ext_func_info(ext, 1, 1, &fi), -ERANGE);
	assert_int_equal(lbtf_ext_line_info(ext, 0, 0, &li), 0);
	assert_int_equal(li.insn_off, 8);
	assert_int_equal(li.file_name_off, 20);
	assert_int_equal(li.line_off, 30);
	assert_int_equal(li.line, 42);
	assert_int_equal(li.col, 7);
	assert_int_equal(lbtf_ext_core_relo(ext, 0, 0, &cr), 0);
	assert_int_equal(cr.insn_off, 24);
	assert_int_equal(cr.type_id, 3);
	assert_int_equal(cr.access_str_off, 40);
	assert_int_equal(cr.kind, LBTF_CORE_FIELD_BYTE_OFFSET);
	assert_int_equal(lbtf_ext_sec(ext, LBTF_EXT_CORE_RELO, 1, &s), -ERANGE);
}

static void test_parse(void **state)
{
	size_t n = make_ext();
	struct lbtf_ext *ext = lbtf_ext_new(words, n);

	(void)state;
	assert_non_null(ext);
	assert_false(lbtf_ext_is_swapped(ext));
	check_records(ext);
	lbtf_ext_free(ext);
}

static void test_parse_swapped(void **state)
{
	size_t n = make_ext();
	struct lbtf_ext *ext;

	(void)state;
	for (int i = 0; i < nw; i++)
		words[i] = __builtin_bswap32(words[i]);
	/* the first word holds magic, version and flags as bytes */
	words[0] = 0x0001eB9F;
	((unsigned char *)words)[0] = 0xeB;
	((unsigned char *)words)[1] = 0x9F;
	ext = lbtf_ext_new(words, n);
	assert_non_null(ext);
	assert_true(lbtf_ext_is_swapped(ext));
	check_records(ext);
	lbtf_ext_free(ext);
}

static void test_malformed(void **state)
{
	size_t n = make_ext();

	(void)state;
	assert_null(lbtf_ext_new(words, 16));
	assert_int_equal(errno, EINVAL);
	/* a block past the end */
	words[7] += 4;
	assert_null(lbtf_ext_new(words, n));
	assert_non_null(strstr(lbtf_errmsg(), "core_relo"));
	make_ext();
	/* records past the block: the second func_info section claims 2 */
	words[8 + 1 + 6 + 1] = 2;
	assert_null(lbtf_ext_new(words, n));
	assert_non_null(strstr(lbtf_errmsg(), "past"));
	make_ext();
	words[8] = 4; /* func_info rec_size below 8 */
	assert_null(lbtf_ext_new(words, n));
	assert_non_null(strstr(lbtf_errmsg(), "record size"));
	make_ext();
	words[0] = 0x12345678;
	assert_null(lbtf_ext_new(words, n));
	assert_non_null(strstr(lbtf_errmsg(), "magic"));
}

static struct lbtf *make_btf(void)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);
	struct lbtf *btf;
	void *data;
	size_t size;
	int i_int, s_in, s_out, arr, e;

	i_int = lbtf_builder_add_int(b, "int", 4, LBTF_INT_SIGNED);          /* 1 */
	s_in = lbtf_builder_add_struct(b, "inner", 8);                        /* 2 */
	lbtf_builder_add_field(b, "a", i_int, 0, 0);
	lbtf_builder_add_field(b, "b", i_int, 32, 0);
	arr = lbtf_builder_add_array(b, i_int, s_in, 4);                      /* 3 */
	s_out = lbtf_builder_add_struct(b, "outer", 36);                      /* 4 */
	lbtf_builder_add_field(b, "x", i_int, 0, 0);
	lbtf_builder_add_field(b, "in", arr, 32, 0);
	lbtf_builder_add_typedef(b, "outer_t", s_out);                        /* 5 */
	e = lbtf_builder_add_enum(b, "color", 4, false);                      /* 6 */
	lbtf_builder_add_enum_value(b, "RED", 0);
	lbtf_builder_add_enum_value(b, "BLUE", 1);
	assert_true(e == 6);
	assert_int_equal(lbtf_builder_serialize(b, false, &data, &size), 0);
	btf = lbtf_new(data, size, NULL);
	assert_non_null(btf);
	free(data);
	lbtf_builder_free(b);
	return btf;
}

static void test_access(void **state)
{
	struct lbtf *btf = make_btf();
	struct lbtf_core_step st[8];

	(void)state;
	/* outer_t->in[2].b */
	assert_int_equal(lbtf_core_access_resolve(btf, 5, LBTF_CORE_FIELD_BYTE_OFFSET, "0:1:2:1", st, 8), 4);
	assert_int_equal(st[0].type_id, 4);
	assert_null(st[0].name);
	assert_string_equal(st[1].name, "in");
	assert_int_equal(st[1].bit_off, 32);
	assert_int_equal(st[2].type_id, 3);
	assert_null(st[2].name);
	assert_int_equal(st[2].idx, 2);
	assert_string_equal(st[3].name, "b");
	assert_int_equal(st[3].type_id, 2);
	/* counts past max without writing */
	assert_int_equal(lbtf_core_access_resolve(btf, 4, LBTF_CORE_FIELD_EXISTS, "0:1:2:1", NULL, 0), 4);
	assert_int_equal(lbtf_core_access_resolve(btf, 4, LBTF_CORE_FIELD_EXISTS, "0:2", st, 8), -ENOENT);
	assert_int_equal(lbtf_core_access_resolve(btf, 4, LBTF_CORE_FIELD_EXISTS, "0:1:4", st, 8), -ENOENT);
	assert_int_equal(lbtf_core_access_resolve(btf, 4, LBTF_CORE_FIELD_EXISTS, "0:0:1", st, 8), -ENOENT);
	assert_int_equal(lbtf_core_access_resolve(btf, 4, LBTF_CORE_FIELD_EXISTS, "0:x", st, 8), -EINVAL);
	assert_int_equal(lbtf_core_access_resolve(btf, 4, LBTF_CORE_FIELD_EXISTS, "0:", st, 8), -EINVAL);
	assert_int_equal(lbtf_core_access_resolve(btf, 6, LBTF_CORE_ENUMVAL_VALUE, "1", st, 8), 1);
	assert_string_equal(st[0].name, "BLUE");
	assert_int_equal(lbtf_core_access_resolve(btf, 6, LBTF_CORE_ENUMVAL_VALUE, "2", st, 8), -ENOENT);
	assert_int_equal(lbtf_core_access_resolve(btf, 4, LBTF_CORE_ENUMVAL_VALUE, "0", st, 8), -EINVAL);
	assert_int_equal(lbtf_core_access_resolve(btf, 5, LBTF_CORE_TYPE_EXISTS, "0", st, 8), 1);
	assert_int_equal(st[0].type_id, 4);
	assert_int_equal(lbtf_core_access_resolve(btf, 5, LBTF_CORE_TYPE_SIZE, "1", st, 8), -EINVAL);
	assert_int_equal(lbtf_core_access_resolve(btf, 99, LBTF_CORE_TYPE_SIZE, "0", st, 8), -ENOENT);
	assert_string_equal(lbtf_core_relo_kind_name(LBTF_CORE_ENUMVAL_VALUE), "enumval_value");
	assert_null(lbtf_core_relo_kind_name(LBTF_CORE_RELO_KIND_CNT));
	lbtf_free(btf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_swapped),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_access),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
