// SPDX-License-Identifier: BSD-2-Clause
/*
 * libbtf/dwarf/group_defs.c: the pairing check's table grown group by
 * group as the driver appends them must be the table a walk of the whole
 * output gives (lbtfi_dw_defs_init by shape), both when a group's
 * definitions are found and when they are only added back (a later look,
 * the group's types moved in the output); and the check over it must
 * find the names with definitions of several shapes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "dwarf/internal.h"

/* A group: each definition struct S { <kind of a> a; }, enum E { X = x },
 * union V, a declaration of struct D; S's member of a's kind */
static void add_group(struct lbtf_builder *b, bool long_a, int64_t x, bool decl_d)
{
	int i32 = lbtf_builder_add_int(b, "int", 4, 1);
	int i64 = lbtf_builder_add_int(b, "long", 8, 1);

	assert_true(i32 > 0 && i64 > 0);
	assert_true(lbtf_builder_add_struct(b, "S", 8) > 0);
	assert_true(lbtf_builder_add_field(b, "a", long_a ? i64 : i32, 0, 0) >= 0);
	assert_true(lbtf_builder_add_enum(b, "E", 4, false) > 0);
	assert_true(lbtf_builder_add_enum_value(b, "X", x) >= 0);
	assert_true(lbtf_builder_add_union(b, "V", 4) > 0);
	assert_true(lbtf_builder_add_field(b, "v", i32, 0, 0) >= 0);
	assert_true((decl_d ? lbtf_builder_add_fwd(b, "D", LBTF_FWD_STRUCT)
			    : lbtf_builder_add_struct(b, "D", 0)) > 0);
}

/* The same answer for every name and flavour */
static void same_table(const struct lbtf_builder *out, const struct lbtfi_eq_defs *a,
		       const struct lbtfi_eq_defs *b)
{
	static const struct { const char *name; enum lbtfi_flavor f; } names[] = {
		{ "S", LBTFI_FLAVOR_STRUCT }, { "E", LBTFI_FLAVOR_ENUM },
		{ "V", LBTFI_FLAVOR_STRUCT }, { "D", LBTFI_FLAVOR_STRUCT },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		int64_t off = lbtfi_strset_find(&out->strs, names[i].name);
		uint32_t ka = 1, kb = 2;
		bool ha, hb;

		assert_true(off >= 0);
		ha = lbtfi_eq_defs_get(a, (uint32_t)off + out->start_str_off, names[i].f, &ka);
		hb = lbtfi_eq_defs_get(b, (uint32_t)off + out->start_str_off, names[i].f, &kb);
		assert_int_equal(ha, hb);
		if (ha)
			assert_int_equal(ka, kb);
	}
}

/* How many of S, E, V the check finds with several shapes */
static int several(const struct lbtf_builder *out, const struct lbtfi_eq_defs *t)
{
	static const char names[] = "sS\0eE\0sV";
	struct lbtfi_dw_defs defs = { .out = out, .defs = *t };

	return lbtfi_dw_defs_check(&defs, names, sizeof(names));
}

static void test_grown_is_whole(void **state)
{
	struct lbtf_builder *out = lbtf_builder_new(NULL);
	struct lbtfi_dw_group_defs gd[3] = { 0 };
	struct lbtfi_eq_defs grown, again;
	struct lbtfi_dw_defs whole;
	uint32_t first[4];

	assert_non_null(out);
	/* S of two shapes (int, then long), E and V of one, D defined once
	 * and declared twice */
	first[0] = lbtf_builder_type_cnt(out);
	add_group(out, false, 1, true);
	first[1] = lbtf_builder_type_cnt(out);
	add_group(out, true, 1, false);
	first[2] = lbtf_builder_type_cnt(out);
	add_group(out, false, 1, true);
	first[3] = lbtf_builder_type_cnt(out);

	assert_int_equal(lbtfi_eq_defs_init(&grown), 0);
	for (int g = 0; g < 3; g++) {
		assert_int_equal(lbtfi_dw_group_defs_add(&grown, out, first[g], first[g + 1], &gd[g]), 0);
		assert_true(gd[g].known);
	}
	/* S, E, V each time, D once */
	assert_int_equal(gd[0].n, 3);
	assert_int_equal(gd[1].n, 4);
	assert_int_equal(lbtfi_dw_defs_init(&whole, out, true), 0);
	same_table(out, &grown, &whole.defs);
	assert_int_equal(several(out, &grown), 1);

	/* added back without being found again: the same table */
	assert_int_equal(lbtfi_eq_defs_init(&again), 0);
	for (int g = 2; g >= 0; g--)
		assert_int_equal(lbtfi_dw_group_defs_add(&again, out, first[g], first[g + 1], &gd[g]), 0);
	same_table(out, &again, &whole.defs);
	assert_int_equal(several(out, &again), 1);

	lbtfi_eq_defs_free(&again);
	lbtfi_dw_defs_free(&whole);
	lbtfi_eq_defs_free(&grown);
	for (int g = 0; g < 3; g++)
		lbtfi_dw_group_defs_free(&gd[g]);
	lbtf_builder_free(out);
}

/* A look after a group was converted again: the other groups' definitions
 * added back where their types sit now, the new group's found; the table is
 * the walk's over that output, where S has one shape now */
static void test_group_converted_again(void **state)
{
	struct lbtf_builder *out = lbtf_builder_new(NULL), *next = lbtf_builder_new(NULL);
	struct lbtfi_dw_group_defs gd[2] = { 0 }, redo = { 0 };
	struct lbtfi_eq_defs first_look, second_look;
	struct lbtfi_dw_defs whole;
	uint32_t f0, f1, end, n0, n1, n2;

	assert_non_null(out);
	assert_non_null(next);
	f0 = lbtf_builder_type_cnt(out);
	add_group(out, false, 1, true);
	f1 = lbtf_builder_type_cnt(out);
	add_group(out, true, 2, true); /* S and E of another shape */
	end = lbtf_builder_type_cnt(out);
	assert_int_equal(lbtfi_eq_defs_init(&first_look), 0);
	assert_int_equal(lbtfi_dw_group_defs_add(&first_look, out, f0, f1, &gd[0]), 0);
	assert_int_equal(lbtfi_dw_group_defs_add(&first_look, out, f1, end, &gd[1]), 0);
	assert_int_equal(several(out, &first_look), 2);

	/* the second group converted again (now like the first), put first;
	 * the first group's types after it */
	n0 = lbtf_builder_type_cnt(next);
	add_group(next, false, 1, false);
	n1 = lbtf_builder_type_cnt(next);
	add_group(next, false, 1, true);
	n2 = lbtf_builder_type_cnt(next);
	assert_int_equal(lbtfi_eq_defs_init(&second_look), 0);
	assert_int_equal(lbtfi_dw_group_defs_add(&second_look, next, n0, n1, &redo), 0);
	assert_int_equal(lbtfi_dw_group_defs_add(&second_look, next, n1, n2, &gd[0]), 0);
	assert_int_equal(lbtfi_dw_defs_init(&whole, next, true), 0);
	same_table(next, &second_look, &whole.defs);
	assert_int_equal(several(next, &second_look), 0);

	lbtfi_dw_defs_free(&whole);
	lbtfi_eq_defs_free(&first_look);
	lbtfi_eq_defs_free(&second_look);
	lbtfi_dw_group_defs_free(&gd[0]);
	lbtfi_dw_group_defs_free(&gd[1]);
	lbtfi_dw_group_defs_free(&redo);
	lbtf_builder_free(out);
	lbtf_builder_free(next);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grown_is_whole),
		cmocka_unit_test(test_group_converted_again),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
