/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The calling thread's malloc heap on transparent huge pages (not
 * installed): see heap.c.
 */
#ifndef LIBBTF_UTIL_HEAP_H
#define LIBBTF_UTIL_HEAP_H

#include <stdint.h>

/* Where it can act: glibc's own malloc (not a sanitizer's, whose blocks
 * have no glibc chunk before them), on a 64-bit system */
#if defined(__SANITIZE_ADDRESS__)
#define LBTFI_HEAP_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LBTFI_HEAP_SANITIZED 1
#endif
#endif
#if defined(__GLIBC__) && !defined(LBTFI_HEAP_SANITIZED) && UINTPTR_MAX > 0xffffffffu
#define LBTFI_HEAP_HUGE_ACTS 1
#endif

/* A hint, for a thread about to allocate tens of megabytes in small
 * blocks: where big blocks go on huge pages (lbtfi_huge_pages), glibc's
 * heap of the calling thread's arena advised MADV_HUGEPAGE; elsewhere,
 * and for the main arena, nothing */
void lbtfi_heap_huge(void);

#endif
