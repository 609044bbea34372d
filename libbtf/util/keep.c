// SPDX-License-Identifier: BSD-2-Clause
/* Work blocks kept between calls: see keep.h */
#include <pthread.h>
#include <stdlib.h>
#include "keep.h"
#include "util/tls.h"

/*
 * The least a new block holds: the small index arrays (functions, global
 * variables, maps) then fit the next objects too instead of growing one
 * size class at a time, each growth a block in a new group of fresh pages
 * under musl's malloc. Larger minimums measured worse (18 objects: 70
 * faults at 64-512 bytes, 84 at 1 KiB, 109 at 4 KiB), and still do with
 * btfcheck's own heap (btfcheck/musl/heap.c; the 13 objects of the build's
 * gate: 33 faults at 256 bytes, 34 at 2 KiB, 38 at 8 and 16 KiB).
 */
#define KEEP_MIN ((size_t)256)

/* the keeps this thread has filled, freed by thread_exit() */
static LBTFI_TLS struct lbtfi_keep *listed;
static size_t held; /* bytes kept, all threads (atomic) */

#ifdef LBTFI_ONE_THREAD
/*
 * One thread, the process's main one, whose blocks are kept until exit: no
 * exit to arrange, so no pthread key. (Linking one costs btfcheck's musl
 * build 2 KB of .bss, musl's key table and the main thread's values: a
 * page of the few a fresh process touches.)
 */
static bool list(struct lbtfi_keep *k)
{
	if (!k->listed) {
		k->next = listed;
		listed = k;
		k->listed = true;
	}
	return true;
}
#else
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static bool exit_key_ok;

static void thread_exit(void *unused)
{
	(void)unused;
	while (listed) {
		struct lbtfi_keep *k = listed;

		listed = k->next;
		if (k->p)
			__atomic_sub_fetch(&held, k->cap, __ATOMIC_RELAXED);
		free(k->p);
		k->p = NULL;
		k->cap = 0;
		k->next = NULL;
		k->listed = false;
	}
}

static void make_exit_key(void)
{
	exit_key_ok = !pthread_key_create(&exit_key, thread_exit);
}

/* k on this thread's list, the thread's exit arranged to free it: false
 * when it cannot be (no key, or no room for the thread's value) */
static bool list(struct lbtfi_keep *k)
{
	if (k->listed)
		return true;
	pthread_once(&exit_once, make_exit_key);
	/* the key's value only has to be non-NULL for the destructor to run */
	if (!exit_key_ok || (!listed && pthread_setspecific(exit_key, &listed)))
		return false;
	k->next = listed;
	listed = k;
	k->listed = true;
	return true;
}
#endif

void *lbtfi_keep_take(struct lbtfi_keep *k, size_t n, size_t *cap)
{
	void *p = k->p;

	if (p && k->cap >= n) {
		*cap = k->cap;
		__atomic_sub_fetch(&held, k->cap, __ATOMIC_RELAXED);
		k->p = NULL;
		k->cap = 0;
		return p;
	}
	/* too small: the kept one stays for a smaller request */
	if (n < KEEP_MIN)
		n = KEEP_MIN;
	p = malloc(n);
	*cap = p ? n : 0;
	return p;
}

void lbtfi_keep_give(struct lbtfi_keep *k, void *p, size_t cap)
{
	if (!p)
		return;
	if (cap > LBTFI_KEEP_MAX || (k->p && k->cap >= cap) || !list(k)) {
		free(p);
		return;
	}
	if (k->p)
		__atomic_sub_fetch(&held, k->cap, __ATOMIC_RELAXED);
	free(k->p);
	k->p = p;
	k->cap = cap;
	__atomic_add_fetch(&held, cap, __ATOMIC_RELAXED);
}

size_t lbtfi_keep_held(void)
{
	return __atomic_load_n(&held, __ATOMIC_RELAXED);
}
