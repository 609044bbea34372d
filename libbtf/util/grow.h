/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one growth policy for libbtf's arrays (not installed): capacity
 * doubles from a minimum until need fits, so n appends cost O(n) copies.
 *
 *	if ((err = LBTFI_GROW(a->ids, a->cap, a->cnt + 1)))
 *		return err;
 */
#ifndef LIBBTF_UTIL_GROW_H
#define LIBBTF_UTIL_GROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* *p (an array of *cap elements of elem bytes) holds at least need
 * elements afterwards: 0, or -ENOMEM/-E2BIG with *p and *cap unchanged */
int lbtfi_grow(void **p, size_t *cap, size_t need, size_t elem);

#define LBTFI_GROW(arr, cap, need) LBTFI_GROW_FROM(arr, cap, need, 0)

/* Blocks of this size and more are big: an array that grows past it
 * reserves a mapping of its own, on huge pages where they pay (grow.c) */
#define LBTFI_BIG_BYTES ((size_t)2 << 20)

/* malloc(bytes), a block freed by free(); from LBTFI_BIG_BYTES on, where
 * big blocks go on huge pages (lbtfi_huge_pages), aligned to and padded to
 * whole 2 MiB pages with a hint to back it by them */
void *lbtfi_malloc_big(size_t bytes);

/* Whether big blocks go on transparent huge pages: measured once per
 * process, what a first touch of a 4 KiB page costs (see grow.c) */
bool lbtfi_huge_pages(void);
/* The rule: huge pages pay from this cost of a 4 KiB page's first touch on */
bool lbtfi_huge_pays_at(uint64_t ns_per_fault);
/* The choice made (0 or 1), or measured again at the next use (-1): tests */
void lbtfi_huge_pages_set(int choice);

/* madvise(advice) over the whole pages of unit bytes (a power of two; 0:
 * the system's page size) inside [p, p + bytes), when there are any */
void lbtfi_madvise_inside(const void *p, size_t bytes, size_t unit, int advice);

/* A hint: the pages of a new block of that many bytes (256 KiB and more)
 * mapped now, in one call, since it is about to be written whole */
void lbtfi_prefault(void *p, size_t bytes);

/* The same, the first allocation at least first elements (a size typical
 * users reach anyway, so they do not pay the doublings up to it) */
#define LBTFI_GROW_FROM(arr, cap, need, first)                                         \
	__extension__({                                                                 \
		void *_gp = (arr);                                                      \
		size_t _gc = (cap), _gn = (need);                                       \
		int _ge = _gn <= _gc ? 0                                                \
			: lbtfi_grow(&_gp, &_gc, _gc || _gn > (first) ? _gn : (first),  \
				     sizeof(*(arr)));                                   \
		if (!_ge) {                                                             \
			(arr) = _gp;                                                    \
			(cap) = (__typeof__(cap))_gc;                                   \
		}                                                                       \
		_ge;                                                                    \
	})

#endif
