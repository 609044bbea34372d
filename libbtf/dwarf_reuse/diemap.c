// SPDX-License-Identifier: BSD-2-Clause
/*
 * Maps on 64-bit keys (DIE keys, type ids) with a 32-bit value, and the
 * unit's DIE table (struct lbtfi_dw_dies: a DIE's BTF id, signature and where a
 * reference to it led, in one 24-byte slot, placed by the DIE's offset):
 * open addressing, reused (cleared, not freed) from one unit to the next
 * by a worker.
 *
 * Not libbtf's shared table (util/htab.h), on purpose: every DIE reference
 * the converter follows is a lookup here (lbtfi_dw_diemap_get and put are a hot
 * spot of btfgen's profile on a kernel), and the shared table
 * keeps no keys, so a 64-bit key would cost an indirection (a cache miss)
 * per probe; here key, value and generation sit in one 16-byte slot. A
 * clear bumps the generation (slots of another one are empty): the maps are
 * cleared per unit and per name-map walk, and a memset of a table grown
 * by the largest unit, that often, would cost more than the lookups.
 * At most half full: lookups that miss are common.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/*
 * Both tables mark a slot in use by the generation it was written in, so
 * that a clear is O(1). Their slot layouts differ; these two steps they
 * share: size slots of slot bytes, zeroed (generation 0: empty), and a
 * clear (a new generation; the slots zeroed again only when it wraps).
 */
static void *gen_alloc(uint32_t size, size_t slot, uint32_t *mask, uint32_t *cnt)
{
	void *p = calloc(size, slot);

	if (!p) {
		lbtfi_err(ENOMEM, "out of memory");
		return NULL;
	}
	*mask = size - 1;
	*cnt = 0;
	return p;
}

static void gen_clear(void *slots, uint32_t mask, uint32_t *cnt, uint32_t *gen, size_t slot)
{
	if (!*cnt)
		return;
	*cnt = 0;
	if (++*gen == 0) {
		memset(slots, 0, ((size_t)mask + 1) * slot);
		*gen = 1;
	}
}

static int alloc_table(struct lbtfi_dw_diemap *m, uint32_t size)
{
	m->slots = gen_alloc(size, sizeof(*m->slots), &m->mask, &m->cnt);
	return m->slots ? 0 : -ENOMEM;
}

int lbtfi_dw_diemap_init(struct lbtfi_dw_diemap *m)
{
	memset(m, 0, sizeof(*m));
	m->gen = 1;
	return alloc_table(m, 1024);
}

/* O(1): the slots of older generations count as empty */
void lbtfi_dw_diemap_clear(struct lbtfi_dw_diemap *m)
{
	gen_clear(m->slots, m->mask, &m->cnt, &m->gen, sizeof(*m->slots));
}

void lbtfi_dw_diemap_free(struct lbtfi_dw_diemap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

static int grow(struct lbtfi_dw_diemap *m)
{
	struct lbtfi_dw_diemap old = *m;
	uint32_t i;
	int err = alloc_table(m, (old.mask + 1) * 2);

	if (err) {
		*m = old;
		return err;
	}
	for (i = 0; i <= old.mask; i++) {
		uint32_t h;

		if (old.slots[i].gen != old.gen)
			continue;
		for (h = lbtfi_dw_diemap_slot_of(old.slots[i].key, m->mask); m->slots[h].gen == m->gen;
		     h = (h + 1) & m->mask)
			;
		m->slots[h] = old.slots[i];
		m->cnt++;
	}
	free(old.slots);
	return 0;
}

int lbtfi_dw_diemap_put(struct lbtfi_dw_diemap *m, uint64_t key, uint32_t val)
{
	struct lbtfi_dw_diemap_slot *e;
	uint32_t h;

	if ((m->cnt + 1) * 2 > m->mask + 1) {
		int err = grow(m);

		if (err)
			return err;
	}
	for (h = lbtfi_dw_diemap_slot_of(key, m->mask); (e = &m->slots[h])->gen == m->gen; h = (h + 1) & m->mask) {
		if (e->key == key) {
			e->val = val;
			return 0;
		}
	}
	*e = (struct lbtfi_dw_diemap_slot){ key, val, m->gen };
	m->cnt++;
	return 0;
}

/* The unit's DIE table ----------------------------------------------------- */

static int dies_alloc(struct lbtfi_dw_dies *m, uint32_t size)
{
	m->slots = gen_alloc(size, sizeof(*m->slots), &m->mask, &m->cnt);
	return m->slots ? 0 : -ENOMEM;
}

int lbtfi_dw_dies_init(struct lbtfi_dw_dies *m)
{
	memset(m, 0, sizeof(*m));
	m->gen = 1;
	return dies_alloc(m, 1024);
}

void lbtfi_dw_dies_clear(struct lbtfi_dw_dies *m)
{
	m->hashed = false;
	gen_clear(m->slots, m->mask, &m->cnt, &m->gen, sizeof(*m->slots));
}

void lbtfi_dw_dies_free(struct lbtfi_dw_dies *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

/* The slots again, size times as many, placed as m->hashed says */
static int dies_rebuild(struct lbtfi_dw_dies *m, uint32_t size)
{
	struct lbtfi_dw_dies old = *m;
	uint32_t i;
	int err = dies_alloc(m, size);

	if (err) {
		*m = old;
		return err;
	}
	for (i = 0; i <= old.mask; i++) {
		uint32_t h;

		if (old.slots[i].gen != old.gen)
			continue;
		for (h = lbtfi_dw_dies_slot_of(m, old.slots[i].key); m->slots[h].gen == m->gen;
		     h = (h + 1) & m->mask)
			;
		m->slots[h] = old.slots[i];
		m->cnt++;
	}
	free(old.slots);
	return 0;
}

int lbtfi_dw_dies_grow(struct lbtfi_dw_dies *m)
{
	return dies_rebuild(m, (m->mask + 1) * 2);
}

struct lbtfi_dw_die_slot *lbtfi_dw_dies_add_hashed(struct lbtfi_dw_dies *m, uint64_t key)
{
	m->hashed = true;
	if (dies_rebuild(m, m->mask + 1)) {
		m->hashed = false;
		return NULL;
	}
	return lbtfi_dw_dies_add(m, key);
}

int lbtfi_dw_grow_slow(void *arr, uint32_t *cap, uint32_t n, size_t elem_size, uint32_t first_cap)
{
	size_t c = *cap, need = (size_t)n + 1;

	if (n < *cap)
		return 0;
	if (!c && need < first_cap)
		need = first_cap;
	if (need > UINT32_MAX || lbtfi_grow(arr, &c, need, elem_size) || c > UINT32_MAX)
		return lbtfi_err(ENOMEM, "out of memory");
	*cap = (uint32_t)c;
	return 0;
}
