// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of BTF with a layout section (issue 32): the header's
 * layout_off/layout_len, kinds this library does not know sized by the
 * layout (split BTF by its base's when it has none), the 24-bit vlen and
 * 7-bit kind, the other byte order, split over split. The differential
 * against libbpf and bpftool is tests/parse/check_layout.sh.
 */
#include <errno.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include "blob.h"

#define HDR_LEN ((uint32_t)sizeof(struct lbtf_header))

/* header (32 bytes) + types + layout (n entries) + strings */
static unsigned char *with_layout(const struct blob *b, const struct lbtf_layout *l, uint32_t n,
				  size_t *len)
{
	uint32_t tl = (uint32_t)(b->nw * 4), ll = n * (uint32_t)sizeof(*l);
	struct lbtf_header h = {
		.magic = LBTF_MAGIC, .version = LBTF_VERSION, .hdr_len = HDR_LEN,
		.type_off = 0, .type_len = tl, .str_off = tl + ll, .str_len = (uint32_t)b->ns,
		.layout_off = tl, .layout_len = ll,
	};
	unsigned char *buf;

	*len = HDR_LEN + tl + ll + b->ns;
	buf = malloc(*len);
	assert_non_null(buf);
	memcpy(buf, &h, HDR_LEN);
	memcpy(buf + HDR_LEN, b->words, tl);
	if (ll)
		memcpy(buf + HDR_LEN + tl, l, ll);
	memcpy(buf + HDR_LEN + tl + ll, b->strs, b->ns);
	return buf;
}

/* The layout of the 20 kinds libbpf 1.8 writes, and more entries up to n */
static struct lbtf_layout *kinds_layout(uint32_t n)
{
	struct lbtf_layout *l = calloc(n, sizeof(*l));

	assert_non_null(l);
	for (unsigned int k = 1; k < n && k <= LBTF_KIND_MAX; k++) {
		l[k].info_sz = (uint8_t)lbtf_kind_desc(k)->extra_size;
		l[k].elem_sz = (uint8_t)lbtf_kind_desc(k)->vlen_elem_size;
	}
	return l;
}

static void add_int(struct blob *b, const char *name)
{
	blob_type(b, blob_str(b, name), LBTF_KIND_INT, 0, false, 4);
	blob_words(b, 1, 32u);
}

/* An unknown kind's record, its info and elements zero */
static void add_unknown(struct blob *b, unsigned int kind, unsigned int vlen, uint32_t words)
{
	blob_type(b, blob_str(b, "newkind"), kind, vlen, false, 0);
	for (uint32_t i = 0; i < words; i++)
		blob_words(b, 1, 0u);
}

static void test_unknown_kind_sized_by_layout(void **state)
{
	struct lbtf_layout *l = kinds_layout(34);
	const struct lbtf_layout *got;
	const struct lbtf_type *t;
	unsigned char *buf;
	struct lbtf *btf;
	struct blob b;
	uint32_t cnt;
	size_t len;

	/* kind 33: 4 bytes once, 8 per element; 5 bits would make it an INT */
	l[33] = (struct lbtf_layout){ .info_sz = 4, .elem_sz = 8, .flags = 7 };
	blob_init(&b, 0);
	add_int(&b, "int");
	add_unknown(&b, 33, 2, 1 + 2 * 2);
	add_int(&b, "after");
	buf = with_layout(&b, l, 34, &len);
	btf = lbtf_new(buf, len, NULL);
	if (!btf)
		fail_msg("%s", lbtf_errmsg());
	assert_int_equal(lbtf_type_cnt(btf), 4);
	t = lbtf_type_by_id(btf, 2);
	assert_int_equal(lbtf_kind(t), 33);
	assert_int_equal(lbtf_vlen(t), 2);
	assert_int_equal(lbtf_type_rec_size(t), 0);
	assert_int_equal(lbtf_type_size(btf, t), 12 + 4 + 2 * 8);
	assert_string_equal(lbtf_type_name(btf, lbtf_type_by_id(btf, 3)), "after");
	got = lbtf_layout(btf, &cnt);
	assert_non_null(got);
	assert_int_equal(cnt, 34);
	assert_int_equal(got[33].info_sz, 4);
	assert_int_equal(got[33].elem_sz, 8);
	assert_int_equal(got[33].flags, 7);
	assert_int_equal(lbtf_header(btf)->layout_len, 34 * 4);
	lbtf_free(btf);
	free(buf);
	free(l);
}

/* A layout that cannot size the kind: refused, naming the type and kind */
static void test_unsizable_kinds(void **state)
{
	static const struct { unsigned int kind; uint8_t info, elem; const char *why; } c[] = {
		{ 40, 0, 0, "past the layout" },      /* 34 entries */
		{ 30, 2, 0, "not multiples of 4" },
		{ 31, 0, 6, "not multiples of 4" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct lbtf_layout *l = kinds_layout(34);
		unsigned char *buf;
		struct blob b;
		size_t len;

		if (c[i].kind < 34)
			l[c[i].kind] = (struct lbtf_layout){ c[i].info, c[i].elem, 0 };
		blob_init(&b, 0);
		add_int(&b, "int");
		add_unknown(&b, c[i].kind, 1, 2);
		buf = with_layout(&b, l, 34, &len);
		assert_null(lbtf_new(buf, len, NULL));
		assert_int_equal(errno, EINVAL);
		assert_non_null(strstr(lbtf_errmsg(), "type 2 has unknown kind"));
		if (!strstr(lbtf_errmsg(), c[i].why))
			fail_msg("kind %u: %s", c[i].kind, lbtf_errmsg());
		free(buf);
		free(l);
	}
}

/* The 24 bits of vlen and 7 of kind, as written and as read */
static void test_wide_info_fields(void **state)
{
	struct lbtf_type t = { .info = lbtf_info(100, 0x123456, true) };
	struct lbtf_layout *l = kinds_layout(101);
	unsigned char *buf;
	struct lbtf *btf;
	struct blob b;
	size_t len;

	assert_int_equal(lbtf_kind(&t), 100);
	assert_int_equal(lbtf_vlen(&t), 0x123456);
	assert_true(lbtf_kflag(&t));
	/* elements of 0 bytes: a vlen past 16 bits that costs nothing */
	blob_init(&b, 0);
	add_unknown(&b, 100, 0x10001, 0);
	add_int(&b, "int");
	buf = with_layout(&b, l, 101, &len);
	btf = lbtf_new(buf, len, NULL);
	if (!btf)
		fail_msg("%s", lbtf_errmsg());
	assert_int_equal(lbtf_vlen(lbtf_type_by_id(btf, 1)), 0x10001);
	assert_int_equal(lbtf_kind(lbtf_type_by_id(btf, 1)), 100);
	assert_int_equal(lbtf_kind(lbtf_type_by_id(btf, 2)), LBTF_KIND_INT);
	lbtf_free(btf);
	free(buf);
	free(l);
}

/* The layout section's bounds, as libbpf checks them */
static void test_layout_bounds(void **state)
{
	struct lbtf_layout *l = kinds_layout(20);
	static const struct { int off_delta, len_delta; const char *why; } c[] = {
		{ 2, 0, "not 4-byte aligned" },
		{ 0, -2, "not a multiple of 4" },
		{ -4, 0, "not after the type section" },
		{ 0, 4, "past the start of the strings" },
	};
	unsigned char *buf;
	struct blob b;
	size_t len;

	blob_init(&b, 0);
	add_int(&b, "int");
	buf = with_layout(&b, l, 20, &len);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		unsigned char *m = malloc(len);
		struct lbtf_header *h = (struct lbtf_header *)m;

		memcpy(m, buf, len);
		h->layout_off += c[i].off_delta;
		h->layout_len += c[i].len_delta;
		assert_null(lbtf_new(m, len, NULL));
		if (!strstr(lbtf_errmsg(), c[i].why))
			fail_msg("case %zu: %s", i, lbtf_errmsg());
		free(m);
	}
	free(buf);
	free(l);
}

static void swap_blob(unsigned char *p)
{
	uint32_t *w = (uint32_t *)p;
	struct lbtf_header h;
	uint32_t words;

	memcpy(&h, p, sizeof(h));
	words = (h.hdr_len + h.type_len) / 4;
	for (uint32_t i = 1; i < words; i++) /* hdr_len .. the last type word */
		w[i] = __builtin_bswap32(w[i]);
	p[0] = (uint8_t)(LBTF_MAGIC >> 8);
	p[1] = (uint8_t)LBTF_MAGIC;
	for (uint32_t i = 0; i < h.layout_len; i += 4) {
		uint16_t *f = (uint16_t *)(p + h.hdr_len + h.layout_off + i + 2);

		*f = __builtin_bswap16(*f);
	}
}

/* The other byte order: the flags are swapped; a kind whose fields' widths
 * are unknown cannot be, and is refused (as libbpf refuses it) */
static void test_opposite_endian(void **state)
{
	struct lbtf_layout *l = kinds_layout(30);
	const struct lbtf_layout *got;
	unsigned char *buf;
	struct lbtf *btf;
	struct blob b;
	uint32_t cnt;
	size_t len;

	l[3].flags = 0x1234;
	blob_init(&b, 0);
	add_int(&b, "int");
	buf = with_layout(&b, l, 30, &len);
	swap_blob(buf);
	btf = lbtf_new(buf, len, NULL);
	if (!btf)
		fail_msg("%s", lbtf_errmsg());
	assert_true(lbtf_is_swapped(btf));
	assert_int_equal(lbtf_header(btf)->layout_len, 30 * 4);
	got = lbtf_layout(btf, &cnt);
	assert_int_equal(cnt, 30);
	assert_int_equal(got[3].flags, 0x1234);
	assert_int_equal(got[LBTF_KIND_STRUCT].elem_sz, 12);
	assert_string_equal(lbtf_type_name(btf, lbtf_type_by_id(btf, 1)), "int");
	lbtf_free(btf);
	free(buf);

	l[25].elem_sz = 4;
	add_unknown(&b, 25, 1, 1);
	buf = with_layout(&b, l, 30, &len);
	swap_blob(buf);
	assert_null(lbtf_new(buf, len, NULL));
	assert_non_null(strstr(lbtf_errmsg(), "other byte order"));
	free(buf);
	free(l);
}

/* Split BTF without a layout of its own is sized by its base's; with one
 * of its own, only by that one (libbpf's rule) */
static void test_split_uses_base_layout(void **state)
{
	struct lbtf_layout *l = kinds_layout(26);
	struct lbtf *base, *split;
	unsigned char *bbuf, *sbuf;
	struct blob b, s;
	size_t blen, slen;

	l[25].elem_sz = 4;
	blob_init(&b, 0);
	add_int(&b, "int");
	bbuf = with_layout(&b, l, 26, &blen);
	base = lbtf_new(bbuf, blen, NULL);
	assert_non_null(base);

	blob_init(&s, (uint32_t)b.ns);
	s.ns = 0; /* split strings continue the base's */
	add_unknown(&s, 25, 3, 3);
	add_int(&s, "after");
	sbuf = blob_bytes(&s, &slen);
	split = lbtf_new(sbuf, slen, base);
	if (!split)
		fail_msg("%s", lbtf_errmsg());
	assert_int_equal(lbtf_type_size(split, lbtf_type_by_id(split, 2)), 12 + 3 * 4);
	assert_string_equal(lbtf_type_name(split, lbtf_type_by_id(split, 3)), "after");
	lbtf_free(split);
	free(sbuf);

	/* its own layout, without kind 25: not the base's */
	sbuf = with_layout(&s, l, 20, &slen);
	assert_null(lbtf_new(sbuf, slen, base));
	assert_non_null(strstr(lbtf_errmsg(), "past the layout"));
	free(sbuf);
	lbtf_free(base);
	free(bbuf);
	free(l);
}

/* Split over split: ids and string offsets continue through both bases */
static void test_split_over_split(void **state)
{
	struct lbtf *base, *s1, *s2;
	unsigned char *p0, *p1, *p2;
	struct blob b0, b1, b2;
	size_t l0, l1, l2;
	uint32_t a;

	blob_init(&b0, 0);
	add_int(&b0, "int");
	p0 = blob_bytes(&b0, &l0);
	base = lbtf_new(p0, l0, NULL);
	assert_non_null(base);

	blob_init(&b1, (uint32_t)b0.ns);
	b1.ns = 0;
	a = blob_str(&b1, "a");
	blob_type(&b1, a, LBTF_KIND_STRUCT, 1, false, 4);
	blob_words(&b1, 3, blob_str(&b1, "m"), 1u, 0u);
	p1 = blob_bytes(&b1, &l1);
	s1 = lbtf_new(p1, l1, base);
	assert_non_null(s1);

	blob_init(&b2, (uint32_t)(b0.ns + b1.ns));
	b2.ns = 0;
	blob_type(&b2, blob_str(&b2, "b"), LBTF_KIND_TYPEDEF, 0, false, 2);
	blob_type(&b2, 0, LBTF_KIND_PTR, 0, false, 3);
	p2 = blob_bytes(&b2, &l2);
	s2 = lbtf_new(p2, l2, s1);
	if (!s2)
		fail_msg("%s", lbtf_errmsg());
	assert_int_equal(lbtf_start_id(s2), 3);
	assert_int_equal(lbtf_type_cnt(s2), 5);
	assert_string_equal(lbtf_type_name(s2, lbtf_type_by_id(s2, 3)), "b");
	assert_string_equal(lbtf_type_name(s2, lbtf_type_by_id(s2, 2)), "a");
	assert_string_equal(lbtf_type_name(s2, lbtf_type_by_id(s2, 1)), "int");
	assert_string_equal(lbtf_name_by_offset(s2, lbtf_members(lbtf_type_by_id(s2, 2))[0].name_off),
			    "m");
	assert_int_equal(lbtf_find_by_name(s2, "a"), 2);
	lbtf_free(s2);
	lbtf_free(s1);
	lbtf_free(base);
	free(p0);
	free(p1);
	free(p2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unknown_kind_sized_by_layout),
		cmocka_unit_test(test_unsizable_kinds),
		cmocka_unit_test(test_wide_info_fields),
		cmocka_unit_test(test_layout_bounds),
		cmocka_unit_test(test_opposite_endian),
		cmocka_unit_test(test_split_uses_base_layout),
		cmocka_unit_test(test_split_over_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
