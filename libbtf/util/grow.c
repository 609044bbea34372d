// SPDX-License-Identifier: BSD-2-Clause
/* The shared array growth policy (see grow.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include "util/grow.h"

#define MIN_CAP 16

int lbtfi_grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap < MIN_CAP ? MIN_CAP : *cap;
	void *n;

	while (c < need) {
		if (c > SIZE_MAX / 2 / elem)
			return -E2BIG;
		c *= 2;
	}
	if (c > SIZE_MAX / elem)
		return -E2BIG;
	n = realloc(*p, c * elem);
	if (!n)
		return -ENOMEM;
	*p = n;
	*cap = c;
	return 0;
}
