// SPDX-License-Identifier: BSD-2-Clause
/* Work done beside the caller: see side.h */
#include "side.h"
#include "util/tls.h"

static LBTFI_TLS bool solo; /* lbtfi_side_solo */

bool lbtfi_side_solo(bool on)
{
	bool was = solo;

	solo = on;
	return was;
}

bool lbtfi_side_start_stack(struct lbtfi_side *s, void *(*fn)(void *), void *arg, size_t stack)
{
	s->on_thread = false;
#ifdef LBTFI_ONE_THREAD
	/* a build for a program with one thread (util/tls.h): its
	 * thread-locals are plain statics, so no second thread may run */
	(void)stack;
#else
	pthread_attr_t attr;

	if (solo) {
		/* (run here, below) */
	} else if (stack && !pthread_attr_init(&attr)) {
		s->on_thread = !pthread_attr_setstacksize(&attr, stack) &&
			       !pthread_create(&s->tid, &attr, fn, arg);
		pthread_attr_destroy(&attr);
	} else {
		s->on_thread = !pthread_create(&s->tid, NULL, fn, arg);
	}
#endif
	if (!s->on_thread)
		fn(arg);
	return s->on_thread;
}

bool lbtfi_side_start(struct lbtfi_side *s, void *(*fn)(void *), void *arg)
{
	return lbtfi_side_start_stack(s, fn, arg, 0);
}

void lbtfi_side_join(struct lbtfi_side *s)
{
	if (s->on_thread)
		pthread_join(s->tid, NULL);
	s->on_thread = false;
}
