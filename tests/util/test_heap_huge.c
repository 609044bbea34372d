// SPDX-License-Identifier: BSD-2-Clause
/*
 * util/heap: lbtfi_heap_huge advises the heap of the calling thread's arena
 * MADV_HUGEPAGE when big blocks go on huge pages, and nothing otherwise:
 * the mapping holding a block the thread allocates then shows the "hg"
 * flag in /proc/self/smaps, or not. The main arena (the first thread's) is
 * left as it is. (White box: links the internal archive.)
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>
#include "util/grow.h"
#include "util/heap.h"

/* Whether the mapping holding p has flag (two letters) in its VmFlags;
 * -1 when /proc/self/smaps does not say */
static int mapping_has_flag(const void *p, const char *flag)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	bool inside = false;
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) { /* (a mapping's first line) */
			inside = (uintptr_t)p >= lo && (uintptr_t)p < hi;
			continue;
		}
		if (inside && !strncmp(line, "VmFlags:", 8)) {
			char want[8];

			snprintf(want, sizeof(want), " %s", flag);
			found = strstr(line + 8, want) != NULL;
			break;
		}
	}
	fclose(f);
	return found;
}

struct probe {
	int choice;  /* lbtfi_huge_pages_set's */
	int flagged; /* mapping_has_flag of a block allocated after the call */
};

static void *in_thread(void *arg)
{
	struct probe *pr = arg;
	void *p;

	lbtfi_huge_pages_set(pr->choice);
	lbtfi_heap_huge();
	p = malloc(4096);
	pr->flagged = p ? mapping_has_flag(p, "hg") : -1;
	free(p);
	return NULL;
}

static int probe_thread(int choice)
{
	struct probe pr = { .choice = choice, .flagged = -1 };
	pthread_t t;

	assert_int_equal(pthread_create(&t, NULL, in_thread, &pr), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	return pr.flagged;
}

/* (skips where the kernel has no transparent huge pages) */
static bool thp_advice_taken(void)
{
	void *m = mmap(NULL, 4 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	bool ok;

	if (m == MAP_FAILED)
		return false;
	ok = !madvise(m, 4 << 20, MADV_HUGEPAGE) && mapping_has_flag(m, "hg") == 1;
	munmap(m, 4 << 20);
	return ok;
}

static void test_thread_heap_advised(void **state)
{
	(void)state;
#ifndef LBTFI_HEAP_HUGE_ACTS
	skip(); /* (glibc's own arenas on 64-bit systems only) */
#endif
	if (!thp_advice_taken())
		skip();
	assert_int_equal(probe_thread(1), 1);
}

static void test_not_where_huge_pages_do_not_pay(void **state)
{
	(void)state;
	if (!thp_advice_taken())
		skip();
	assert_int_equal(probe_thread(0), 0);
}

static void test_main_arena_left(void **state)
{
	void *p;

	(void)state;
	if (!thp_advice_taken())
		skip();
	lbtfi_huge_pages_set(1);
	lbtfi_heap_huge();
	p = malloc(4096);
	assert_non_null(p);
	assert_int_equal(mapping_has_flag(p, "hg"), 0);
	free(p);
	lbtfi_huge_pages_set(-1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* (first: the arena of its thread is a new one, which the next
		 * thread then takes over, unadvised) */
		cmocka_unit_test(test_not_where_huge_pages_do_not_pay),
		cmocka_unit_test(test_thread_heap_advised),
		cmocka_unit_test(test_main_arena_left),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
