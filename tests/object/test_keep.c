// SPDX-License-Identifier: BSD-2-Clause
/*
 * util/keep: the blocks a thread keeps between calls are freed when the
 * thread exits. Threads fill keeps directly and through lbtf_object_btf()
 * (which keeps its section table, symbol indexes and .BTF copy), exit, and
 * the bytes kept by all threads are back where they were; the main
 * thread's block stays. Under LeakSanitizer (make SAN=1) a block left
 * behind by an exited thread is also reported as a leak.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "libbtf.h"
#include "libbtf_object.h"
#include "io/io.h"
#include "util/keep.h"

#define THREADS 4

static __thread struct lbtfi_keep small, large;

/* fills two keeps of this thread, one of them twice (the smaller block is
 * freed when the larger one comes) */
static void *fill(void *arg)
{
	size_t cap;
	void *p = lbtfi_keep_take(&small, 100, &cap);

	(void)arg;
	if (!p)
		return "out of memory";
	lbtfi_keep_give(&small, p, cap);
	p = lbtfi_keep_take(&large, 5000, &cap);
	if (!p)
		return "out of memory";
	lbtfi_keep_give(&large, p, cap);
	p = malloc(9000);
	if (!p)
		return "out of memory";
	lbtfi_keep_give(&large, p, 9000);
	return lbtfi_keep_held() >= 9100 ? NULL : "blocks not kept while the thread runs";
}

static void run_threads(void *(*fn)(void *), void *arg)
{
	pthread_t t[THREADS];

	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, fn, arg), 0);
	for (int i = 0; i < THREADS; i++) {
		void *why;

		assert_int_equal(pthread_join(t[i], &why), 0);
		if (why)
			fail_msg("thread %d: %s", i, (const char *)why);
	}
}

static void test_thread_exit_frees(void **state)
{
	size_t cap, before;
	void *p;

	(void)state;
	/* the main thread keeps a block of its own, which must stay */
	p = lbtfi_keep_take(&small, 300, &cap);
	assert_non_null(p);
	lbtfi_keep_give(&small, p, cap);
	before = lbtfi_keep_held();
	assert_true(before >= 300);
	run_threads(fill, NULL);
	assert_int_equal(lbtfi_keep_held(), before);
	/* the main thread's block is still kept: the next take is it */
	assert_ptr_equal(lbtfi_keep_take(&small, 300, &cap), p);
	lbtfi_keep_give(&small, p, cap);
}

struct object {
	void *data;
	size_t size;
	size_t before; /* bytes kept before the threads */
};

/* the object's BTF as libbpf loads it, given back: the blocks stay kept */
static void *check_object(void *arg)
{
	const struct object *o = arg;
	struct lbtf_object_btf ob = { .sz = sizeof(ob) };

	for (int i = 0; i < 3; i++) {
		if (lbtf_object_btf("bpf_flow.o", o->data, o->size, NULL, &ob))
			return "lbtf_object_btf failed";
		lbtf_object_btf_free(&ob);
	}
	return lbtfi_keep_held() > o->before ? NULL : "lbtf_object_btf kept nothing";
}

static void test_object_threads(void **state)
{
	const char *bdir = getenv("B") ? getenv("B") : "build";
	char path[512];
	struct object o = { .before = lbtfi_keep_held() };
	bool mapped;

	(void)state;
	snprintf(path, sizeof(path), "%s/bpf/bpf_flow.o", bdir);
	if (lbtfi_file_load(path, &o.data, &o.size, &mapped))
		fail_msg("%s: %s (build first)", path, lbtf_errmsg());
	run_threads(check_object, &o);
	assert_int_equal(lbtfi_keep_held(), o.before);
	lbtfi_file_unload(o.data, o.size, mapped);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thread_exit_frees),
		cmocka_unit_test(test_object_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
