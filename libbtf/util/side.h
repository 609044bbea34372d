/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Work done beside the caller: a function run on a thread of its own while
 * the caller goes on, then waited for. When no thread can be made, the
 * caller does the work itself, at once, so that it is done either way and
 * only the overlap is lost: the callers' work must not need the caller to
 * go on meanwhile (no waiting for what the caller does after the start).
 *
 *	struct lbtfi_side s = { 0 };
 *	lbtfi_side_start(&s, fn, arg);   ... the caller's own work ...
 *	lbtfi_side_join(&s);             (fn's work is done from here on)
 *
 * A zeroed struct lbtfi_side is one not started: joining it does nothing,
 * and a joined one may be joined again (cleanup paths join what they may
 * not have started). fn's return value is not used.
 */
#ifndef LIBBTF_UTIL_SIDE_H
#define LIBBTF_UTIL_SIDE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

struct lbtfi_side {
	pthread_t tid;
	bool on_thread;  /* fn runs on tid, to be joined */
};

/* fn(arg) on a thread of its own, or here, before this returns, when no
 * thread can be made; true: on a thread (s must stay until the join) */
bool lbtfi_side_start(struct lbtfi_side *s, void *(*fn)(void *), void *arg);

/* The same on a thread with a stack of stack bytes (0: the default), for
 * work that recurses deeply; run here, it has the caller's stack */
bool lbtfi_side_start_stack(struct lbtfi_side *s, void *(*fn)(void *), void *arg, size_t stack);

/* The work started on s done (a no-op when it ran on the caller, was
 * joined already or never started); s is then one not started */
void lbtfi_side_join(struct lbtfi_side *s);

/* While on, side work this thread starts runs here, at its start, as when
 * no thread can be made: one thread at a time, for work asked to take one
 * CPU (lbtf_dwarf_opts.jobs 1). Per thread, off in a new one; returns the
 * setting it replaces (to be put back) */
bool lbtfi_side_solo(bool on);

#endif
