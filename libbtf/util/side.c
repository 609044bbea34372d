// SPDX-License-Identifier: BSD-2-Clause
/* Work done beside the caller: see side.h */
#include "side.h"

bool lbtfi_side_start(struct lbtfi_side *s, void *(*fn)(void *), void *arg)
{
	s->on_thread = !pthread_create(&s->tid, NULL, fn, arg);
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
