// SPDX-License-Identifier: BSD-2-Clause
/*
 * Interned strings for the builder and dedup: an owned byte buffer indexed
 * by an open-addressing hash set (linear probing, hash kept in the slot and
 * in the offset-ordered entry list, so neither growing nor appending a set
 * rehashes strings), and a read-only index over a parsed BTF's strings (the
 * base of split BTF).
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define MAX_STRS_LEN 0x7fffffffu
#define MAX_STRS (1u << 30)

/* The table again from the set's first cnt entries (seq) */
static int rebuild_table(struct lbtfi_strset *ss, uint32_t cnt)
{
	int err;

	ss->cnt = cnt;
	lbtfi_htab_clear(&ss->tab);
	if ((err = lbtfi_htab_reserve(&ss->tab, cnt)))
		return err;
	for (uint32_t i = 0; i < cnt; i++)
		lbtfi_htab_put(&ss->tab, ss->seq[i].hash, ss->seq[i].off);
	return 0;
}

/* Room for n more entries: table and seq */
static int reserve(struct lbtfi_strset *ss, uint32_t n)
{
	uint64_t want = (uint64_t)ss->cnt + n;
	int err;

	if (want > MAX_STRS)
		return -E2BIG;
	if ((err = lbtfi_htab_reserve(&ss->tab, n)))
		return err;
	return LBTFI_GROW(ss->seq, ss->seq_cap, want);
}

/* Room for len more bytes */
static int reserve_bytes(struct lbtfi_strset *ss, size_t len)
{
	if (ss->len + len > MAX_STRS_LEN)
		return -E2BIG;
	return LBTFI_GROW(ss->data, ss->cap, ss->len + len);
}

/* Append s (len bytes and its NUL) as a new entry; room was reserved */
static uint32_t push(struct lbtfi_strset *ss, const char *s, size_t len, uint32_t hash)
{
	uint32_t off = (uint32_t)ss->len;

	memcpy(ss->data + ss->len, s, len + 1);
	ss->len += len + 1;
	lbtfi_htab_put(&ss->tab, hash, off);
	ss->seq[ss->cnt++] = (struct lbtfi_strset_slot){ off, hash };
	return off;
}

/*
 * Sized for a typical compile unit of a kernel (~3000 strings, ~36 KB; btfgen
 * makes a builder per unit): grown there from a small table, each unit's
 * builder would rebuild its table three times while interning strings.
 */
int lbtfi_strset_init(struct lbtfi_strset *ss, bool leading_empty)
{
	memset(ss, 0, sizeof(*ss));
	if (LBTFI_GROW(ss->data, ss->cap, 16384) || lbtfi_htab_init(&ss->tab, 6144, 3) ||
	    reserve(ss, 2048)) {
		lbtfi_strset_free(ss);
		return -ENOMEM;
	}
	if (leading_empty) {
		ss->data[0] = '\0';
		ss->len = 1;
	}
	return 0;
}

int lbtfi_strset_copy(struct lbtfi_strset *dst, const struct lbtfi_strset *src)
{
	memset(dst, 0, sizeof(*dst));
	if (LBTFI_GROW(dst->data, dst->cap, src->cap) || lbtfi_htab_copy(&dst->tab, &src->tab) ||
	    LBTFI_GROW(dst->seq, dst->seq_cap, src->seq_cap)) {
		lbtfi_strset_free(dst);
		return -ENOMEM;
	}
	memcpy(dst->data, src->data, src->len);
	memcpy(dst->seq, src->seq, src->cnt * sizeof(*src->seq));
	dst->len = src->len;
	dst->cnt = src->cnt;
	return 0;
}

void lbtfi_strset_free(struct lbtfi_strset *ss)
{
	free(ss->data);
	lbtfi_htab_free(&ss->tab);
	free(ss->seq);
	memset(ss, 0, sizeof(*ss));
}

static int64_t lookup(const struct lbtfi_strset *ss, const char *s, size_t len, uint32_t h)
{
	LBTFI_HTAB_FOR_EACH(&ss->tab, h, i, off)
		if (!memcmp(ss->data + off, s, len + 1))
			return off;
	return -1;
}

int64_t lbtfi_strset_find(const struct lbtfi_strset *ss, const char *s)
{
	size_t len;
	uint32_t h = lbtfi_str_hash(s, &len);

	return lookup(ss, s, len, h);
}

int64_t lbtfi_strset_add(struct lbtfi_strset *ss, const char *s)
{
	size_t len;
	uint32_t h = lbtfi_str_hash(s, &len);
	int64_t off = lookup(ss, s, len, h);
	int err;

	if (off >= 0)
		return off;
	/* the string may live in our own buffer: remember where */
	if ((uintptr_t)s - (uintptr_t)ss->data < ss->len) {
		size_t at = (size_t)((uintptr_t)s - (uintptr_t)ss->data);

		if ((err = reserve_bytes(ss, len + 1)) || (err = reserve(ss, 1)))
			return err;
		return push(ss, ss->data + at, len, h);
	}
	if ((err = reserve_bytes(ss, len + 1)) || (err = reserve(ss, 1)))
		return err;
	return push(ss, s, len, h);
}

/*
 * Intern every entry of src, in src's offset order (which decides where new
 * strings land, and so the output's string order). The hashes come from
 * src's entries. The lookups are software-pipelined: slots and then string
 * bytes of upcoming strings are prefetched while the current one is
 * resolved, since a big set misses the cache on nearly every probe.
 */
#define PF_DIST 8

int lbtfi_strset_add_set(struct lbtfi_strset *ss, const struct lbtfi_strset *src, uint32_t *map)
{
	const struct lbtfi_strset_slot *p = src->seq;
	uint32_t n = src->cnt;
	int err;

	/* room for all of them up front: no table or buffer moves below */
	if ((err = reserve_bytes(ss, src->len)) || (err = reserve(ss, n)))
		return err;
	for (uint32_t i = 0; i < n; i++) {
		const char *s = src->data + p[i].off;
		size_t len;
		int64_t off;

		if (i + PF_DIST < n)
			__builtin_prefetch(lbtfi_htab_home(&ss->tab, p[i + PF_DIST].hash));
		if (i + PF_DIST / 2 < n) {
			const struct lbtfi_hslot *sl = lbtfi_htab_home(&ss->tab, p[i + PF_DIST / 2].hash);
			if (sl->val != LBTFI_HTAB_FREE)
				__builtin_prefetch(ss->data + sl->val);
		}
		if (!(len = strlen(s)))
			continue; /* "" is offset 0, never an entry */
		off = lookup(ss, s, len, p[i].hash);
		if (off < 0)
			off = push(ss, s, len, p[i].hash);
		map[p[i].off] = (uint32_t)off + 1;
	}
	return 0;
}

int lbtfi_strset_reserve(struct lbtfi_strset *ss, size_t bytes, uint32_t entries)
{
	int err = reserve_bytes(ss, bytes);

	return err ? err : reserve(ss, entries);
}

int lbtfi_strset_adopt(struct lbtfi_strset *ss, const char *strs, uint32_t len, uint32_t cnt)
{
	int err;

	if ((err = reserve_bytes(ss, len - 1)) || (err = reserve(ss, cnt)))
		return err;
	memcpy(ss->data + 1, strs + 1, len - 1);
	for (uint32_t off = 1; off < len;) {
		size_t n;
		uint32_t h = lbtfi_str_hash(ss->data + off, &n), i = h & ss->tab.mask, v;

		/* (lookup and lbtfi_htab_put in one probe: the string goes to
		 * the free slot that ends the search for it) */
		for (; (v = ss->tab.slots[i].val) != LBTFI_HTAB_FREE; i = (i + 1) & ss->tab.mask)
			if (ss->tab.slots[i].hash == h && !memcmp(ss->data + v, ss->data + off, n + 1)) {
				ss->len = 1;
				return rebuild_table(ss, 0) ? -ENOMEM : 1;
			}
		ss->tab.slots[i] = (struct lbtfi_hslot){ h, off };
		ss->tab.cnt++;
		ss->seq[ss->cnt++] = (struct lbtfi_strset_slot){ off, h };
		off += (uint32_t)n + 1;
	}
	ss->len = len;
	return 0;
}

int lbtfi_strset_truncate(struct lbtfi_strset *ss, size_t len)
{
	uint32_t cnt = ss->cnt;

	if (len >= ss->len)
		return 0;
	while (cnt && ss->seq[cnt - 1].off >= len)
		cnt--;
	ss->len = len;
	return rebuild_table(ss, cnt);
}

int lbtfi_strset_reindex(struct lbtfi_strset *ss, uint32_t cnt)
{
	return rebuild_table(ss, cnt);
}

/* ---- index over a parsed BTF's strings ---- */

/*
 * The index's own hash (lookups come only through lbtfi_strindex_find), a
 * word at a time: building the index hashes every string of a vmlinux
 * base (100k strings, 1.8 MB) once per module run. Defined on the string's
 * bytes as loaded 8 at a time, the bytes at and after its NUL zeroed, so
 * that the build can scan the section word by word (str_scan: the NUL
 * found in the word it is in, no strlen pass) and a lookup of any string
 * (index_hash: strlen, then its words) gives the same value.
 */
#define HASH_SEED 0x9e3779b97f4a7c15ull

static inline uint64_t hash_word(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0xff51afd7ed558ccdull;
	return h ^ (h >> 32);
}

/* tail: the last word, bytes from the NUL on zero (0 if len % 8 == 0) */
static inline uint32_t hash_end(uint64_t h, uint64_t tail, size_t len)
{
	h = ((h ^ tail) + len) * 0xc4ceb9fe1a85ec53ull;
	h ^= h >> 29;
	return lbtfi_hash_fin((uint32_t)h ^ (uint32_t)(h >> 32));
}

static uint32_t index_hash(const char *s, size_t *len)
{
	size_t n = strlen(s), k = n;
	uint64_t h = HASH_SEED, w;

	for (; k >= 8; k -= 8, s += 8) {
		memcpy(&w, s, 8);
		h = hash_word(h, w);
	}
	w = 0;
	memcpy(&w, s, k);
	*len = n;
	return hash_end(h, w, n);
}

/* 0x80 in each byte of v that is zero, 0 in the others (exact: no
 * borrow from one byte into the next) */
static inline uint64_t zero_bytes(uint64_t v)
{
	const uint64_t m = 0x7f7f7f7f7f7f7f7full;

	return ~(((v & m) + m) | v | m);
}

/*
 * index_hash of the string at s, which ends before end (its NUL included:
 * the section's last byte is a NUL), read a word at a time; its length in
 * *len.
 */
static inline uint32_t str_scan(const char *s, const char *end, size_t *len)
{
	uint64_t h = HASH_SEED, w, z;
	const char *p = s;

	for (;; p += 8) {
		if (end - p >= 8) {
			memcpy(&w, p, 8);
		} else {
			w = 0;
			memcpy(&w, p, (size_t)(end - p));
		}
		z = zero_bytes(w);
		if (z)
			break;
		h = hash_word(h, w);
	}
	/* keep the bytes before the first zero one, in memory order */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	{
		unsigned int k = (unsigned int)__builtin_ctzll(z) / 8;

		w = k ? w & (~0ull >> (64 - 8 * k)) : 0;
		*len = (size_t)(p - s) + k;
	}
#else
	{
		unsigned int k = (unsigned int)__builtin_clzll(z) / 8;

		w = k ? w & (~0ull << (64 - 8 * k)) : 0;
		*len = (size_t)(p - s) + k;
	}
#endif
	return hash_end(h, w, *len);
}

/*
 * Offset of s (len bytes, hash h) in the index, or -1. A string section
 * may hold a string twice (not a deduplicated one): the first, lowest
 * offset is the one (every string is indexed, without a probe for an
 * earlier copy when the index is built)
 */
static int64_t find_hashed(const struct lbtfi_strindex *si, const char *s, size_t len, uint32_t h)
{
	int64_t found = -1;

	LBTFI_HTAB_FOR_EACH(&si->tab, h, i, off) {
		const char *t;

		if (found >= 0 && off >= found)
			continue;
		t = lbtf_name_by_offset(si->btf, off);
		if (t && !memcmp(t, s, len + 1))
			found = off;
	}
	return found;
}

static int index_level(struct lbtfi_strindex *si, const struct lbtf *btf)
{
	struct lbtfi_htab_ring ring = { 0 };
	uint32_t len, start;
	const char *s;
	int err;

	if (lbtf_base(btf) && (err = index_level(si, lbtf_base(btf))))
		return err;
	s = lbtf_strings(btf, &len);
	start = btf->start_str_off;
	/* the slots are random places in a table of megabytes: delayed adds */
	for (uint32_t off = 0; off < len;) {
		size_t n;
		uint32_t h = str_scan(s + off, s + len, &n);

		if ((err = lbtfi_htab_ring_add(&si->tab, &ring, h, start + off)))
			return err;
		off += n + 1;
	}
	return lbtfi_htab_ring_flush(&si->tab, &ring);
}

int lbtfi_strindex_build(struct lbtfi_strindex *si, const struct lbtf *btf)
{
	uint64_t bytes = 0;
	int err;

	memset(si, 0, sizeof(*si));
	for (const struct lbtf *l = btf; l; l = lbtf_base(l)) {
		uint32_t len;
		lbtf_strings(l, &len);
		bytes += len;
	}
	/* a vmlinux has ~18 bytes a string: sized for one per 16 bytes (the
	 * table is 3/4 full at most), it does not grow on real BTF */
	if ((err = lbtfi_htab_init(&si->tab, (uint32_t)(bytes / 16 + 16), 3)))
		return err;
	si->btf = btf;
	err = index_level(si, btf);
	if (err)
		lbtfi_strindex_free(si);
	return err;
}

void lbtfi_strindex_free(struct lbtfi_strindex *si)
{
	lbtfi_htab_free(&si->tab);
	memset(si, 0, sizeof(*si));
}

int64_t lbtfi_strindex_find(const struct lbtfi_strindex *si, const char *s)
{
	size_t len;
	uint32_t h;

	if (!si->tab.slots)
		return -1;
	h = index_hash(s, &len);
	return find_hashed(si, s, len, h);
}

int64_t lbtfi_strindex_find_cached(const struct lbtfi_strindex *si,
				   struct lbtfi_strcache_slot **cache, const char *s)
{
	struct lbtfi_strcache_slot *slot;
	size_t len;
	uint32_t h;
	int64_t off;

	if (!si->tab.slots)
		return -1;
	h = index_hash(s, &len);
	if (!*cache && !(*cache = calloc(LBTFI_STRCACHE_SLOTS, sizeof(**cache))))
		return find_hashed(si, s, len, h); /* (no room: without the cache) */
	slot = &(*cache)[h & (LBTFI_STRCACHE_SLOTS - 1)];
	if (slot->off && slot->hash == h) {
		const char *t = lbtf_name_by_offset(si->btf, slot->off);

		if (t && !memcmp(t, s, len + 1))
			return slot->off;
	}
	off = find_hashed(si, s, len, h);
	if (off > 0) {
		slot->hash = h;
		slot->off = (uint32_t)off;
	}
	return off;
}

/* ---- the index of a base, kept on it ---- */

static void *make_index(void *btf)
{
	struct lbtfi_strindex *si = malloc(sizeof(*si));

	if (si && lbtfi_strindex_build(si, btf)) {
		free(si);
		si = NULL;
	}
	return si;
}

static void drop_index(void *p)
{
	lbtfi_strindex_free(p);
	free(p);
}

const struct lbtfi_strindex *lbtfi_strindex_of(const struct lbtf *btf)
{
	static const char key;

	return lbtfi_derived_get(btf, &key, make_index, (void *)(uintptr_t)btf, drop_index);
}

/* ---- u32 -> u32 map ---- */

/* The slot hash is the finished key: a bijection, so equal hashes are
 * equal keys and the map needs no key array */
int lbtfi_offmap_init(struct lbtfi_offmap *m, uint32_t hint)
{
	return lbtfi_htab_init(&m->tab, hint, 2);
}

void lbtfi_offmap_free(struct lbtfi_offmap *m)
{
	lbtfi_htab_free(&m->tab);
}

int lbtfi_offmap_put(struct lbtfi_offmap *m, uint32_t key, uint32_t val)
{
	uint32_t h = lbtfi_hash_fin(key);

	LBTFI_HTAB_FOR_EACH(&m->tab, h, i, old) {
		(void)old;
		m->tab.slots[i].val = val;
		return 0;
	}
	return lbtfi_htab_add(&m->tab, h, val);
}
