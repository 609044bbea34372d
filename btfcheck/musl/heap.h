/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * btfcheck's heap in its musl build: malloc and its family for a process
 * with one thread that checks a few objects and exits (see heap.c for why).
 * The names are ours so that the unit test can run them under any libc;
 * malloc.c gives them libc's names in the musl link.
 */
#ifndef BTFCHECK_HEAP_H
#define BTFCHECK_HEAP_H

#include <stddef.h>

void *btfcheck_heap_alloc(size_t n);
void *btfcheck_heap_calloc(size_t count, size_t n);
void *btfcheck_heap_realloc(void *p, size_t n);
/* align: a power of two (EINVAL otherwise) */
void *btfcheck_heap_aligned(size_t align, size_t n);
void btfcheck_heap_free(void *p);
size_t btfcheck_heap_usable(const void *p);

/* the first region, at the end of .bss (see heap.c) */
extern char btfcheck_heap_first[];

#endif
