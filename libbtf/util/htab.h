/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The shared hash table of libbtf (not installed): open addressing with linear
 * probing over a power-of-two array of (hash, value) slots. The table keeps
 * no keys: the caller owns them and decides equality, the slot's value (an
 * id, an offset, an index) leads to the key. Keeping the full hash in the
 * slot lets growth rehash without calling back into the caller and lets a
 * probe skip most non-matching slots without touching the key.
 *
 *	LBTFI_HTAB_FOR_EACH(&t, h, i, val)
 *		if (key_equal(val))
 *			return val;
 *
 * A value of LBTFI_HTAB_FREE marks a free slot, so it cannot be stored.
 * Growth reinserts in slot order, so a table's layout (and any output order
 * that depends on it) is deterministic.
 *
 * Every table of libbtf is this one but five of the DWARF converter's, each
 * with its reason where it is declared: the DIE map and the unit's DIE
 * table (dwarf/internal.h), the reuse's signature table (dwarf/reuse.c),
 * the signatures' edge set (dwarf/sig.c), the name table of clang's type
 * set (dwarf/bpfset.c).
 */
#ifndef LIBBTF_UTIL_HTAB_H
#define LIBBTF_UTIL_HTAB_H

#include <stdint.h>

#define LBTFI_HTAB_FREE UINT32_MAX

struct lbtfi_hslot {
	uint32_t hash;
	uint32_t val;
};

struct lbtfi_htab {
	struct lbtfi_hslot *slots;
	uint32_t mask;      /* slots - 1 */
	uint32_t cnt;       /* values stored */
	uint32_t limit;     /* cnt that triggers growth */
	uint8_t load;       /* maximum load, in quarters (2: half full, 3: 3/4) */
};

/* A table with room for expected values before it grows, at most load/4
 * full (load 2 or 3; 0 means 3). 0 or -ENOMEM/-E2BIG */
int lbtfi_htab_init(struct lbtfi_htab *t, uint32_t expected, unsigned int load);
void lbtfi_htab_free(struct lbtfi_htab *t);
/* Every slot free again, the size kept */
void lbtfi_htab_clear(struct lbtfi_htab *t);
/* dst (uninitialised) becomes a copy of src */
int lbtfi_htab_copy(struct lbtfi_htab *dst, const struct lbtfi_htab *src);
/* Room for more values without growing: 0 or -ENOMEM/-E2BIG */
int lbtfi_htab_reserve(struct lbtfi_htab *t, uint32_t more);

/* Store val under hash; room must have been reserved. No duplicate check:
 * look the key up first where duplicates matter. */
static inline void lbtfi_htab_put(struct lbtfi_htab *t, uint32_t hash, uint32_t val)
{
	uint32_t i = hash & t->mask;

	while (t->slots[i].val != LBTFI_HTAB_FREE)
		i = (i + 1) & t->mask;
	t->slots[i].hash = hash;
	t->slots[i].val = val;
	t->cnt++;
}

/* reserve(1) + put: 0 or -ENOMEM/-E2BIG */
static inline int lbtfi_htab_add(struct lbtfi_htab *t, uint32_t hash, uint32_t val)
{
	int err = t->cnt < t->limit ? 0 : lbtfi_htab_reserve(t, 1);

	if (!err)
		lbtfi_htab_put(t, hash, val);
	return err;
}

/* Every occupied slot i whose hash is h, in probe order, its value in v */
#define LBTFI_HTAB_FOR_EACH(t, h, i, v)                                                 \
	for (uint32_t i = (h) & (t)->mask, v;                                           \
	     ((v) = (t)->slots[i].val) != LBTFI_HTAB_FREE; i = (i + 1) & (t)->mask)     \
		if ((t)->slots[i].hash == (h))

/* The slot a probe for h starts at (for prefetching) */
static inline const struct lbtfi_hslot *lbtfi_htab_home(const struct lbtfi_htab *t, uint32_t h)
{
	return &t->slots[h & t->mask];
}

/*
 * Adds delayed by LBTFI_HTAB_RING: a value's slot is prefetched when it is
 * queued and filled LBTFI_HTAB_RING adds later, in queue order (the same
 * table as adding each at once). For filling a table of megabytes, where
 * each add would otherwise miss the cache. Start with a zeroed ring; end
 * with lbtfi_htab_ring_flush().
 */
#define LBTFI_HTAB_RING 16u

struct lbtfi_htab_ring {
	struct lbtfi_hslot q[LBTFI_HTAB_RING];
	uint32_t queued, added;
};

/* 0 or -ENOMEM/-E2BIG (from the add of an earlier value) */
static inline int lbtfi_htab_ring_add(struct lbtfi_htab *t, struct lbtfi_htab_ring *r,
				      uint32_t hash, uint32_t val)
{
	struct lbtfi_hslot *s = &r->q[r->queued % LBTFI_HTAB_RING];
	int err = 0;

	if (r->queued - r->added == LBTFI_HTAB_RING) {
		err = lbtfi_htab_add(t, s->hash, s->val);
		r->added++;
	}
	s->hash = hash;
	s->val = val;
	r->queued++;
	__builtin_prefetch(lbtfi_htab_home(t, hash), 1);
	return err;
}

/* The values still queued, added: 0 or -ENOMEM/-E2BIG */
static inline int lbtfi_htab_ring_flush(struct lbtfi_htab *t, struct lbtfi_htab_ring *r)
{
	int err = 0;

	for (; !err && r->added < r->queued; r->added++) {
		const struct lbtfi_hslot *s = &r->q[r->added % LBTFI_HTAB_RING];

		err = lbtfi_htab_add(t, s->hash, s->val);
	}
	return err;
}

/* Hash mixing and finishing (the finisher is a bijection on 32 bits: a
 * table keyed by a 32-bit number may compare finished hashes alone) */
static inline uint32_t lbtfi_hash_mix(uint32_t h, uint32_t v)
{
	h ^= v * 0x9e3779b1u;
	h = (h << 13) | (h >> 19);
	return h * 0x85ebca6bu + 0xc2b2ae35u;
}

static inline uint32_t lbtfi_hash_fin(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x7feb352du;
	h ^= h >> 15;
	h *= 0x846ca68bu;
	h ^= h >> 16;
	return h;
}

/* The string hash (FNV-1a, finished); *len gets strlen(s) */
static inline uint32_t lbtfi_str_hash(const char *s, size_t *len)
{
	uint32_t h = 2166136261u;
	const unsigned char *p = (const unsigned char *)s;

	while (*p)
		h = (h ^ *p++) * 16777619u;
	*len = (size_t)(p - (const unsigned char *)s);
	return lbtfi_hash_fin(h);
}

#endif
