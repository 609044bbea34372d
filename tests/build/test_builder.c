// SPDX-License-Identifier: BSD-2-Clause
/* Builder unit tests: every lbtf_builder_add_* with its validation paths, strings,
 * append, serialize and parse back (both byte orders), atomic file write. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <malloc.h>
#include <sys/mman.h>
#include <errno.h>
#include <cmocka.h>
#include "libbtf.h"
#include "io/io.h"
#include "util/grow.h"
#include "util/htab.h"
#include "builder/internal.h"

static struct lbtf *roundtrip(struct lbtf_builder *b, const struct lbtf *base, bool swap)
{
	void *data;
	size_t size;
	struct lbtf *btf;

	assert_int_equal(lbtf_builder_serialize(b, swap, &data, &size), 0);
	btf = lbtf_new(data, size, base);
	if (!btf)
		fail_msg("parse back failed: %s", lbtf_errmsg());
	assert_int_equal(lbtf_is_swapped(btf), swap);
	free(data);
	return btf;
}

static struct lbtf *to_btf_or_fail(struct lbtf_builder *b)
{
	return roundtrip(b, NULL, false);
}

/*
 * lbtfi_builder_add_elems against one lbtf_builder_add_field or
 * lbtf_builder_add_func_param per element: the same return, error text,
 * words and strings, on sets that take the one-step path and on sets
 * where an element has an error (found by the one-by-one path).
 */
enum elem_owner { IN_STRUCT, IN_UNION, IN_PROTO };

static int add_owner(struct lbtf_builder *b, enum elem_owner o, uint32_t pre)
{
	int id;

	assert_true(lbtf_builder_add_int(b, "int", 4, LBTF_INT_SIGNED) > 0);
	id = o == IN_PROTO ? lbtf_builder_add_func_proto(b, 1) :
	     o == IN_UNION ? lbtf_builder_add_union(b, "u", 8) : lbtf_builder_add_struct(b, "s", 8);
	for (uint32_t i = 0; i < pre; i++) /* (unnamed: one string for all) */
		assert_int_equal(o == IN_PROTO ? lbtf_builder_add_func_param(b, NULL, 1) :
				 lbtf_builder_add_field(b, NULL, 1, 0, 0), id);
	return id;
}

/*
 * n elements after pre plain ones, once by the single calls and once at
 * once: the same return, errno, error text, words and strings. Returns the
 * result; *vlen is the owner's element count after it.
 */
static int elems_both_ways(enum elem_owner o, uint32_t pre, const struct lbtfi_builder_elem *e,
			   uint32_t n, uint32_t *vlen)
{
	struct lbtf_builder *one = lbtf_builder_new(NULL), *all = lbtf_builder_new(NULL);
	int r1, r2, errno1 = 0, owner;
	char msg1[256] = "";

	assert_non_null(one);
	assert_non_null(all);
	r1 = owner = add_owner(one, o, pre); /* (no element: the owner's id) */
	assert_true(r1 > 0);
	assert_int_equal(add_owner(all, o, pre), r1);
	for (uint32_t i = 0; i < n && r1 >= 0; i++)
		r1 = o == IN_PROTO ? lbtf_builder_add_func_param(one, e[i].name, e[i].type) :
		     lbtf_builder_add_field(one, e[i].name, e[i].type, e[i].bit_offset, e[i].bit_size);
	if (r1 < 0) {
		errno1 = errno;
		snprintf(msg1, sizeof(msg1), "%s", lbtf_errmsg());
	}
	errno = 0;
	r2 = lbtfi_builder_add_elems(all, e, n, sizeof(e[0]));
	assert_int_equal(r2, r1);
	if (r1 < 0) {
		assert_int_equal(errno, errno1);
		assert_string_equal(lbtf_errmsg(), msg1);
	}
	assert_int_equal(all->nwords, one->nwords);
	assert_memory_equal(all->words, one->words, one->nwords * sizeof(uint32_t));
	assert_int_equal(all->strs.len, one->strs.len);
	assert_memory_equal(all->strs.data, one->strs.data, one->strs.len);
	*vlen = lbtf_vlen(lbtfi_btype(all, (uint32_t)owner));
	lbtf_builder_free(one);
	lbtf_builder_free(all);
	return r2;
}

static void test_elems_at_once(void **state)
{
	static const struct { enum elem_owner o; uint32_t n; struct lbtfi_builder_elem e[4]; } cases[] = {
		{ IN_STRUCT, 3, { { "a", 1, 0, 0 }, { "b", 1, 32, 0 }, { NULL, 2, 64, 0 } } },
		/* a bitfield: the kind flag, the earlier member re-read under it */
		{ IN_STRUCT, 3, { { "a", 1, 0, 0 }, { "b", 1, 32, 3 }, { "c", 1, 35, 5 } } },
		{ IN_UNION, 2, { { "x", 1, 0, 0 }, { "y", 1, 0, 7 } } },
		/* far members without bitfields: the plain encoding holds them */
		{ IN_STRUCT, 2, { { "a", 1, 0, 0 }, { "far", 1, 1u << 25, 0 } } },
		{ IN_STRUCT, 0, { { NULL, 0, 0, 0 } } },
		{ IN_PROTO, 3, { { "a", 1, 0, 0 }, { NULL, 1, 0, 0 }, { "c", 1, 0, 0 } } },
		{ IN_PROTO, 0, { { NULL, 0, 0, 0 } } },
		{ IN_PROTO, 2, { { "a", 1, 0, 0 }, { NULL, 0, 0, 0 } } }, /* varargs */
		/* errors, each at its element */
		{ IN_STRUCT, 3, { { "a", 1, 1u << 25, 0 }, { "b", 1, 32, 0 }, { "bf", 1, 64, 3 } } },
		{ IN_STRUCT, 3, { { "a", 1, 0, 3 }, { "b", 1, 32, 0 }, { "far", 1, 1u << 25, 0 } } },
		{ IN_UNION, 2, { { "x", 1, 0, 0 }, { "y", 1, 8, 0 } } },
		{ IN_STRUCT, 2, { { "a", 1, 0, 0 }, { "wide", 1, 8, 256 } } },
		{ IN_STRUCT, 2, { { "a", 1, 0, 0 }, { "bad", 0x80000000u, 8, 0 } } },
		{ IN_PROTO, 3, { { "a", 1, 0, 0 }, { "v", 0, 0, 0 }, { "c", 1, 0, 0 } } },
		{ IN_PROTO, 2, { { "a", 1, 0, 0 }, { "b", 0x80000000u, 0, 0 } } },
	};
	uint32_t vlen;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		elems_both_ways(cases[i].o, 0, cases[i].e, cases[i].n, &vlen);
}

/*
 * Each rule of an element failing first at element k > 0, after earlier
 * elements of the same call changed what the rule sees (the count, the
 * kind flag, a far member): both ways fail there with the error and text
 * expected (not only equal to each other: the rules are one function), the
 * k elements before it in, the rest not.
 */
static void test_elems_fail_at_k(void **state)
{
	static const struct {
		enum elem_owner o;
		uint32_t pre, n, k;
		int err;
		const char *msg;
		struct lbtfi_builder_elem e[4];
	} cases[] = {
		/* the vlen's most reached by this call's own elements */
		{ IN_STRUCT, 0xffff - 2, 4, 2, E2BIG, "field: type already has 65535 elements; more need",
		  { { "a", 1, 0, 0 }, { "b", 1, 0, 0 }, { "c", 1, 0, 0 }, { "d", 1, 0, 0 } } },
		{ IN_PROTO, 0xffff - 1, 3, 1, E2BIG, "parameter: type already has 65535 elements",
		  { { "a", 1, 0, 0 }, { "b", 1, 0, 0 }, { "c", 1, 0, 0 } } },
		{ IN_STRUCT, 0, 3, 2, EINVAL, "field type id 2147483648 out of range",
		  { { "a", 1, 0, 0 }, { "b", 1, 32, 0 }, { "c", 0x80000000u, 64, 0 } } },
		{ IN_PROTO, 0, 4, 3, EINVAL, "parameter type id 4294967295 out of range",
		  { { "a", 1, 0, 0 }, { NULL, 0x7fffffffu, 0, 0 }, { "c", 1, 0, 0 }, { "d", ~0u, 0, 0 } } },
		/* an unnamed void (varargs) passes, a named one fails */
		{ IN_PROTO, 0, 3, 2, EINVAL, "parameter 'v' has type void",
		  { { "a", 1, 0, 0 }, { NULL, 0, 0, 0 }, { "v", 0, 0, 0 } } },
		{ IN_STRUCT, 0, 3, 2, EINVAL, "field 'w': bitfield size 256 > 255",
		  { { "a", 1, 0, 255 }, { "b", 1, 255, 1 }, { "w", 1, 256, 256 } } },
		/* the kind flag turned on by element 1: a plain far member then fails */
		{ IN_STRUCT, 0, 3, 2, EINVAL, "field 'far': bit offset 16777216 too large for a struct with bitfields",
		  { { "a", 1, 0, 0 }, { "bf", 1, 32, 3 }, { "far", 1, 1u << 24, 0 } } },
		/* a far bitfield itself */
		{ IN_STRUCT, 0, 2, 1, EINVAL, "field 'bf': bit offset 33554432 too large",
		  { { "a", 1, 0, 0 }, { "bf", 1, 1u << 25, 1 } } },
		{ IN_UNION, 0, 3, 2, EINVAL, "field 'z': union members must be at offset 0 (got 1)",
		  { { "x", 1, 0, 0 }, { "y", 1, 0, 3 }, { "z", 1, 1, 1 } } },
		/* earlier far members of this call (the first one named), then a bitfield */
		{ IN_STRUCT, 0, 4, 3, EINVAL, "field 'bf': earlier member at bit 16777216 does not fit",
		  { { "a", 1, 0, 0 }, { "far", 1, 1u << 24, 0 }, { "farther", 1, 1u << 25, 0 },
		    { "bf", 1, 64, 2 } } },
		/* the far member just under the limit is no fault */
		{ IN_STRUCT, 0, 3, 3, 0, NULL,
		  { { "a", 1, 0, 0 }, { "near", 1, (1u << 24) - 1, 0 }, { "bf", 1, 64, 2 } } },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t vlen;
		int r = elems_both_ways(cases[i].o, cases[i].pre, cases[i].e, cases[i].n, &vlen);

		if (!cases[i].err) {
			assert_true(r > 0);
		} else {
			assert_int_equal(r, -cases[i].err);
			assert_int_equal(errno, cases[i].err);
			if (!strstr(lbtf_errmsg(), cases[i].msg))
				fail_msg("case %zu: '%s' lacks '%s'", i, lbtf_errmsg(), cases[i].msg);
		}
		assert_int_equal(vlen, cases[i].pre + cases[i].k);
	}
}

/* lbtfi_builder_add_decl_tag_memo and lbtf_builder_add_decl_tag on twin
 * builders: the same id, records and strings */
static void tag_both_ways(struct lbtf_builder *memo, struct lbtf_builder *plain, const char *value,
			  uint32_t *off)
{
	int r1 = lbtf_builder_add_decl_tag(plain, value, 1, -1);

	assert_true(r1 > 0);
	assert_int_equal(lbtfi_builder_add_decl_tag_memo(memo, value, off, 1, -1), r1);
	assert_int_equal(memo->nwords, plain->nwords);
	assert_memory_equal(memo->words, plain->words, plain->nwords * sizeof(uint32_t));
	assert_int_equal(memo->strs.len, plain->strs.len);
	assert_memory_equal(memo->strs.data, plain->strs.data, plain->strs.len);
}

/*
 * The remembered offset of a DECL_TAG's value is used only while the
 * builder's own strings hold the value whole there: not in another
 * builder, not after the strings were cut back (a longer string ending in
 * the value, then another string, now at that offset), not as a suffix,
 * and not with a base (whose strings come first).
 */
static void test_decl_tag_memo(void **state)
{
	struct lbtf_builder *m = lbtf_builder_new(NULL), *p = lbtf_builder_new(NULL);
	struct lbtf_builder *m2 = lbtf_builder_new(NULL), *p2 = lbtf_builder_new(NULL), *bb, *mb, *pb;
	struct lbtf *base;
	uint32_t off = 0, first, off2;
	size_t cut;
	void *data;
	size_t size;

	for (struct lbtf_builder **b = (struct lbtf_builder *[]){ m, p, m2, p2, NULL }; *b; b++)
		assert_true(lbtf_builder_add_int(*b, "int", 4, 0) > 0);
	tag_both_ways(m, p, "mark", &off);
	first = off;
	assert_true(first > 0);
	tag_both_ways(m, p, "mark", &off); /* (remembered) */
	assert_int_equal(off, first);
	/* another builder: "mark" is not at that offset there */
	assert_true(lbtf_builder_add_str(m2, "other") > 0 && lbtf_builder_add_str(p2, "other") > 0);
	tag_both_ways(m2, p2, "mark", &off);
	assert_int_not_equal(off, first);
	/* the strings cut back to A, below "mark", and grown again: "mark"
	 * remembered at A + 3 (after "xy"), then A + 3 is the suffix of
	 * "xyzmark", then "mork" */
	cut = off - m2->start_str_off;
	for (int round = 0; round < 3; round++) {
		const char *s1 = round == 1 ? "xyzmark" : "xy", *s2 = round == 2 ? "mork" : NULL;

		assert_int_equal(lbtfi_strset_truncate(&m2->strs, cut), 0);
		assert_int_equal(lbtfi_strset_truncate(&p2->strs, cut), 0);
		assert_true(lbtf_builder_add_str(m2, s1) > 0 && lbtf_builder_add_str(p2, s1) > 0);
		if (s2)
			assert_true(lbtf_builder_add_str(m2, s2) > 0 && lbtf_builder_add_str(p2, s2) > 0);
		off = off2 = (uint32_t)(cut + 3 + m2->start_str_off);
		tag_both_ways(m2, p2, "mark", &off);
		if (round)
			assert_int_not_equal(off, off2);
	}
	/* past the end of the strings */
	off = 1u << 30;
	tag_both_ways(m2, p2, "mark", &off);
	/* with a base that has the value: its offset, as lbtf_builder_add_str gives */
	bb = lbtf_builder_new(NULL);
	assert_true(lbtf_builder_add_int(bb, "int", 4, 0) > 0);
	assert_true(lbtf_builder_add_str(bb, "mark") > 0);
	assert_int_equal(lbtf_builder_serialize(bb, false, &data, &size), 0);
	base = lbtf_new(data, size, NULL);
	assert_non_null(base);
	free(data);
	mb = lbtf_builder_new(base);
	pb = lbtf_builder_new(base);
	assert_true(lbtf_builder_add_int(mb, "int", 4, 0) > 0 && lbtf_builder_add_int(pb, "int", 4, 0) > 0);
	tag_both_ways(mb, pb, "mark", &off);
	tag_both_ways(mb, pb, "mark", &off);
	/* even where its own strings hold the value too */
	assert_true(lbtfi_strset_add(&mb->strs, "mark") >= 0 && lbtfi_strset_add(&pb->strs, "mark") >= 0);
	off = (uint32_t)lbtfi_strset_add(&mb->strs, "mark") + mb->start_str_off;
	tag_both_ways(mb, pb, "mark", &off);
	for (struct lbtf_builder **b = (struct lbtf_builder *[]){ m, p, m2, p2, bb, mb, pb, NULL }; *b; b++)
		lbtf_builder_free(*b);
	lbtf_free(base);
}

static void test_strings(void **state)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);
	int a, c, d;
	char buf[32];

	assert_non_null(b);
	assert_int_equal(lbtf_builder_add_str(b, ""), 0);
	assert_int_equal(lbtf_builder_add_str(b, NULL), 0);
	a = lbtf_builder_add_str(b, "foo");
	assert_true(a > 0);
	c = lbtf_builder_add_str(b, "bar");
	assert_true(c > a);
	assert_int_equal(lbtf_builder_add_str(b, "foo"), a);
	assert_string_equal(lbtf_builder_str(b, (uint32_t)a), "foo");
	assert_string_equal(lbtf_builder_str(b, 0), "");
	assert_null(lbtf_builder_str(b, 100000));
	/* many strings: the set grows and keeps every one unique */
	for (int i = 0; i < 20000; i++) {
		snprintf(buf, sizeof(buf), "s%d", i);
		d = lbtf_builder_add_str(b, buf);
		assert_true(d > 0);
		assert_string_equal(lbtf_builder_str(b, (uint32_t)d), buf);
	}
	for (int i = 0; i < 20000; i += 997) {
		snprintf(buf, sizeof(buf), "s%d", i);
		d = lbtf_builder_add_str(b, buf);
		assert_string_equal(lbtf_builder_str(b, (uint32_t)d), buf);
	}
	assert_int_equal(lbtf_builder_add_str(b, "foo"), a);
	/* interning a string that lives inside the set itself */
	assert_int_equal(lbtf_builder_add_str(b, lbtf_builder_str(b, (uint32_t)c)), c);
	lbtf_builder_free(b);
}

/*
 * A builder over a base finds each of the base's strings at the base's
 * offset (the base's string index hashes its section a word at a time;
 * a lookup hashes the string given): lengths 1 to 40, across and on the
 * 8-byte word boundaries, the last one ending the base's string section;
 * each looked up twice (the second time found in the builder's cache).
 */
static void test_base_string_index(void **state)
{
	struct lbtf_builder *bb = lbtf_builder_new(NULL), *s;
	char name[48];
	int offs[41];
	struct lbtf *base;
	void *data;
	size_t size;

	lbtf_builder_add_int(bb, "int", 4, 0);
	for (int n = 1; n <= 40; n++) {
		for (int i = 0; i < n; i++)
			name[i] = (char)('a' + (n + i) % 26);
		name[n] = 0;
		offs[n] = lbtf_builder_add_str(bb, name);
		assert_true(offs[n] > 0);
		lbtf_builder_add_typedef(bb, name, 1);
	}
	assert_int_equal(lbtf_builder_serialize(bb, false, &data, &size), 0);
	base = lbtf_new(data, size, NULL);
	assert_non_null(base);
	free(data);
	s = lbtf_builder_new(base);
	assert_non_null(s);
	/* twice: the second time from the builder's cache of base strings */
	for (int n = 40, pass = 0; pass < 2; n = n > 1 ? n - 1 : (pass++, 40)) {
		for (int i = 0; i < n; i++)
			name[i] = (char)('a' + (n + i) % 26);
		name[n] = 0;
		assert_int_equal(lbtf_builder_add_str(s, name), offs[n]);
		/* a string of the base's with one more byte is not the base's */
		name[n] = 'x';
		name[n + 1] = 0;
		assert_true(lbtf_builder_add_str(s, name) != offs[n]);
	}
	lbtf_builder_free(s);
	lbtf_free(base);
	lbtf_builder_free(bb);
}

/* The index of a base's strings is data of the base object: one for every
 * builder over it, kept on it after they are gone, freed with it (the SAN
 * build's leak check sees it otherwise); another object of the same bytes
 * has its own */
static void test_base_index_on_object(void **state)
{
	struct lbtf_builder *bb = lbtf_builder_new(NULL), *s1, *s2;
	const struct lbtfi_strindex *si;
	struct lbtf *base, *twin;
	void *data;
	size_t size;

	assert_true(lbtf_builder_add_int(bb, "int", 4, 0) > 0);
	assert_int_equal(lbtf_builder_serialize(bb, false, &data, &size), 0);
	base = lbtf_new(data, size, NULL);
	twin = lbtf_new(data, size, NULL);
	assert_non_null(base);
	assert_non_null(twin);
	free(data);
	s1 = lbtf_builder_new(base);
	s2 = lbtf_builder_new(base);
	assert_non_null(s1);
	assert_non_null(s2);
	si = s1->base_strs;
	assert_non_null(si);
	assert_ptr_equal(si->btf, base);
	assert_ptr_equal(s2->base_strs, si);
	lbtf_builder_free(s1);
	lbtf_builder_free(s2);
	assert_ptr_equal(lbtfi_strindex_of(base), si);
	assert_true(lbtfi_strindex_find(si, "int") > 0);
	assert_ptr_not_equal(lbtfi_strindex_of(twin), si);
	assert_ptr_equal(lbtfi_strindex_of(twin)->btf, twin);
	lbtf_free(twin);
	lbtf_free(base);
	lbtf_builder_free(bb);
}

static void test_add_valid(void **state)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);
	struct lbtf *btf;
	const struct lbtf_type *t;
	int i_int, i_ptr, i_st, i_un, i_en, i_e64, i_fwd, i_ufwd, i_efwd, i_td, i_vol, i_con,
	    i_res, i_tt, i_fp, i_fn, i_var, i_ds, i_dt, i_arr, i_flt;

	i_int = lbtf_builder_add_int(b, "int", 4, LBTF_INT_SIGNED);
	assert_int_equal(i_int, 1);
	assert_int_equal(lbtf_builder_type_cnt(b), 2);
	i_ptr = lbtf_builder_add_ptr(b, 5); /* forward reference to the struct */
	i_flt = lbtf_builder_add_float(b, "double", 8);
	i_arr = lbtf_builder_add_array(b, i_int, i_int, 10);
	i_st = lbtf_builder_add_struct(b, "s", 16);
	assert_int_equal(i_st, 5);
	assert_int_equal(lbtf_builder_add_field(b, "a", i_int, 0, 0), i_st);
	assert_int_equal(lbtf_builder_add_field(b, "next", i_ptr, 64, 0), i_st);
	assert_false(lbtf_kflag(lbtf_builder_type_by_id(b, i_st)));
	assert_int_equal(lbtf_builder_add_field(b, "bf", i_int, 32, 3), i_st);
	assert_true(lbtf_kflag(lbtf_builder_type_by_id(b, i_st)));
	assert_int_equal(lbtf_builder_add_field(b, NULL, i_int, 35, 5), i_st);
	i_un = lbtf_builder_add_union(b, NULL, 4);
	assert_int_equal(lbtf_builder_add_field(b, "x", i_int, 0, 0), i_un);
	assert_int_equal(lbtf_builder_add_field(b, "y", i_flt, 0, 0), i_un);
	i_en = lbtf_builder_add_enum(b, "e", 4, false);
	assert_int_equal(lbtf_builder_add_enum_value(b, "A", 1), i_en);
	assert_false(lbtf_kflag(lbtf_builder_type_by_id(b, i_en)));
	assert_int_equal(lbtf_builder_add_enum_value(b, "B", -1), i_en);
	assert_true(lbtf_kflag(lbtf_builder_type_by_id(b, i_en)));
	assert_int_equal(lbtf_builder_add_enum_value(b, "C", 0xffffffffll), i_en);
	i_e64 = lbtf_builder_add_enum64(b, "e64", 8, true);
	assert_int_equal(lbtf_builder_add_enum64_value(b, "BIG", 0x123456789abcdefull), i_e64);
	i_fwd = lbtf_builder_add_fwd(b, "fs", LBTF_FWD_STRUCT);
	i_ufwd = lbtf_builder_add_fwd(b, "fu", LBTF_FWD_UNION);
	i_efwd = lbtf_builder_add_fwd(b, "fe", LBTF_FWD_ENUM);
	i_td = lbtf_builder_add_typedef(b, "s_t", i_st);
	i_vol = lbtf_builder_add_volatile(b, i_int);
	i_con = lbtf_builder_add_const(b, i_vol);
	i_res = lbtf_builder_add_restrict(b, i_ptr);
	i_tt = lbtf_builder_add_type_tag(b, "user", i_int);
	i_fp = lbtf_builder_add_func_proto(b, i_int);
	assert_int_equal(lbtf_builder_add_func_param(b, "x", i_int), i_fp);
	assert_int_equal(lbtf_builder_add_func_param(b, NULL, 0), i_fp); /* varargs */
	i_fn = lbtf_builder_add_func(b, "f", LBTF_LINKAGE_GLOBAL, i_fp);
	i_var = lbtf_builder_add_var(b, "v", LBTF_LINKAGE_GLOBAL, i_int);
	i_ds = lbtf_builder_add_datasec(b, ".data", 4);
	assert_int_equal(lbtf_builder_add_datasec_var_info(b, i_var, 0, 4), i_ds);
	i_dt = lbtf_builder_add_decl_tag(b, "tag", i_st, 1);
	assert_int_equal(i_dt, 21);
	assert_int_equal(lbtf_builder_type_cnt(b), 22);

	btf = roundtrip(b, NULL, false);
	assert_int_equal(lbtf_type_cnt(btf), 22);
	t = lbtf_type_by_id(btf, i_int);
	assert_int_equal(lbtf_kind(t), LBTF_KIND_INT);
	assert_int_equal(t->size, 4);
	assert_int_equal(lbtf_int_bits(t), 32);
	assert_int_equal(lbtf_int_encoding(t), LBTF_INT_SIGNED);
	assert_string_equal(lbtf_type_name(btf, t), "int");
	assert_int_equal(lbtf_type_by_id(btf, i_ptr)->type, i_st);
	t = lbtf_type_by_id(btf, i_arr);
	assert_int_equal(lbtf_array(t)->nelems, 10);
	assert_int_equal(lbtf_array(t)->type, i_int);
	t = lbtf_type_by_id(btf, i_st);
	assert_int_equal(lbtf_vlen(t), 4);
	assert_true(lbtf_kflag(t));
	assert_int_equal(lbtf_member_bit_offset(t, 1), 64);
	assert_int_equal(lbtf_member_bit_offset(t, 2), 32);
	assert_int_equal(lbtf_member_bitfield_size(t, 2), 3);
	assert_int_equal(lbtf_member_bitfield_size(t, 1), 0);
	assert_int_equal(lbtf_members(t)[3].name_off, 0);
	assert_string_equal(lbtf_name_by_offset(btf, lbtf_members(t)[1].name_off), "next");
	t = lbtf_type_by_id(btf, i_un);
	assert_int_equal(lbtf_kind(t), LBTF_KIND_UNION);
	assert_int_equal(t->name_off, 0);
	t = lbtf_type_by_id(btf, i_en);
	assert_int_equal(lbtf_vlen(t), 3);
	assert_int_equal(lbtf_enums(t)[1].val, -1);
	assert_int_equal((uint32_t)lbtf_enums(t)[2].val, 0xffffffffu);
	t = lbtf_type_by_id(btf, i_e64);
	assert_int_equal(lbtf_kind(t), LBTF_KIND_ENUM64);
	assert_true(lbtf_kflag(t));
	assert_true(lbtf_enum64_value(&lbtf_enums64(t)[0]) == 0x123456789abcdefull);
	t = lbtf_type_by_id(btf, i_fwd);
	assert_int_equal(lbtf_kind(t), LBTF_KIND_FWD);
	assert_false(lbtf_kflag(t));
	assert_true(lbtf_kflag(lbtf_type_by_id(btf, i_ufwd)));
	t = lbtf_type_by_id(btf, i_efwd);
	assert_int_equal(lbtf_kind(t), LBTF_KIND_ENUM);
	assert_int_equal(lbtf_vlen(t), 0);
	assert_int_equal(lbtf_type_by_id(btf, i_td)->type, i_st);
	assert_int_equal(lbtf_kind(lbtf_type_by_id(btf, i_vol)), LBTF_KIND_VOLATILE);
	assert_int_equal(lbtf_type_by_id(btf, i_con)->type, i_vol);
	assert_int_equal(lbtf_kind(lbtf_type_by_id(btf, i_res)), LBTF_KIND_RESTRICT);
	assert_string_equal(lbtf_type_name(btf, lbtf_type_by_id(btf, i_tt)), "user");
	t = lbtf_type_by_id(btf, i_fp);
	assert_int_equal(lbtf_vlen(t), 2);
	assert_int_equal(lbtf_params(t)[1].type, 0);
	t = lbtf_type_by_id(btf, i_fn);
	assert_int_equal(lbtf_vlen(t), LBTF_LINKAGE_GLOBAL);
	assert_int_equal(t->type, i_fp);
	assert_int_equal(lbtf_var(lbtf_type_by_id(btf, i_var))->linkage, 1);
	t = lbtf_type_by_id(btf, i_ds);
	assert_int_equal(lbtf_secinfos(t)[0].type, i_var);
	assert_int_equal(lbtf_secinfos(t)[0].size, 4);
	t = lbtf_type_by_id(btf, i_dt);
	assert_int_equal(lbtf_decl_tag(t)->component_idx, 1);

	/* the opposite byte order parses back to the same records */
	{
		struct lbtf *sw = roundtrip(b, NULL, true);
		size_t n1, n2;
		const void *d1 = lbtf_raw_data(btf, &n1), *d2 = lbtf_raw_data(sw, &n2);
		assert_int_equal(n1, n2);
		assert_memory_equal(d1, d2, n1);
		lbtf_free(sw);
	}
	lbtf_free(btf);
	lbtf_builder_free(b);
}

static void test_add_invalid(void **state)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);
	int i_int;

	/* append-to-last with nothing / wrong kind before */
	assert_int_equal(lbtf_builder_add_field(b, "a", 1, 0, 0), -EINVAL);
	assert_int_equal(lbtf_builder_add_enum_value(b, "A", 1), -EINVAL);
	assert_int_equal(lbtf_builder_add_func_param(b, "a", 1), -EINVAL);
	assert_int_equal(lbtf_builder_add_datasec_var_info(b, 1, 0, 4), -EINVAL);
	/* ints */
	assert_int_equal(lbtf_builder_add_int(b, "", 4, 0), -EINVAL);
	assert_int_equal(lbtf_builder_add_int(b, NULL, 4, 0), -EINVAL);
	assert_int_equal(lbtf_builder_add_int(b, "i3", 3, 0), -EINVAL);
	assert_int_equal(lbtf_builder_add_int(b, "i0", 0, 0), -EINVAL);
	assert_int_equal(lbtf_builder_add_int(b, "i32", 32, 0), -EINVAL);
	assert_int_equal(lbtf_builder_add_int(b, "ienc", 4, 8), -EINVAL);
	assert_true(strstr(lbtf_errmsg(), "encoding") != NULL);
	assert_int_equal(lbtf_builder_type_cnt(b), 1); /* nothing was added */
	i_int = lbtf_builder_add_int(b, "__int128", 16, LBTF_INT_SIGNED);
	assert_int_equal(i_int, 1);
	assert_int_equal(lbtf_builder_add_field(b, "a", 1, 0, 0), -EINVAL); /* last is INT */
	/* floats */
	assert_int_equal(lbtf_builder_add_float(b, "f", 3), -EINVAL);
	assert_int_equal(lbtf_builder_add_float(b, "", 4), -EINVAL);
	assert_true(lbtf_builder_add_float(b, "long double", 12) > 0);
	/* ids out of range */
	assert_int_equal(lbtf_builder_add_ptr(b, 0x80000000u), -EINVAL);
	assert_int_equal(lbtf_builder_add_const(b, 0xffffffffu), -EINVAL);
	assert_int_equal(lbtf_builder_add_array(b, 0x80000000u, 1, 1), -EINVAL);
	assert_int_equal(lbtf_builder_add_array(b, 1, 0x80000000u, 1), -EINVAL);
	assert_int_equal(lbtf_builder_add_volatile(b, 0x80000000u), -EINVAL);
	assert_int_equal(lbtf_builder_add_restrict(b, 0x80000000u), -EINVAL);
	assert_int_equal(lbtf_builder_add_typedef(b, "t", 0x80000000u), -EINVAL);
	assert_int_equal(lbtf_builder_add_type_tag(b, "tag", 0x80000000u), -EINVAL);
	assert_int_equal(lbtf_builder_add_func_proto(b, 0x80000000u), -EINVAL);
	assert_int_equal(lbtf_builder_add_func(b, "f", 0, 0x80000000u), -EINVAL);
	assert_int_equal(lbtf_builder_add_var(b, "v", 0, 0x80000000u), -EINVAL);
	assert_int_equal(lbtf_builder_add_decl_tag(b, "t", 0x80000000u, -1), -EINVAL);
	/* names required */
	assert_int_equal(lbtf_builder_add_typedef(b, "", 1), -EINVAL);
	assert_int_equal(lbtf_builder_add_type_tag(b, NULL, 1), -EINVAL);
	assert_int_equal(lbtf_builder_add_fwd(b, "", LBTF_FWD_STRUCT), -EINVAL);
	assert_int_equal(lbtf_builder_add_fwd(b, "x", (enum lbtf_fwd_kind)7), -EINVAL);
	assert_int_equal(lbtf_builder_add_func(b, "", 0, 1), -EINVAL);
	assert_int_equal(lbtf_builder_add_func(b, "f", 3, 1), -EINVAL);
	assert_int_equal(lbtf_builder_add_var(b, "", 0, 1), -EINVAL);
	assert_int_equal(lbtf_builder_add_var(b, "v", 5, 1), -EINVAL);
	assert_int_equal(lbtf_builder_add_datasec(b, "", 0), -EINVAL);
	assert_int_equal(lbtf_builder_add_decl_tag(b, "", 1, -1), -EINVAL);
	assert_int_equal(lbtf_builder_add_decl_tag(b, "t", 1, -2), -EINVAL);
	assert_int_equal(lbtf_builder_add_decl_tag(b, "t", 0, -1), -EINVAL);
	/* enums */
	assert_int_equal(lbtf_builder_add_enum(b, "e", 3, false), -EINVAL);
	assert_int_equal(lbtf_builder_add_enum(b, "e", 16, false), -EINVAL);
	assert_int_equal(lbtf_builder_add_enum64(b, "e", 0, false), -EINVAL);
	assert_true(lbtf_builder_add_enum(b, "e", 4, false) > 0);
	assert_int_equal(lbtf_builder_add_enum_value(b, "", 1), -EINVAL);
	assert_int_equal(lbtf_builder_add_enum_value(b, "BIG", 0x100000000ll), -E2BIG);
	assert_int_equal(lbtf_builder_add_enum_value(b, "SMALL", (int64_t)INT32_MIN - 1), -E2BIG);
	assert_int_equal(lbtf_builder_add_enum64_value(b, "X", 1), -EINVAL); /* last is ENUM */
	assert_true(lbtf_builder_add_enum64(b, "e64", 8, false) > 0);
	assert_int_equal(lbtf_builder_add_enum64_value(b, NULL, 1), -EINVAL);
	assert_int_equal(lbtf_builder_add_enum_value(b, "Y", 1), -EINVAL); /* last is ENUM64 */
	/* struct fields */
	assert_true(lbtf_builder_add_struct(b, "s", 8) > 0);
	assert_int_equal(lbtf_builder_add_field(b, "bf", 1, 0, 256), -EINVAL);
	assert_int_equal(lbtf_builder_add_field(b, "bf", 1, 1u << 24, 1), -EINVAL);
	assert_int_equal(lbtf_builder_add_field(b, "bad", 0x80000000u, 0, 0), -EINVAL);
	assert_int_equal(lbtf_builder_add_field(b, "far", 1, 1u << 24, 0), 5); /* fine without kflag */
	/* ... but then no bitfield can switch the struct to kflag encoding */
	assert_int_equal(lbtf_builder_add_field(b, "bf", 1, 0, 1), -EINVAL);
	assert_true(lbtf_builder_add_struct(b, "s2", 8) > 0);
	assert_true(lbtf_builder_add_field(b, "bf", 1, 0, 1) > 0);
	assert_int_equal(lbtf_builder_add_field(b, "far", 1, 1u << 24, 0), -EINVAL); /* kflag set now */
	assert_true(lbtf_builder_add_union(b, "u", 8) > 0);
	assert_int_equal(lbtf_builder_add_field(b, "a", 1, 8, 0), -EINVAL);
	assert_true(lbtf_builder_add_field(b, "a", 1, 0, 4) > 0);
	/* func params */
	assert_true(lbtf_builder_add_func_proto(b, 0) > 0);
	assert_int_equal(lbtf_builder_add_func_param(b, "named", 0), -EINVAL);
	assert_int_equal(lbtf_builder_add_func_param(b, "p", 0x80000000u), -EINVAL);
	/* datasec */
	assert_true(lbtf_builder_add_datasec(b, ".bss", 4) > 0);
	assert_int_equal(lbtf_builder_add_datasec_var_info(b, 0, 0, 4), -EINVAL);
	/* forward references must be resolved before serializing */
	assert_true(lbtf_builder_add_ptr(b, 1000) > 0);
	{
		void *d;
		size_t n;
		assert_int_equal(lbtf_builder_serialize(b, false, &d, &n), -EINVAL);
		assert_true(strstr(lbtf_errmsg(), "1000") != NULL);
	}
	lbtf_builder_free(b);
}

static void test_vlen_limit(void **state)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);
	int e = lbtf_builder_add_enum64(b, "many", 8, false);
	char name[16];

	for (int i = 0; i < 0xffff; i++) {
		snprintf(name, sizeof(name), "V%d", i);
		assert_int_equal(lbtf_builder_add_enum64_value(b, name, (uint64_t)i), e);
	}
	assert_int_equal(lbtf_builder_add_enum64_value(b, "ONE_TOO_MANY", 1), -E2BIG);
	assert_non_null(strstr(lbtf_errmsg(), "24-bit vlen of the layout format"));
	lbtf_builder_free(b);
}

/* With the layout format the vlen is 24 bits wide: 65537 elements are
 * written and read back whole; without it they are refused, at the add
 * and at the serialization of a builder that already holds them. */
static void test_vlen_wide(void **state)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);
	int e = lbtf_builder_add_enum64(b, "many", 8, false);
	void *d;
	size_t n;
	struct lbtf *btf;

	lbtf_builder_set_layout(b, true);
	for (int i = 0; i < 0x10001; i++)
		assert_int_equal(lbtf_builder_add_enum64_value(b, i ? "V" : "W", (uint64_t)i), e);
	assert_int_equal(lbtf_builder_serialize(b, false, &d, &n), 0);
	btf = lbtf_new(d, n, NULL);
	assert_non_null(btf);
	assert_int_equal(lbtf_vlen(lbtf_type_by_id(btf, e)), 0x10001);
	lbtf_free(btf);
	free(d);
	lbtf_builder_set_layout(b, false);
	assert_int_equal(lbtf_builder_serialize(b, false, &d, &n), -E2BIG);
	assert_non_null(strstr(lbtf_errmsg(), "type 1: 65537 elements need the 24-bit vlen"));
	assert_int_equal(lbtf_builder_add_enum64_value(b, "X", 1), -E2BIG);
	lbtf_builder_free(b);
}

static void test_type_by_id_mutable(void **state)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);
	int i = lbtf_builder_add_int(b, "int", 4, 0), p = lbtf_builder_add_ptr(b, 0);
	struct lbtf_type *t;

	assert_null(lbtf_builder_type_by_id(b, 0));
	assert_null(lbtf_builder_type_by_id(b, 3));
	t = lbtf_builder_type_by_id(b, (uint32_t)p);
	assert_non_null(t);
	t->type = (uint32_t)i; /* fix up a reference after the fact */
	{
		struct lbtf *btf = roundtrip(b, NULL, false);
		assert_int_equal(lbtf_type_by_id(btf, (uint32_t)p)->type, i);
		lbtf_free(btf);
	}
	/* records edited into nonsense are refused, not read out of bounds */
	{
		void *d;
		size_t n;
		int s = lbtf_builder_add_struct(b, "s", 4);
		struct lbtf_type *st = lbtf_builder_type_by_id(b, (uint32_t)s);
		st->info = lbtf_info(LBTF_KIND_STRUCT, 1000, 0); /* vlen without members */
		assert_int_equal(lbtf_builder_serialize(b, false, &d, &n), -EINVAL);
		assert_int_equal(lbtf_builder_dedup(b, NULL), -EINVAL);
		st->info = lbtf_info(25, 0, 0); /* unknown kind */
		assert_int_equal(lbtf_builder_serialize(b, false, &d, &n), -EINVAL);
		st->info = lbtf_info(LBTF_KIND_STRUCT, 0, 0);
		st->name_off = 1u << 30; /* string offset out of range */
		assert_int_equal(lbtf_builder_serialize(b, false, &d, &n), -EINVAL);
		assert_int_equal(lbtf_builder_dedup(b, NULL), -EINVAL);
	}
	lbtf_builder_free(b);
}

static void test_append_and_copy(void **state)
{
	struct lbtf_builder *a = lbtf_builder_new(NULL), *c = lbtf_builder_new(NULL);
	struct lbtf *btf, *btf2;
	const struct lbtf_type *t;
	int first;

	lbtf_builder_add_int(a, "int", 4, LBTF_INT_SIGNED);           /* 1 */
	lbtf_builder_add_struct(c, "node", 8);                         /* 1 in c */
	lbtf_builder_add_field(c, "next", 2, 0, 0);
	lbtf_builder_add_ptr(c, 1);                                    /* 2 in c */
	lbtf_builder_add_typedef(c, "int", 0);                         /* 3: shares "int" */
	first = lbtf_builder_append(a, c);
	assert_int_equal(first, 2);
	assert_int_equal(lbtf_builder_type_cnt(a), 5);
	btf = roundtrip(a, NULL, false);
	t = lbtf_type_by_id(btf, 2);
	assert_string_equal(lbtf_type_name(btf, t), "node");
	assert_int_equal(lbtf_members(t)[0].type, 3);
	assert_int_equal(lbtf_type_by_id(btf, 3)->type, 2);
	assert_int_equal(lbtf_type_by_id(btf, 4)->name_off, lbtf_type_by_id(btf, 1)->name_off);
	/* append is all-or-nothing: a bad reference leaves a unchanged */
	lbtf_builder_add_ptr(c, 99);
	assert_int_equal(lbtf_builder_append(a, c), -EINVAL);
	assert_int_equal(lbtf_builder_type_cnt(a), 5);
	assert_int_equal(lbtf_builder_append(a, a), -EINVAL);

	/* many strings, some shared, one slot pointing into the middle of a
	 * string (records are mutable), and a corrupted vlen */
	{
		struct lbtf_builder *x = lbtf_builder_new(NULL), *y = lbtf_builder_new(NULL);
		struct lbtf *xb;
		char name[32];
		int sid, mid, first2;

		for (int k = 0; k < 3000; k++) {
			snprintf(name, sizeof(name), "x_%d", k);
			lbtf_builder_add_int(x, name, 4, 0);
			snprintf(name, sizeof(name), "y_%d", k + 1500);
			lbtf_builder_add_int(y, name, 4, 0);
		}
		sid = lbtf_builder_add_typedef(y, "prefix_suffix", 1);
		mid = lbtf_builder_add_str(y, "prefix_suffix") + 7; /* "suffix" */
		lbtf_builder_type_by_id(y, (uint32_t)sid)->name_off = (uint32_t)mid;
		first2 = lbtf_builder_append(x, y);
		assert_int_equal(first2, 3001);
		xb = to_btf_or_fail(x);
		for (int k = 0; k < 3000; k += 7) {
			snprintf(name, sizeof(name), "y_%d", k + 1500);
			assert_string_equal(lbtf_type_name(xb, lbtf_type_by_id(xb, 3001 + (uint32_t)k)), name);
		}
		assert_string_equal(lbtf_type_name(xb, lbtf_type_by_id(xb, 6001)), "suffix");
		assert_int_equal(lbtf_type_by_id(xb, 6001)->type, 3001); /* renumbered */
		/* "y_1500".."y_2999" were already there as x_? no: distinct names;
		 * but interning kept every name once */
		assert_int_equal(lbtf_builder_add_str(x, "y_1600"), (int)lbtf_type_by_id(xb, 3101)->name_off);
		lbtf_free(xb);
		/* a record whose vlen was corrupted is refused, x unchanged */
		lbtf_builder_add_struct(y, "s", 4);
		lbtf_builder_type_by_id(y, lbtf_builder_type_cnt(y) - 1)->info += 5;
		assert_int_equal(lbtf_builder_append(x, y), -EINVAL);
		assert_int_equal(lbtf_builder_type_cnt(x), 6002);
		lbtf_builder_free(x);
		lbtf_builder_free(y);
	}
	/* copy every type of the parsed BTF into a new builder: identical bytes */
	{
		struct lbtf_builder *d = lbtf_builder_new(NULL);
		void *d1, *d2;
		size_t n1, n2;
		for (uint32_t id = 1; id < lbtf_type_cnt(btf); id++)
			assert_int_equal(lbtf_builder_add_type_copy(d, btf, id), (int)id);
		assert_int_equal(lbtf_builder_add_type_copy(d, btf, 0), -EINVAL);
		assert_int_equal(lbtf_builder_add_type_copy(d, btf, 999), -EINVAL);
		assert_int_equal(lbtf_builder_serialize(a, false, &d1, &n1), 0);
		assert_int_equal(lbtf_builder_serialize(d, false, &d2, &n2), 0);
		assert_int_equal(n1, n2);
		assert_memory_equal(d1, d2, n1);
		free(d1);
		free(d2);
		lbtf_builder_free(d);
	}
	/* split builder over btf: ids and strings continue after the base */
	{
		struct lbtf_builder *s = lbtf_builder_new(btf);
		uint32_t base_cnt = lbtf_type_cnt(btf);
		int id;
		assert_int_equal(lbtf_builder_type_cnt(s), base_cnt);
		assert_int_equal(lbtf_builder_add_str(s, "node"), (int)lbtf_type_by_id(btf, 2)->name_off);
		assert_true(lbtf_builder_add_str(s, "fresh") >= (int)lbtf_header(btf)->str_len);
		assert_string_equal(lbtf_builder_str(s, lbtf_type_by_id(btf, 2)->name_off), "node");
		assert_null(lbtf_builder_type_by_id(s, 2));
		id = lbtf_builder_add_ptr(s, 2);
		assert_int_equal(id, (int)base_cnt);
		lbtf_builder_add_struct(s, "fresh", 4);
		lbtf_builder_add_field(s, "n", 2, 0, 0);
		btf2 = roundtrip(s, btf, false);
		assert_int_equal(lbtf_type_cnt(btf2), base_cnt + 2);
		assert_string_equal(lbtf_type_name(btf2, lbtf_type_by_id(btf2, base_cnt + 1)), "fresh");
		assert_string_equal(lbtf_name_by_offset(btf2, lbtf_members(lbtf_type_by_id(btf2, base_cnt + 1))[0].name_off), "n");
		lbtf_free(btf2);
		lbtf_builder_free(s);
	}
	/* the base's string index is shared between builders: freeing one
	 * leaves the others working */
	{
		struct lbtf_builder *s1 = lbtf_builder_new(btf), *s2 = lbtf_builder_new(btf);
		int node = (int)lbtf_type_by_id(btf, 2)->name_off;
		assert_int_equal(lbtf_builder_add_str(s1, "node"), node);
		lbtf_builder_free(s1);
		assert_int_equal(lbtf_builder_add_str(s2, "node"), node);
		s1 = lbtf_builder_new(btf);
		lbtf_builder_free(s2);
		assert_int_equal(lbtf_builder_add_str(s1, "node"), node);
		lbtf_builder_free(s1);
	}
	lbtf_free(btf);
	lbtf_builder_free(a);
	lbtf_builder_free(c);
}

/* A raw blob of types (words) and strings (bytes), little-endian host */
static struct lbtf *blob_of(const uint32_t *types, uint32_t type_len, const char *strs, uint32_t str_len)
{
	/* magic, version 1, flags 0; hdr_len, type_off, type_len, str_off, str_len */
	uint32_t hdr[6] = { 0xeb9f | (1u << 16), 24, 0, type_len, type_len, str_len };
	unsigned char buf[512];
	struct lbtf *btf;

	assert_true(24 + type_len + str_len <= sizeof(buf));
	memcpy(buf, hdr, 24);
	memcpy(buf + 24, types, type_len);
	memcpy(buf + 24 + type_len, strs, str_len);
	btf = lbtf_new(buf, 24 + type_len + str_len, NULL);
	if (!btf)
		fail_msg("test blob does not parse: %s", lbtf_errmsg());
	return btf;
}

/* A type id visitor: the id of a type of the source moved up by one */
static int add_one(uint32_t *slot, void *ctx)
{
	if (*slot)
		*slot += 1;
	return 0;
}

/*
 * lbtf_builder_add_btf interns each distinct string offset of the source
 * once (import.c): the same bytes and ids as copying type by type with
 * lbtf_builder_add_type_copy and renumbering, with a string twice in the
 * source, offsets into the middle of a string, and strings and types the
 * builder had before.
 */
static void test_add_btf_import(void **state)
{
	/* 0 "", 1 "int", 5 "bar", 9 "foo", 13 "bar" again, 17 "x" */
	static const char strs[] = "\0int\0bar\0foo\0bar\0x";
	static const uint32_t types[] = {
		1, 1u << 24, 4, 32,                       /* 1 INT int */
		5, (4u << 24) | 2, 8, 17, 1, 0, 6, 1, 32, /* 2 STRUCT bar { x; ar (in "bar") } */
		13, (4u << 24) | 1, 4, 9, 3, 0,           /* 3 STRUCT bar (the copy) { foo } */
		0, 2u << 24, 2,                           /* 4 PTR -> 2 */
		6, 8u << 24, 3,                           /* 5 TYPEDEF ar -> 3 */
		0, (13u << 24) | 1, 1, 0, 4,              /* 6 FUNC_PROTO int (*)(4) */
	};
	struct lbtf *src = blob_of(types, sizeof(types), strs, sizeof(strs));
	struct lbtf_builder *bulk = lbtf_builder_new(NULL), *one = lbtf_builder_new(NULL);
	void *d1, *d2;
	size_t n1, n2;
	const struct lbtf_type *t2, *t3, *t5;

	assert_int_equal(lbtf_builder_add_int(bulk, "x", 1, 0), 1);
	assert_int_equal(lbtf_builder_add_int(one, "x", 1, 0), 1);
	assert_int_equal(lbtf_builder_add_btf(bulk, src), 2);
	for (uint32_t id = 1; id < lbtf_type_cnt(src); id++) {
		int nid = lbtf_builder_add_type_copy(one, src, id);
		assert_int_equal(nid, (int)id + 1);
		lbtf_type_visit_type_ids(lbtf_builder_type_by_id(one, (uint32_t)nid), add_one, NULL);
	}
	assert_int_equal(lbtf_builder_serialize(bulk, false, &d1, &n1), 0);
	assert_int_equal(lbtf_builder_serialize(one, false, &d2, &n2), 0);
	assert_int_equal(n1, n2);
	assert_memory_equal(d1, d2, n1);
	/* what that means: both "bar"s one string, "ar" a string of its own
	 * (named twice from one offset), "x" the builder's own, ids moved by 1 */
	t2 = lbtf_builder_type_by_id(bulk, 3);
	t3 = lbtf_builder_type_by_id(bulk, 4);
	t5 = lbtf_builder_type_by_id(bulk, 6);
	assert_int_equal(t2->name_off, t3->name_off);
	assert_string_equal(lbtf_builder_str(bulk, t2->name_off), "bar");
	assert_string_equal(lbtf_builder_str(bulk, lbtf_members(t2)[1].name_off), "ar");
	assert_int_equal(t5->name_off, lbtf_members(t2)[1].name_off);
	assert_int_equal(lbtf_members(t2)[0].name_off, lbtf_builder_add_str(bulk, "x"));
	assert_int_equal(lbtf_members(t3)[0].type, 4);
	assert_int_equal(lbtf_builder_type_by_id(bulk, 5)->type, 3);
	assert_int_equal(t5->type, 4);
	free(d1);
	free(d2);
	lbtf_builder_free(bulk);
	lbtf_builder_free(one);
	lbtf_free(src);
}

/*
 * lbtf_builder_add_btf into a new builder takes the source's string
 * section as it is when the records first name its strings in the order
 * they lie in (import.c: adopt_strings): same bytes as the copy type by
 * type, and then the builder's strings are the source's. Any other source
 * (strings named out of order, a string twice, one never named, an offset
 * into a string) goes the slow way, with the same bytes as the copy.
 */
/*
 * lbtf_builder_adopt_raw over a malloc'ed blob of these types and strings
 * (edited in place, the strings taken as they are or interned) serializes
 * to want, as the copy into a new builder does
 */
/* lbtf_builder_adopt_raw over a malloc'ed blob of these types and strings */
static struct lbtf_builder *adopt_blob(const uint32_t *types, uint32_t type_len, const char *strs,
				       uint32_t str_len)
{
	const struct lbtf_header h = { .magic = 0xeB9F, .version = 1, .hdr_len = 24,
				       .type_len = type_len, .str_off = type_len,
				       .str_len = str_len };
	unsigned char *raw = malloc(24 + type_len + str_len);
	struct lbtf_builder *b;

	assert_non_null(raw);
	memcpy(raw, &h, 24);
	memcpy(raw + 24, types, type_len);
	memcpy(raw + 24 + type_len, strs, str_len);
	b = lbtf_builder_adopt_raw(raw, 24 + type_len + str_len); /* (raw is b's) */
	assert_non_null(b);
	return b;
}

static void check_adopt_raw(const uint32_t *types, uint32_t type_len, const char *strs,
			    uint32_t str_len, const void *want, size_t want_len)
{
	struct lbtf_builder *b = adopt_blob(types, type_len, strs, str_len);
	void *d;
	size_t n;

	assert_int_equal(lbtf_builder_serialize(b, false, &d, &n), 0);
	assert_int_equal(n, want_len);
	assert_memory_equal(d, want, n);
	free(d);
	lbtf_builder_free(b);
}

static void check_add_btf_fresh(const char *strs, uint32_t str_len, uint32_t m1, uint32_t m2,
				uint32_t td, bool adopted)
{
	/* INT int, STRUCT s { m1 int; m2 int }, PTR -> s, TYPEDEF td -> s */
	const uint32_t types[] = {
		1, 1u << 24, 4, 32,
		5, (4u << 24) | 2, 8, m1, 1, 0, m2, 1, 32,
		0, 2u << 24, 2,
		td, 8u << 24, 2,
	};
	uint32_t type_len = sizeof(types);
	struct lbtf *src = blob_of(types, type_len, strs, str_len);
	struct lbtf_builder *bulk = lbtf_builder_new(NULL), *one = lbtf_builder_new(NULL);
	void *d1, *d2;
	size_t n1, n2;

	assert_int_equal(lbtf_builder_add_btf(bulk, src), 1);
	for (uint32_t id = 1; id < lbtf_type_cnt(src); id++)
		assert_int_equal(lbtf_builder_add_type_copy(one, src, id), (int)id);
	assert_int_equal(lbtf_builder_serialize(bulk, false, &d1, &n1), 0);
	assert_int_equal(lbtf_builder_serialize(one, false, &d2, &n2), 0);
	assert_int_equal(n1, n2);
	assert_memory_equal(d1, d2, n1);
	check_adopt_raw(types, type_len, strs, str_len, d1, n1);
	/* the string section (after the 24-byte header and the types) */
	if (adopted) {
		assert_int_equal(n1, 24 + type_len + str_len);
		assert_memory_equal((char *)d1 + 24 + type_len, strs, str_len);
	}
	free(d1);
	free(d2);
	lbtf_builder_free(bulk);
	lbtf_builder_free(one);
	lbtf_free(src);
}

static void test_add_btf_adopt(void **state)
{
	/* 1 "int", 5 "s", 7 "a", 9 "b" */
	static const char in_order[] = "\0int\0s\0a\0b";
	/* "int" twice: 1 and 7; 11 "b" */
	static const char twice[] = "\0int\0s\0int\0b";
	/* a string never named at the end */
	static const char unnamed[] = "\0int\0s\0a\0b\0zz";
	/* 7 "ab", and 8 "b" inside it */
	static const char inside[] = "\0int\0s\0ab";

	/* named 1, 5, 7, 9, then 7 again */
	check_add_btf_fresh(in_order, sizeof(in_order), 7, 9, 7, true);
	/* 9 named before 7, then 9 again */
	check_add_btf_fresh(in_order, sizeof(in_order), 9, 7, 9, false);
	check_add_btf_fresh(twice, sizeof(twice), 7, 11, 7, false);
	check_add_btf_fresh(unnamed, sizeof(unnamed), 7, 9, 7, false);
	check_add_btf_fresh(inside, sizeof(inside), 7, 8, 7, false);
}

/* serialize and dedup of b both refuse its records (EINVAL) */
static void assert_records_refused(struct lbtf_builder *b)
{
	void *d = NULL;
	size_t n;

	errno = 0;
	assert_int_equal(lbtf_builder_serialize(b, false, &d, &n), -EINVAL);
	assert_null(d);
	assert_int_equal(lbtf_builder_dedup(b, NULL), -EINVAL);
}

/*
 * adopt_raw's walk checks the records once, so dedup and serialize need
 * not check them again (builder.c: lbtfi_builder_checked_known). A record
 * edited after that, with the counts unchanged, must be checked again: a
 * type id made missing through lbtf_builder_type_by_id after the adopt
 * and after a dedup. A blob with a missing type id is adopted (as
 * before) but not taken as checked.
 */
static void test_adopt_raw_checked(void **state)
{
	/* INT int, PTR -> 1, PTR -> 2 */
	static const char strs[] = "\0int";
	const uint32_t types[] = { 1, 1u << 24, 4, 32, 0, 2u << 24, 1, 0, 2u << 24, 2 };
	uint32_t bad[sizeof(types) / 4];
	struct lbtf_builder *b;
	void *d;
	size_t n;

	b = adopt_blob(types, sizeof(types), strs, sizeof(strs));
	lbtf_builder_type_by_id(b, 3)->type = 99;
	assert_records_refused(b);
	lbtf_builder_free(b);

	b = adopt_blob(types, sizeof(types), strs, sizeof(strs));
	assert_int_equal(lbtf_builder_dedup(b, NULL), 0);
	assert_int_equal(lbtf_builder_serialize(b, false, &d, &n), 0);
	free(d);
	lbtf_builder_type_by_id(b, 3)->type = 4;
	assert_records_refused(b);
	lbtf_builder_free(b);

	memcpy(bad, types, sizeof(types));
	bad[6] = 4; /* (the first PTR's target: one past the last id) */
	b = adopt_blob(bad, sizeof(bad), strs, sizeof(strs));
	assert_records_refused(b);
	lbtf_builder_free(b);
}

/* int, a pointer to it, struct s { int *p; } */
static struct lbtf_builder *small_unit(void)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);
	int i, p, s;

	assert_non_null(b);
	i = lbtf_builder_add_int(b, "int", 4, 1);
	p = lbtf_builder_add_ptr(b, (uint32_t)i);
	s = lbtf_builder_add_struct(b, "s", 8);
	assert_true(i > 0 && p > 0 && s > 0);
	assert_true(lbtf_builder_add_field(b, "p", (uint32_t)p, 0, 0) >= 0);
	return b;
}

/*
 * An append checks every record it copies (kind, size, ids, strings), so
 * a builder put together by appends from an empty one is taken as checked
 * and dedup does not check it again (btfgen's raw output); so is one that
 * lbtfi_builder_append_range fills from a checked source, and one whose
 * added records lbtfi_builder_check_added checked. Never one that was not
 * checked before: a record edited to a missing id stays refused after an
 * append, and an added record with a missing id fails check_added.
 */
static void test_append_checked(void **state)
{
	struct lbtf_builder *out = lbtf_builder_new(NULL), *unit = small_unit(), *rest;
	uint32_t nr;
	int first;

	assert_non_null(out);
	assert_false(lbtfi_builder_checked_known(unit)); /* (made by adds) */
	assert_true(lbtf_builder_append(out, unit) > 0);
	assert_true(lbtfi_builder_checked_known(out));
	first = lbtf_builder_append(out, unit);
	assert_true(first > 0);
	assert_true(lbtfi_builder_checked_known(out));

	/* a range of it into a builder of its strings: checked */
	rest = lbtfi_builder_new_strs_of(out);
	assert_non_null(rest);
	assert_true(lbtfi_builder_append_range(rest, out, (uint32_t)first,
					       lbtf_builder_type_cnt(out)) > 0);
	assert_true(lbtfi_builder_checked_known(rest));
	lbtf_builder_free(rest);

	/* types added and checked: checked; one with a missing id: refused */
	nr = out->nr_types;
	assert_true(lbtf_builder_add_ptr(out, 1) > 0);
	assert_false(lbtfi_builder_checked_known(out));
	assert_int_equal(lbtfi_builder_check_added(out, nr), 0);
	assert_true(lbtfi_builder_checked_known(out));
	nr = out->nr_types;
	assert_true(lbtf_builder_add_ptr(out, 999) > 0);
	assert_int_equal(lbtfi_builder_check_added(out, nr), -EINVAL);
	assert_false(lbtfi_builder_checked_known(out));
	lbtf_builder_free(out);

	/* an edited record: not taken as checked after appends, nor is a
	 * range of it */
	out = lbtf_builder_new(NULL);
	assert_non_null(out);
	assert_true(lbtf_builder_append(out, unit) > 0);
	lbtf_builder_type_by_id(out, 2)->type = 99;
	assert_true(lbtf_builder_append(out, unit) > 0);
	assert_false(lbtfi_builder_checked_known(out));
	rest = lbtfi_builder_new_strs_of(out);
	assert_non_null(rest);
	/* (the range refers to its own types only: it is copied) */
	assert_true(lbtfi_builder_append_range(rest, out, 4, lbtf_builder_type_cnt(out)) > 0);
	assert_false(lbtfi_builder_checked_known(rest));
	lbtf_builder_free(rest);
	assert_records_refused(out);
	lbtf_builder_free(out);
	lbtf_builder_free(unit);
}

/*
 * Types moved aside into a builder that borrows the strings of the one
 * they came from (lbtfi_builder_new_strs_at): no copy of them (its own
 * strings stay empty), and back after other types, their names are those
 * they had. Only a builder with at least those strings takes them, and
 * lbtf_builder_append, which maps strings, refuses such a builder.
 */
static void test_range_strs_borrowed(void **state)
{
	struct lbtf_builder *out = lbtf_builder_new(NULL), *unit = small_unit(), *rest, *fresh;
	const struct lbtf_type *t;
	uint32_t cnt, from;
	int first;

	assert_non_null(out);
	assert_true(lbtf_builder_append(out, unit) > 0);
	first = lbtf_builder_append(out, unit);
	assert_true(first > 0);
	cnt = lbtf_builder_type_cnt(out);

	rest = lbtfi_builder_new_strs_at(out);
	assert_non_null(rest);
	assert_true(lbtfi_builder_append_range(rest, out, (uint32_t)first, cnt) > 0);
	assert_true(rest->strs.len <= 1);
	assert_int_equal(lbtfi_builder_strs_len(rest), out->strs.len);

	/* out cut back, a type with a new string, the moved types again */
	from = (uint32_t)first - out->start_id;
	lbtfi_builder_truncate(out, from, out->offs[from]);
	assert_true(lbtf_builder_add_int(out, "long", 8, 1) > 0);
	first = lbtfi_builder_append_range(out, rest, rest->start_id, lbtf_builder_type_cnt(rest));
	assert_int_equal(first, cnt - 3 + 1);
	t = lbtf_builder_type_by_id(out, (uint32_t)first);
	assert_string_equal(lbtf_builder_str(out, t->name_off), "int");
	t = lbtf_builder_type_by_id(out, (uint32_t)first + 2);
	assert_string_equal(lbtf_builder_str(out, t->name_off), "s");
	assert_string_equal(lbtf_builder_str(out, lbtf_members(t)[0].name_off), "p");
	assert_int_equal(lbtf_members(t)[0].type, (uint32_t)first + 1);

	/* a builder without those strings: refused, as are string appends */
	fresh = lbtf_builder_new(NULL);
	assert_non_null(fresh);
	assert_int_equal(lbtfi_builder_append_range(fresh, rest, rest->start_id,
						    lbtf_builder_type_cnt(rest)), -EINVAL);
	assert_int_equal(lbtf_builder_append(fresh, rest), -EINVAL);
	assert_int_equal(lbtf_builder_append(rest, unit), -EINVAL);
	lbtf_builder_free(fresh);
	lbtf_builder_free(rest);
	lbtf_builder_free(out);
	lbtf_builder_free(unit);
}

/* A builder with the strings another had earlier (btfgen's look after
 * dedup: out's strings as the groups left them, before DATASEC names were
 * added): those strings at their offsets, no later one, and a string added
 * again takes the next offset, as it did the first time */
static void test_new_strs_upto(void **state)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL), *n;
	int64_t a, c, d;

	assert_non_null(b);
	a = lbtf_builder_add_str(b, "alpha");
	c = lbtf_builder_add_str(b, "beta");
	d = lbtf_builder_add_str(b, ".data");
	assert_true(a > 0 && c > a && d > c);
	n = lbtfi_builder_new_strs_upto(b, (size_t)d);
	assert_non_null(n);
	assert_int_equal(n->strs.len, d);
	assert_int_equal(n->strs.cnt, 2); /* alpha, beta */
	assert_int_equal(lbtfi_strset_find(&n->strs, "beta"), c);
	assert_int_equal(lbtfi_strset_find(&n->strs, ".data"), -1);
	assert_int_equal(lbtf_builder_add_str(n, ".data"), d);
	lbtf_builder_free(n);
	lbtf_builder_free(b);
}

/* A blob lbtf_builder_adopt_raw cannot parse: NULL with EINVAL, the blob
 * freed by it (the sanitizer build sees a leak or a double free) */
static void test_adopt_raw_bad(void **state)
{
	unsigned char *raw = calloc(1, 64);

	assert_non_null(raw);
	errno = 0;
	assert_null(lbtf_builder_adopt_raw(raw, 64));
	assert_int_equal(errno, EINVAL);
	assert_null(lbtf_builder_adopt_raw(NULL, 0));
}

/* Resident pages of [p, p + bytes) (mincore) */
static size_t resident_pages(const void *p, size_t bytes)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE), n, cnt = 0;
	uintptr_t a = ((uintptr_t)p + pg - 1) & ~(uintptr_t)(pg - 1);
	uintptr_t e = ((uintptr_t)p + bytes) & ~(uintptr_t)(pg - 1);
	unsigned char *vec;

	if (e <= a)
		return 0;
	n = (e - a) / pg;
	vec = malloc(n);
	assert_non_null(vec);
	assert_int_equal(mincore((void *)a, e - a, vec), 0);
	for (size_t i = 0; i < n; i++)
		cnt += vec[i] & 1;
	free(vec);
	return cnt;
}

/*
 * Dedup gives back the pages of the records it dropped
 * (lbtfi_builder_release_tail): 200,000 copies of one unit (17.6 MB of
 * records) become 4 types; the record pages from 2 MB on, resident
 * before, are not after (mincore: the process's resident size would also
 * count what a sanitizer's allocator keeps), and the records kept, and
 * those added after, are intact.
 */
static void test_dedup_gives_back_pages(void **state)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);
	const uint32_t *from;
	struct lbtf *btf;
	size_t bytes;

	for (int i = 0; i < 200000; i++) {
		uint32_t s = lbtf_builder_type_cnt(b) + 1;

		assert_true(lbtf_builder_add_int(b, "int", 4, LBTF_INT_SIGNED) > 0);
		assert_true(lbtf_builder_add_struct(b, "pair", 16) > 0);
		lbtf_builder_add_field(b, "a", s - 1, 0, 0);
		lbtf_builder_add_field(b, "b", s - 1, 32, 0);
		lbtf_builder_add_field(b, "next", s + 1, 64, 0);
		assert_true(lbtf_builder_add_ptr(b, s) > 0);
		assert_true(lbtf_builder_add_typedef(b, "pair_t", s) > 0);
	}
	from = b->words + LBTFI_BIG_BYTES / 4;
	bytes = (b->nwords - LBTFI_BIG_BYTES / 4) * 4;
	assert_true(resident_pages(from, bytes) > 0);
	assert_int_equal(lbtf_builder_dedup(b, NULL), 0);
	assert_int_equal(lbtf_builder_type_cnt(b), 5);
	if (resident_pages(from, bytes))
		fail_msg("%zu pages of dropped records still resident", resident_pages(from, bytes));
	assert_int_equal(lbtf_builder_add_struct(b, "after", 4), 5);
	assert_int_equal(lbtf_builder_add_field(b, "x", 1, 0, 0), 5);
	btf = to_btf_or_fail(b);
	assert_string_equal(lbtf_type_name(btf, lbtf_type_by_id(btf, 2)), "pair");
	assert_int_equal(lbtf_vlen(lbtf_type_by_id(btf, 2)), 3);
	assert_int_equal(lbtf_members(lbtf_type_by_id(btf, 2))[2].type, 3);
	assert_int_equal(lbtf_type_by_id(btf, 4)->type, 2);
	assert_string_equal(lbtf_type_name(btf, lbtf_type_by_id(btf, 5)), "after");
	lbtf_free(btf);
	lbtf_builder_free(b);
}

/* Whether a mapping overlapping [p, p + bytes) is marked for transparent
 * huge pages (VmFlags "hg" in /proc/self/smaps: MADV_HUGEPAGE) */
static bool huge_advised(const void *p, size_t bytes)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	unsigned long long lo, hi;
	bool in = false, hg = false;
	char line[512];

	while (!hg && f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx-%llx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
			in = (uintptr_t)p < hi && (uintptr_t)p + bytes > lo;
		else if (in && !strncmp(line, "VmFlags:", 8))
			hg = strstr(line, " hg") != NULL;
	}
	if (f)
		fclose(f);
	return hg;
}

/* Big blocks and an array growing through LBTFI_BIG_BYTES (which then
 * reserves 32 MiB at once and grows where it is), with big blocks on
 * huge pages or not (grow.c): every element kept, and the hint given
 * exactly where huge pages were chosen */
static void grow_big_with(int huge)
{
	uint32_t *a = NULL;
	size_t cap = 0, n = 10u << 20; /* 40 MiB of elements */
	char *p, *q;

	lbtfi_huge_pages_set(huge);
	p = lbtfi_malloc_big(3u << 20);
	q = lbtfi_malloc_big(100);
	assert_non_null(p);
	assert_non_null(q);
	if (huge)
		assert_int_equal((uintptr_t)p & (LBTFI_BIG_BYTES - 1), 0);
	memset(p, 0x5a, 3u << 20);
	memset(q, 0x5a, 100);
	if (huge_advised(p, 3u << 20) != huge)
		fail_msg("a big block %s advised for huge pages", huge ? "not" : "was");
	free(p);
	free(q);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(LBTFI_GROW(a, cap, i + 1), 0);
		a[i] = (uint32_t)(i * 2654435761u);
		if (i + 1 == LBTFI_BIG_BYTES / sizeof(*a) + 1) {
			if (sizeof(size_t) >= 8)
				assert_int_equal(cap * sizeof(*a), 32u << 20);
			if (huge_advised(a, cap * sizeof(*a)) != huge)
				fail_msg("a growing array %s advised for huge pages", huge ? "not" : "was");
		}
	}
	assert_true(cap >= n);
	for (size_t i = 0; i < n; i++)
		if (a[i] != (uint32_t)(i * 2654435761u))
			fail_msg("element %zu lost when the array grew", i);
	if (huge_advised(a, cap * sizeof(*a)) != huge)
		fail_msg("a grown array %s advised for huge pages", huge ? "not" : "was");
	free(a);
	lbtfi_huge_pages_set(-1);
}

/* Whether this kernel takes MADV_HUGEPAGE and shows it in smaps (built
 * without transparent huge pages it refuses it: the huge cases then
 * have nothing to see) */
static bool thp_testable(void)
{
	size_t len = 2 * LBTFI_BIG_BYTES;
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	bool ok;

	if (m == MAP_FAILED)
		return false;
	ok = !madvise(m, len, MADV_HUGEPAGE) && huge_advised(m, len);
	munmap(m, len);
	if (!ok)
		printf("SKIP (huge-page cases): no MADV_HUGEPAGE here, or no /proc/self/smaps\n");
	return ok;
}

/* An array of 40-byte elements growing through LBTFI_BIG_BYTES reserves at
 * least RESERVE_BYTES (32 MiB), not the 32 bytes less that rounding down
 * gives: under btfgen's M_MMAP_THRESHOLD of exactly 32 MiB, that block
 * would come from the heap and be copied at each growth */
static void test_grow_reserve_rounds_up(void **state)
{
	struct forty {
		char b[40];
	} *a = NULL;
	size_t cap = 0, n = LBTFI_BIG_BYTES / sizeof(*a) + 1;

	lbtfi_huge_pages_set(0);
	assert_int_equal(LBTFI_GROW(a, cap, n), 0);
	if (sizeof(size_t) >= 8)
		assert_true(cap * sizeof(*a) >= (32u << 20));
	assert_true(cap >= n);
	free(a);
	lbtfi_huge_pages_set(-1);
}

static void test_grow_big(void **state)
{
	grow_big_with(0);
	if (thp_testable())
		grow_big_with(1);
}

/* Huge pages where a 4 KiB page's first touch costs tens of microseconds
 * (shadow paging), not where it costs one or two (this project's VM, where
 * a cold huge page costs more than its 512 small ones); the measurement
 * itself runs (its answer depends on the machine) */
static void test_huge_pages_rule(void **state)
{
	assert_false(lbtfi_huge_pays_at(0));
	assert_false(lbtfi_huge_pays_at(2000));
	assert_true(lbtfi_huge_pays_at(20000));
	lbtfi_huge_pages_set(-1);
	(void)lbtfi_huge_pages();
	lbtfi_huge_pages_set(-1);
}

/* A hash table of 512 KiB - 2 MiB takes one whole huge page where big
 * blocks go on them, and only its own size where they do not (htab.c) */
static void test_htab_huge_table(void **state)
{
	for (int huge = 0; huge <= (thp_testable() ? 1 : 0); huge++) {
		struct lbtfi_htab t;
		size_t bytes;

		lbtfi_huge_pages_set(huge);
		/* (80,000 entries at 3/4 load: 131,072 slots of 8 bytes) */
		assert_int_equal(lbtfi_htab_init(&t, 80000, 3), 0);
		bytes = ((size_t)t.mask + 1) * sizeof(*t.slots);
		assert_int_equal(bytes, 1u << 20);
		if (huge_advised(t.slots, bytes) != huge)
			fail_msg("a 1 MiB table %s advised for huge pages", huge ? "not" : "was");
		if (huge)
			assert_int_equal((uintptr_t)t.slots & (LBTFI_BIG_BYTES - 1), 0);
		else if (malloc_usable_size(t.slots) >= LBTFI_BIG_BYTES)
			fail_msg("a 1 MiB table rounded up to 2 MiB on ordinary pages");
		lbtfi_htab_free(&t);
	}
	lbtfi_huge_pages_set(-1);
}

static void test_write_atomic(void **state)
{
	char dir[] = "/tmp/lbtf-build-XXXXXX", path[128];
	struct lbtf_builder *b = lbtf_builder_new(NULL);
	struct lbtf *btf;
	void *data;
	size_t size;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.btf", dir);
	lbtf_builder_add_int(b, "char", 1, LBTF_INT_CHAR);
	assert_int_equal(lbtf_builder_serialize(b, false, &data, &size), 0);
	/* an existing, longer file is replaced, not overwritten in place */
	{
		FILE *f = fopen(path, "w");
		for (int i = 0; i < 1000; i++)
			fputs("garbage garbage\n", f);
		fclose(f);
	}
	assert_int_equal(lbtfi_write_file_atomic(path, data, size), 0);
	btf = lbtf_open_raw(path, NULL);
	assert_non_null(btf);
	assert_int_equal(lbtf_type_cnt(btf), 2);
	lbtf_free(btf);
	/* unwritable directory: error, nothing created */
	assert_true(lbtfi_write_file_atomic("/nonexistent-dir/x.btf", data, size) < 0);
	unlink(path);
	assert_int_equal(rmdir(dir), 0); /* no temp file left behind */
	free(data);
	lbtf_builder_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_base_string_index),
		cmocka_unit_test(test_base_index_on_object),
		cmocka_unit_test(test_add_valid),
		cmocka_unit_test(test_add_invalid),
		cmocka_unit_test(test_vlen_limit),
		cmocka_unit_test(test_vlen_wide),
		cmocka_unit_test(test_type_by_id_mutable),
		cmocka_unit_test(test_append_and_copy),
		cmocka_unit_test(test_add_btf_import),
		cmocka_unit_test(test_add_btf_adopt),
		cmocka_unit_test(test_adopt_raw_bad),
		cmocka_unit_test(test_adopt_raw_checked),
		cmocka_unit_test(test_append_checked),
		cmocka_unit_test(test_range_strs_borrowed),
		cmocka_unit_test(test_new_strs_upto),
		cmocka_unit_test(test_dedup_gives_back_pages),
		cmocka_unit_test(test_grow_big),
		cmocka_unit_test(test_grow_reserve_rounds_up),
		cmocka_unit_test(test_huge_pages_rule),
		cmocka_unit_test(test_htab_huge_table),
		cmocka_unit_test(test_write_atomic),
		cmocka_unit_test(test_elems_at_once),
		cmocka_unit_test(test_elems_fail_at_k),
		cmocka_unit_test(test_decl_tag_memo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
