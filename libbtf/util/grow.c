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
/* A big array's first block: a mapping of its own in glibc's malloc (from
 * 32 MiB on, M_MMAP_THRESHOLD's largest value), which realloc then moves
 * by mremap, without a copy; only the pages touched are memory */
#define RESERVE_BYTES ((size_t)32 << 20)

/*
 * Big blocks on ordinary pages, no MADV_HUGEPAGE: a transparent huge page
 * is 2 MiB cleared at its first touch, from the kernel's free blocks of
 * that order, the very ones a hypervisor takes back from a guest once they
 * are free (free page reporting: after any big process exits, the bench's
 * pahole among them). Such a page then costs 4-8 ms where the 512 pages of
 * 4 KiB it replaces cost ~1 ms (64 MiB: 170-270 ms against 25-35 ms on
 * the 2-CPU VM of this project); huge pages also round every block and
 * tail up to 2 MiB of resident memory. Measured on btfgen's vmlinux run:
 * system time and peak memory down, user time unchanged (the big arrays
 * are mostly walked in order). Tables written whole are still mapped in
 * one call (lbtfi_prefault), not page by page.
 */
void *lbtfi_malloc_big(size_t bytes)
{
	return malloc(bytes);
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
	/* (an array that becomes big reserves room up to RESERVE_BYTES at
	 * once: one copy into its own mapping, no more copies after) */
	if (sizeof(size_t) >= 8 && c * elem >= LBTFI_BIG_BYTES && c * elem < RESERVE_BYTES &&
	    *cap * elem < LBTFI_BIG_BYTES)
		c = RESERVE_BYTES / elem;
	n = realloc(*p, c * elem);
	if (!n)
		return -ENOMEM;
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
	lbtfi_madvise_inside(p, bytes, 0, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)bytes;
#endif
}
