// SPDX-License-Identifier: BSD-2-Clause
/*
 * util/side: work started beside the caller runs on a thread of its own
 * while the caller goes on, or, when no thread can be made, on the caller
 * before the start returns; either way exactly once, done at the join, and
 * a join of what ran on the caller, was joined already or never started
 * waits for nothing. pthread_create and pthread_join are wrapped
 * (--wrap, tests/tests.mk): creation can be refused (EAGAIN), and the
 * threads made and joined are counted. Then the library's own users of it
 * (the unit listing, the heap release and the groups converted again of
 * the DWARF driver, dedup's side init, the raw writer) with their threads
 * refused: the same file as with them; at -j1 the only thread besides the
 * writer is the one every step runs on. (White box: links the internal
 * archive.)
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "libbtf.h"
#include "libbtf_dwarf.h"
#include "libbtf_encode.h"
#include "dedup/internal.h"
#include "util/side.h"

/* What pthread_create refuses: nothing, every thread, or the threads made
 * without attributes (not the DWARF driver's workers, made with a stack
 * size: without them it cannot convert; nor its redo, made so too) */
static enum { REFUSE_NONE, REFUSE_ALL, REFUSE_PLAIN } refuse;
static unsigned int made, refused, joined; /* (__atomic) */
static size_t last_stack; /* the stack size of the last thread made with attributes */

int __real_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg);
int __real_pthread_join(pthread_t t, void **ret);
int __wrap_pthread_join(pthread_t t, void **ret);

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
	int err;

	if (refuse == REFUSE_ALL || (refuse == REFUSE_PLAIN && !a)) {
		__atomic_add_fetch(&refused, 1, __ATOMIC_SEQ_CST);
		return EAGAIN;
	}
	if (a && pthread_attr_getstacksize(a, &last_stack))
		last_stack = 0;
	err = __real_pthread_create(t, a, fn, arg);
	if (!err)
		__atomic_add_fetch(&made, 1, __ATOMIC_SEQ_CST);
	return err;
}

int __wrap_pthread_join(pthread_t t, void **ret)
{
	__atomic_add_fetch(&joined, 1, __ATOMIC_SEQ_CST);
	return __real_pthread_join(t, ret);
}

static void counts_reset(void)
{
	made = refused = joined = 0;
}

/* The work: counts its runs and notes its thread; with wait_for_caller, it
 * ends only once the caller has gone on past the start (let_go) */
struct work {
	unsigned int runs;        /* (__atomic) */
	pthread_t ran_on;
	bool wait_for_caller;
	bool let_go;              /* (__atomic) */
};

static void *work(void *arg)
{
	struct work *w = arg;
	struct timespec ms = { 0, 1000000 };

	w->ran_on = pthread_self();
	while (w->wait_for_caller && !__atomic_load_n(&w->let_go, __ATOMIC_ACQUIRE))
		nanosleep(&ms, NULL);
	__atomic_add_fetch(&w->runs, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

/* A thread made: the caller goes on while the work runs (the work waits
 * for the caller to pass the start, which it could not if it ran on the
 * caller), done once at the join; a second join waits for nothing */
static void test_on_a_thread(void **state)
{
	struct work w = { .wait_for_caller = true };
	struct lbtfi_side s = { 0 };

	(void)state;
	refuse = REFUSE_NONE;
	counts_reset();
	assert_true(lbtfi_side_start(&s, work, &w));
	assert_int_equal(made, 1);
	assert_int_equal(__atomic_load_n(&w.runs, __ATOMIC_SEQ_CST), 0);
	__atomic_store_n(&w.let_go, true, __ATOMIC_RELEASE);
	lbtfi_side_join(&s);
	assert_int_equal(w.runs, 1);
	assert_false(pthread_equal(w.ran_on, pthread_self()));
	assert_int_equal(joined, 1);
	lbtfi_side_join(&s);
	assert_int_equal(joined, 1);
	assert_int_equal(w.runs, 1);
}

/* No thread can be made: the work is done on the caller, once, before the
 * start returns; the joins that follow wait for nothing (no pthread_join
 * of a thread that does not exist) */
static void test_no_thread_done_by_caller(void **state)
{
	struct work w = { 0 };
	struct lbtfi_side s = { 0 };

	(void)state;
	refuse = REFUSE_ALL;
	counts_reset();
	assert_false(lbtfi_side_start(&s, work, &w));
	refuse = REFUSE_NONE;
	assert_int_equal(refused, 1);
	assert_int_equal(made, 0);
	assert_int_equal(w.runs, 1);
	assert_true(pthread_equal(w.ran_on, pthread_self()));
	lbtfi_side_join(&s);
	lbtfi_side_join(&s);
	assert_int_equal(joined, 0);
	assert_int_equal(w.runs, 1);
}

/* A stack size asked for is the thread's; refused, the work is done on
 * the caller all the same */
static void test_stack_size(void **state)
{
	struct work w = { 0 };
	struct lbtfi_side s = { 0 };
	size_t stack = (size_t)3 << 20;

	(void)state;
	refuse = REFUSE_NONE;
	counts_reset();
	last_stack = 0;
	assert_true(lbtfi_side_start_stack(&s, work, &w, stack));
	lbtfi_side_join(&s);
	assert_int_equal(made, 1);
	assert_int_equal(last_stack, stack);
	assert_int_equal(w.runs, 1);
	refuse = REFUSE_ALL;
	assert_false(lbtfi_side_start_stack(&s, work, &w, stack));
	refuse = REFUSE_NONE;
	assert_int_equal(w.runs, 2);
	assert_true(pthread_equal(w.ran_on, pthread_self()));
	lbtfi_side_join(&s);
	assert_int_equal(joined, 1);
}

/* Never started (zeroed): a join, and another, wait for nothing */
static void test_join_not_started(void **state)
{
	struct lbtfi_side s = { 0 };

	(void)state;
	counts_reset();
	lbtfi_side_join(&s);
	lbtfi_side_join(&s);
	assert_int_equal(joined, 0);
}

static void *read_whole(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	long n;
	void *data;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	data = malloc((size_t)n);
	assert_non_null(data);
	assert_int_equal(fread(data, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*size = (size_t)n;
	return data;
}

/* This test program's own DWARF encoded as btfgen-pahole encodes a kernel's
 * (pahole's style, the reuse and dedup on, dedup's side init at any size)
 * into a raw file at -jjobs; the file's bytes */
static void *encode_self(int jobs, const char *out, size_t *size)
{
	struct lbtf_encode_opts o = {
		.sz = sizeof(o), .output = out, .jobs = jobs, .style = LBTF_DWARF_STYLE_PAHOLE,
		.features = LBTF_DWARF_FEAT_LIST | LBTF_DWARF_FEAT_DEFAULT |
			    LBTF_DWARF_FEAT_OPTIMIZED_FUNC | LBTF_DWARF_FEAT_CONSISTENT_FUNC,
	};
	struct lbtf_encode_result res = { .sz = sizeof(res) };

	lbtfi_dedup_side_init_min = 0;
	if (lbtf_encode("/proc/self/exe", &o, &res))
		fail_msg("encoding /proc/self/exe: %s", lbtf_errmsg());
	lbtfi_dedup_side_init_min = 65536;
	return read_whole(out, size);
}

/* The library's users with their side threads refused: each does the work
 * itself, and the file is the one their threads give, at -j1 and -j2 */
static void test_users_without_threads(void **state)
{
	char dir[] = "/tmp/test_side.XXXXXX", out[64];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/out.btf", dir);
	for (int jobs = 1; jobs <= 2; jobs++) {
		size_t n1, n2;
		unsigned int sides;
		void *with, *without;

		refuse = REFUSE_NONE;
		counts_reset();
		with = encode_self(jobs, out, &n1);
		/* -j1: the thread every step runs on, one at a time (made with
		 * a stack size, as a worker), and the writer; more jobs: the
		 * workers, and the listing, a release, dedup's side init and
		 * the writer at least */
		if (jobs == 1)
			assert_int_equal(made, 2);
		else
			assert_true(made >= (unsigned int)jobs + 4);
		sides = made - jobs;
		refuse = REFUSE_PLAIN;
		counts_reset();
		without = encode_self(jobs, out, &n2);
		refuse = REFUSE_NONE;
		assert_int_equal(made, jobs); /* (the workers only) */
		assert_int_equal(refused, sides); /* (each done by the caller) */
		assert_int_equal(n1, n2);
		assert_memory_equal(with, without, n1);
		free(with);
		free(without);
	}
	unlink(out);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_on_a_thread),
		cmocka_unit_test(test_no_thread_done_by_caller),
		cmocka_unit_test(test_stack_size),
		cmocka_unit_test(test_join_not_started),
		cmocka_unit_test(test_users_without_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
