// SPDX-License-Identifier: BSD-2-Clause
/*
 * What lbtf_verify keeps for the thread's next call (its work area and its
 * log buffer, util/keep.h) changes nothing it answers: blobs verified one
 * after another in one thread give the verdicts and logs each gives in a
 * thread of its own (nothing kept yet). A kept log buffer handed out as
 * result.full_log comes back to the keep through lbtf_verify_result_free.
 */
#include <pthread.h>
#include "vcase.h"
#include "blobgen.h"
#include "util/keep.h"

#define NBLOBS 300

struct answer {
	int ret, err;
	uint32_t nr_types, true_size, log_len;
	char *log;      /* the whole log (KEEP_LOG) */
	char fixed[96]; /* a fixed-mode log_buf too small for most logs */
};

struct job {
	const unsigned char *p;
	size_t len;
	uint32_t level;
	struct answer *a;
};

static void verify_into(const struct job *j)
{
	LBTF_OPTS(lbtf_verify_opts, keep, .log_level = j->level, .flags = LBTF_VERIFY_KEEP_LOG);
	LBTF_OPTS(lbtf_verify_opts, fixed, .log_level = j->level | LBTF_LOG_FIXED,
		  .log_buf = j->a->fixed, .log_size = sizeof(j->a->fixed));
	struct lbtf_verify_result r = { .sz = sizeof(r) }, f = { .sz = sizeof(f) };

	if (!j->level)
		keep.flags = 0;
	j->a->ret = lbtf_verify(j->p, j->len, &keep, &r);
	j->a->err = r.err;
	j->a->nr_types = r.nr_types;
	j->a->true_size = r.log_true_size;
	j->a->log = r.full_log ? strdup(r.full_log) : NULL;
	lbtf_verify_result_free(&r);
	if (j->level) {
		memset(j->a->fixed, 0x5a, sizeof(j->a->fixed));
		lbtf_verify(j->p, j->len, &fixed, &f);
		j->a->log_len = f.log_len;
	}
}

static void *fresh_thread(void *arg)
{
	verify_into(arg);
	return NULL;
}

static void same(const struct answer *x, const struct answer *y, unsigned int i)
{
	if (x->ret != y->ret || x->err != y->err || x->nr_types != y->nr_types ||
	    x->true_size != y->true_size || x->log_len != y->log_len ||
	    !!x->log != !!y->log || (x->log && strcmp(x->log, y->log)) ||
	    memcmp(x->fixed, y->fixed, sizeof(x->fixed)))
		fail_msg("blob %u: kept %d/%d types %u size %u, fresh %d/%d types %u size %u\n"
			 "kept log:\n%s\nfresh log:\n%s", i, x->ret, x->err, x->nr_types,
			 x->true_size, y->ret, y->err, y->nr_types, y->true_size,
			 x->log ? x->log : "(none)", y->log ? y->log : "(none)");
}

/* large and small, valid and broken, one after another in this thread */
static void test_kept_same_as_fresh(void **state)
{
	static const uint32_t levels[] = { 0, 1, 2 };
	struct rng r = { 0x35f35f35fULL };

	(void)state;
	for (unsigned int i = 0; i < NBLOBS; i++) {
		size_t len;
		/* a big graph now and then: the next, smaller blob reuses its
		 * area, whose records the big one filled */
		uint32_t n = i % 7 == 0 ? 60 + rnd_n(&r, 4) : 2 + rnd_n(&r, 30);
		unsigned char *b = i % 5 == 1 ? gen_special(&r, &len)
				 : i % 5 == 3 ? gen_targeted(&r, &len)
				 : i % 2 ? gen_planned(&r, n, &len) : gen_graph(&r, n, &len);
		struct answer kept = { 0 }, fresh = { 0 };
		struct job jk, jf;
		pthread_t t;

		if (i % 11 == 4)
			gmutate(&r, b, len);
		if (i % 13 == 6) { /* types unaligned: verify's own copy */
			unsigned char *x = gextend_hdr(&r, b, &len);

			free(b);
			b = x;
		}
		jk = (struct job){ b, len, levels[i % 3], &kept };
		jf = (struct job){ b, len, levels[i % 3], &fresh };
		verify_into(&jk);
		assert_int_equal(pthread_create(&t, NULL, fresh_thread, &jf), 0);
		assert_int_equal(pthread_join(t, NULL), 0);
		same(&kept, &fresh, i);
		free(kept.log);
		free(fresh.log);
		free(b);
	}
}

#define STRS "\0int\0"
#define BAD_INT T_INT(1, 3, 0, 32, 4) /* encoding 3: ENOTSUPP */

/* the log handed out is kept again when the caller is done with it */
static void test_log_comes_back(void **state)
{
	struct vblob bad = VB(STRS, BAD_INT);
	LBTF_OPTS(lbtf_verify_opts, o, .log_level = 1, .flags = LBTF_VERIFY_KEEP_LOG);
	struct lbtf_verify_result r = { .sz = sizeof(r) };
	size_t held;

	(void)state;
	lbtf_verify(bad.p, bad.len, &o, &r);
	assert_int_equal(r.err, LBTF_ENOTSUPP);
	assert_non_null(r.full_log);
	held = lbtfi_keep_held();
	lbtf_verify_result_free(&r);
	assert_null(r.full_log);
	/* the buffer is held for the next verify */
	assert_true(lbtfi_keep_held() > held);
	/* a log freed by the caller with free() is not given back twice */
	lbtf_verify(bad.p, bad.len, &o, &r);
	free(r.full_log);
	r.full_log = NULL;
	lbtf_verify_result_free(&r);
	lbtf_verify(bad.p, bad.len, &o, &r);
	assert_non_null(strstr(r.full_log, "Unsupported encoding"));
	lbtf_verify_result_free(&r);
	/* level 0 keeps an empty log: a string still, from the keep too */
	o.log_level = 0;
	lbtf_verify(bad.p, bad.len, &o, &r);
	assert_int_equal(r.err, LBTF_ENOTSUPP);
	assert_non_null(r.full_log);
	assert_string_equal(r.full_log, "");
	assert_int_equal(r.full_log_len, 0);
	held = lbtfi_keep_held();
	lbtf_verify_result_free(&r);
	assert_true(lbtfi_keep_held() > held);
	free(bad.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kept_same_as_fresh),
		cmocka_unit_test(test_log_comes_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
