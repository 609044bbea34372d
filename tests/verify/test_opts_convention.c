// SPDX-License-Identifier: BSD-2-Clause
/*
 * The options convention every lbtf_*_opts and result struct follows (sz
 * first, as libbpf): sz 0 is refused, an older (shorter) caller struct gets
 * the defaults, unknown trailing bytes must be zero, and a result struct is
 * written only up to the caller's sz. Checked on lbtf_verify (options and a
 * result) and lbtf_builder_dedup (options and stats), which share one mechanism.
 */
#include "vcase.h"

#define STRS "\0int\0"
#define INT32 T_INT(1, 1, 0, 32, 4)

static void test_sz_zero_refused(void **state)
{
	struct vblob b = VB(STRS, INT32);
	struct lbtf_verify_opts o = { .log_level = 1 };       /* sz left 0 */
	struct lbtf_verify_result res = { .sz = 0 };

	assert_int_equal(lbtf_verify(b.p, b.len, &o, NULL), -EINVAL);
	assert_non_null(strstr(lbtf_errmsg(), "lbtf_verify_opts"));
	assert_int_equal(lbtf_verify(b.p, b.len, NULL, &res), -EINVAL);
	assert_non_null(strstr(lbtf_errmsg(), "lbtf_verify_result"));
	LBTF_OPTS(lbtf_verify_opts, ok);
	assert_int_equal(lbtf_verify(b.p, b.len, &ok, NULL), 0);
	free(b.p);
}

static void test_unknown_trailing_bytes(void **state)
{
	struct vblob b = VB(STRS, INT32);
	struct {
		struct lbtf_verify_opts o;
		uint64_t newer_option;
	} big = { .o = { .sz = sizeof(big) } };

	/* a newer caller's struct: fine while its extra fields are zero */
	assert_int_equal(lbtf_verify(b.p, b.len, &big.o, NULL), 0);
	big.newer_option = 1;
	assert_int_equal(lbtf_verify(b.p, b.len, &big.o, NULL), -EINVAL);
	assert_non_null(strstr(lbtf_errmsg(), "does not know"));
	free(b.p);
}

static void test_older_caller(void **state)
{
	struct vblob b = VB(STRS, INT32);
	char buf[256] = "";
	/* an older caller knew only sz, log_level, log_size, log_buf: flags and
	 * base past its sz hold garbage the library must not read */
	struct lbtf_verify_opts o = { .sz = offsetof(struct lbtf_verify_opts, flags),
				      .log_level = 1, .log_size = sizeof(buf), .log_buf = buf,
				      .flags = 0xffffffff,
				      .base = (const struct lbtf *)(uintptr_t)1 };

	assert_int_equal(lbtf_verify(b.p, b.len, &o, NULL), 0);
	assert_non_null(strstr(buf, "[1] INT int"));
	free(b.p);
}

static void test_result_written_up_to_sz(void **state)
{
	struct vblob b = VB(STRS, INT32);
	char buf[256];
	LBTF_OPTS(lbtf_verify_opts, o, .log_level = 1, .log_size = sizeof(buf), .log_buf = buf,
		  .flags = LBTF_VERIFY_KEEP_LOG);
	/* an older result struct: only err and log_true_size */
	struct lbtf_verify_result res;
	size_t old_sz = offsetof(struct lbtf_verify_result, true_size_written);

	memset(&res, 0xa5, sizeof(res));
	res.sz = old_sz;
	assert_int_equal(lbtf_verify(b.p, b.len, &o, &res), 0);
	assert_int_equal(res.err, 0);
	assert_true(res.log_true_size > 0);
	for (size_t i = old_sz; i < sizeof(res); i++)
		assert_int_equal(((unsigned char *)&res)[i], 0xa5); /* untouched */
	assert_int_equal(res.sz, old_sz);
	free(b.p);
}

static void test_dedup_stats(void **state)
{
	struct lbtf_builder *bld = lbtf_builder_new(NULL);
	struct lbtf_dedup_stats st = { .sz = offsetof(struct lbtf_dedup_stats, strs_in_bytes) };
	LBTF_OPTS(lbtf_dedup_opts, o, .stats = &st);

	assert_non_null(bld);
	assert_true(lbtf_builder_add_int(bld, "int", 4, LBTF_INT_SIGNED) > 0);
	assert_true(lbtf_builder_add_int(bld, "int", 4, LBTF_INT_SIGNED) > 0);
	st.strs_in_bytes = 77;
	st.strs_out_bytes = 77;
	assert_int_equal(lbtf_builder_dedup(bld, &o), 0);
	assert_int_equal(st.types_in, 2);
	assert_int_equal(st.types_out, 1);
	assert_int_equal(st.strs_in_bytes, 77); /* past sz: not written */
	assert_int_equal(st.strs_out_bytes, 77);
	st.sz = 0;
	assert_int_equal(lbtf_builder_dedup(bld, &o), -EINVAL);
	o.sz = 0;
	assert_int_equal(lbtf_builder_dedup(bld, &o), -EINVAL);
	lbtf_builder_free(bld);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sz_zero_refused),
		cmocka_unit_test(test_unknown_trailing_bytes),
		cmocka_unit_test(test_older_caller),
		cmocka_unit_test(test_result_written_up_to_sz),
		cmocka_unit_test(test_dedup_stats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
