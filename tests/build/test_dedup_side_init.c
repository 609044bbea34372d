// SPDX-License-Identifier: BSD-2-Clause
/*
 * libbtf/dedup/dedup.c: for a big builder, dedup_init makes hypot and the
 * candidate table on a second thread while it reads the kinds and fills
 * map, and joins it before the passes. With that thread forced (the
 * threshold lbtfi_dedup_side_init_min at 0) the output must be the bytes
 * it is without it (UINT32_MAX), for builders with and without a base,
 * and the thread must really have been made: pthread_create is wrapped
 * (--wrap=pthread_create, tests/tests.mk) and counted. (White box: links
 * the internal archive.)
 */
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "libbtf.h"
#include "dedup/internal.h"

static unsigned int threads_made;

int __real_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg);

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
	int err = __real_pthread_create(t, a, fn, arg);

	if (!err)
		__atomic_add_fetch(&threads_made, 1, __ATOMIC_SEQ_CST);
	return err;
}

/* Unit u's copy of a few linked structs, a typedef, an enum and a FWD:
 * 16 variants of names, so that dedup keeps some and merges the rest */
static void add_unit(struct lbtf_builder *b, unsigned int u, uint32_t base_int)
{
	uint32_t i = base_int ? base_int : (uint32_t)lbtf_builder_add_int(b, "int", 4, LBTF_INT_SIGNED);
	uint32_t s = lbtf_builder_type_cnt(b), p = s + 1, f;
	char name[32];

	snprintf(name, sizeof(name), "node%u", u % 16);
	lbtf_builder_add_struct(b, name, 24);
	lbtf_builder_add_field(b, "next", p, 0, 0);
	lbtf_builder_add_field(b, "v", i, 64, 0);
	lbtf_builder_add_field(b, "w", i, 96 + 32 * (u % 2), 0);
	assert_int_equal(lbtf_builder_add_ptr(b, s), p);
	snprintf(name, sizeof(name), "node%u_t", u % 16);
	lbtf_builder_add_typedef(b, name, s);
	snprintf(name, sizeof(name), "mode%u", u % 8);
	lbtf_builder_add_enum(b, name, 4, false);
	lbtf_builder_add_enum_value(b, "A", (int64_t)(u % 3));
	snprintf(name, sizeof(name), "opaque%u", u % 4);
	f = (uint32_t)lbtf_builder_add_fwd(b, name, LBTF_FWD_STRUCT);
	lbtf_builder_add_ptr(b, f);
}

/* The deduplicated bytes of 4000 units (over base when given) with the
 * thread (side_min 0) or without it (UINT32_MAX); threads counted */
static void *dedup_units(const struct lbtf *base, uint32_t base_int, uint32_t side_min,
			 size_t *size, unsigned int *made)
{
	struct lbtf_builder *b = lbtf_builder_new(base);
	struct lbtf_dedup_opts o = { .sz = sizeof(o) };
	void *data;

	assert_non_null(b);
	for (unsigned int u = 0; u < 4000; u++)
		add_unit(b, u, base_int);
	lbtfi_dedup_side_init_min = side_min;
	threads_made = 0;
	if (lbtf_builder_dedup(b, &o) < 0)
		fail_msg("dedup failed: %s", lbtf_errmsg());
	*made = threads_made;
	lbtfi_dedup_side_init_min = 65536;
	assert_int_equal(lbtf_builder_serialize(b, false, &data, size), 0);
	lbtf_builder_free(b);
	return data;
}

static void same_with_and_without(const struct lbtf *base, uint32_t base_int)
{
	unsigned int with, without;
	size_t n1, n2;
	void *d1 = dedup_units(base, base_int, UINT32_MAX, &n1, &without);
	void *d2 = dedup_units(base, base_int, 0, &n2, &with);

	assert_int_equal(without, 0);
	assert_int_equal(with, 1);
	assert_int_equal(n1, n2);
	assert_memory_equal(d1, d2, n1);
	free(d1);
	free(d2);
}

static void test_side_init_same_bytes(void **state)
{
	(void)state;
	same_with_and_without(NULL, 0);
}

static void test_side_init_same_bytes_over_base(void **state)
{
	struct lbtf_builder *bb = lbtf_builder_new(NULL);
	struct lbtf *base;
	uint32_t i;
	void *data;
	size_t size;

	(void)state;
	i = (uint32_t)lbtf_builder_add_int(bb, "int", 4, LBTF_INT_SIGNED);
	add_unit(bb, 0, i);
	assert_int_equal(lbtf_builder_serialize(bb, false, &data, &size), 0);
	lbtf_builder_free(bb);
	base = lbtf_new(data, size, NULL);
	assert_non_null(base);
	same_with_and_without(base, i);
	lbtf_free(base);
	free(data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_side_init_same_bytes),
		cmocka_unit_test(test_side_init_same_bytes_over_base),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
