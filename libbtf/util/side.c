// SPDX-License-Identifier: BSD-2-Clause
/* Work done beside the caller: see side.h */
#include "side.h"

bool lbtfi_side_start(struct lbtfi_side *s, void *(*fn)(void *), void *arg)
{
#ifdef LBTFI_ONE_THREAD
	/* a build for a program with one thread (util/tls.h): its
	 * thread-locals are plain statics, so no second thread may run */
	s->on_thread = false;
#else
	s->on_thread = !pthread_create(&s->tid, NULL, fn, arg);
#endif
	if (!s->on_thread)
		fn(arg);
	return s->on_thread;
}

void lbtfi_side_join(struct lbtfi_side *s)
{
	if (s->on_thread)
		pthread_join(s->tid, NULL);
	s->on_thread = false;
}
