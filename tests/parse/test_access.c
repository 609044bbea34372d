// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of the access API on hand-built blobs: lookups by id, name
 * and kind, sizes through typedefs/modifiers/arrays, alignment, modifier
 * skipping, loops in hostile input, and split BTF numbering of ids and
 * string offsets (over a base) including its dumps.
 */
#include <errno.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include "blob.h"

static struct lbtf *open_blob(struct blob *b, const struct lbtf *base)
{
	struct lbtf *btf = blob_parse(b, base);

	if (!btf)
		fail_msg("blob did not parse: %s", lbtf_errmsg());
	return btf;
}

static struct lbtf *open_sample(void)
{
	struct blob b;

	blob_init(&b, 0);
	blob_sample(&b);
	return open_blob(&b, NULL);
}

static void test_find(void **state)
{
	struct lbtf *btf = open_sample();

	assert_int_equal(lbtf_find_by_name(btf, "s"), S_STRUCT);
	assert_int_equal(lbtf_find_by_name(btf, "int"), S_INT);
	assert_int_equal(lbtf_find_by_name(btf, "void"), 0);
	assert_int_equal(lbtf_find_by_name_kind(btf, "s", LBTF_KIND_STRUCT), S_STRUCT);
	assert_int_equal(lbtf_find_by_name_kind(btf, "s", LBTF_KIND_UNION), -ENOENT);
	assert_int_equal(lbtf_find_by_name_kind(btf, "u", LBTF_KIND_UNION), S_UNION);
	assert_int_equal(lbtf_find_by_name_kind(btf, ".data", LBTF_KIND_DATASEC), S_DATASEC);
	assert_int_equal(lbtf_find_by_name_kind(btf, "user", LBTF_KIND_TYPE_TAG), S_TYPE_TAG);
	assert_int_equal(lbtf_find_by_name(btf, "nope"), -ENOENT);
	assert_non_null(strstr(lbtf_errmsg(), "nope"));
	/* a member name is not a type name */
	assert_int_equal(lbtf_find_by_name(btf, "a"), -ENOENT);
	assert_string_equal(lbtf_type_name(btf, lbtf_type_by_id(btf, S_PTR)), "");
	assert_string_equal(lbtf_name_by_offset(btf, 0), "");
	assert_null(lbtf_name_by_offset(btf, 100000));
	lbtf_free(btf);
}

static void test_sizes_and_mods(void **state)
{
	struct lbtf *btf = open_sample();

	assert_int_equal(lbtf_resolve_size(btf, S_INT), 4);
	assert_int_equal(lbtf_resolve_size(btf, S_PTR), 8);
	assert_int_equal(lbtf_resolve_size(btf, S_ARRAY), 16);
	assert_int_equal(lbtf_resolve_size(btf, S_VOLATILE), 32); /* volatile typedef const struct */
	assert_int_equal(lbtf_resolve_size(btf, S_ENUM64), 8);
	assert_int_equal(lbtf_resolve_size(btf, S_VAR), 4);
	assert_int_equal(lbtf_resolve_size(btf, S_TYPE_TAG), 4);
	assert_int_equal(lbtf_resolve_size(btf, S_FUNC), -EINVAL);
	assert_int_equal(lbtf_resolve_size(btf, S_FWD), -EINVAL);
	assert_int_equal(lbtf_resolve_size(btf, S_NR), -EINVAL);
	assert_int_equal(lbtf_resolve_size(btf, 0), -EINVAL);

	assert_int_equal(lbtf_skip_mods(btf, S_VOLATILE), S_TYPEDEF);
	assert_int_equal(lbtf_skip_mods(btf, S_RESTRICT), S_PTR);
	assert_int_equal(lbtf_skip_mods(btf, S_TYPE_TAG), S_INT);
	assert_int_equal(lbtf_resolve_type(btf, S_VOLATILE), S_STRUCT);
	assert_int_equal(lbtf_resolve_type(btf, S_STRUCT), S_STRUCT);
	assert_int_equal(lbtf_resolve_type(btf, 12345), -EINVAL);

	assert_int_equal(lbtf_align_of(btf, S_INT), 4);
	assert_int_equal(lbtf_align_of(btf, S_CHAR), 1);
	assert_int_equal(lbtf_align_of(btf, S_STRUCT), 8); /* has a pointer */
	assert_int_equal(lbtf_align_of(btf, S_VOLATILE), 8);
	assert_int_equal(lbtf_align_of(btf, S_ARRAY), 4);
	assert_int_equal(lbtf_align_of(btf, S_FUNC), -EINVAL);
	assert_int_equal(lbtf_pointer_size(btf), 8);
	lbtf_free(btf);
}

/* Hostile chains: loops and self-containing structs give errors, not hangs
 * or stack overflows. */
static void test_loops(void **state)
{
	struct blob b;
	struct lbtf *btf;

	blob_init(&b, 0);
	blob_type(&b, 0, LBTF_KIND_CONST, 0, 0, 2);           /* 1 -> 2 */
	blob_type(&b, 0, LBTF_KIND_VOLATILE, 0, 0, 1);        /* 2 -> 1 */
	blob_type(&b, blob_str(&b, "A"), LBTF_KIND_STRUCT, 1, 0, 4); /* 3 contains itself */
	blob_words(&b, 3, 0, 3, 0);
	blob_type(&b, 0, LBTF_KIND_ARRAY, 0, 0, 0);           /* 4: array of itself */
	blob_words(&b, 3, 4, 4, 2);
	blob_type(&b, 0, LBTF_KIND_ARRAY, 0, 0, 0);           /* 5: 2^32-1 x 2^32-1 ints */
	blob_words(&b, 3, 6, 6, UINT32_MAX);
	blob_type(&b, 0, LBTF_KIND_ARRAY, 0, 0, 0);           /* 6 */
	blob_words(&b, 3, 7, 7, UINT32_MAX);
	blob_type(&b, 0, LBTF_KIND_INT, 0, 0, 4);             /* 7 */
	blob_words(&b, 1, 32);
	btf = open_blob(&b, NULL);
	assert_int_equal(lbtf_resolve_type(btf, 1), -ELOOP);
	assert_int_equal(lbtf_skip_mods(btf, 2), -ELOOP);
	assert_int_equal(lbtf_resolve_size(btf, 1), -ELOOP);
	assert_int_equal(lbtf_resolve_size(btf, 4), -E2BIG); /* 2^n elements overflow first */
	assert_true(lbtf_align_of(btf, 3) < 0);
	assert_true(lbtf_align_of(btf, 4) < 0);
	assert_true(lbtf_align_of(btf, 1) < 0);
	assert_int_equal(lbtf_resolve_size(btf, 5), -E2BIG);
	lbtf_free(btf);

	/* 30 structs, each holding the next one 4 times: 4^30 paths */
	blob_init(&b, 0);
	for (uint32_t id = 1; id <= 30; id++) {
		blob_type(&b, 0, LBTF_KIND_STRUCT, 4, 0, 4);
		for (int m = 0; m < 4; m++)
			blob_words(&b, 3, 0, id + 1, 0);
	}
	blob_type(&b, 0, LBTF_KIND_INT, 0, 0, 4); /* 31 */
	blob_words(&b, 1, 32);
	btf = open_blob(&b, NULL);
	assert_int_equal(lbtf_align_of(btf, 25), 4);      /* 4^6 paths: fine */
	assert_int_equal(lbtf_align_of(btf, 1), -E2BIG);  /* gives up, quickly */
	lbtf_free(btf);
}

/* Split BTF over the sample: ids continue after the base, string offsets
 * after the base's string section; lookups see both; dumps print only the
 * split part. */
static void test_split(void **state)
{
	struct lbtf *base = open_sample();
	uint32_t base_strs;
	struct blob b;
	struct lbtf *split;
	uint32_t n_node, n_next, id_node = S_NR, id_ptr = S_NR + 1;
	char *s = NULL;
	size_t n = 0;
	FILE *f;

	lbtf_strings(base, &base_strs);
	blob_init(&b, base_strs);
	n_node = blob_str(&b, "node");
	n_next = blob_str(&b, "next");
	blob_type(&b, n_node, LBTF_KIND_STRUCT, 2, 0, 16);           /* S_NR */
	blob_words(&b, 3, n_next, id_ptr, 0);
	blob_words(&b, 3, lbtf_type_by_id(base, S_INT)->name_off, S_INT, 64); /* base string "int" */
	blob_type(&b, 0, LBTF_KIND_PTR, 0, 0, id_node);              /* S_NR + 1 */
	split = open_blob(&b, base);

	assert_int_equal(lbtf_start_id(split), S_NR);
	assert_int_equal(lbtf_type_cnt(split), S_NR + 2);
	assert_ptr_equal(lbtf_base(split), base);
	assert_ptr_equal(lbtf_type_by_id(split, S_INT), lbtf_type_by_id(base, S_INT));
	assert_null(lbtf_type_by_id(split, S_NR + 2));
	assert_int_equal(n_node, base_strs + 1);
	assert_string_equal(lbtf_name_by_offset(split, n_node), "node");
	assert_string_equal(lbtf_name_by_offset(split, 1), "int"); /* base's first string */
	assert_null(lbtf_name_by_offset(split, base_strs + b.ns));
	assert_int_equal(lbtf_find_by_name(split, "node"), id_node);
	assert_int_equal(lbtf_find_by_name(split, "s"), S_STRUCT);   /* from the base */
	assert_int_equal(lbtf_resolve_size(split, id_ptr), 8);
	assert_int_equal(lbtf_resolve_size(split, id_node), 16);
	assert_int_equal(lbtf_align_of(split, id_node), 8);

	f = open_memstream(&s, &n);
	assert_int_equal(lbtf_dump_raw(split, f), 0);
	fclose(f);
	assert_int_equal(S_NR, 21);
	assert_string_equal(s, "[21] STRUCT 'node' size=16 vlen=2\n"
			       "\t'next' type_id=22 bits_offset=0\n"
			       "\t'int' type_id=1 bits_offset=64\n"
			       "[22] PTR '(anon)' type_id=21\n");
	free(s);
	s = NULL;
	f = open_memstream(&s, &n);
	assert_int_equal(lbtf_dump_json(split, f, false), 0);
	fclose(f);
	assert_true(strncmp(s, "{\"types\":[{\"id\":21,", 19) == 0);
	assert_null(strstr(s, "\"id\":1,"));
	free(s);

	/* a split blob may have an empty string section */
	blob_init(&b, base_strs);
	b.ns = 0;
	blob_type(&b, 0, LBTF_KIND_PTR, 0, 0, S_INT);
	lbtf_free(split);
	split = open_blob(&b, base);
	assert_int_equal(lbtf_type_cnt(split), S_NR + 1);
	lbtf_free(split);
	lbtf_free(base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_sizes_and_mods),
		cmocka_unit_test(test_loops),
		cmocka_unit_test(test_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
