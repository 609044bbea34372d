// SPDX-License-Identifier: BSD-2-Clause
/*
 * The calling thread's malloc heap on transparent huge pages (heap.h).
 *
 * Why. A kernel's conversion makes most of its memory in blocks far
 * smaller than the big ones grow.c puts on huge pages: die maps, group
 * builders, reuse tables, string sets. They come from glibc's heap of the
 * thread's arena, 4 KiB at a first touch; where that touch costs more than
 * its share of clearing a huge page (lbtfi_huge_pages), the heap is worth
 * advising too. glibc does so itself with glibc.malloc.hugetlb=1, a tunable
 * read from the environment at the process's start, which a library
 * cannot set.
 *
 * How. A thread other than the first one allocates from a heap of its
 * arena: one mapping aligned to its own size, 64 MiB on 64-bit systems
 * (twice glibc's largest mmap threshold), made readable and writable from
 * its start as it grows. The mapping holding a block just allocated is
 * advised whole. A huge page only backs a 2 MiB-aligned range inside its
 * writable part, untouched yet: the advice pays when the heap is made
 * writable a large piece at a time (M_TOP_PAD: btfgen sets 32 MiB), not
 * when it grows a few pages at a time. The main arena (the first thread's,
 * grown by brk, each growth a mapping of its own) is left as it is.
 *
 * Only a hint: anything else (a heap of another size) costs at most a
 * refused or useless madvise call; musl, sanitizers' allocators and 32-bit
 * systems are left alone (LBTFI_HEAP_HUGE_ACTS).
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include "util/grow.h"
#include "util/heap.h"

#if defined(LBTFI_HEAP_HUGE_ACTS) && defined(MADV_HUGEPAGE)
/* glibc's heap of a non-main arena (HEAP_MAX_SIZE on 64-bit systems) */
#define ARENA_HEAP_BYTES ((uintptr_t)64 << 20)
/* The bit of a chunk's size word (the word before the block) that says it
 * is not from the main arena (glibc's NON_MAIN_ARENA) */
#define NON_MAIN_ARENA_BIT ((size_t)4)

void lbtfi_heap_huge(void)
{
	void *p;
	uintptr_t heap;
	const size_t *size_word;

	if (!lbtfi_huge_pages() || !(p = malloc(1)))
		return;
	/* (through an integer: the word is glibc's, before the block) */
	size_word = (const size_t *)((uintptr_t)p - sizeof(size_t));
	if (*size_word & NON_MAIN_ARENA_BIT) {
		heap = (uintptr_t)p & ~(ARENA_HEAP_BYTES - 1);
		madvise((void *)heap, ARENA_HEAP_BYTES, MADV_HUGEPAGE); /* (a hint) */
	}
	free(p);
}
#else
void lbtfi_heap_huge(void)
{
}
#endif
