// SPDX-License-Identifier: BSD-2-Clause
/* The shared hash table's allocation and growth (see htab.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util/grow.h"
#include "util/htab.h"

#define MAX_SLOTS (1u << 31)
#define MIN_SLOTS 16u

static uint32_t limit_of(uint32_t size, unsigned int load)
{
	return (uint32_t)((uint64_t)size * load / 4);
}

/* slots for want values at the table's load */
static int size_for(uint64_t want, unsigned int load, uint32_t *size)
{
	uint64_t s = MIN_SLOTS;

	while (limit_of((uint32_t)s, load) < want || limit_of((uint32_t)s, load) == 0) {
		if (s >= MAX_SLOTS)
			return -E2BIG;
		s *= 2;
	}
	*size = (uint32_t)s;
	return 0;
}

/* A table written whole (memset) from this size on takes one huge page
 * where big blocks go on them (lbtfi_huge_pages: where a 4 KiB fault is
 * costly), cheaper there than faulting in its 128 and more 4 KiB pages;
 * elsewhere it keeps its size */
#define HUGE_TABLE_BYTES ((size_t)512 << 10)

static int alloc_slots(struct lbtfi_htab *t, uint32_t size)
{
	size_t bytes = (size_t)size * sizeof(struct lbtfi_hslot);
	bool one_huge_page = bytes >= HUGE_TABLE_BYTES && bytes < LBTFI_BIG_BYTES && lbtfi_huge_pages();
	struct lbtfi_hslot *s = lbtfi_malloc_big(one_huge_page ? LBTFI_BIG_BYTES : bytes);

	if (!s)
		return -ENOMEM;
	lbtfi_prefault(s, (size_t)size * sizeof(*s));
	memset(s, 0xff, (size_t)size * sizeof(*s));
	t->slots = s;
	t->mask = size - 1;
	t->cnt = 0;
	t->limit = limit_of(size, t->load);
	return 0;
}

int lbtfi_htab_init(struct lbtfi_htab *t, uint32_t expected, unsigned int load)
{
	uint32_t size;
	int err;

	memset(t, 0, sizeof(*t));
	t->load = load == 2 ? 2 : 3;
	if ((err = size_for(expected, t->load, &size)))
		return err;
	return alloc_slots(t, size);
}

void lbtfi_htab_free(struct lbtfi_htab *t)
{
	free(t->slots);
	t->slots = NULL;
	t->mask = t->cnt = t->limit = 0;
}

void lbtfi_htab_clear(struct lbtfi_htab *t)
{
	if (t->slots)
		memset(t->slots, 0xff, ((size_t)t->mask + 1) * sizeof(*t->slots));
	t->cnt = 0;
}

int lbtfi_htab_copy(struct lbtfi_htab *dst, const struct lbtfi_htab *src)
{
	size_t bytes = ((size_t)src->mask + 1) * sizeof(*src->slots);

	*dst = *src;
	if (!src->slots)
		return 0;
	dst->slots = lbtfi_malloc_big(bytes);
	if (!dst->slots)
		return -ENOMEM;
	lbtfi_prefault(dst->slots, bytes);
	memcpy(dst->slots, src->slots, bytes);
	return 0;
}

int lbtfi_htab_reserve(struct lbtfi_htab *t, uint32_t more)
{
	uint64_t want = (uint64_t)t->cnt + more;
	struct lbtfi_htab old = *t;
	uint32_t size;
	int err;

	if (want <= t->limit && t->slots)
		return 0;
	if ((err = size_for(want, t->load, &size)) || (err = alloc_slots(t, size))) {
		*t = old;
		return err;
	}
	for (uint32_t i = 0; old.slots && i <= old.mask; i++)
		if (old.slots[i].val != LBTFI_HTAB_FREE)
			lbtfi_htab_put(t, old.slots[i].hash, old.slots[i].val);
	free(old.slots);
	return 0;
}
