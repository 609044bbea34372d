// SPDX-License-Identifier: BSD-2-Clause
/*
 * Interned strings for the builder and dedup: an owned byte buffer indexed
 * by an open-addressing hash set (linear probing, hash kept in the slot and
 * in the offset-ordered entry list, so neither growing nor appending a set
 * rehashes strings), and a read-only index over a parsed BTF's strings (the
 * base of split BTF).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define EMPTY UINT32_MAX
#define MAX_STRS_LEN 0x7fffffffu

/* FNV-1a over the bytes, finalized; also returns the length. */
uint32_t lbtfi_str_hash(const char *s, size_t *len)
{
	uint32_t h = 2166136261u;
	const unsigned char *p = (const unsigned char *)s;

	while (*p)
		h = (h ^ *p++) * 16777619u;
	*len = (size_t)(p - (const unsigned char *)s);
	return lbtfi_hash_fin(h);
}

static struct lbtfi_strset_slot *new_table(uint32_t size)
{
	struct lbtfi_strset_slot *t = malloc((size_t)size * sizeof(*t));

	if (t)
		memset(t, 0xff, (size_t)size * sizeof(*t));
	return t;
}

static void put(struct lbtfi_strset_slot *tab, uint32_t mask, uint32_t off, uint32_t hash)
{
	uint32_t i = hash & mask;

	while (tab[i].off != EMPTY)
		i = (i + 1) & mask;
	tab[i].off = off;
	tab[i].hash = hash;
}

/* A table for the set's entries (seq) of at least size slots, room for
 * want entries at 3/4 full at most */
static int rebuild_table(struct lbtfi_strset *ss, uint32_t size, uint64_t want)
{
	struct lbtfi_strset_slot *t;

	while (want * 4 > size * 3ull) {
		if (size >= (1u << 30))
			return -E2BIG;
		size *= 2;
	}
	t = new_table(size);
	if (!t)
		return -ENOMEM;
	for (uint32_t i = 0; i < ss->cnt; i++)
		put(t, size - 1, ss->seq[i].off, ss->seq[i].hash);
	free(ss->tab);
	ss->tab = t;
	ss->mask = size - 1;
	return 0;
}

/* Room for n more entries: table at most 3/4 full, seq long enough */
static int reserve(struct lbtfi_strset *ss, uint32_t n)
{
	uint64_t want = (uint64_t)ss->cnt + n;
	int err;

	if (want > (1u << 30))
		return -E2BIG;
	if (want * 4 > (ss->mask + 1) * 3ull && (err = rebuild_table(ss, (ss->mask + 1) * 2, want)))
		return err;
	if (want > ss->seq_cap) {
		uint32_t cap = ss->seq_cap ? ss->seq_cap : 256;
		struct lbtfi_strset_slot *p;

		while (cap < want)
			cap *= 2;
		p = realloc(ss->seq, (size_t)cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		ss->seq = p;
		ss->seq_cap = cap;
	}
	return 0;
}

/* Room for len more bytes */
static int reserve_bytes(struct lbtfi_strset *ss, size_t len)
{
	size_t cap = ss->cap;
	char *p;

	if (ss->len + len <= cap)
		return 0;
	if (ss->len + len > MAX_STRS_LEN)
		return -E2BIG;
	while (cap < ss->len + len)
		cap *= 2;
	p = realloc(ss->data, cap);
	if (!p)
		return -ENOMEM;
	ss->data = p;
	ss->cap = cap;
	return 0;
}

/* Append s (len bytes and its NUL) as a new entry; room was reserved */
static uint32_t push(struct lbtfi_strset *ss, const char *s, size_t len, uint32_t hash)
{
	uint32_t off = (uint32_t)ss->len;

	memcpy(ss->data + ss->len, s, len + 1);
	ss->len += len + 1;
	put(ss->tab, ss->mask, off, hash);
	ss->seq[ss->cnt++] = (struct lbtfi_strset_slot){ off, hash };
	return off;
}

/*
 * Sized for a typical compile unit of a kernel (~3000 strings, ~36 KB; btfgen
 * makes a builder per unit): growing there from small tables cost a unit's
 * builder three rebuilds, 13% of the time it spends interning strings.
 */
int lbtfi_strset_init(struct lbtfi_strset *ss, bool leading_empty)
{
	memset(ss, 0, sizeof(*ss));
	ss->cap = 16384;
	ss->data = malloc(ss->cap);
	if (!ss->data || rebuild_table(ss, 8192, 0) || reserve(ss, 2048)) {
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
	dst->data = malloc(src->cap ? src->cap : 1);
	dst->tab = src->tab ? malloc(((size_t)src->mask + 1) * sizeof(*src->tab)) : NULL;
	dst->seq = malloc((src->seq_cap ? src->seq_cap : 1) * sizeof(*src->seq));
	if (!dst->data || (src->tab && !dst->tab) || !dst->seq) {
		lbtfi_strset_free(dst);
		return -ENOMEM;
	}
	memcpy(dst->data, src->data, src->len);
	if (src->tab)
		memcpy(dst->tab, src->tab, ((size_t)src->mask + 1) * sizeof(*src->tab));
	memcpy(dst->seq, src->seq, src->cnt * sizeof(*src->seq));
	dst->len = src->len;
	dst->cap = src->cap ? src->cap : 1;
	dst->mask = src->mask;
	dst->cnt = src->cnt;
	dst->seq_cap = src->seq_cap ? src->seq_cap : 1;
	return 0;
}

void lbtfi_strset_free(struct lbtfi_strset *ss)
{
	free(ss->data);
	free(ss->tab);
	free(ss->seq);
	memset(ss, 0, sizeof(*ss));
}

static int64_t lookup(const struct lbtfi_strset *ss, const char *s, size_t len, uint32_t h)
{
	for (uint32_t i = h & ss->mask;; i = (i + 1) & ss->mask) {
		const struct lbtfi_strset_slot *sl = &ss->tab[i];

		if (sl->off == EMPTY)
			return -1;
		if (sl->hash == h && !memcmp(ss->data + sl->off, s, len + 1))
			return sl->off;
	}
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
			__builtin_prefetch(&ss->tab[p[i + PF_DIST].hash & ss->mask]);
		if (i + PF_DIST / 2 < n) {
			const struct lbtfi_strset_slot *sl = &ss->tab[p[i + PF_DIST / 2].hash & ss->mask];
			if (sl->off != EMPTY)
				__builtin_prefetch(ss->data + sl->off);
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

int lbtfi_strset_truncate(struct lbtfi_strset *ss, size_t len)
{
	uint32_t cnt = ss->cnt;

	if (len >= ss->len)
		return 0;
	while (cnt && ss->seq[cnt - 1].off >= len)
		cnt--;
	ss->cnt = cnt;
	ss->len = len;
	return rebuild_table(ss, ss->mask + 1, ss->cnt);
}

int lbtfi_strset_reindex(struct lbtfi_strset *ss, uint32_t cnt)
{
	ss->cnt = cnt;
	return rebuild_table(ss, ss->mask + 1, ss->cnt);
}

/* ---- index over a parsed BTF's strings ---- */

static int index_level(struct lbtfi_strindex *si, const struct lbtf *btf, uint32_t *cnt)
{
	uint32_t len, start;
	const char *s;

	if (lbtf_base(btf)) {
		int err = index_level(si, lbtf_base(btf), cnt);
		if (err)
			return err;
	}
	s = lbtf_strings(btf, &len);
	start = btf->start_str_off;
	for (uint32_t off = 0; off < len;) {
		size_t n;
		uint32_t h = lbtfi_str_hash(s + off, &n);

		if (lbtfi_strindex_find(si, s + off) < 0) {
			if ((*cnt + 1) * 4ull > (si->mask + 1) * 3ull)
				return -E2BIG; /* sized from the byte count: cannot happen */
			put(si->tab, si->mask, start + off, h);
			(*cnt)++;
		}
		off += n + 1;
	}
	return 0;
}

int lbtfi_strindex_build(struct lbtfi_strindex *si, const struct lbtf *btf)
{
	uint64_t bytes = 0;
	uint32_t size = 1024, cnt = 0;
	int err;

	memset(si, 0, sizeof(*si));
	for (const struct lbtf *l = btf; l; l = lbtf_base(l)) {
		uint32_t len;
		lbtf_strings(l, &len);
		bytes += len;
	}
	/* at most one string per 1 byte (""), but typically ~20 bytes each:
	 * size for one string per 4 bytes and grow never */
	while (size < bytes / 2 + 16)
		size *= 2;
	si->tab = new_table(size);
	if (!si->tab)
		return -ENOMEM;
	si->mask = size - 1;
	si->btf = btf;
	err = index_level(si, btf, &cnt);
	if (err == -E2BIG) {
		/* pathological: many tiny strings; retry with a table per byte */
		free(si->tab);
		while (size < bytes * 2 + 16)
			size *= 2;
		si->tab = new_table(size);
		if (!si->tab)
			return -ENOMEM;
		si->mask = size - 1;
		cnt = 0;
		err = index_level(si, btf, &cnt);
	}
	if (err)
		lbtfi_strindex_free(si);
	return err;
}

void lbtfi_strindex_free(struct lbtfi_strindex *si)
{
	free(si->tab);
	memset(si, 0, sizeof(*si));
}

int64_t lbtfi_strindex_find(const struct lbtfi_strindex *si, const char *s)
{
	size_t len;
	uint32_t h;

	if (!si->tab)
		return -1;
	h = lbtfi_str_hash(s, &len);
	for (uint32_t i = h & si->mask;; i = (i + 1) & si->mask) {
		const struct lbtfi_strset_slot *sl = &si->tab[i];
		const char *t;

		if (sl->off == EMPTY)
			return -1;
		if (sl->hash != h)
			continue;
		t = lbtf_name_by_offset(si->btf, sl->off);
		if (t && !memcmp(t, s, len + 1))
			return sl->off;
	}
}

/* ---- one shared index per base ---- */

struct shared_index {
	struct lbtfi_strindex idx; /* first: the public pointer is its address */
	unsigned int refs;
	struct shared_index *next;
};

static pthread_mutex_t shared_mu = PTHREAD_MUTEX_INITIALIZER;
static struct shared_index *shared;

const struct lbtfi_strindex *lbtfi_strindex_get(const struct lbtf *btf)
{
	struct shared_index *s;

	pthread_mutex_lock(&shared_mu);
	for (s = shared; s && s->idx.btf != btf; s = s->next)
		;
	if (!s && (s = calloc(1, sizeof(*s)))) {
		if (lbtfi_strindex_build(&s->idx, btf)) {
			free(s);
			s = NULL;
		} else {
			s->next = shared;
			shared = s;
		}
	}
	if (s)
		s->refs++;
	pthread_mutex_unlock(&shared_mu);
	return s ? &s->idx : NULL;
}

void lbtfi_strindex_put(const struct lbtfi_strindex *si)
{
	struct shared_index **pp, *s;

	pthread_mutex_lock(&shared_mu);
	for (pp = &shared; (s = *pp); pp = &s->next) {
		if (&s->idx != si)
			continue;
		if (--s->refs == 0) {
			*pp = s->next;
			lbtfi_strindex_free(&s->idx);
			free(s);
		}
		break;
	}
	pthread_mutex_unlock(&shared_mu);
}

/* ---- u32 -> u32 map ---- */

static int offmap_alloc(struct lbtfi_offmap *m, uint32_t size)
{
	m->keys = malloc((size_t)size * 4);
	m->vals = malloc((size_t)size * 4);
	if (!m->keys || !m->vals) {
		lbtfi_offmap_free(m);
		return -ENOMEM;
	}
	memset(m->keys, 0xff, (size_t)size * 4);
	m->mask = size - 1;
	return 0;
}

int lbtfi_offmap_init(struct lbtfi_offmap *m, uint32_t hint)
{
	uint32_t size = 256;

	memset(m, 0, sizeof(*m));
	while (size < hint * 2ull && size < (1u << 30))
		size *= 2;
	return offmap_alloc(m, size);
}

void lbtfi_offmap_free(struct lbtfi_offmap *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = m->vals = NULL;
}

static void offmap_insert(struct lbtfi_offmap *m, uint32_t key, uint32_t val)
{
	uint32_t i = lbtfi_hash_fin(key) & m->mask;

	while (m->keys[i] != UINT32_MAX && m->keys[i] != key)
		i = (i + 1) & m->mask;
	if (m->keys[i] == UINT32_MAX)
		m->cnt++;
	m->keys[i] = key;
	m->vals[i] = val;
}

int lbtfi_offmap_put(struct lbtfi_offmap *m, uint32_t key, uint32_t val)
{
	if ((m->cnt + 1) * 2ull > m->mask + 1ull) {
		struct lbtfi_offmap old = *m;

		if (m->mask >= (1u << 30) || offmap_alloc(m, (old.mask + 1) * 2)) {
			*m = old;
			return -ENOMEM;
		}
		m->cnt = 0;
		for (uint32_t i = 0; i <= old.mask; i++)
			if (old.keys[i] != UINT32_MAX)
				offmap_insert(m, old.keys[i], old.vals[i]);
		lbtfi_offmap_free(&old);
	}
	offmap_insert(m, key, val);
	return 0;
}
