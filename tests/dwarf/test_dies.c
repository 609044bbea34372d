// SPDX-License-Identifier: BSD-2-Clause
/*
 * A unit's DIE table (struct lbtfi_dw_dies, libbtf/dwarf_reuse/diemap.c): keys placed
 * by their offset; a run of slots as long as LBTFI_DW_DIES_MAX_RUN switches the
 * table to the hash, keeping every slot's fields; growth keeps them too; a
 * clear empties the table and goes back to placing by offset.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "dwarf_reuse/internal.h"

/* Keys from base, step bytes apart, each slot's fields set from its index;
 * then every one found with them, and none of the keys between */
static void fill_and_check(struct lbtfi_dw_dies *m, uint64_t base, uint64_t step, uint32_t n)
{
	struct lbtfi_dw_die_slot *d;
	uint32_t i;

	for (i = 0; i < n; i++) {
		d = lbtfi_dw_dies_add(m, base + i * step);
		assert_non_null(d);
		assert_int_equal(d->id, LBTFI_DW_NONE);
		assert_int_equal(d->sig, LBTFI_DW_NONE);
		assert_int_equal(d->ref, LBTFI_DW_NONE);
		d->id = i;
		d->sig = i + 1;
		d->ref = LBTFI_DW_SIG_NAMED | i;
	}
	assert_int_equal(m->cnt, n);
	for (i = 0; i < n; i++) {
		d = lbtfi_dw_dies_get(m, base + i * step);
		assert_non_null(d);
		assert_int_equal(d->key, base + i * step);
		assert_int_equal(d->id, i);
		assert_int_equal(d->sig, i + 1);
		assert_int_equal(d->ref, LBTFI_DW_SIG_NAMED | i);
		/* (add finds it, changes nothing) */
		assert_ptr_equal(lbtfi_dw_dies_add(m, base + i * step), d);
		if (step > 1)
			assert_null(lbtfi_dw_dies_get(m, base + i * step + 1));
	}
	assert_int_equal(m->cnt, n);
}

/* DIEs a few bytes apart, as in a unit: placed by offset throughout, the
 * table grown several times */
static void test_by_offset(void **state)
{
	struct lbtfi_dw_dies m;

	(void)state;
	assert_int_equal(lbtfi_dw_dies_init(&m), 0);
	fill_and_check(&m, 0x100000, 6, 20000);
	assert_true(m.mask + 1 > 1024);
	assert_false(m.hashed);
	lbtfi_dw_dies_free(&m);
}

/* Keys one byte apart (four a slot): the runs grow to LBTFI_DW_DIES_MAX_RUN and
 * the table is hashed, nothing lost (first without a growth after it, then
 * with several); a clear makes it empty and placed by offset again */
static void test_dense_keys_hashed(void **state)
{
	struct lbtfi_dw_dies m;

	(void)state;
	assert_int_equal(lbtfi_dw_dies_init(&m), 0);
	/* (the n-th key probes 3n/4 slots: hashed from n = 4/3 of the run
	 * on, and 500 keys do not grow the first table) */
	assert_true(LBTFI_DW_DIES_MAX_RUN * 4 / 3 < 450 && 500 < (m.mask + 1) / 2);
	fill_and_check(&m, 0x2000, 1, 500);
	assert_true(m.hashed);
	assert_int_equal(m.mask + 1, 1024);
	lbtfi_dw_dies_clear(&m);
	assert_false(m.hashed);
	fill_and_check(&m, 0x2000, 1, 3000);
	assert_true(m.hashed);
	lbtfi_dw_dies_clear(&m);
	assert_false(m.hashed);
	assert_int_equal(m.cnt, 0);
	assert_null(lbtfi_dw_dies_get(&m, 0x2000));
	assert_null(lbtfi_dw_dies_get(&m, 0x2000 + 2999));
	fill_and_check(&m, 0x9000, 8, 500);
	assert_false(m.hashed);
	lbtfi_dw_dies_free(&m);
}

/* Keys of the alternate file and .debug_types beside the main file's at the
 * same offsets: distinct slots */
static void test_key_bases(void **state)
{
	static const uint64_t bases[] = { 0, LBTFI_DW_KEY_ALT, LBTFI_DW_KEY_TYPES };
	struct lbtfi_dw_dies m;
	uint32_t i, k;

	(void)state;
	assert_int_equal(lbtfi_dw_dies_init(&m), 0);
	for (k = 0; k < 3; k++)
		for (i = 0; i < 1000; i++)
			lbtfi_dw_dies_add(&m, bases[k] | (0x40 + i * 12))->id = k * 1000 + i;
	for (k = 0; k < 3; k++)
		for (i = 0; i < 1000; i++)
			assert_int_equal(lbtfi_dw_dies_get(&m, bases[k] | (0x40 + i * 12))->id,
					 k * 1000 + i);
	lbtfi_dw_dies_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_offset),
		cmocka_unit_test(test_dense_keys_hashed),
		cmocka_unit_test(test_key_bases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
