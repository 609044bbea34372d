/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A work block kept between calls (not installed): one per purpose and
 * thread, for arrays a call needs afresh each time and gives back at its
 * end. A command checking many small BPF objects in turn would otherwise
 * free and allocate the same few KiB for each, and musl's malloc hands
 * an emptied group of slots back to the kernel at once: an mmap, an munmap
 * and fresh page faults per block and object (btfcheck's musl build now
 * has a heap of its own that never does, btfcheck/musl/heap.c; a library
 * user on musl still has mallocng). Only blocks up to LBTFI_KEEP_MAX are
 * kept; larger ones are freed as before (their page faults dwarf the
 * call's own).
 *
 *	static LBTFI_TLS struct lbtfi_keep kept;
 *	p = lbtfi_keep_take(&kept, n, &cap);   ... lbtfi_keep_give(&kept, p, cap);
 *
 * The keeps a thread has filled are on a list of that thread's, and a
 * pthread key's destructor frees their blocks when the thread exits: a
 * library user whose threads come and go leaks nothing. The process's
 * main thread keeps its blocks until exit (no destructor runs there).
 */
#ifndef LIBBTF_UTIL_KEEP_H
#define LIBBTF_UTIL_KEEP_H

#include <stdbool.h>
#include <stddef.h>

#define LBTFI_KEEP_MAX ((size_t)256 << 10)

struct lbtfi_keep {
	void *p;    /* the kept block, or NULL */
	size_t cap; /* its size in bytes */
	struct lbtfi_keep *next; /* the thread's other filled keeps */
	bool listed;             /* on the thread's list */
};

/* A block of at least n bytes (contents undefined), *cap its size: the kept
 * one when it is large enough (the keep is then empty), else a new one;
 * NULL when out of memory */
void *lbtfi_keep_take(struct lbtfi_keep *k, size_t n, size_t *cap);

/* Done with p (cap bytes, from lbtfi_keep_take or malloc; NULL: nothing):
 * kept for the next take when it is no larger than LBTFI_KEEP_MAX and
 * larger than the block kept, which is freed; else freed (also when the
 * thread's exit could not be arranged to free it) */
void lbtfi_keep_give(struct lbtfi_keep *k, void *p, size_t cap);

/* Bytes kept by all threads now (for tests: a thread's exit gives its
 * blocks back) */
size_t lbtfi_keep_held(void);

#endif
