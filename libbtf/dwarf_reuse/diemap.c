// SPDX-License-Identifier: BSD-2-Clause
/*
 * Maps on 64-bit keys (DIE keys, type ids) with a 32-bit value, and the
 * unit's DIE table (struct lbtfi_dw_dies: a DIE's BTF id, signature and where a
 * reference to it led, in one 40-byte slot, found through an index by the
 * DIE's offset in its unit; the map below as its side table). Both are
 * reused (cleared, not freed) from one unit to the next by a worker.
 *
 * The map is open addressing, not libbtf's shared table (util/htab.h), on
 * purpose: the shared table keeps no keys, so a 64-bit key would cost an
 * indirection (a cache miss) per probe; here key, value and generation sit
 * in one 16-byte slot. A clear bumps the generation (slots of another one
 * are empty): the maps are cleared per unit and per name-map walk, and a
 * memset of a table grown by the largest unit, that often, would cost
 * more than the lookups. At most half full: lookups that miss are common.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/*
 * A slot is in use when it bears the map's generation, so that a clear is
 * O(1): size slots of slot bytes, zeroed (generation 0: empty), and a
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

int lbtfi_dw_dies_init(struct lbtfi_dw_dies *m)
{
	memset(m, 0, sizeof(*m));
	return lbtfi_dw_diemap_init(&m->side);
}

/* O(slots in use): the index entries they hold zeroed one by one */
void lbtfi_dw_dies_clear(struct lbtfi_dw_dies *m)
{
	uint32_t i;

	for (i = 0; i < m->cnt; i++) {
		uint64_t o = m->slots[i].key - m->lo;

		/* (a key of the window may be in the side table, its entry
		 * another key's: zeroed by that one, or already) */
		if (o < m->span)
			m->at[o >> LBTFI_DW_AT_SHIFT] = 0;
	}
	m->cnt = 0;
	lbtfi_dw_diemap_clear(&m->side);
}

int lbtfi_dw_dies_begin(struct lbtfi_dw_dies *m, uint64_t lo, uint64_t hi)
{
	uint64_t need = hi > lo ? (hi - lo + (1u << LBTFI_DW_AT_SHIFT) - 1) >> LBTFI_DW_AT_SHIFT : 0;

	lbtfi_dw_dies_clear(m);
	m->lo = lo;
	m->span = 0;
	if (need > m->capat) {
		/* (calloc: the pages of a large index come zeroed from the
		 * kernel and count only once touched) */
		uint32_t *at = calloc(need, sizeof(*at));

		if (!at)
			return lbtfi_err(ENOMEM, "out of memory");
		free(m->at);
		m->at = at;
		m->capat = need;
	}
	m->span = hi - lo;
	return 0;
}

void lbtfi_dw_dies_free(struct lbtfi_dw_dies *m)
{
	free(m->at);
	free(m->slots);
	lbtfi_dw_diemap_free(&m->side);
	memset(m, 0, sizeof(*m));
}

struct lbtfi_dw_die_slot *lbtfi_dw_dies_get_side(const struct lbtfi_dw_dies *m, uint64_t key)
{
	const uint32_t *v = lbtfi_dw_diemap_get(&m->side, key);

	return v ? &m->slots[*v] : NULL;
}

struct lbtfi_dw_die_slot *lbtfi_dw_dies_new_slot(struct lbtfi_dw_dies *m, uint64_t key)
{
	uint64_t o = key - m->lo;
	struct lbtfi_dw_die_slot *e;

	if (lbtfi_dw_grow(&m->slots, &m->cap, m->cnt, sizeof(*m->slots), 1024))
		return NULL;
	if (o < m->span && !m->at[o >> LBTFI_DW_AT_SHIFT])
		m->at[o >> LBTFI_DW_AT_SHIFT] = m->cnt + 1;
	else if (lbtfi_dw_diemap_put(&m->side, key, m->cnt))
		return NULL;
	e = &m->slots[m->cnt++];
	lbtfi_dw_die_slot_fresh(e, key);
	return e;
}

struct lbtfi_dw_die_slot *lbtfi_dw_dies_add_side(struct lbtfi_dw_dies *m, uint64_t key)
{
	struct lbtfi_dw_die_slot *e = lbtfi_dw_dies_get_side(m, key);

	return e ? e : lbtfi_dw_dies_new_slot(m, key);
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
