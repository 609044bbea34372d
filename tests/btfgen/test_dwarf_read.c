// SPDX-License-Identifier: BSD-2-Clause
/*
 * The DIE reader's fixed-width decoding (lbtfi_dr_read in
 * libbtf/dwarf_reader/internal.h): every width 1-8, both byte orders, at an
 * unaligned address. The expected values are defined by the bytes alone, so
 * the test means the same on a little- and a big-endian host.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "dwarf_reader/internal.h"

static const uint8_t bytes[] = { 0xff, 0x81, 0x02, 0x83, 0x04, 0x85, 0x06, 0x87, 0x08 };

static void test_little_endian(void **state)
{
	const uint8_t *p = bytes + 1; /* unaligned */

	assert_int_equal(lbtfi_dr_read(false, p, 1), 0x81);
	assert_int_equal(lbtfi_dr_read(false, p, 2), 0x0281);
	assert_int_equal(lbtfi_dr_read(false, p, 3), 0x830281);   /* strx3, addrx3 */
	assert_int_equal(lbtfi_dr_read(false, p, 4), 0x04830281);
	assert_int_equal(lbtfi_dr_read(false, p, 5), 0x8504830281ull);
	assert_int_equal(lbtfi_dr_read(false, p, 6), 0x068504830281ull);
	assert_int_equal(lbtfi_dr_read(false, p, 7), 0x87068504830281ull);
	assert_int_equal(lbtfi_dr_read(false, p, 8), 0x0887068504830281ull);
}

static void test_big_endian(void **state)
{
	const uint8_t *p = bytes + 1;

	assert_int_equal(lbtfi_dr_read(true, p, 1), 0x81);
	assert_int_equal(lbtfi_dr_read(true, p, 2), 0x8102);
	assert_int_equal(lbtfi_dr_read(true, p, 3), 0x810283);
	assert_int_equal(lbtfi_dr_read(true, p, 4), 0x81028304);
	assert_int_equal(lbtfi_dr_read(true, p, 5), 0x8102830485ull);
	assert_int_equal(lbtfi_dr_read(true, p, 6), 0x810283048506ull);
	assert_int_equal(lbtfi_dr_read(true, p, 7), 0x81028304850687ull);
	assert_int_equal(lbtfi_dr_read(true, p, 8), 0x8102830485068708ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_little_endian),
		cmocka_unit_test(test_big_endian),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
