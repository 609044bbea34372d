// SPDX-License-Identifier: BSD-2-Clause
/* Verifier unit tests: the log buffer rules (rotating/fixed, true size,
 * ENOSPC, attributes, 1023-byte pieces) and the type-count limit. */
#include "vcase.h"

#define STRS "\0int\0"
#define INT32 T_INT(1, 1, 0, 32, 4)
#define FULL_LOG                                                                          \
	"magic: 0xeb9f\nversion: 1\nflags: 0x0\nhdr_len: 24\ntype_off: 0\ntype_len: 16\n"     \
	"str_off: 16\nstr_len: 6\nbtf_total_size: 46\n"                                       \
	"[1] INT int size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n"

static int run(struct vblob b, uint32_t level, char *buf, uint32_t size,
	       struct lbtf_verify_result *res)
{
	struct lbtf_verify_opts o = { .sz = sizeof(o), .log_level = level, .log_size = size, .log_buf = buf };
	return lbtf_verify(b.p, b.len, &o, res);
}

static void test_sizes(void **state)
{
	struct vblob b = VB(STRS, INT32);
	size_t len = strlen(FULL_LOG);
	struct lbtf_verify_result res = { .sz = sizeof(res) };
	char buf[512];

	/* exactly enough (len + 1) loads; one byte less is ENOSPC with the tail */
	assert_int_equal(run(b, 1, buf, len + 1, &res), 0);
	assert_string_equal(buf, FULL_LOG);
	assert_int_equal(res.log_true_size, len + 1);
	assert_int_equal(run(b, 1, buf, len, &res), -ENOSPC);
	assert_string_equal(buf, &FULL_LOG[1]);
	assert_int_equal(res.log_true_size, len + 1);
	/* fixed mode keeps the head */
	assert_int_equal(run(b, 1 | LBTF_LOG_FIXED, buf, 10, &res), -ENOSPC);
	assert_string_equal(buf, "magic: 0x");
	/* size 1: an empty string */
	assert_int_equal(run(b, 1, buf, 1, &res), -ENOSPC);
	assert_string_equal(buf, "");
	/* no buffer: only the true size; level 0: true size 0 */
	assert_int_equal(run(b, 1, NULL, 0, &res), 0);
	assert_int_equal(res.log_true_size, len + 1);
	assert_int_equal(run(b, 0, NULL, 0, &res), 0);
	assert_int_equal(res.log_true_size, 0);
	assert_true(res.true_size_written);
	/* every level subset of 1|2|4|8 gives the same text */
	assert_int_equal(run(b, 6, buf, sizeof(buf), &res), 0);
	assert_string_equal(buf, FULL_LOG);
	free(b.p);
}

static void test_attrs(void **state)
{
	struct vblob b = VB(STRS, INT32);
	struct lbtf_verify_result res = { .sz = sizeof(res) };
	char buf[64];

	assert_int_equal(run(b, 1, buf, 0, &res), -EINVAL);   /* buffer without size */
	assert_int_equal(run(b, 1, NULL, 64, &res), -EINVAL); /* size without buffer */
	assert_int_equal(run(b, 0, buf, 64, &res), -EINVAL);  /* buffer without level */
	assert_int_equal(run(b, 16, buf, 64, &res), -EINVAL); /* BPF_LOG_KERNEL */
	assert_int_equal(run(b, 1, buf, 0x40000000, &res), -EINVAL);
	assert_false(res.true_size_written);
	free(b.p);
}

static void test_enospc_overrides(void **state)
{
	struct vblob b = VB(STRS, T_INT(1, 3, 0, 32, 4));
	struct lbtf_verify_result res = { .sz = sizeof(res) };
	char buf[20];

	/* an ENOTSUPP failure with a short buffer becomes ENOSPC */
	assert_int_equal(run(b, 1, buf, sizeof(buf), &res), -ENOSPC);
	assert_string_equal(buf, "supported encoding\n");
	free(b.p);
}

static void test_too_big(void **state)
{
	size_t n = LBTF_MAX_FILE_SIZE + 1;
	unsigned char *p = calloc(1, n);
	struct lbtf_verify_result res = { .sz = sizeof(res) };
	char buf[64] = "untouched";
	struct lbtf_verify_opts o = { .sz = sizeof(o), .log_level = 1, .log_size = sizeof(buf), .log_buf = buf };

	assert_int_equal(lbtf_verify(p, n, &o, &res), -E2BIG);
	assert_string_equal(buf, "untouched");
	assert_false(res.true_size_written);
	free(p);
}

/* Each formatted piece is cut to 1023 bytes: a long DECL_TAG value eats
 * the prefix's trailing space and the details follow directly. */
static void test_piece_cut(void **state)
{
	char strs[1 + 2001 + 4];
	uint32_t w[] = { T_STRUCT(1, 0, 4), 5, INFO(17, 0, 0), 1, -1u, W_END };
	struct vblob b;
	static char buf[8192];
	char want[1100];
	const char *line;

	memset(strs, 0, sizeof(strs));
	memcpy(strs + 1, "int", 3);
	memset(strs + 5, 'v', 2000);
	b = vb_make(w, strs, 5 + 2001);
	assert_int_equal(run(b, 1, buf, sizeof(buf), NULL), 0);
	line = strstr(buf, "[2] DECL_TAG ");
	assert_non_null(line);
	memcpy(want, "[2] DECL_TAG ", 13);
	memset(want + 13, 'v', 1023 - 13);
	strcpy(want + 1023, "type=1 component_idx=-1\n");
	assert_string_equal(line, want);
	free(b.p);
}

/* Past id 1048574 types are dropped after "Exceeded max num of types",
 * and the blob still loads. */
static void test_max_types(void **state)
{
	const uint32_t n = 1048576;
	size_t tl = (size_t)n * 12;
	struct lbtf_header h = { LBTF_MAGIC, 1, 0, 24, 0, tl, tl, 1 };
	unsigned char *p = malloc(24 + tl + 1);
	struct lbtf_verify_result res = { .sz = sizeof(res) };
	static char buf[256];

	memcpy(p, &h, 24);
	for (uint32_t i = 0; i < n; i++)
		memcpy(p + 24 + i * 12, (uint32_t[]){ 0, INFO(2, 0, 0), 0 }, 12);
	p[24 + tl] = 0;
	{
		struct lbtf_verify_opts o = { .sz = sizeof(o), .log_level = 1, .log_size = sizeof(buf), .log_buf = buf };
		assert_int_equal(lbtf_verify(p, 24 + tl + 1, &o, &res), -ENOSPC);
	}
	assert_non_null(strstr(buf, "[1048575] PTR (anon) type_id=0\nExceeded max num of types"
				    "[1048576] PTR (anon) type_id=0\nExceeded max num of types"));
	assert_int_equal(lbtf_verify(p, 24 + tl + 1, NULL, &res), 0);
	assert_int_equal(res.nr_types, 1048574);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes),     cmocka_unit_test(test_attrs),
		cmocka_unit_test(test_enospc_overrides), cmocka_unit_test(test_too_big),
		cmocka_unit_test(test_piece_cut), cmocka_unit_test(test_max_types),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
