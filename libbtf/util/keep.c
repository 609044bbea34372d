// SPDX-License-Identifier: BSD-2-Clause
/* Work blocks kept between calls: see keep.h */
#include <stdlib.h>
#include "keep.h"

void *lbtfi_keep_take(struct lbtfi_keep *k, size_t n, size_t *cap)
{
	void *p = k->p;

	if (p && k->cap >= n) {
		*cap = k->cap;
		k->p = NULL;
		k->cap = 0;
		return p;
	}
	/* too small: the kept one stays for a smaller request */
	p = malloc(n ? n : 1);
	*cap = p ? n : 0;
	return p;
}

void lbtfi_keep_give(struct lbtfi_keep *k, void *p, size_t cap)
{
	if (!p)
		return;
	if (cap > LBTFI_KEEP_MAX || (k->p && k->cap >= cap)) {
		free(p);
		return;
	}
	free(k->p);
	k->p = p;
	k->cap = cap;
}
