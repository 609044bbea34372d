// SPDX-License-Identifier: BSD-2-Clause
/* The shared array growth policy (see grow.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "util/grow.h"

#define MIN_CAP 16
/* The size (and alignment) of an x86-64/arm64 transparent huge page */
#define HUGE_BYTES ((size_t)2 << 20)
/* A big array's first block: a mapping of its own in glibc's malloc (from
 * 32 MiB on, M_MMAP_THRESHOLD's largest value); only the pages touched
 * are memory */
#define RESERVE_BYTES ((size_t)32 << 20)

/*
 * Big blocks on transparent huge pages: where THP is enabled "madvise"
 * (the default of many distributions), every first touch of a 4 KiB page
 * is a fault, and a fault costs microseconds in a virtual machine with
 * shadow paging: touching a big block page by page costs tens of times
 * what it costs on 2 MiB pages. The block is aligned to and padded to whole huge pages so that
 * all of it can be mapped by them. Only a hint: where MADV_HUGEPAGE is
 * missing or refused, the block is an ordinary one.
 */
void *lbtfi_malloc_big(size_t bytes)
{
#ifdef MADV_HUGEPAGE
	size_t padded;
	void *p;

	if (bytes < LBTFI_BIG_BYTES || bytes > SIZE_MAX - HUGE_BYTES)
		return malloc(bytes);
	padded = (bytes + HUGE_BYTES - 1) & ~(HUGE_BYTES - 1);
	if (posix_memalign(&p, HUGE_BYTES, padded))
		return NULL;
	madvise(p, padded, MADV_HUGEPAGE);
	return p;
#else
	return malloc(bytes);
#endif
}

void lbtfi_madvise_inside(const void *p, size_t bytes, size_t unit, int advice)
{
	uintptr_t a, b;

	if (!unit) {
		long pg = sysconf(_SC_PAGESIZE);

		if (pg <= 0)
			return;
		unit = (size_t)pg;
	}
	a = ((uintptr_t)p + unit - 1) & ~(uintptr_t)(unit - 1);
	b = ((uintptr_t)p + bytes) & ~(uintptr_t)(unit - 1);
	if (p && a < b)
		madvise((void *)a, b - a, advice);
}

/* MADV_HUGEPAGE over the whole huge pages inside [p, p + bytes) */
static void lbtfi_huge_hint(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
	lbtfi_madvise_inside(p, bytes, HUGE_BYTES, MADV_HUGEPAGE);
#else
	(void)p;
	(void)bytes;
#endif
}

int lbtfi_grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap < MIN_CAP ? MIN_CAP : *cap;
	void *n;

	while (c < need) {
		if (c > SIZE_MAX / 2 / elem)
			return -E2BIG;
		c *= 2;
	}
	if (c > SIZE_MAX / elem)
		return -E2BIG;
	if (c * elem >= LBTFI_BIG_BYTES && *cap * elem >= LBTFI_BIG_BYTES) {
		/* (a big block is grown where it is when it can be, with the
		 * hint for the new part; realloc copies into fresh pages) */
		n = realloc(*p, c * elem);
		if (!n)
			return -ENOMEM;
		lbtfi_huge_hint(n, c * elem);
	} else if (c * elem >= LBTFI_BIG_BYTES) {
		/* (a new block on huge pages and one copy: realloc would
		 * copy into 4 KiB pages, each faulted in by the copy; room
		 * reserved up to RESERVE_BYTES, an address range of its own
		 * that realloc moves without copying) */
		if (sizeof(size_t) >= 8 && c * elem < RESERVE_BYTES)
			c = RESERVE_BYTES / elem;
		n = lbtfi_malloc_big(c * elem);
		if (!n)
			return -ENOMEM;
		if (*p)
			memcpy(n, *p, *cap * elem);
		free(*p);
	} else {
		n = realloc(*p, c * elem);
		if (!n)
			return -ENOMEM;
	}
	*p = n;
	*cap = c;
	return 0;
}

/*
 * The pages of a large new block mapped in one call rather than faulted in
 * one at a time by the first writes (a module run over a vmlinux base
 * makes tables and arrays sized by the base's types; a page fault costs
 * microseconds in a virtual machine). Only a hint: kernels before 5.14
 * refuse it, and the pages come by faults.
 */
void lbtfi_prefault(void *p, size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
	if (!p || bytes < (256u << 10))
		return;
	/* (the whole huge pages inside it; none when it is smaller) */
	if (bytes >= LBTFI_BIG_BYTES)
		lbtfi_huge_hint(p, bytes);
	lbtfi_madvise_inside(p, bytes, 0, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)bytes;
#endif
}
