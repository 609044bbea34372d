// SPDX-License-Identifier: BSD-2-Clause
/*
 * libc's allocation functions in btfcheck's musl link are heap.c's. musl
 * lets a program replace its malloc: a static link then takes none of
 * mallocng, and libc's own callers (strdup, getline, fopen...) come here.
 * A few of musl's functions allocate for themselves through __libc_malloc,
 * __libc_calloc and __libc_free instead (time zones, locales, atexit past
 * its first 32, posix_spawn's file actions); linking one would bring a
 * second allocator in silently (brk-based, from lite_malloc.c).
 * btfcheck calls none of them: tests/verify/check_btfcheck_heap.sh checks
 * that its link holds none of those symbols.
 */
#include <errno.h>
#include <stdlib.h>
#include <malloc.h>

#include "heap.h"

void *malloc(size_t n)
{
	return btfcheck_heap_alloc(n);
}

void *calloc(size_t count, size_t n)
{
	return btfcheck_heap_calloc(count, n);
}

void *realloc(void *p, size_t n)
{
	return btfcheck_heap_realloc(p, n);
}

void free(void *p)
{
	btfcheck_heap_free(p);
}

void *aligned_alloc(size_t align, size_t n)
{
	return btfcheck_heap_aligned(align, n);
}

void *memalign(size_t align, size_t n)
{
	return btfcheck_heap_aligned(align, n);
}

int posix_memalign(void **res, size_t align, size_t n)
{
	void *p;

	if (align < sizeof(void *))
		return EINVAL;
	p = btfcheck_heap_aligned(align, n);
	if (!p)
		return errno;
	*res = p;
	return 0;
}

size_t malloc_usable_size(void *p)
{
	return btfcheck_heap_usable(p);
}
