// SPDX-License-Identifier: BSD-2-Clause
/*
 * Unit tests of the parser (lbtf_new*) on hand-built blobs: every header
 * field out of range, truncation at every byte, bad kinds and vlens, both
 * byte orders, and the raw/JSON dumps of a blob holding every kind.
 */
#include <errno.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>
#include "blob.h"

/* The sample blob, built once */
static unsigned char *sample;
static size_t sample_len;

static int setup(void **state)
{
	struct blob b;

	blob_init(&b, 0);
	blob_sample(&b);
	sample = blob_bytes(&b, &sample_len);
	return 0;
}

static int teardown(void **state)
{
	free(sample);
	return 0;
}

static struct lbtf_header *hdr_of(unsigned char *buf)
{
	return (struct lbtf_header *)buf;
}

/* Parsing buf must fail with err and a message containing word (NULL: any
 * message at all). Parses an exact-size heap copy so that a sanitizer sees
 * any read past the end. */
static void expect_fail(const unsigned char *buf, size_t len, int err, const char *word)
{
	unsigned char *copy = malloc(len ? len : 1);
	struct lbtf *btf;

	memcpy(copy, buf, len);
	errno = 0;
	btf = lbtf_new_borrowed(copy, len, NULL);
	if (btf)
		fail_msg("parse of a bad %zu-byte blob succeeded (expected '%s')", len,
			 word ? word : "an error");
	assert_int_equal(errno, err);
	if (!word)
		assert_string_not_equal(lbtf_errmsg(), "no error");
	else if (!strstr(lbtf_errmsg(), word))
		fail_msg("message '%s' does not say '%s'", lbtf_errmsg(), word);
	free(copy);
}

/* A copy of the sample with one header field changed */
#define WITH_HDR(field, value, err, word)                          \
	do {                                                       \
		unsigned char *c = malloc(sample_len);             \
		memcpy(c, sample, sample_len);                     \
		hdr_of(c)->field = (value);                        \
		expect_fail(c, sample_len, err, word);             \
		free(c);                                           \
	} while (0)

static void test_sample_parses(void **state)
{
	struct lbtf *btf = lbtf_new(sample, sample_len, NULL);

	assert_non_null(btf);
	assert_int_equal(lbtf_type_cnt(btf), S_NR + 0);
	assert_int_equal(lbtf_start_id(btf), 1);
	assert_false(lbtf_is_swapped(btf));
	assert_int_equal(lbtf_kind(lbtf_type_by_id(btf, S_ENUM64)), LBTF_KIND_ENUM64);
	assert_int_equal(lbtf_kind(lbtf_type_by_id(btf, S_CHAR)), LBTF_KIND_INT);
	assert_int_equal(lbtf_kind(lbtf_type_by_id(btf, 0)), LBTF_KIND_UNKN);
	assert_null(lbtf_type_by_id(btf, S_NR));
	assert_null(lbtf_type_by_id(btf, UINT32_MAX));
	lbtf_free(btf);
}

static void test_header_fields(void **state)
{
	uint32_t tl = hdr_of(sample)->type_len, sl = hdr_of(sample)->str_len;

	WITH_HDR(magic, 0x1234, EINVAL, "not BTF");
	WITH_HDR(version, 0, ENOTSUP, "version");
	WITH_HDR(version, 2, ENOTSUP, "version");
	WITH_HDR(hdr_len, 0, EINVAL, "header length");
	WITH_HDR(hdr_len, 23, EINVAL, "header length");
	WITH_HDR(hdr_len, sample_len + 1, EINVAL, "header length");
	WITH_HDR(hdr_len, UINT32_MAX, EINVAL, "header length");
	WITH_HDR(type_off, sample_len, EINVAL, "type section");
	WITH_HDR(type_off, UINT32_MAX, EINVAL, "type section");
	WITH_HDR(type_off, 2, EINVAL, "type section");       /* misaligned */
	WITH_HDR(type_len, tl + 4, EINVAL, "overlap");         /* runs into the strings */
	WITH_HDR(type_len, tl - 2, EINVAL, "aligned");
	WITH_HDR(type_len, UINT32_MAX - 3, EINVAL, "type section");
	WITH_HDR(str_off, UINT32_MAX - 8, EINVAL, "string section");
	WITH_HDR(str_off, 0, EINVAL, "overlap");
	WITH_HDR(str_off, tl + 1, EINVAL, "string section"); /* past the end */
	WITH_HDR(str_len, sl + 1, EINVAL, "string section");
	WITH_HDR(str_len, UINT32_MAX, EINVAL, "string section");
	WITH_HDR(str_len, 0, EINVAL, "empty string");          /* base needs "" */
	WITH_HDR(str_len, sl - 1, EINVAL, "NUL");              /* last string unterminated */
}

/* Fields the sanity layer leaves to the verifier, as libbpf does */
static void test_header_tolerated(void **state)
{
	unsigned char *c = malloc(sample_len + 8);
	struct lbtf_header *h = hdr_of(c);
	struct lbtf *btf;

	memcpy(c, sample, sample_len);
	h->flags = 1;
	btf = lbtf_new(c, sample_len, NULL);
	assert_non_null(btf);
	lbtf_free(btf);

	/* a longer header, also of a length that leaves the type section
	 * unaligned in the input: sections are relative to its end, and the
	 * records are read aligned (checked by the SAN=1 build) */
	for (size_t extra = 1; extra <= 8; extra++) {
		memcpy(c, sample, LBTF_HDR_LEN_V1);
		memset(c + LBTF_HDR_LEN_V1, 0, extra);
		memcpy(c + LBTF_HDR_LEN_V1 + extra, sample + LBTF_HDR_LEN_V1, sample_len - LBTF_HDR_LEN_V1);
		hdr_of(c)->hdr_len = LBTF_HDR_LEN_V1 + extra;
		for (int borrowed = 0; borrowed < 2; borrowed++) {
			btf = borrowed ? lbtf_new_borrowed(c, sample_len + extra, NULL)
				       : lbtf_new(c, sample_len + extra, NULL);
			if (!btf)
				fail_msg("header of %zu bytes: %s", LBTF_HDR_LEN_V1 + extra, lbtf_errmsg());
			assert_int_equal(lbtf_type_cnt(btf), S_NR);
			assert_int_equal((uintptr_t)lbtf_type_by_id(btf, S_STRUCT) % 4, 0);
			assert_string_equal(lbtf_type_name(btf, lbtf_type_by_id(btf, S_STRUCT)), "s");
			assert_int_equal(lbtf_vlen(lbtf_type_by_id(btf, S_STRUCT)), 3);
			lbtf_free(btf);
		}
	}
	free(c);
}

static void test_truncated_every_byte(void **state)
{
	for (size_t n = 0; n < sample_len; n++)
		expect_fail(sample, n, EINVAL, NULL);
}

/* type_len cut at every 4 bytes (strings kept): parses exactly at record
 * boundaries, else names the truncated type. */
static void test_type_section_cut(void **state)
{
	uint32_t tl = hdr_of(sample)->type_len;
	struct lbtf *full = lbtf_new(sample, sample_len, NULL);
	unsigned int boundaries = 0;

	for (uint32_t k = 0; k <= tl; k += 4) {
		unsigned char *c = malloc(sample_len);
		struct lbtf *btf;
		bool boundary = k == 0;

		for (uint32_t id = 1; id < S_NR && !boundary; id++)
			boundary = (const unsigned char *)lbtf_type_by_id(full, id) - (const unsigned char *)lbtf_type_by_id(full, 1) == k ||
				   k == tl;
		memcpy(c, sample, sample_len);
		hdr_of(c)->type_len = k;
		btf = lbtf_new_borrowed(c, sample_len, NULL);
		if (boundary) {
			if (!btf)
				fail_msg("type_len %u (a record boundary) failed: %s", k, lbtf_errmsg());
			boundaries++;
		} else {
			if (btf)
				fail_msg("type_len %u (inside a record) parsed", k);
			if (!strstr(lbtf_errmsg(), "truncated"))
				fail_msg("type_len %u: '%s' does not say truncated", k, lbtf_errmsg());
		}
		lbtf_free(btf);
		free(c);
	}
	assert_int_equal(boundaries, S_NR); /* 0 and the end of each of the 20 types */
	lbtf_free(full);
}

/* A one-type blob whose record has the given info word */
static void expect_bad_info(uint32_t info, size_t extra_words, const char *word)
{
	struct blob b;
	unsigned char *buf;
	size_t len;

	blob_init(&b, 0);
	blob_words(&b, 3, 0, info, 4);
	for (size_t i = 0; i < extra_words; i++)
		blob_words(&b, 1, 0);
	buf = blob_bytes(&b, &len);
	expect_fail(buf, len, EINVAL, word);
	free(buf);
}

static void test_bad_kinds_and_vlens(void **state)
{
	expect_bad_info(lbtf_info(0, 0, 0), 0, "unknown kind");
	expect_bad_info(lbtf_info(LBTF_KIND_MAX + 1, 0, 0), 0, "unknown kind");
	expect_bad_info(lbtf_info(31, 0, 0), 0, "unknown kind");
	expect_bad_info(lbtf_info(LBTF_KIND_INT, 0, 0), 0, "truncated");      /* no INT word */
	expect_bad_info(lbtf_info(LBTF_KIND_ARRAY, 0, 0), 2, "truncated");
	expect_bad_info(lbtf_info(LBTF_KIND_STRUCT, 0xffff, 0), 3, "truncated");
	expect_bad_info(lbtf_info(LBTF_KIND_ENUM64, 2, 0), 3, "truncated");
	expect_bad_info(lbtf_info(LBTF_KIND_DATASEC, 1, 0), 2, "truncated");
	expect_bad_info(lbtf_info(LBTF_KIND_VAR, 0, 0), 0, "truncated");
}

/* The sample in the opposite byte order */
static unsigned char *swapped_sample(void)
{
	unsigned char *c = malloc(sample_len);
	struct lbtf_header *h = hdr_of(c);
	uint32_t *w;

	memcpy(c, sample, sample_len);
	w = (uint32_t *)(c + h->hdr_len + h->type_off);
	for (uint32_t i = 0; i < hdr_of(sample)->type_len / 4; i++)
		w[i] = __builtin_bswap32(w[i]);
	h->magic = __builtin_bswap16(h->magic);
	h->hdr_len = __builtin_bswap32(h->hdr_len);
	h->type_off = __builtin_bswap32(h->type_off);
	h->type_len = __builtin_bswap32(h->type_len);
	h->str_off = __builtin_bswap32(h->str_off);
	h->str_len = __builtin_bswap32(h->str_len);
	return c;
}

static char *dump_to_string(const struct lbtf *btf, int json)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);
	int err = json ? lbtf_dump_json(btf, f, json > 1) : lbtf_dump_raw(btf, f);

	assert_int_equal(err, 0);
	fclose(f);
	return s;
}

static void test_opposite_endian(void **state)
{
	unsigned char *c = swapped_sample();
	struct lbtf *native = lbtf_new(sample, sample_len, NULL);
	struct lbtf *sw = lbtf_new_borrowed(c, sample_len, NULL);
	char *a, *b;

	assert_non_null(sw);
	assert_true(lbtf_is_swapped(sw));
	assert_int_equal(lbtf_type_cnt(sw), S_NR);
	assert_int_equal(lbtf_header(sw)->type_len, hdr_of(sample)->type_len);
	for (int json = 0; json < 3; json++) {
		a = dump_to_string(native, json);
		b = dump_to_string(sw, json);
		assert_string_equal(a, b);
		free(a);
		free(b);
	}
	lbtf_free(sw);
	lbtf_free(native);
	/* and cut at every byte: errors, never a crash */
	for (size_t n = 0; n < sample_len; n++) {
		unsigned char *cut = malloc(n ? n : 1);

		memcpy(cut, c, n);
		assert_null(lbtf_new_borrowed(cut, n, NULL));
		free(cut);
	}
	free(c);
}

static const char sample_raw[] =
	"[1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n"
	"[2] PTR '(anon)' type_id=1\n"
	"[3] ARRAY '(anon)' type_id=1 index_type_id=1 nr_elems=4\n"
	"[4] STRUCT 's' size=32 vlen=3\n"
	"\t'a' type_id=1 bits_offset=0 bitfield_size=3\n"
	"\t'b' type_id=2 bits_offset=64\n"
	"\t'c' type_id=3 bits_offset=128\n"
	"[5] TYPEDEF 't' type_id=6\n"
	"[6] CONST '(anon)' type_id=4\n"
	"[7] ENUM 'e' encoding=SIGNED size=4 vlen=2\n"
	"\t'X' val=1\n"
	"\t'Y' val=-1\n"
	"[8] FUNC_PROTO '(anon)' ret_type_id=1 vlen=2\n"
	"\t'p' type_id=1\n"
	"\t'(anon)' type_id=0\n"
	"[9] FUNC 'f' type_id=8 linkage=global\n"
	"[10] VOLATILE '(anon)' type_id=5\n"
	"[11] UNION 'u' size=8 vlen=2\n"
	"\t'a' type_id=1 bits_offset=0\n"
	"\t'b' type_id=2 bits_offset=0\n"
	"[12] ENUM64 'e64' encoding=UNSIGNED size=8 vlen=1\n"
	"\t'BIG' val=18364758544817573359ULL\n"
	"[13] FLOAT 'float' size=4\n"
	"[14] VAR 'v' type_id=1, linkage=global\n"
	"[15] DATASEC '.data' size=8 vlen=2\n"
	"\ttype_id=14 offset=0 size=4 (VAR 'v')\n"
	"\ttype_id=9999 offset=4 size=4\n"
	"[16] DECL_TAG 'tag' type_id=4 component_idx=-1\n"
	"[17] TYPE_TAG 'user' type_id=1\n"
	"[18] FWD 'fw' fwd_kind=union\n"
	"[19] RESTRICT '(anon)' type_id=2\n"
	"[20] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=CHAR\n";

static void test_dump_raw_every_kind(void **state)
{
	struct lbtf *btf = lbtf_new(sample, sample_len, NULL);
	char *s = dump_to_string(btf, 0);

	assert_string_equal(s, sample_raw);
	free(s);
	lbtf_free(btf);
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static void test_dump_json_every_kind(void **state)
{
	struct lbtf *btf = lbtf_new(sample, sample_len, NULL);
	char *s = dump_to_string(btf, 1);

	assert_true(starts_with(s, "{\"types\":[{\"id\":1,\"kind\":\"INT\",\"name\":\"int\",\"size\":4,"
				   "\"bits_offset\":0,\"nr_bits\":32,\"encoding\":\"SIGNED\"},"));
	assert_non_null(strstr(s, "{\"id\":4,\"kind\":\"STRUCT\",\"name\":\"s\",\"size\":32,\"vlen\":3,"
				  "\"members\":[{\"name\":\"a\",\"type_id\":1,\"bits_offset\":0,"
				  "\"bitfield_size\":3},{\"name\":\"b\",\"type_id\":2,\"bits_offset\":64},"));
	assert_non_null(strstr(s, "\"values\":[{\"name\":\"X\",\"val\":1},{\"name\":\"Y\",\"val\":-1}]"));
	assert_non_null(strstr(s, "\"params\":[{\"name\":\"p\",\"type_id\":1},{\"name\":\"(anon)\",\"type_id\":0}]"));
	assert_non_null(strstr(s, "\"val\":18364758544817573359}"));
	assert_non_null(strstr(s, "\"vars\":[{\"type_id\":14,\"offset\":0,\"size\":4},"
				  "{\"type_id\":9999,\"offset\":4,\"size\":4}]"));
	assert_non_null(strstr(s, "\"component_idx\":-1}"));
	assert_true(ends_with(s, "{\"id\":20,\"kind\":\"INT\",\"name\":\"char\",\"size\":1,"
				 "\"bits_offset\":0,\"nr_bits\":8,\"encoding\":\"CHAR\"}]}\n"));
	free(s);

	s = dump_to_string(btf, 2); /* pretty: bpftool -p layout */
	assert_true(starts_with(s, "{\n    \"types\": [{\n            \"id\": 1,\n            \"kind\": \"INT\","));
	assert_non_null(strstr(s, "\"members\": [{\n                    \"name\": \"a\",\n"));
	assert_true(ends_with(s, "\"encoding\": \"CHAR\"\n        }\n    ]\n}\n"));
	free(s);
	lbtf_free(btf);
}

/* Names that do not resolve print as (invalid); one type by id */
static void test_dump_invalid_names(void **state)
{
	struct blob b;
	unsigned char *buf;
	size_t len;
	struct lbtf *btf;
	char *s = NULL;
	size_t n = 0;
	FILE *f;

	blob_init(&b, 0);
	blob_type(&b, 5000, LBTF_KIND_STRUCT, 1, 0, 4);
	blob_words(&b, 3, 6000, 1, 0);
	buf = blob_bytes(&b, &len);
	btf = lbtf_new(buf, len, NULL);
	assert_non_null(btf);
	f = open_memstream(&s, &n);
	assert_int_equal(lbtf_dump_raw_type(btf, 1, f), 0);
	assert_int_equal(lbtf_dump_raw_type(btf, 2, f), -EINVAL);
	assert_int_equal(lbtf_dump_raw_type(btf, 0, f), -EINVAL);
	fclose(f);
	assert_string_equal(s, "[1] STRUCT '(invalid)' size=4 vlen=1\n\t'(invalid)' type_id=1 bits_offset=0\n");
	free(s);
	lbtf_free(btf);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample_parses),
		cmocka_unit_test(test_header_fields),
		cmocka_unit_test(test_header_tolerated),
		cmocka_unit_test(test_truncated_every_byte),
		cmocka_unit_test(test_type_section_cut),
		cmocka_unit_test(test_bad_kinds_and_vlens),
		cmocka_unit_test(test_opposite_endian),
		cmocka_unit_test(test_dump_raw_every_kind),
		cmocka_unit_test(test_dump_json_every_kind),
		cmocka_unit_test(test_dump_invalid_names),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
