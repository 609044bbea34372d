// SPDX-License-Identifier: BSD-2-Clause
/* The shared array growth policy (see grow.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "util/grow.h"

#define MIN_CAP 16

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
	n = realloc(*p, c * elem);
	if (!n)
		return -ENOMEM;
	*p = n;
	*cap = c;
	return 0;
}

/*
 * The pages of a large new block mapped in one call rather than faulted in
 * one at a time by the first writes (a module run over the vmlinux base
 * makes tables and arrays of its 125k types; a page fault costs
 * microseconds in a virtual machine). Only a hint: kernels before 5.14
 * refuse it, and the pages come by faults.
 */
void lbtfi_prefault(void *p, size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
	long pg = sysconf(_SC_PAGESIZE);
	uintptr_t a, b;

	if (!p || bytes < (256u << 10) || pg <= 0)
		return;
	a = ((uintptr_t)p + pg - 1) & ~(uintptr_t)(pg - 1);
	b = ((uintptr_t)p + bytes) & ~(uintptr_t)(pg - 1);
	if (a < b)
		madvise((void *)a, b - a, MADV_POPULATE_WRITE);
#else
	(void)p;
	(void)bytes;
#endif
}
