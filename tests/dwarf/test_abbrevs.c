// SPDX-License-Identifier: BSD-2-Clause
/*
 * The DIE reader's abbreviation tables (libbtf/dwarf_reader/reader.c), read
 * in one pass into arrays that grow as the table goes: a unit written here
 * whose table has more codes and attribute specifications than the first
 * guesses (so both arrays move while abbreviations already point into the
 * specification pool), its codes defined out of order and with gaps. Each
 * DIE reads back with its own tag and attribute values; a DIE with a code
 * in a gap is refused; a table defining a code twice is refused.
 *
 * And the inline step over a DIE with children by its DW_AT_sibling
 * (lbtfi_dr_sibling, gcc's ref4 at a fixed place): in a unit that is not
 * the section's first, the sibling attribute after another attribute,
 * the walk lands on the next DIE, not on a child; and the inline step to
 * a first child over attributes of a fixed size.
 *
 * And the step over DIEs whose locations and block constants (exprloc,
 * block1) of one- and two-byte lengths come before their names, up to
 * one that runs past its unit. And the memo of the ends of subtrees
 * stepped over without DW_AT_sibling, per unit, forgotten between units'
 * conversions. And the prefetch of children's names, which notes nothing
 * malformed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <dwarf.h>
#include <malloc.h>
#include "dwarf_reader/internal.h"

#define NCODES 1000    /* abbreviations besides the unit's (codes 2, 4, ... 2000): ~5,300
			* specifications, more than the reader's first guess of 4096 */
#define MAX_CODE (2 * NCODES)

struct bytes {
	uint8_t b[1 << 16];
	size_t n;
};

static void put(struct bytes *o, uint64_t v)
{
	assert_true(o->n < sizeof(o->b));
	o->b[o->n++] = (uint8_t)v;
}

static void uleb(struct bytes *o, uint64_t v)
{
	do {
		uint8_t c = v & 0x7f;

		v >>= 7;
		put(o, c | (v ? 0x80 : 0));
	} while (v);
}

/* The abbreviation of an even code k: a base type with k's own values,
 * k % 5 + 3 attributes, its name the second one (after a variable-size
 * one when k % 3 == 0, so both decoding paths are used) */
static void abbrev(struct bytes *a, unsigned int k)
{
	uleb(a, k);
	uleb(a, DW_TAG_base_type);
	put(a, DW_CHILDREN_no);
	uleb(a, DW_AT_byte_size);
	uleb(a, DW_FORM_data2);
	if (k % 3 == 0) {
		uleb(a, DW_AT_decl_line);
		uleb(a, DW_FORM_udata);
	}
	uleb(a, DW_AT_name);
	uleb(a, DW_FORM_string);
	uleb(a, DW_AT_encoding);
	uleb(a, DW_FORM_data1);
	for (unsigned int i = 0; i < k % 5; i++) {
		uleb(a, DW_AT_decl_file);
		uleb(a, DW_FORM_data1);
	}
	put(a, 0);
	put(a, 0);
}

static void die(struct bytes *d, unsigned int k)
{
	char name[16];

	uleb(d, k);
	put(d, k & 0xff);
	put(d, k >> 8);
	if (k % 3 == 0)
		uleb(d, 100000 + k); /* decl_line: three bytes */
	snprintf(name, sizeof(name), "t%u", k);
	memcpy(d->b + d->n, name, strlen(name) + 1);
	d->n += strlen(name) + 1;
	put(d, k % 7 + 1);
	for (unsigned int i = 0; i < k % 5; i++)
		put(d, i);
}

/* The unit (DWARF 4): code 1 the unit DIE, then a DIE of every even
 * code, then (bad_code) one of an undefined code */
static void build(struct bytes *info, struct bytes *ab, bool twice, unsigned int bad_code)
{
	unsigned int k;

	memset(info, 0, sizeof(*info));
	memset(ab, 0, sizeof(*ab));
	/* the abbreviations from the highest code down, the unit's last */
	for (k = MAX_CODE; k >= 2; k -= 2)
		abbrev(ab, k);
	if (twice)
		abbrev(ab, 10);
	uleb(ab, 1);
	uleb(ab, DW_TAG_compile_unit);
	put(ab, DW_CHILDREN_yes);
	uleb(ab, DW_AT_name);
	uleb(ab, DW_FORM_string);
	put(ab, 0);
	put(ab, 0);
	put(ab, 0);

	info->n = 4; /* unit_length, set at the end */
	put(info, 4);
	put(info, 0);
	for (k = 0; k < 4; k++) /* abbrev_offset 0 */
		put(info, 0);
	put(info, 8);
	uleb(info, 1);
	memcpy(info->b + info->n, "u.c", 4);
	info->n += 4;
	for (k = 2; k <= MAX_CODE; k += 2)
		die(info, k);
	if (bad_code)
		die(info, bad_code);
	put(info, 0);
	uint32_t len = (uint32_t)(info->n - 4);
	memcpy(info->b, &len, 4);
}

static struct bytes info, ab;
static struct lbtfi_dr_unit_hdr hdr;

static void file_of(struct lbtfi_dr_file *f)
{
	memset(f, 0, sizeof(*f));
	f->s[DS_INFO] = (struct lbtfi_dr_sect){ info.b, info.n };
	f->s[DS_ABBREV] = (struct lbtfi_dr_sect){ ab.b, ab.n };
	hdr = (struct lbtfi_dr_unit_hdr){ .off = 0, .end = info.n, .die_off = 11, .abbrev_off = 0,
					  .version = 4, .addr_size = 8, .offset_size = 4,
					  .unit_type = DW_UT_compile, .tag = DW_TAG_compile_unit };
	f->units = &hdr;
	f->nunits = 1;
	f->root = f;
	f->shared_units = true; /* (hdr is ours) */
}

static void test_grown_tables(void **state)
{
	struct lbtfi_dr_file f;
	struct lbtfi_dr_ctx c;
	struct lbtfi_dw_die cu, d;
	struct lbtfi_dw_attrs da;
	unsigned int k = 2;
	uint64_t v;

	(void)state;
	build(&info, &ab, false, 0);
	file_of(&f);
	lbtfi_dr_ctx_init(&c, &f);
	assert_int_equal(lbtfi_dr_die_at(&c, &f, 11, &cu), 0);
	assert_int_equal(lbtfi_dr_tag(&cu), DW_TAG_compile_unit);
	/* (more than the first guesses: 256 codes, 4096 specifications) */
	assert_int_equal(cu.u->nbyc, MAX_CODE);
	assert_true(cu.u->byc[0].specs - cu.u->pool > 4096); /* (the unit's, defined last) */
	assert_true(lbtfi_dr_child(&cu, &d));
	do {
		char name[16];

		assert_int_equal(lbtfi_dr_tag(&d), DW_TAG_base_type);
		lbtfi_dr_gather(&d, &da);
		assert_true(lbtfi_dw_attrs_udata(&da, DA_BYTE_SIZE, &v));
		assert_int_equal(v, k);
		assert_true(lbtfi_dw_attrs_udata(&da, DA_ENCODING, &v));
		assert_int_equal(v, k % 7 + 1);
		snprintf(name, sizeof(name), "t%u", k);
		assert_string_equal(lbtfi_dw_attrs_name(&da), name);
		k += 2;
	} while (lbtfi_dr_sibling(&d));
	assert_int_equal(k, MAX_CODE + 2);
	assert_int_equal(lbtfi_dr_bad_off, UINT64_MAX);
	/* every odd code below the highest is undefined */
	for (k = 3; k < MAX_CODE; k += 2)
		assert_null(cu.u->byc[k - 1].specs);
	lbtfi_dr_ctx_free(&c);
}

/*
 * The unit with a DIE of a code in a gap, walked from its first child: the
 * walk ends as malformed after all NCODES children; prefetch: the number
 * of children whose names are prefetched first (0: none)
 */
static void walk_gap_unit(unsigned int prefetch)
{
	struct lbtfi_dr_file f;
	struct lbtfi_dr_ctx c;
	struct lbtfi_dw_die cu, d;
	unsigned int n = 0;

	build(&info, &ab, false, 301);
	file_of(&f);
	lbtfi_dr_ctx_init(&c, &f);
	lbtfi_dr_bad_off = UINT64_MAX;
	assert_int_equal(lbtfi_dr_die_at(&c, &f, 11, &cu), 0);
	if (prefetch) {
		lbtfi_dr_prefetch_child_names(&cu, prefetch);
		assert_int_equal(lbtfi_dr_bad_off, UINT64_MAX);
	}
	assert_true(lbtfi_dr_child(&cu, &d));
	do
		n++;
	while (lbtfi_dr_sibling(&d));
	assert_int_equal(n, NCODES);
	assert_int_not_equal(lbtfi_dr_bad_off, UINT64_MAX);
	lbtfi_dr_bad_off = UINT64_MAX;
	lbtfi_dr_ctx_free(&c);
}

/* A DIE of a code in a gap ends the walk as malformed */
static void test_code_in_gap(void **state)
{
	(void)state;
	walk_gap_unit(0);
}

/* The prefetch of a DIE's children's names walks them as a hint: over
 * the same malformed child, it leaves lbtfi_dr_bad_off as it was, and the
 * walk after it finds the children and the bad entry as before */
static void test_prefetch_names_hint(void **state)
{
	(void)state;
	walk_gap_unit(2 * NCODES);
}

static void test_code_twice(void **state)
{
	struct lbtfi_dr_file f;
	struct lbtfi_dr_ctx c;
	struct lbtfi_dw_die cu;

	(void)state;
	build(&info, &ab, true, 0);
	file_of(&f);
	lbtfi_dr_ctx_init(&c, &f);
	assert_true(lbtfi_dr_die_at(&c, &f, 11, &cu) < 0);
	lbtfi_dr_ctx_free(&c);
}

/*
 * Codes defined in ascending order as compilers write them (each a new
 * highest: the reader zeroes only the gap before it), with a gap: 1, 4,
 * 10, then 6 inside the gap. Each defined code has its specifications;
 * the others up to 10 are undefined; with 10 defined again after that,
 * the table is refused (twice). glibc's allocator fills new memory
 * (M_PERTURB) so that an entry the reader leaves unset does not read as
 * an undefined code by luck.
 */
static void build_ascending(bool twice)
{
	static const unsigned int codes[] = { 4, 10, 6, 10 };
	unsigned int i, n = twice ? 4 : 3;

	memset(&info, 0, sizeof(info));
	memset(&ab, 0, sizeof(ab));
	uleb(&ab, 1);
	uleb(&ab, DW_TAG_compile_unit);
	put(&ab, DW_CHILDREN_yes);
	uleb(&ab, DW_AT_name);
	uleb(&ab, DW_FORM_string);
	put(&ab, 0);
	put(&ab, 0);
	for (i = 0; i < n; i++)
		abbrev(&ab, codes[i]);
	put(&ab, 0);
	info.n = 4;
	put(&info, 4);
	put(&info, 0);
	for (i = 0; i < 4; i++)
		put(&info, 0);
	put(&info, 8);
	uleb(&info, 1);
	memcpy(info.b + info.n, "u.c", 4);
	info.n += 4;
	put(&info, 0);
	uint32_t len = (uint32_t)(info.n - 4);
	memcpy(info.b, &len, 4);
}

static void test_codes_ascending(void **state)
{
	struct lbtfi_dr_file f;
	struct lbtfi_dr_ctx c;
	struct lbtfi_dw_die cu;

	(void)state;
	mallopt(M_PERTURB, 0x5a);
	build_ascending(false);
	file_of(&f);
	lbtfi_dr_ctx_init(&c, &f);
	assert_int_equal(lbtfi_dr_die_at(&c, &f, 11, &cu), 0);
	assert_int_equal(cu.u->nbyc, 10);
	assert_non_null(cu.u->byc[4 - 1].specs);
	assert_non_null(cu.u->byc[10 - 1].specs);
	assert_non_null(cu.u->byc[6 - 1].specs);
	assert_int_equal(cu.u->byc[10 - 1].nspecs, 3 + 10 % 5 + (10 % 3 == 0));
	assert_int_equal(cu.u->byc[6 - 1].nspecs, 3 + 6 % 5 + (6 % 3 == 0));
	for (unsigned int k = 2; k <= 9; k++)
		if (k != 4 && k != 6)
			assert_null(cu.u->byc[k - 1].specs);
	lbtfi_dr_ctx_free(&c);

	build_ascending(true);
	file_of(&f);
	lbtfi_dr_ctx_init(&c, &f);
	assert_true(lbtfi_dr_die_at(&c, &f, 11, &cu) < 0);
	lbtfi_dr_ctx_free(&c);
	mallopt(M_PERTURB, 0);
}

/* Unit 0 (a lone unit DIE), then unit 1: its unit DIE holds a struct
 * (byte_size data1, sibling ref4: attributes of a fixed size) with two
 * members, then a base type; bad_sib: the struct's sibling points past
 * the unit */
/* The abbreviations of a unit holding a struct with members, then a base
 * type (codes 1-4); the struct's attributes: with_sib a byte_size and
 * gcc's DW_AT_sibling (ref4), else a name like the others' */
static void struct_abbrevs(struct bytes *a, bool with_sib)
{
	static const uint8_t tags[][2] = { { 1, DW_TAG_compile_unit }, { 2, DW_TAG_structure_type },
					   { 3, DW_TAG_member }, { 4, DW_TAG_base_type } };

	memset(a, 0, sizeof(*a));
	for (unsigned int i = 0; i < 4; i++) {
		uleb(a, tags[i][0]);
		uleb(a, tags[i][1]);
		put(a, i < 2 ? DW_CHILDREN_yes : DW_CHILDREN_no);
		if (i == 1 && with_sib) {
			uleb(a, DW_AT_byte_size);
			uleb(a, DW_FORM_data1);
			uleb(a, DW_AT_sibling);
			uleb(a, DW_FORM_ref4);
		} else {
			uleb(a, DW_AT_name);
			uleb(a, DW_FORM_string);
		}
		put(a, 0);
		put(a, 0);
	}
	put(a, 0);
}

static void build_sib(struct bytes *in, struct bytes *a, struct lbtfi_dr_unit_hdr *h, bool bad_sib)
{
	size_t u1, sib_at;
	uint32_t v;

	memset(in, 0, sizeof(*in));
	struct_abbrevs(a, true);
	for (unsigned int k = 0; k < 2; k++) {
		size_t start = in->n;

		in->n += 4;
		put(in, 4);
		put(in, 0);
		for (unsigned int i = 0; i < 4; i++)
			put(in, 0);
		put(in, 8);
		h[k] = (struct lbtfi_dr_unit_hdr){ .off = start, .die_off = in->n, .version = 4,
						   .addr_size = 8, .offset_size = 4,
						   .unit_type = DW_UT_compile, .tag = DW_TAG_compile_unit };
		uleb(in, 1);
		put(in, 'u');
		put(in, 0);
		if (k == 1) {
			u1 = start;
			uleb(in, 2);
			put(in, 3); /* (byte_size 3: a member's code, read as one
				     * by a child step that forgot the attributes) */
			sib_at = in->n;
			in->n += 4;
			for (unsigned int m = 0; m < 2; m++) {
				uleb(in, 3);
				put(in, 'a' + m);
				put(in, 0);
			}
			put(in, 0);
			v = bad_sib ? 0x10000 : (uint32_t)(in->n - u1);
			memcpy(in->b + sib_at, &v, 4);
			uleb(in, 4);
			put(in, 'T');
			put(in, 0);
		}
		put(in, 0);
		v = (uint32_t)(in->n - start - 4);
		memcpy(in->b + start, &v, 4);
		h[k].end = in->n;
	}
}

static void test_sibling_inline(void **state)
{
	static struct lbtfi_dr_unit_hdr h[2];
	struct lbtfi_dr_file f;
	struct lbtfi_dr_ctx c;
	struct lbtfi_dw_die cu, d, m;
	struct lbtfi_dw_attrs da;

	(void)state;
	for (int bad_sib = 0; bad_sib < 2; bad_sib++) {
		build_sib(&info, &ab, h, bad_sib);
		file_of(&f);
		f.units = h;
		f.nunits = 2;
		lbtfi_dr_ctx_init(&c, &f);
		assert_int_equal(lbtfi_dr_die_at(&c, &f, h[1].die_off, &cu), 0);
		assert_true(lbtfi_dr_child(&cu, &d));
		assert_int_equal(lbtfi_dr_tag(&d), DW_TAG_structure_type);
		/* (the abbreviation is one the inline step takes) */
		assert_int_equal(d.ab->sib_ref4, 1);
		/* its members by the inline first-child step (attributes of a
		 * fixed size, not gathered) */
		assert_true(lbtfi_dr_child(&d, &m));
		assert_int_equal(lbtfi_dr_tag(&m), DW_TAG_member);
		lbtfi_dr_gather(&m, &da);
		assert_string_equal(lbtfi_dw_attrs_name(&da), "a");
		assert_true(lbtfi_dr_sibling(&m));
		lbtfi_dr_gather(&m, &da);
		assert_string_equal(lbtfi_dw_attrs_name(&da), "b");
		assert_false(lbtfi_dr_sibling(&m));
		assert_true(lbtfi_dr_sibling(&d));
		assert_int_equal(lbtfi_dr_tag(&d), DW_TAG_base_type);
		lbtfi_dr_gather(&d, &da);
		assert_string_equal(lbtfi_dw_attrs_name(&da), "T");
		assert_false(lbtfi_dr_sibling(&d));
		/* a sibling past the unit: the children are walked over instead */
		assert_int_equal(lbtfi_dr_bad_off, UINT64_MAX);
		lbtfi_dr_ctx_free(&c);
	}
}

/*
 * One unit of childless DIEs whose attributes end with a location
 * (exprloc: a ULEB128 length) or a constant (block1: a byte length) of
 * several lengths, each before the DIE's name: stepped over without their
 * attributes read (the end found by decoding those lengths), each DIE is
 * the next one, with its own name. The last one's exprloc runs past the
 * unit by one byte (over_end): the step stops there and names it bad.
 */
static const struct { unsigned int code, len; const char *name; } loc_dies[] = {
	{ 2, 3, "a" }, { 2, 0x7f, "b" }, { 2, 200, "c" }, { 3, 0, "d" },
	{ 3, 0x7f, "e" }, { 3, 130, "f" }, { 2, 0, "g" },
};

static size_t build_locs(bool over_end)
{
	size_t start, last = 0;
	uint32_t v;

	memset(&info, 0, sizeof(info));
	memset(&ab, 0, sizeof(ab));
	uleb(&ab, 1);
	uleb(&ab, DW_TAG_compile_unit);
	put(&ab, DW_CHILDREN_yes);
	put(&ab, 0);
	put(&ab, 0);
	for (unsigned int k = 2; k <= 3; k++) {
		uleb(&ab, k);
		uleb(&ab, k == 2 ? DW_TAG_variable : DW_TAG_constant);
		put(&ab, DW_CHILDREN_no);
		uleb(&ab, k == 2 ? DW_AT_location : DW_AT_const_value);
		uleb(&ab, k == 2 ? DW_FORM_exprloc : DW_FORM_block1);
		uleb(&ab, DW_AT_name);
		uleb(&ab, DW_FORM_string);
		put(&ab, 0);
		put(&ab, 0);
	}
	put(&ab, 0);
	start = info.n;
	info.n += 4;
	put(&info, 4);
	put(&info, 0);
	for (unsigned int i = 0; i < 4; i++)
		put(&info, 0);
	put(&info, 8);
	uleb(&info, 1);
	for (size_t i = 0; i < sizeof(loc_dies) / sizeof(loc_dies[0]); i++) {
		last = info.n;
		uleb(&info, loc_dies[i].code);
		if (loc_dies[i].code == 2)
			uleb(&info, loc_dies[i].len);
		else
			put(&info, loc_dies[i].len);
		for (unsigned int b = 0; b < loc_dies[i].len; b++)
			put(&info, 0x50 + b % 0x20); /* (DW_OP_reg0...: not names) */
		put(&info, loc_dies[i].name[0]);
		put(&info, 0);
	}
	put(&info, 0); /* the unit's children end */
	if (over_end)
		/* the last DIE's location claims every byte after its length
		 * and one more */
		info.b[last + 1] = (uint8_t)(info.n - last - 1);
	v = (uint32_t)(info.n - start - 4);
	memcpy(info.b + start, &v, 4);
	return last;
}

static void test_location_lengths(void **state)
{
	struct lbtfi_dr_file f;
	struct lbtfi_dr_ctx c;
	struct lbtfi_dw_die cu, d, t;
	struct lbtfi_dw_attrs da;
	size_t n = sizeof(loc_dies) / sizeof(loc_dies[0]), i, last;

	(void)state;
	for (int over_end = 0; over_end < 2; over_end++) {
		last = build_locs(over_end);
		file_of(&f);
		lbtfi_dr_ctx_init(&c, &f);
		lbtfi_dr_bad_off = UINT64_MAX;
		assert_int_equal(lbtfi_dr_die_at(&c, &f, 11, &cu), 0);
		assert_true(lbtfi_dr_child(&cu, &d));
		for (i = 0; i < n; i++) {
			assert_int_equal(lbtfi_dr_tag(&d), loc_dies[i].code == 2 ? DW_TAG_variable
										 : DW_TAG_constant);
			assert_null(d.end); /* (the step decodes the lengths) */
			if (!over_end || i < n - 1) {
				t = d;
				lbtfi_dr_gather(&t, &da);
				assert_string_equal(lbtfi_dw_attrs_name(&da), loc_dies[i].name);
			}
			if (!lbtfi_dr_sibling(&d))
				break;
		}
		assert_int_equal(i, n - 1);
		if (over_end) /* (named by where its attributes start) */
			assert_int_equal(lbtfi_dr_bad_off, last + 1);
		else
			assert_int_equal(lbtfi_dr_bad_off, UINT64_MAX);
		lbtfi_dr_ctx_free(&c);
	}
	lbtfi_dr_bad_off = UINT64_MAX;
}

/*
 * A unit whose struct has no DW_AT_sibling (nmembers members), then a base
 * type: the step over the struct decodes its subtree, and within
 * lbtfi_dr_memo_begin/end remembers where it ends, by unit and offset.
 * Two files at once (the same offsets, other lengths) keep their own; a
 * new begin forgets (the bytes at the same place may have changed).
 */
static void build_nosib(struct bytes *in, struct bytes *a, struct lbtfi_dr_unit_hdr *h,
			unsigned int nmembers)
{
	uint32_t v;

	memset(in, 0, sizeof(*in));
	struct_abbrevs(a, false);
	in->n = 4;
	put(in, 4);
	put(in, 0);
	for (unsigned int i = 0; i < 4; i++)
		put(in, 0);
	put(in, 8);
	uleb(in, 1);
	put(in, 0);
	uleb(in, 2);
	put(in, 'S');
	put(in, 0);
	for (unsigned int m = 0; m < nmembers; m++) {
		uleb(in, 3);
		put(in, 'a' + m);
		put(in, 0);
	}
	put(in, 0);
	uleb(in, 4);
	put(in, 'T');
	put(in, 0);
	put(in, 0);
	v = (uint32_t)(in->n - 4);
	memcpy(in->b, &v, 4);
	*h = (struct lbtfi_dr_unit_hdr){ .off = 0, .end = in->n, .die_off = 11, .version = 4,
					 .addr_size = 8, .offset_size = 4, .unit_type = DW_UT_compile,
					 .tag = DW_TAG_compile_unit };
}

static void nosib_file(struct lbtfi_dr_file *f, struct bytes *in, struct bytes *a,
		       struct lbtfi_dr_unit_hdr *h)
{
	memset(f, 0, sizeof(*f));
	f->s[DS_INFO] = (struct lbtfi_dr_sect){ in->b, in->n };
	f->s[DS_ABBREV] = (struct lbtfi_dr_sect){ a->b, a->n };
	f->units = h;
	f->nunits = 1;
	f->root = f;
	f->shared_units = true;
}

/* Step over the struct of f's unit: the tag of the DIE after it */
static unsigned int after_struct(struct lbtfi_dr_file *f)
{
	struct lbtfi_dr_ctx c;
	struct lbtfi_dw_die cu, d;
	unsigned int tag = 0;

	lbtfi_dr_ctx_init(&c, f);
	assert_int_equal(lbtfi_dr_die_at(&c, f, 11, &cu), 0);
	assert_true(lbtfi_dr_child(&cu, &d));
	assert_int_equal(lbtfi_dr_tag(&d), DW_TAG_structure_type);
	if (lbtfi_dr_sibling(&d))
		tag = lbtfi_dr_tag(&d);
	lbtfi_dr_ctx_free(&c);
	return tag;
}

static struct bytes info2, ab2;

static void test_subtree_memo(void **state)
{
	static struct lbtfi_dr_unit_hdr h1, h2;
	struct lbtfi_dr_file f1, f2;

	(void)state;
	lbtfi_dr_bad_off = UINT64_MAX;
	build_nosib(&info, &ab, &h1, 1);
	build_nosib(&info2, &ab2, &h2, 3);
	nosib_file(&f1, &info, &ab, &h1);
	nosib_file(&f2, &info2, &ab2, &h2);
	lbtfi_dr_memo_begin();
	/* each twice (the second time from the memo), then the other file's
	 * struct at the same offset */
	assert_int_equal(after_struct(&f1), DW_TAG_base_type);
	assert_int_equal(after_struct(&f1), DW_TAG_base_type);
	assert_int_equal(after_struct(&f2), DW_TAG_base_type);
	assert_int_equal(after_struct(&f2), DW_TAG_base_type);
	lbtfi_dr_memo_end();
	/* the same unit and offset, two members fewer: a new conversion
	 * does not take the old end */
	build_nosib(&info2, &ab2, &h2, 1);
	nosib_file(&f2, &info2, &ab2, &h2);
	lbtfi_dr_memo_begin();
	assert_int_equal(after_struct(&f2), DW_TAG_base_type);
	lbtfi_dr_memo_end();
	assert_int_equal(lbtfi_dr_bad_off, UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grown_tables),
		cmocka_unit_test(test_code_in_gap),
		cmocka_unit_test(test_prefetch_names_hint),
		cmocka_unit_test(test_code_twice),
		cmocka_unit_test(test_codes_ascending),
		cmocka_unit_test(test_sibling_inline),
		cmocka_unit_test(test_location_lengths),
		cmocka_unit_test(test_subtree_memo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
