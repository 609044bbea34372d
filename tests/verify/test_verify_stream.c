// SPDX-License-Identifier: BSD-2-Clause
/*
 * The streamed log (lbtf_verify_opts.log_fn): the pieces, joined, are the
 * log kept whole; the true size and verdict are the same as without it;
 * a log longer than one chunk arrives in several calls; log_fn with a
 * log_buf or without a level is the caller's error, not a verdict.
 */
#include "vcase.h"

#define STRS "\0int\0"
#define INT32 T_INT(1, 1, 0, 32, 4)
#define BAD_INT T_INT(1, 3, 0, 32, 4) /* encoding 3: ENOTSUPP */

struct sink {
	char *text;
	size_t len;
	unsigned int calls;
};

static void collect(const char *text, size_t len, void *ctx)
{
	struct sink *s = ctx;

	assert_true(len > 0);
	s->text = realloc(s->text, s->len + len + 1);
	assert_non_null(s->text);
	memcpy(s->text + s->len, text, len);
	s->len += len;
	s->text[s->len] = '\0';
	s->calls++;
}

/* streamed vs kept whole (KEEP_LOG), same blob, same level */
static void same_as_kept(const void *p, size_t n, uint32_t level, unsigned int min_calls)
{
	LBTF_OPTS(lbtf_verify_opts, keep, .log_level = level, .flags = LBTF_VERIFY_KEEP_LOG);
	struct sink s = { 0 };
	LBTF_OPTS(lbtf_verify_opts, st, .log_level = level, .flags = LBTF_VERIFY_KEEP_LOG,
		  .log_fn = collect, .log_ctx = &s);
	struct lbtf_verify_result r1 = { .sz = sizeof(r1) }, r2 = { .sz = sizeof(r2) };
	int e1 = lbtf_verify(p, n, &keep, &r1), e2 = lbtf_verify(p, n, &st, &r2);

	assert_int_equal(e1, e2);
	assert_int_equal(r1.err, r2.err);
	assert_int_equal(r1.log_true_size, r2.log_true_size);
	assert_int_equal(r1.nr_types, r2.nr_types);
	assert_null(r2.full_log);
	assert_non_null(r1.full_log);
	assert_int_equal(r1.full_log_len, s.len);
	assert_string_equal(r1.full_log, s.text);
	assert_true(s.calls >= min_calls);
	lbtf_verify_result_free(&r1);
	free(s.text);
}

static void test_small_log(void **state)
{
	struct vblob ok = VB(STRS, INT32), bad = VB(STRS, BAD_INT);

	same_as_kept(ok.p, ok.len, 1, 1);
	same_as_kept(bad.p, bad.len, 1, 1);
	free(ok.p);
	free(bad.p);
}

/* many types: a log of several 64 KiB chunks, the bad type last */
static void test_long_log(void **state)
{
	enum { N = 8000 };
	uint32_t *t = calloc(4 + 3 * N + 4, 4);
	size_t nt = 0, tlen, size;
	unsigned char *blob;
	uint32_t hdr[6];

	assert_non_null(t);
	t[nt++] = 1, t[nt++] = 1u << 24, t[nt++] = 4, t[nt++] = 32;      /* [1] int */
	for (int i = 0; i < N; i++)
		t[nt++] = 0, t[nt++] = 2u << 24, t[nt++] = 1;             /* PTR -> int */
	t[nt++] = 1, t[nt++] = 1u << 24, t[nt++] = 4, t[nt++] = 3u << 24 | 32; /* bad */
	tlen = nt * 4;
	size = 24 + tlen + sizeof(STRS);
	blob = malloc(size);
	assert_non_null(blob);
	hdr[0] = 0x0001eb9f, hdr[1] = 24, hdr[2] = 0, hdr[3] = tlen, hdr[4] = tlen;
	hdr[5] = sizeof(STRS);
	memcpy(blob, hdr, 24);
	memcpy(blob + 24, t, tlen);
	memcpy(blob + 24 + tlen, STRS, sizeof(STRS));
	same_as_kept(blob, size, 1, 3);
	free(blob);
	free(t);
}

static void test_misuse(void **state)
{
	struct vblob b = VB(STRS, INT32);
	struct sink s = { 0 };
	char buf[64];
	struct lbtf_verify_result r = { .sz = sizeof(r) };
	LBTF_OPTS(lbtf_verify_opts, with_buf, .log_level = 1, .log_buf = buf, .log_size = sizeof(buf),
		  .log_fn = collect, .log_ctx = &s);
	LBTF_OPTS(lbtf_verify_opts, no_level, .log_fn = collect, .log_ctx = &s);

	assert_int_equal(lbtf_verify(b.p, b.len, &with_buf, &r), -EINVAL);
	assert_int_equal(r.err, 0);
	assert_non_null(strstr(lbtf_errmsg(), "log_fn"));
	assert_int_equal(lbtf_verify(b.p, b.len, &no_level, &r), -EINVAL);
	assert_int_equal(r.err, 0);
	assert_int_equal(s.calls, 0);
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_log),
		cmocka_unit_test(test_long_log),
		cmocka_unit_test(test_misuse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
