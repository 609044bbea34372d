// SPDX-License-Identifier: BSD-2-Clause
/*
 * After dedup the converter compacts the strings once, at the end of the
 * prune (lbtfi_builder_dedup_types, then lbtfi_dw_prune), not once in
 * dedup and again in the prune. The output must be the bytes of the two
 * passes, whether the prune drops types or not, and records known checked
 * stay known checked through the string pass (else serializing checks
 * every record again).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "dwarf/internal.h"
#include "dedup/internal.h"

/* Two units' copies of int, struct S { int a; } and a FUNC f(int p<k>),
 * and a string nothing refers to (interned by a conversion rolled back);
 * with two_funcs, the second unit's f has another prototype, which the
 * prune drops with its parameter's name */
static struct lbtf_builder *make(bool two_funcs)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);

	assert_non_null(b);
	assert_true(lbtf_builder_add_str(b, "rolled_back") > 0);
	for (int u = 0; u < 2; u++) {
		int i = lbtf_builder_add_int(b, "int", 4, LBTF_INT_SIGNED);
		int l = lbtf_builder_add_int(b, "long", 8, LBTF_INT_SIGNED);
		int p;

		assert_true(i > 0 && l > 0);
		assert_true(lbtf_builder_add_struct(b, "S", 4) > 0);
		assert_true(lbtf_builder_add_field(b, "a", (uint32_t)i, 0, 0) >= 0);
		p = lbtf_builder_add_func_proto(b, (uint32_t)i);
		assert_true(p > 0);
		if (two_funcs && u == 1)
			assert_true(lbtf_builder_add_func_param(b, "p_second", (uint32_t)l) >= 0);
		else
			assert_true(lbtf_builder_add_func_param(b, "p_first", (uint32_t)i) >= 0);
		assert_true(lbtf_builder_add_func(b, "f", LBTF_LINKAGE_GLOBAL, (uint32_t)p) > 0);
	}
	return b;
}

static void *blob(struct lbtf_builder *b, size_t *size)
{
	void *data;

	assert_int_equal(lbtf_builder_serialize(b, false, &data, size), 0);
	return data;
}

/* dedup with its string pass (or without), then the prune */
static struct lbtf_builder *tail(bool two_funcs, bool dedup_strings, uint32_t *dropped)
{
	struct lbtf_dedup_opts o = { .sz = sizeof(o) };
	struct lbtf_builder *b = make(two_funcs);
	bool settled;

	if (dedup_strings)
		assert_int_equal(lbtfi_builder_dedup_settled(b, &o, &settled), 0);
	else
		assert_int_equal(lbtfi_builder_dedup_types(b, &o, &settled), 0);
	assert_int_equal(lbtfi_dw_prune(b, 0, false, dropped), 0);
	return b;
}

static bool has_str(const struct lbtf_builder *b, const char *s)
{
	return lbtfi_strset_find(&b->strs, s) >= 0;
}

static void same_bytes_as_two_passes(bool two_funcs, uint32_t want_dropped)
{
	uint32_t d1, d2;
	struct lbtf_builder *once = tail(two_funcs, false, &d1), *twice = tail(two_funcs, true, &d2);
	size_t n1, n2;
	void *b1, *b2;

	assert_int_equal(d1, want_dropped);
	assert_int_equal(d2, want_dropped);
	assert_false(has_str(once, "rolled_back"));
	assert_true(has_str(once, "p_first"));
	assert_false(has_str(once, "p_second"));
	b1 = blob(once, &n1);
	b2 = blob(twice, &n2);
	assert_int_equal(n1, n2);
	assert_memory_equal(b1, b2, n1);
	free(b1);
	free(b2);
	lbtf_builder_free(once);
	lbtf_builder_free(twice);
}

/* The prune drops nothing: the strings dedup left still go */
static void test_nothing_pruned(void **state)
{
	(void)state;
	same_bytes_as_two_passes(false, 0);
}

/* The prune drops the second f and its prototype: their strings go too */
static void test_func_pruned(void **state)
{
	(void)state;
	same_bytes_as_two_passes(true, 2);
}

/* Dedup leaves the strings as they were, every one still there */
static void test_dedup_types_keeps_strings(void **state)
{
	struct lbtf_dedup_opts o = { .sz = sizeof(o) };
	struct lbtf_builder *b = make(false);
	size_t len = b->strs.len;
	bool settled;

	(void)state;
	assert_int_equal(lbtfi_builder_dedup_types(b, &o, &settled), 0);
	assert_int_equal(b->strs.len, len);
	assert_true(has_str(b, "rolled_back"));
	lbtf_builder_free(b);
}

/* The string pass keeps records known checked as they were */
static void test_strings_keep_checked(void **state)
{
	struct lbtf_dedup_opts o = { .sz = sizeof(o) };
	struct lbtf_builder *b = make(false);
	size_t len;
	bool settled;

	(void)state;
	assert_int_equal(lbtfi_builder_dedup_types(b, &o, &settled), 0);
	assert_true(lbtfi_builder_checked_known(b));
	len = b->strs.len;
	assert_int_equal(lbtfi_dedup_strings(b), 0);
	assert_true(b->strs.len < len);
	assert_true(lbtfi_builder_checked_known(b));
	/* (and records not known checked are not said to be) */
	lbtfi_builder_checked_forget(b);
	assert_true(lbtf_builder_add_str(b, "later") > 0);
	assert_int_equal(lbtfi_dedup_strings(b), 0);
	assert_false(lbtfi_builder_checked_known(b));
	lbtf_builder_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_pruned),
		cmocka_unit_test(test_func_pruned),
		cmocka_unit_test(test_dedup_types_keeps_strings),
		cmocka_unit_test(test_strings_keep_checked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
