// SPDX-License-Identifier: BSD-2-Clause
/* The shared array growth policy (see grow.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "util/grow.h"

#define MIN_CAP 16
/* A big array's first block: a mapping of its own in glibc's malloc (from
 * 32 MiB on, M_MMAP_THRESHOLD's largest value), which realloc then moves
 * by mremap, without a copy; only the pages touched are memory */
#define RESERVE_BYTES ((size_t)32 << 20)

/* The size (and alignment) of an x86-64/arm64 transparent huge page */
#define HUGE_BYTES ((size_t)2 << 20)

/*
 * Huge pages or ordinary ones for big blocks, by what a first touch of a
 * 4 KiB page costs on this machine. A transparent huge page is 2 MiB
 * cleared at its first touch, from the kernel's free blocks of that order,
 * the very ones a hypervisor takes back from its guest once they are free
 * (free page reporting, after any big process exits): on the project's
 * 2-CPU VM such a page costs 4-8 ms where its 512 pages of 4 KiB cost
 * ~1 ms (1-2 us a fault), and btfgen's vmlinux run spent half its system
 * time clearing them. Where a fault costs tens of microseconds (shadow
 * paging: ~20 us measured by earlier sessions), the 512 faults cost more
 * than any huge page, cold or not. Huge pages also round every block up
 * to 2 MiB of resident memory.
 */
#define HUGE_PAYS_NS 8000

/* -1: not measured yet; 0: ordinary pages; 1: huge pages */
static int huge_choice = -1;

bool lbtfi_huge_pays_at(uint64_t ns_per_fault)
{
	return ns_per_fault >= HUGE_PAYS_NS;
}

/* What the first touch of a fresh 4 KiB page costs (ns): the least of
 * four runs of 16 (being preempted only adds); 0 when unknown */
static uint64_t fault_ns(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t best = UINT64_MAX;
	char *m;

	if (pg <= 0)
		return 0;
	m = mmap(NULL, 64 * (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 0;
	for (int r = 0; r < 4; r++) {
		struct timespec a, b;
		uint64_t ns;

		clock_gettime(CLOCK_MONOTONIC, &a);
		for (int i = 0; i < 16; i++)
			((volatile char *)m)[(size_t)(r * 16 + i) * (size_t)pg] = 1;
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns = (uint64_t)(b.tv_sec - a.tv_sec) * 1000000000u + (uint64_t)b.tv_nsec -
		     (uint64_t)a.tv_nsec;
		if (ns < best)
			best = ns;
	}
	munmap(m, 64 * (size_t)pg);
	return best / 16;
}

bool lbtfi_huge_pages(void)
{
#ifdef MADV_HUGEPAGE
	int c = __atomic_load_n(&huge_choice, __ATOMIC_RELAXED);

	if (c < 0) { /* (two threads may both measure: either answer is fine) */
		c = lbtfi_huge_pays_at(fault_ns());
		__atomic_store_n(&huge_choice, c, __ATOMIC_RELAXED);
	}
	return c;
#else
	return false;
#endif
}

void lbtfi_huge_pages_set(int choice)
{
	__atomic_store_n(&huge_choice, choice < 0 ? -1 : !!choice, __ATOMIC_RELAXED);
}

/* On huge pages: aligned to and padded to whole huge pages, so that all of
 * it can be mapped by them; only a hint, an ordinary block where refused */
void *lbtfi_malloc_big(size_t bytes)
{
#ifdef MADV_HUGEPAGE
	size_t padded;
	void *p;

	if (bytes < LBTFI_BIG_BYTES || bytes > SIZE_MAX - HUGE_BYTES || !lbtfi_huge_pages())
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

/* MADV_HUGEPAGE over the whole huge pages inside [p, p + bytes), where
 * big blocks go on huge pages */
static void huge_hint(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
	if (lbtfi_huge_pages())
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
	if (c * elem >= LBTFI_BIG_BYTES && *cap * elem < LBTFI_BIG_BYTES) {
		/* (an array that becomes big reserves room up to RESERVE_BYTES
		 * at once, a mapping of its own that realloc moves without
		 * copying: rounded up to whole elements, since a block a byte
		 * under M_MMAP_THRESHOLD's largest value may come from the
		 * heap; on huge pages a new block and one copy, since realloc
		 * would copy into 4 KiB pages) */
		if (sizeof(size_t) >= 8 && c * elem < RESERVE_BYTES)
			c = (RESERVE_BYTES + elem - 1) / elem;
		if (lbtfi_huge_pages()) {
			n = lbtfi_malloc_big(c * elem);
			if (!n)
				return -ENOMEM;
			if (*p)
				memcpy(n, *p, *cap * elem);
			free(*p);
			*p = n;
			*cap = c;
			return 0;
		}
	}
	n = realloc(*p, c * elem);
	if (!n)
		return -ENOMEM;
	/* (a big block grown where it is: the hint for its new part) */
	if (c * elem >= LBTFI_BIG_BYTES)
		huge_hint(n, c * elem);
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
	if (bytes >= LBTFI_BIG_BYTES)
		huge_hint(p, bytes);
	lbtfi_madvise_inside(p, bytes, 0, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)bytes;
#endif
}
