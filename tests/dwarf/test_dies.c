// SPDX-License-Identifier: BSD-2-Clause
/*
 * A unit's DIE table (struct lbtfi_dw_dies, libbtf/dwarf_reuse/diemap.c): the
 * keys of the unit's window found through an index by their offset, the
 * others (and the second of two DIEs one byte apart) through the side
 * table; every slot's fields kept while the slots grow; a clear, or the
 * next unit's window, empties the table whatever the unit before it was.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "dwarf_reuse/internal.h"

/* Keys from base, step bytes apart, each slot's fields set from its index
 * (made with fresh fields); then every one found with them, and none of
 * the keys between */
static void fill_and_check(struct lbtfi_dw_dies *m, uint64_t base, uint64_t step, uint32_t n)
{
	struct lbtfi_dw_die_slot *d;
	uint32_t i, cnt = m->cnt;

	for (i = 0; i < n; i++) {
		d = lbtfi_dw_dies_add(m, base + i * step);
		assert_non_null(d);
		assert_int_equal(d->key, base + i * step);
		assert_int_equal(d->id, LBTFI_DW_NONE);
		assert_int_equal(d->ref, LBTFI_DW_NONE);
		/* (no signature yet: not hashed) */
		assert_int_equal(d->sig.nedges, LBTFI_DW_SIG_NEW);
		assert_false(lbtfi_dw_sig_done(&d->sig));
		d->id = i;
		d->ref = LBTFI_DW_SIG_NAMED | i;
		d->sig = (struct lbtfi_dw_sig){ .a = base + i, .b = ~(uint64_t)i, .edges = 7 * i,
						.nedges = LBTFI_DW_SIG_MAX_EDGES - i };
	}
	assert_int_equal(m->cnt, cnt + n);
	for (i = 0; i < n; i++) {
		d = lbtfi_dw_dies_get(m, base + i * step);
		assert_non_null(d);
		assert_int_equal(d->key, base + i * step);
		assert_int_equal(d->id, i);
		assert_int_equal(d->ref, LBTFI_DW_SIG_NAMED | i);
		assert_int_equal(d->sig.a, base + i);
		assert_int_equal(d->sig.b, ~(uint64_t)i);
		assert_int_equal(d->sig.edges, 7 * i);
		assert_int_equal(d->sig.nedges, LBTFI_DW_SIG_MAX_EDGES - i);
		assert_true(lbtfi_dw_sig_done(&d->sig));
		/* (add finds it, changes nothing) */
		assert_ptr_equal(lbtfi_dw_dies_add(m, base + i * step), d);
		if (step > 1)
			assert_null(lbtfi_dw_dies_get(m, base + i * step + 1));
	}
	assert_int_equal(m->cnt, cnt + n);
}

/* DIEs a few bytes apart, as in a unit: all through the index (none in
 * the side table), the slots grown several times */
static void test_by_offset(void **state)
{
	struct lbtfi_dw_dies m;

	(void)state;
	assert_int_equal(lbtfi_dw_dies_init(&m), 0);
	assert_int_equal(lbtfi_dw_dies_begin(&m, 0x100000, 0x100000 + 6 * 20000), 0);
	fill_and_check(&m, 0x100000, 6, 20000);
	assert_true(m.cap > 1024);
	assert_int_equal(m.side.cnt, 0);
	lbtfi_dw_dies_free(&m);
}

/* Bytes of the unit per index entry */
#define GRAIN (1u << LBTFI_DW_AT_SHIFT)

/* Two DIEs one byte apart share an index entry: each keeps a slot of its
 * own, whichever came first, and both stay found (the second through the
 * side table) */
static void test_one_byte_apart(void **state)
{
	struct lbtfi_dw_dies m;
	struct lbtfi_dw_die_slot *d;
	uint64_t lo = 0x5000, k;

	(void)state;
	assert_int_equal(lbtfi_dw_dies_init(&m), 0);
	assert_int_equal(lbtfi_dw_dies_begin(&m, lo, lo + 4000), 0);
	/* even offset first, then the odd one after it; then the odd first */
	for (k = 0; k < 2; k++) {
		uint64_t first = lo + 100 + 10 * k + k, second = k ? first - 1 : first + 1;

		lbtfi_dw_dies_add(&m, first)->id = 1000 + (uint32_t)k;
		assert_null(lbtfi_dw_dies_get(&m, second));
		d = lbtfi_dw_dies_add(&m, second);
		assert_non_null(d);
		assert_int_equal(d->id, LBTFI_DW_NONE);
		d->id = 2000 + (uint32_t)k;
		assert_int_equal(lbtfi_dw_dies_get(&m, first)->id, 1000 + k);
		assert_int_equal(lbtfi_dw_dies_get(&m, second)->id, 2000 + k);
		assert_int_equal(lbtfi_dw_dies_get(&m, second)->key, second);
	}
	assert_int_equal(m.side.cnt, 2);
	/* a run of one-byte DIEs: all but one of each entry's on the side */
	fill_and_check(&m, lo + 1000, 1, 1001);
	assert_int_equal(m.side.cnt, 2 + 1001 - (1001 + GRAIN - 1) / GRAIN);
	lbtfi_dw_dies_free(&m);
}

/* The first and last offsets of a unit of odd and of even size are in the
 * index (not on the side), and the first key after the unit is not */
static void test_unit_bounds(void **state)
{
	/* (and about an index entry's bytes: 1 entry, 2) */
	static const uint64_t sizes[] = { 4001, 4000, 1, 2, 3, 4, 5 };
	struct lbtfi_dw_dies m;
	uint32_t i;

	(void)state;
	assert_int_equal(lbtfi_dw_dies_init(&m), 0);
	for (i = 0; i < sizeof(sizes) / sizeof(*sizes); i++) {
		uint64_t lo = 0x8000 + i * 0x10000, hi = lo + sizes[i];

		assert_int_equal(lbtfi_dw_dies_begin(&m, lo, hi), 0);
		/* (an entry for the last offset: ASan sees a write past the
		 * index; without it, its room says) */
		assert_true(m.capat >= (sizes[i] + GRAIN - 1) / GRAIN);
		lbtfi_dw_dies_add(&m, lo)->id = 1;
		lbtfi_dw_dies_add(&m, hi - 1)->id = 2;
		assert_int_equal(m.side.cnt, sizes[i] > 1 && sizes[i] <= GRAIN ? 1 : 0);
		lbtfi_dw_dies_add(&m, hi)->id = 3;
		lbtfi_dw_dies_add(&m, lo - 1)->id = 4;
		assert_int_equal(m.side.cnt, sizes[i] > 1 && sizes[i] <= GRAIN ? 3 : 2);
		assert_int_equal(lbtfi_dw_dies_get(&m, lo)->id, sizes[i] == 1 ? 2 : 1);
		assert_int_equal(lbtfi_dw_dies_get(&m, hi - 1)->id, 2);
		assert_int_equal(lbtfi_dw_dies_get(&m, hi)->id, 3);
		assert_int_equal(lbtfi_dw_dies_get(&m, lo - 1)->id, 4);
	}
	lbtfi_dw_dies_free(&m);
}

/* A unit after a larger one, then a larger one again over the first's
 * offsets (the index of the first reused): nothing of the units before is found, every slot made anew */
static void test_unit_after_larger(void **state)
{
	struct lbtfi_dw_dies m;

	(void)state;
	assert_int_equal(lbtfi_dw_dies_init(&m), 0);
	assert_int_equal(lbtfi_dw_dies_begin(&m, 0x1000, 0x1000 + 50000), 0);
	fill_and_check(&m, 0x1000, 5, 10000);
	assert_int_equal(lbtfi_dw_dies_begin(&m, 0x40000, 0x40000 + 1000), 0);
	assert_int_equal(m.cnt, 0);
	assert_null(lbtfi_dw_dies_get(&m, 0x1000));
	assert_null(lbtfi_dw_dies_get(&m, 0x1000 + 5 * 9999));
	fill_and_check(&m, 0x40000, 3, 300);
	/* (the first unit's keys from this one: through the side table) */
	fill_and_check(&m, 0x1000, 5, 10);
	/* (within the first one's index: not allocated again) */
	assert_int_equal(lbtfi_dw_dies_begin(&m, 0x800, 0x800 + 40000), 0);
	assert_null(lbtfi_dw_dies_get(&m, 0x40000));
	assert_null(lbtfi_dw_dies_get(&m, 0x1000));
	assert_null(lbtfi_dw_dies_get(&m, 0x1000 + 5 * 6999));
	/* every entry of the index empty: the old keys made afresh */
	fill_and_check(&m, 0x1000, 3 * GRAIN, 3000);
	fill_and_check(&m, 0x1000 + GRAIN, 3 * GRAIN, 3000);
	assert_int_equal(m.side.cnt, 0);
	lbtfi_dw_dies_free(&m);
}

/* A clear empties the index and the side table, keeps the window */
static void test_clear(void **state)
{
	struct lbtfi_dw_dies m;
	uint32_t round;

	(void)state;
	assert_int_equal(lbtfi_dw_dies_init(&m), 0);
	assert_int_equal(lbtfi_dw_dies_begin(&m, 0x2000, 0x2000 + 8000), 0);
	for (round = 0; round < 3; round++) {
		fill_and_check(&m, 0x2000, 1, 3000);
		fill_and_check(&m, 0x20000, 7, 100); /* (outside: on the side) */
		assert_int_equal(m.side.cnt, 3000 - 3000 / GRAIN + 100);
		lbtfi_dw_dies_clear(&m);
		assert_int_equal(m.cnt, 0);
		assert_int_equal(m.side.cnt, 0);
		assert_null(lbtfi_dw_dies_get(&m, 0x2000));
		assert_null(lbtfi_dw_dies_get(&m, 0x2000 + 2999));
		assert_null(lbtfi_dw_dies_get(&m, 0x2000 + 1501));
		assert_null(lbtfi_dw_dies_get(&m, 0x20000));
	}
	fill_and_check(&m, 0x2000 + 2, 8, 900);
	assert_int_equal(m.side.cnt, 0);
	lbtfi_dw_dies_free(&m);
}

/* Keys of the alternate file and .debug_types beside the main file's at the
 * same offsets (the window in the main file's): distinct slots */
static void test_key_bases(void **state)
{
	static const uint64_t bases[] = { 0, LBTFI_DW_KEY_ALT, LBTFI_DW_KEY_TYPES };
	struct lbtfi_dw_dies m;
	uint32_t i, k;

	(void)state;
	assert_int_equal(lbtfi_dw_dies_init(&m), 0);
	assert_int_equal(lbtfi_dw_dies_begin(&m, 0x40, 0x40 + 12000), 0);
	for (k = 0; k < 3; k++)
		for (i = 0; i < 1000; i++)
			lbtfi_dw_dies_add(&m, bases[k] | (0x40 + i * 12))->id = k * 1000 + i;
	for (k = 0; k < 3; k++)
		for (i = 0; i < 1000; i++)
			assert_int_equal(lbtfi_dw_dies_get(&m, bases[k] | (0x40 + i * 12))->id,
					 k * 1000 + i);
	assert_int_equal(m.side.cnt, 2000);
	lbtfi_dw_dies_free(&m);
}

/* Without a window (a table never begun), every key on the side */
static void test_no_window(void **state)
{
	struct lbtfi_dw_dies m;

	(void)state;
	assert_int_equal(lbtfi_dw_dies_init(&m), 0);
	fill_and_check(&m, 0x300, 3, 5000);
	assert_int_equal(m.side.cnt, 5000);
	lbtfi_dw_dies_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_by_offset),
		cmocka_unit_test(test_one_byte_apart),
		cmocka_unit_test(test_unit_bounds),
		cmocka_unit_test(test_unit_after_larger),
		cmocka_unit_test(test_clear),
		cmocka_unit_test(test_key_bases),
		cmocka_unit_test(test_no_window),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
