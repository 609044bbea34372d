// SPDX-License-Identifier: BSD-2-Clause
/*
 * The diffable order (--sort): type ids sorted by what they are and what
 * they are called, never by id, so two kernels' headers line up in a diff.
 * Keys, in order:
 *   rank      anonymous enums (constants), named enums, base types and
 *             typedefs of them, named structs/unions (and typedefs of
 *             them), function protos; everything anonymous last (it comes
 *             out through its users anyway);
 *   sort name the name of the underlying named type (so typedef chains
 *             group with their target; anonymous enums by first enumerator);
 *   own name;
 *   a structural hash (names of members and their types) so same-named
 *             different types keep a stable relative order; then the id.
 * Keys and hash give the newest bpftool's (v7.5+) order, so the ___N
 * renames of same-named types land where bpftool puts them. One deliberate
 * difference: bpftool sorts id 0 (void) along and then starts printing at
 * the second sorted entry, so the first type in the order (an anonymous
 * enum on kernels, e.g. ACOMP_WALK_*) never appears; here every type does.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define RANK_LAST 10
#define SORT_DEPTH 64

struct sort_key {
	uint64_t prefix;   /* rank, then the sort name's first bytes */
	uint32_t id;       /* (its own name: the type's) */
	uint32_t sort_off; /* string offset of the sort name */
};

static bool follows_type(unsigned int kind)
{
	return kind == LBTF_KIND_TYPE_TAG || kind == LBTF_KIND_CONST || kind == LBTF_KIND_PTR ||
	       kind == LBTF_KIND_VOLATILE || kind == LBTF_KIND_RESTRICT ||
	       kind == LBTF_KIND_TYPEDEF || kind == LBTF_KIND_DECL_TAG;
}

/*
 * The rank of id, and (*sort_off) its sort name: both found on one walk
 * down the chain of arrays, modifiers and typedefs below it. Rank: an
 * enum 1 when named (or met below the root), else 0; a base type 2;
 * anything anonymous at the root last; else the first kind the chain
 * stops at. Sort name: an anonymous enum root's first enumerator, else
 * the name of the type the chain stops at; none past the depth bound.
 */
static int rank_at(const struct lbtf_type *t, int depth)
{
	unsigned int kind = lbtf_kind(t);

	if (lbtf_is_enum(t))
		return depth || t->name_off ? 1 : 0;
	if (kind == LBTF_KIND_INT || kind == LBTF_KIND_FLOAT)
		return 2;
	if (!depth && !t->name_off)
		return RANK_LAST;
	if (kind == LBTF_KIND_ARRAY || follows_type(kind))
		return -1; /* decided further down */
	return lbtfi_dc_kind_ops[kind].sort_rank ? lbtfi_dc_kind_ops[kind].sort_rank : RANK_LAST;
}

static int rank_and_sort_name(struct lbtfi_dc *d, uint32_t id, uint32_t *sort_off)
{
	int rank = -1;

	for (int depth = 0;; depth++) {
		const struct lbtf_type *t = lbtfi_dc_type(d, id);
		unsigned int kind = lbtf_kind(t);

		if (depth > SORT_DEPTH) {
			*sort_off = 0;
			return rank < 0 ? RANK_LAST : rank;
		}
		if (rank < 0)
			rank = rank_at(t, depth);
		if (!depth && lbtf_is_enum(t) && !t->name_off && lbtf_vlen(t)) {
			*sort_off = kind == LBTF_KIND_ENUM ? lbtf_enums(t)->name_off
							   : lbtf_enums64(t)->name_off;
			return rank;
		}
		if (kind == LBTF_KIND_ARRAY) {
			id = lbtf_array(t)->type;
		} else if (follows_type(kind)) {
			id = t->type;
		} else {
			*sort_off = t->name_off;
			return rank;
		}
	}
}

/* Polynomial (x31) hashes, as the newest bpftool breaks ties with: the
 * name's characters (as signed chars, x86's char), then the hashes of
 * what the type is made of. Same keys give the same order as bpftool. */
static uint64_t mix(uint64_t h, uint64_t v)
{
	return h * 31 + v;
}

static uint64_t mix_name(struct lbtfi_dc *d, uint64_t h, uint32_t name_off)
{
	uint64_t s = 0;

	if (!name_off)
		return h; /* no name: nothing mixed in (an empty name mixes 0) */
	for (const char *c = lbtfi_dc_str(d, name_off); *c; c++)
		s = s * 31 + (uint64_t)(int64_t)(signed char)*c;
	return mix(h, s);
}

/*
 * Hashes memoized by id: a tie group of pointers to one struct, and an
 * anonymous struct and the pointers to it, would hash the same members
 * again and again, and every struct the typedef chains of its members. The hash of a type
 * depends on the depth it is met at only when the walk below it reaches
 * the depth bound, so an entry keeps how deep its walk went and serves
 * only callers that would stay within the bound too.
 */
struct memo_ent {
	uint64_t hash;
	uint32_t id;
	uint32_t rel; /* 0: a free entry, else 1 + the levels walked below */
};

/* A table by id, never grown: entries stop being added when it is 3/4
 * full (a vmlinux fills 17,000 of the 32,768 it gets) */
struct memo {
	struct memo_ent *v;
	uint32_t mask, cnt;
};

static struct memo_ent *memo_at(const struct memo *m, uint32_t id)
{
	uint32_t i = (id * 0x9e3779b1u) >> 8 & m->mask;

	while (m->v[i].rel && m->v[i].id != id)
		i = (i + 1) & m->mask;
	return &m->v[i];
}

/* The type's name; enumerator names; for the root struct/union each
 * member's name and the hash of its type (members not followed further);
 * array length and element; the target of modifiers and typedefs.
 * *reach: the deepest depth the walk went to. */
static uint64_t type_hash(struct lbtfi_dc *d, struct memo *m, uint32_t id, int depth, int *reach);
static uint64_t members_hash(struct lbtfi_dc *d, struct memo *m, uint32_t id, int depth, int *reach);

/* (one body, made twice by the compiler: with members and without) */
static inline __attribute__((always_inline)) uint64_t
shape_hash(struct lbtfi_dc *d, struct memo *m, uint32_t id, bool members, int depth, int *reach)
{
	const struct lbtf_type *t = lbtfi_dc_type(d, id);
	unsigned int kind = lbtf_kind(t);
	bool composite = lbtf_is_composite(t);
	/* the memo holds structs/unions with members, other types without
	 * (a member's type: the chains of typedefs repeat in every struct) */
	bool memo = composite ? members : !members;
	uint64_t h;
	int r;

	*reach = depth;
	if (depth > SORT_DEPTH)
		return mix_name(d, 0, t->name_off);
	if (memo) {
		const struct memo_ent *e = memo_at(m, id);

		if (e->rel && depth + (int)e->rel - 1 <= SORT_DEPTH) {
			*reach = depth + (int)e->rel - 1;
			return e->hash;
		}
	}
	h = mix_name(d, 0, t->name_off);
	if (composite && members) {
		for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
			h = mix_name(d, h, lbtf_members(t)[i].name_off);
			h = mix(h, type_hash(d, m, lbtf_members(t)[i].type, depth + 1, &r));
			if (r > *reach)
				*reach = r;
		}
	} else if (kind == LBTF_KIND_ENUM) {
		for (unsigned int i = 0; i < lbtf_vlen(t); i++)
			h = mix_name(d, h, lbtf_enums(t)[i].name_off);
	} else if (kind == LBTF_KIND_ENUM64) {
		for (unsigned int i = 0; i < lbtf_vlen(t); i++)
			h = mix_name(d, h, lbtf_enums64(t)[i].name_off);
	} else if (kind == LBTF_KIND_ARRAY) {
		h = mix(h, lbtf_array(t)->nelems);
		h = mix(h, members ? members_hash(d, m, lbtf_array(t)->type, depth + 1, reach)
				   : type_hash(d, m, lbtf_array(t)->type, depth + 1, reach));
	} else if (follows_type(kind)) {
		h = mix(h, members ? members_hash(d, m, t->type, depth + 1, reach)
				   : type_hash(d, m, t->type, depth + 1, reach));
	}
	if (memo && *reach <= SORT_DEPTH && 4 * (m->cnt + 1) <= 3 * (m->mask + 1)) {
		/* (not cut by the bound) */
		struct memo_ent *e = memo_at(m, id);

		m->cnt += !e->rel;
		*e = (struct memo_ent){ h, id, (uint32_t)(*reach - depth + 1) };
	}
	return h;
}

/* a member's type: its name and what it leads to, no members */
static uint64_t type_hash(struct lbtfi_dc *d, struct memo *m, uint32_t id, int depth, int *reach)
{
	return shape_hash(d, m, id, false, depth, reach);
}

/* a sorted type: a struct's members too */
static uint64_t members_hash(struct lbtfi_dc *d, struct memo *m, uint32_t id, int depth, int *reach)
{
	return shape_hash(d, m, id, true, depth, reach);
}

/* The first 7 bytes of the sort name under the rank: most comparisons end
 * on this one integer (bytes compared unsigned, as strcmp does). */
static uint64_t prefix_of(struct lbtfi_dc *d, int rank, uint32_t name_off)
{
	bool ended;

	return (uint64_t)rank << 56 | lbtfi_dc_name_chunk(d, name_off, 0, &ended) >> 8;
}

static int cmp_off(struct lbtfi_dc *d, uint32_t a, uint32_t b)
{
	return a == b ? 0 : strcmp(lbtfi_dc_str(d, a), lbtfi_dc_str(d, b));
}

/* rank, sort name, own name; the hash only decides among equal names */
static int cmp_names(struct lbtfi_dc *d, const struct sort_key *x, const struct sort_key *y)
{
	int r;

	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	if ((r = cmp_off(d, x->sort_off, y->sort_off)))
		return r;
	return cmp_off(d, lbtfi_dc_type(d, x->id)->name_off, lbtfi_dc_type(d, y->id)->name_off);
}

static __attribute__((noinline)) int cmp_slow(struct lbtfi_dc *d, const struct sort_key *x,
					      const struct sort_key *y)
{
	int r = cmp_names(d, x, y);

	return r ? r : (x->id > y->id) - (x->id < y->id);
}

/* by_id: the keys' prefixes hold tie-break hashes, names are equal */
static inline bool key_less(struct lbtfi_dc *d, const struct sort_key *x, const struct sort_key *y,
			    bool by_id)
{
	if (x->prefix != y->prefix)
		return x->prefix < y->prefix;
	return by_id ? x->id < y->id : cmp_slow(d, x, y) < 0;
}

static int cmp_keys_r(const void *a, const void *b, void *d)
{
	return cmp_slow(d, a, b);
}

static int cmp_keys_by_id(const void *a, const void *b)
{
	const struct sort_key *x = a, *y = b;

	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

static void swap_keys(struct sort_key *a, struct sort_key *b)
{
	struct sort_key t = *a;

	*a = *b;
	*b = t;
}

static void keys_by_id(struct lbtfi_dc *d, struct sort_key *k, size_t n, int depth);
static void keys_by_names(struct lbtfi_dc *d, struct sort_key *k, size_t n, int depth);

/* In place (no copy of the 2 MB array): quicksort, median of three,
 * insertion sort for short ranges; past a depth bound (hostile input)
 * the range goes to qsort. One body, made twice by the compiler: the
 * sort on prefix and id (all but the deepest runs of --sort) compares
 * integers only. */
static inline __attribute__((always_inline)) void
sort_body(struct lbtfi_dc *d, struct sort_key *k, size_t n, int depth, bool by_id)
{
	while (n > 16) {
		size_t m = n / 2, i, j;
		struct sort_key pivot;

		if (depth-- <= 0) {
			if (by_id)
				qsort(k, n, sizeof(*k), cmp_keys_by_id);
			else
				qsort_r(k, n, sizeof(*k), cmp_keys_r, d);
			return;
		}
		if (key_less(d, &k[m], &k[0], by_id))
			swap_keys(&k[m], &k[0]);
		if (key_less(d, &k[n - 1], &k[m], by_id)) {
			swap_keys(&k[n - 1], &k[m]);
			if (key_less(d, &k[m], &k[0], by_id))
				swap_keys(&k[m], &k[0]);
		}
		pivot = k[m];
		i = 0;
		j = n - 1;
		for (;;) { /* Hoare partition: keys are distinct (ids) */
			while (key_less(d, &k[i], &pivot, by_id))
				i++;
			while (key_less(d, &pivot, &k[j], by_id))
				j--;
			if (i >= j)
				break;
			swap_keys(&k[i++], &k[j--]);
		}
		/* [0, j] <= pivot <= [j + 1, n): recurse on the smaller part */
		if (j + 1 < n - j - 1) {
			if (by_id)
				keys_by_id(d, k, j + 1, depth);
			else
				keys_by_names(d, k, j + 1, depth);
			k += j + 1;
			n -= j + 1;
		} else {
			if (by_id)
				keys_by_id(d, k + j + 1, n - j - 1, depth);
			else
				keys_by_names(d, k + j + 1, n - j - 1, depth);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++) {
		struct sort_key x = k[i];
		size_t j = i;

		for (; j > 0 && key_less(d, &x, &k[j - 1], by_id); j--)
			k[j] = k[j - 1];
		k[j] = x;
	}
}

static void keys_by_id(struct lbtfi_dc *d, struct sort_key *k, size_t n, int depth)
{
	sort_body(d, k, n, depth, true);
}

static void keys_by_names(struct lbtfi_dc *d, struct sort_key *k, size_t n, int depth)
{
	sort_body(d, k, n, depth, false);
}

static void sort_keys(struct lbtfi_dc *d, struct sort_key *k, size_t n, int depth, bool by_id)
{
	if (by_id)
		keys_by_id(d, k, n, depth);
	else
		keys_by_names(d, k, n, depth);
}

static void reverse_keys(struct sort_key *k, size_t n)
{
	for (size_t i = 0; i < n / 2; i++)
		swap_keys(&k[i], &k[n - 1 - i]);
}

static int sort_depth(size_t n)
{
	int depth = 2;

	for (; n; n >>= 1)
		depth += 2;
	return depth;
}

static bool ids_ascend(const struct sort_key *k, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (k[i].id < k[i - 1].id)
			return false;
	return true;
}

/* Keys of equal rank and names: by hash, then id. The hash goes into the
 * prefix (the names are no longer needed), then the keys are sorted on it.
 * Hash 0 (no name anywhere below: function prototypes and pointers to
 * them, 88% of the anonymous group of a vmlinux) sorts first: those keys
 * go to the front in the order they had (a swap partition keeps the order
 * of what it moves forward), and need no sort when that is id order, as
 * in the anonymous group. */
static void order_ties(struct lbtfi_dc *d, struct memo *m, struct sort_key *keys, size_t n)
{
	size_t zeros = 0;
	int reach;

	for (size_t i = 0; i < n; i++)
		keys[i].prefix = members_hash(d, m, keys[i].id, 0, &reach);
	for (size_t i = 0; i < n; i++)
		if (!keys[i].prefix)
			swap_keys(&keys[zeros++], &keys[i]);
	if (!ids_ascend(keys, zeros))
		sort_keys(d, keys, zeros, sort_depth(zeros), true);
	sort_keys(d, keys + zeros, n - zeros, sort_depth(n - zeros), true);
}

/*
 * The named keys, by rank and names, as a multikey sort of integers: the
 * keys are sorted on their prefixes (rank and the sort name's first 7
 * bytes), then each run of equal prefixes on the next 8 bytes of the sort
 * name, put in the prefixes, and so on; a run whose names ended is sorted
 * on the own name's bytes the same way, and a run whose own names ended
 * too holds ties (order_ties()). No string comparisons: a quicksort of a
 * vmlinux's keys compared past the 7 bytes of the prefix 150,000 times
 * (names share long beginnings: trace_event_raw_, bpf_), each with two
 * strcmp()s, and the ties were found again by comparing neighbours.
 */
enum { BY_PREFIX, BY_SORT_NAME, BY_OWN_NAME };
#define CHUNK_LEVELS 64 /* 512 bytes of names; past them, by comparisons */

static uint32_t own_name(struct lbtfi_dc *d, const struct sort_key *k)
{
	return lbtfi_dc_type(d, k->id)->name_off;
}

/*
 * Whether ties hash alike without hashing them: pointers and qualifiers
 * without names (hashed as what they lead to) down to one struct, union,
 * enum, base type or forward declaration, and no walk below reaching the
 * depth bound (which would cut a hash by its depth). Then order_ties()
 * would sort on equal hashes, by id, the order they are in: so ties of
 * `struct s *`, `const struct s *`, `struct s **`... cost nothing, where
 * hashing s's members cost 870 instructions a key.
 */
static int chain_to(struct lbtfi_dc *d, uint32_t id, uint32_t *end)
{
	int len = 0;

	for (;; len++) {
		const struct lbtf_type *t = lbtfi_dc_type(d, id);
		unsigned int kind = lbtf_kind(t);

		if ((kind != LBTF_KIND_PTR && kind != LBTF_KIND_CONST && kind != LBTF_KIND_VOLATILE &&
		     kind != LBTF_KIND_RESTRICT) || t->name_off || len > SORT_DEPTH)
			break;
		id = t->type;
	}
	*end = id;
	return len;
}

static bool ties_hash_alike(struct lbtfi_dc *d, const struct sort_key *k, size_t n)
{
	uint32_t end, other;
	int len = chain_to(d, k[0].id, &end), below = 0;
	const struct lbtf_type *t = lbtfi_dc_type(d, end);

	for (size_t i = 1; i < n; i++) {
		int l = chain_to(d, k[i].id, &other);

		if (other != end)
			return false;
		len = l > len ? l : len;
	}
	if (lbtf_is_composite(t)) {
		/* members' types: down chains of modifiers, typedefs, arrays */
		for (unsigned int i = 0; i < lbtf_vlen(t) && below <= SORT_DEPTH; i++) {
			uint32_t id = lbtf_members(t)[i].type;
			int c = 1;

			for (; c <= SORT_DEPTH; c++) {
				const struct lbtf_type *mt = lbtfi_dc_type(d, id);
				unsigned int kind = lbtf_kind(mt);

				if (kind == LBTF_KIND_ARRAY)
					id = lbtf_array(mt)->type;
				else if (follows_type(kind))
					id = mt->type;
				else
					break;
			}
			below = c > below ? c : below;
		}
	} else if (!lbtf_is_enum(t) && lbtf_kind(t) != LBTF_KIND_INT &&
		   lbtf_kind(t) != LBTF_KIND_FLOAT && lbtf_kind(t) != LBTF_KIND_FWD) {
		return false;
	}
	return len + below <= SORT_DEPTH;
}

/* A run too deep: its prefixes cleared, the comparisons of names decide */
static void sort_by_names(struct lbtfi_dc *d, struct memo *m, struct sort_key *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		k[i].prefix = 0;
	sort_keys(d, k, n, sort_depth(n), false);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && !cmp_names(d, &k[i], &k[j]); j++)
			;
		if (j - i > 1)
			order_ties(d, m, k + i, j - i);
	}
}

/* k[0, n): equal up to (field, pos), their prefixes the bytes there */
static void sort_chunks(struct lbtfi_dc *d, struct memo *m, struct sort_key *k, size_t n, int field,
			size_t pos, int level)
{
	sort_keys(d, k, n, sort_depth(n), true);
	for (size_t i = 0, j; i < n; i = j) {
		uint64_t c = k[i].prefix;
		int f = field;
		size_t p = field == BY_PREFIX ? 7 : pos + 8;
		bool ended;

		for (j = i + 1; j < n && k[j].prefix == c; j++)
			;
		if (j - i == 1)
			continue;
		/* a name that ends in its bytes has a zero last byte */
		if (!(c & 0xff)) {
			if (field == BY_OWN_NAME) {
				if (!ties_hash_alike(d, k + i, j - i))
					order_ties(d, m, k + i, j - i);
				continue;
			}
			f = BY_OWN_NAME;
			p = 0;
		} else if (f == BY_PREFIX) {
			f = BY_SORT_NAME;
		}
		if (level >= CHUNK_LEVELS) {
			sort_by_names(d, m, k + i, j - i);
			continue;
		}
		for (size_t x = i; x < j; x++)
			k[x].prefix = lbtfi_dc_name_chunk(d, f == BY_SORT_NAME ? k[x].sort_off
									    : own_name(d, &k[x]),
							  p, &ended);
		sort_chunks(d, m, k + i, j - i, f, p, level + 1);
	}
}

/* Anonymous types whose chain ends at no name either (struct/union
 * bodies, function protos, pointers to them or to void: 40% of the
 * sorted types of a vmlinux) make one group of equal rank and names. It
 * is kept out of the sort by names, and goes right after the keys below
 * its rank: names are compared only among named keys. */
static bool in_anon_group(struct lbtfi_dc *d, const struct sort_key *k, const struct lbtf_type *t)
{
	return k->prefix == (uint64_t)RANK_LAST << 56 && !lbtfi_dc_str(d, t->name_off)[0];
}

static uint32_t memo_size(uint32_t kept)
{
	uint32_t n = 1024;

	while (n < kept / 4 && n < (1u << 24))
		n *= 2;
	return n;
}

/* The keys (the ids, in their first bytes, at the end), then the memo */
size_t lbtfi_dc_sort_bytes(uint32_t kept)
{
	return (size_t)(kept ? kept : 1) * sizeof(struct sort_key) +
	       (size_t)memo_size(kept) * sizeof(struct memo_ent) + 2 * 8;
}

uint32_t *lbtfi_dc_sorted_ids(struct lbtfi_dc *d, uint32_t kept, uint32_t *cnt)
{
	struct memo memo = { .mask = memo_size(kept) - 1 };
	struct sort_key *keys;
	uint32_t *ids;
	uint32_t n = kept, named = 0, anon, at;

	keys = lbtfi_dc_arena(d, (size_t)(n ? n : 1) * sizeof(*keys));
	memo.v = lbtfi_dc_arena(d, ((size_t)memo.mask + 1) * sizeof(*memo.v));
	if (!keys || !memo.v)
		return NULL;
	memset(memo.v, 0, ((size_t)memo.mask + 1) * sizeof(*memo.v));
	ids = (uint32_t *)keys; /* filled in place at the end */
	/* named keys fill the array from the front, the anonymous group
	 * from the back */
	anon = n;
	for (uint32_t id = 1; id < d->nr_types && named < anon; id++) {
		const struct lbtf_type *t = lbtfi_dc_type(d, id);
		struct sort_key k;
		int rank;

		if (!lbtfi_dc_sorts(t))
			continue;
		k.id = id;
		rank = rank_and_sort_name(d, id, &k.sort_off);
		k.prefix = prefix_of(d, rank, k.sort_off);
		if (in_anon_group(d, &k, t))
			keys[--anon] = k;
		else
			keys[named++] = k;
	}
	/* (before the sort puts other bytes into prefixes) */
	at = 0;
	for (uint32_t i = 0; i < named; i++)
		at += keys[i].prefix < (uint64_t)RANK_LAST << 56;
	sort_chunks(d, &memo, keys, named, BY_PREFIX, 0, 0);
	/* (filled from the back: in descending id order until reversed) */
	reverse_keys(keys + anon, n - anon);
	order_ties(d, &memo, keys + anon, n - anon);
	/* the group goes after every named key of a lower rank, at (its
	 * prefix, its rank and an empty sort name, is below any other of that
	 * rank): moved next to the named keys, then swapped with those after
	 * it */
	memmove(keys + named, keys + anon, (size_t)(n - anon) * sizeof(*keys));
	n = named + (n - anon);
	reverse_keys(keys + at, named - at);
	reverse_keys(keys + named, n - named);
	reverse_keys(keys + at, n - at);
	/* ids[i] (bytes 4i..) only overwrites keys already read (16i.. for i) */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t id = keys[i].id;

		ids[i] = id;
	}
	*cnt = n;
	return ids;
}
