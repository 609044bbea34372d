// SPDX-License-Identifier: BSD-2-Clause
/*
 * DIE -> BTF id map of one unit: open addressing on the DIE's 64-bit key,
 * reused (cleared, not freed) from one unit to the next by a worker.
 *
 * Not libbtf's shared table (util/htab.h), on purpose: every DIE reference
 * the converter follows is a lookup here (dw_diemap_get + put were 8.4% of
 * btfgen's profile on the Debian vmlinux, 2026-12-04), and the shared table
 * keeps no keys, so a 64-bit key would cost an indirection (a cache miss)
 * per probe; here key and value sit in the probed arrays.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static inline uint32_t key_slot(uint64_t key, uint32_t mask)
{
	key ^= key >> 29;
	key *= 0xbf58476d1ce4e5b9ull;
	key ^= key >> 32;
	return (uint32_t)key & mask;
}

static int alloc_table(struct dw_diemap *m, uint32_t size)
{
	m->keys = calloc(size, sizeof(*m->keys));
	m->vals = malloc(size * sizeof(*m->vals));
	if (!m->keys || !m->vals) {
		free(m->keys);
		free(m->vals);
		m->keys = NULL;
		m->vals = NULL;
		return lbtfi_err(ENOMEM, "out of memory");
	}
	m->mask = size - 1;
	m->cnt = 0;
	return 0;
}

int dw_diemap_init(struct dw_diemap *m)
{
	memset(m, 0, sizeof(*m));
	return alloc_table(m, 1024);
}

void dw_diemap_clear(struct dw_diemap *m)
{
	if (m->cnt)
		memset(m->keys, 0, ((size_t)m->mask + 1) * sizeof(*m->keys));
	m->cnt = 0;
}

void dw_diemap_free(struct dw_diemap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

uint32_t *dw_diemap_get(const struct dw_diemap *m, uint64_t key)
{
	uint32_t h;

	for (h = key_slot(key, m->mask); m->keys[h]; h = (h + 1) & m->mask)
		if (m->keys[h] == key)
			return &m->vals[h];
	return NULL;
}

static int grow(struct dw_diemap *m)
{
	struct dw_diemap old = *m;
	uint32_t i;
	int err = alloc_table(m, (old.mask + 1) * 2);

	if (err) {
		*m = old;
		return err;
	}
	for (i = 0; i <= old.mask; i++) {
		uint32_t h;

		if (!old.keys[i])
			continue;
		for (h = key_slot(old.keys[i], m->mask); m->keys[h]; h = (h + 1) & m->mask)
			;
		m->keys[h] = old.keys[i];
		m->vals[h] = old.vals[i];
		m->cnt++;
	}
	free(old.keys);
	free(old.vals);
	return 0;
}

int dw_diemap_put(struct dw_diemap *m, uint64_t key, uint32_t val)
{
	uint32_t h;

	if ((m->cnt + 1) * 4 > (m->mask + 1) * 3) {
		int err = grow(m);

		if (err)
			return err;
	}
	for (h = key_slot(key, m->mask); m->keys[h]; h = (h + 1) & m->mask) {
		if (m->keys[h] == key) {
			m->vals[h] = val;
			return 0;
		}
	}
	m->keys[h] = key;
	m->vals[h] = val;
	m->cnt++;
	return 0;
}
