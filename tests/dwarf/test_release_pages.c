// SPDX-License-Identifier: BSD-2-Clause
/*
 * libbtf/dwarf/convert.c: the heap's free pages are given back after each
 * assembly (malloc_trim) by a thread of its own while the caller goes on,
 * and dedup starts only once that is done (its tables would otherwise sit
 * over the pages not given back yet: the peak memory). Linked with
 * --wrap=malloc_trim and --wrap=lbtfi_builder_dedup_types
 * (tests/tests.mk), the release here can be made slow: it must still be
 * over when dedup starts, it must have run off the caller's thread, and
 * the output must be the one a prompt release gives, at -j2 and -j3. At
 * -j1, where every step runs on one thread, there is no release at all.
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include "builder/internal.h"
#include "libbtf_dwarf.h"

static unsigned int delay_ms;
static pthread_t caller;
static unsigned int trims_begun, trims_ended, trims_off_caller; /* (__atomic) */
static unsigned int dedups, dedups_during_trim;

int __real_malloc_trim(size_t pad);
int __wrap_malloc_trim(size_t pad);
int __real_lbtfi_builder_dedup_types(struct lbtf_builder *b, const struct lbtf_dedup_opts *o,
				     bool *settled);
int __wrap_lbtfi_builder_dedup_types(struct lbtf_builder *b, const struct lbtf_dedup_opts *o,
				     bool *settled);

int __wrap_malloc_trim(size_t pad)
{
	struct timespec ts = { .tv_sec = delay_ms / 1000, .tv_nsec = (delay_ms % 1000) * 1000000L };
	int r;

	__atomic_add_fetch(&trims_begun, 1, __ATOMIC_SEQ_CST);
	if (!pthread_equal(pthread_self(), caller))
		__atomic_add_fetch(&trims_off_caller, 1, __ATOMIC_SEQ_CST);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
	r = __real_malloc_trim(pad);
	__atomic_add_fetch(&trims_ended, 1, __ATOMIC_SEQ_CST);
	return r;
}

int __wrap_lbtfi_builder_dedup_types(struct lbtf_builder *b, const struct lbtf_dedup_opts *o,
				     bool *settled)
{
	dedups++;
	if (__atomic_load_n(&trims_ended, __ATOMIC_SEQ_CST) !=
	    __atomic_load_n(&trims_begun, __ATOMIC_SEQ_CST))
		dedups_during_trim++;
	return __real_lbtfi_builder_dedup_types(b, o, settled);
}

/* This test program's own DWARF as btfgen-pahole converts a kernel's
 * (pahole's style, the reuse and dedup on), at -jjobs */
static void convert_self(int jobs, void **data, size_t *size)
{
	struct lbtf_dwarf_opts o = {
		.sz = sizeof(o), .jobs = jobs, .style = LBTF_DWARF_STYLE_PAHOLE,
		.features = LBTF_DWARF_FEAT_LIST | LBTF_DWARF_FEAT_DEFAULT |
			    LBTF_DWARF_FEAT_OPTIMIZED_FUNC | LBTF_DWARF_FEAT_CONSISTENT_FUNC,
	};
	struct lbtf_builder *b;

	caller = pthread_self();
	trims_begun = trims_ended = trims_off_caller = dedups = dedups_during_trim = 0;
	b = lbtf_dwarf_to_btf("/proc/self/exe", &o);
	if (!b)
		fail_msg("converting /proc/self/exe: %s", lbtf_errmsg());
	assert_int_equal(lbtf_builder_serialize(b, false, data, size), 0);
	lbtf_builder_free(b);
}

static void test_slow_release_done_before_dedup(void **state)
{
	void *prompt, *slow;
	size_t np, ns;

	(void)state;
	delay_ms = 0;
	convert_self(2, &prompt, &np);
	assert_true(trims_begun >= 1); /* (the wrappers are in the path) */
	assert_true(dedups >= 1);
	/* -j1: every step on one thread, whose heap keeps the freed pages
	 * for dedup to reuse: no release at all, and the same bytes */
	convert_self(1, &slow, &ns);
	assert_int_equal(trims_begun, 0);
	assert_true(dedups >= 1);
	assert_int_equal(ns, np);
	assert_memory_equal(slow, prompt, np);
	free(slow);
	for (int jobs = 2; jobs <= 3; jobs++) {
		delay_ms = 300;
		convert_self(jobs, &slow, &ns);
		assert_true(trims_begun >= 1);
		assert_int_equal(trims_ended, trims_begun); /* (joined before the return) */
		assert_true(trims_off_caller >= 1);
		assert_true(dedups >= 1);
		assert_int_equal(dedups_during_trim, 0);
		assert_int_equal(ns, np);
		assert_memory_equal(slow, prompt, np);
		free(slow);
	}
	free(prompt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slow_release_done_before_dedup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
