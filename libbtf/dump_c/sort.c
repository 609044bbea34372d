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
	uint32_t id;
	uint32_t sort_off; /* string offsets of the sort name, */
	uint32_t own_off;  /* and of the type's own name */
};

static bool follows_type(unsigned int kind)
{
	return kind == LBTF_KIND_TYPE_TAG || kind == LBTF_KIND_CONST || kind == LBTF_KIND_PTR ||
	       kind == LBTF_KIND_VOLATILE || kind == LBTF_KIND_RESTRICT ||
	       kind == LBTF_KIND_TYPEDEF || kind == LBTF_KIND_DECL_TAG;
}

static int rank_of(struct dc *d, uint32_t id, bool has_name, int depth)
{
	const struct lbtf_type *t = dci_type(d, id);
	unsigned int kind = lbtf_kind(t);

	if (t->name_off)
		has_name = true;
	if (depth > SORT_DEPTH)
		return RANK_LAST;
	if (kind == LBTF_KIND_ENUM || kind == LBTF_KIND_ENUM64)
		return has_name ? 1 : 0;
	if (kind == LBTF_KIND_INT || kind == LBTF_KIND_FLOAT)
		return 2;
	if (!has_name)
		return RANK_LAST;
	if (kind == LBTF_KIND_ARRAY)
		return rank_of(d, lbtf_array(t)->type, true, depth + 1);
	if (follows_type(kind))
		return rank_of(d, t->type, true, depth + 1);
	return dci_kind_ops[kind].sort_rank ? dci_kind_ops[kind].sort_rank : RANK_LAST;
}

/* String offset of the sort name */
static uint32_t sort_name_of(struct dc *d, uint32_t id, bool from_ref, int depth)
{
	const struct lbtf_type *t = dci_type(d, id);
	unsigned int kind = lbtf_kind(t);

	if (depth > SORT_DEPTH)
		return 0;
	if (lbtf_is_enum(t) && !from_ref && !t->name_off && lbtf_vlen(t))
		return kind == LBTF_KIND_ENUM ? lbtf_enums(t)->name_off : lbtf_enums64(t)->name_off;
	if (kind == LBTF_KIND_ARRAY)
		return sort_name_of(d, lbtf_array(t)->type, true, depth + 1);
	if (follows_type(kind))
		return sort_name_of(d, t->type, true, depth + 1);
	return t->name_off;
}

/* Polynomial (x31) hashes, as the newest bpftool breaks ties with: the
 * name's characters (as signed chars, x86's char), then the hashes of
 * what the type is made of. Same keys give the same order as bpftool. */
static uint64_t mix(uint64_t h, uint64_t v)
{
	return h * 31 + v;
}

static uint64_t mix_name(struct dc *d, uint64_t h, uint32_t name_off)
{
	uint64_t s = 0;

	if (!name_off)
		return h; /* no name: nothing mixed in (an empty name mixes 0) */
	for (const char *c = dci_str(d, name_off); *c; c++)
		s = s * 31 + (uint64_t)(int64_t)(signed char)*c;
	return mix(h, s);
}

/* The type's name; enumerator names; for the root struct/union each
 * member's name and the hash of its type (members not followed further);
 * array length and element; the target of modifiers and typedefs. */
static uint64_t shape_hash(struct dc *d, uint32_t id, bool members, int depth)
{
	const struct lbtf_type *t = dci_type(d, id);
	unsigned int kind = lbtf_kind(t);
	uint64_t h = mix_name(d, 0, t->name_off);

	if (depth > SORT_DEPTH)
		return h;
	if (kind == LBTF_KIND_ENUM) {
		for (unsigned int i = 0; i < lbtf_vlen(t); i++)
			h = mix_name(d, h, lbtf_enums(t)[i].name_off);
	} else if (kind == LBTF_KIND_ENUM64) {
		for (unsigned int i = 0; i < lbtf_vlen(t); i++)
			h = mix_name(d, h, lbtf_enums64(t)[i].name_off);
	} else if (lbtf_is_composite(t) && members) {
		for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
			h = mix_name(d, h, lbtf_members(t)[i].name_off);
			h = mix(h, shape_hash(d, lbtf_members(t)[i].type, false, depth + 1));
		}
	} else if (kind == LBTF_KIND_ARRAY) {
		h = mix(h, lbtf_array(t)->nelems);
		h = mix(h, shape_hash(d, lbtf_array(t)->type, members, depth + 1));
	} else if (follows_type(kind)) {
		h = mix(h, shape_hash(d, t->type, members, depth + 1));
	}
	return h;
}

/* The first 7 bytes of the sort name under the rank: most comparisons end
 * on this one integer (bytes compared unsigned, as strcmp does). */
static uint64_t prefix_of(int rank, const char *s)
{
	uint64_t p = (uint64_t)rank << 56;

	for (int i = 0; i < 7 && s[i]; i++)
		p |= (uint64_t)(unsigned char)s[i] << (48 - 8 * i);
	return p;
}

static int cmp_off(struct dc *d, uint32_t a, uint32_t b)
{
	return a == b ? 0 : strcmp(dci_str(d, a), dci_str(d, b));
}

/* rank, sort name, own name; the hash only decides among equal names */
static int cmp_names(struct dc *d, const struct sort_key *x, const struct sort_key *y)
{
	int r;

	if (x->prefix != y->prefix)
		return x->prefix < y->prefix ? -1 : 1;
	if ((r = cmp_off(d, x->sort_off, y->sort_off)))
		return r;
	return cmp_off(d, x->own_off, y->own_off);
}

static __attribute__((noinline)) int cmp_slow(struct dc *d, const struct sort_key *x,
					      const struct sort_key *y)
{
	int r = cmp_names(d, x, y);

	return r ? r : (x->id > y->id) - (x->id < y->id);
}

static inline bool key_less(struct dc *d, const struct sort_key *x, const struct sort_key *y)
{
	if (x->prefix != y->prefix)
		return x->prefix < y->prefix;
	return cmp_slow(d, x, y) < 0;
}

static int cmp_keys_r(const void *a, const void *b, void *d)
{
	return cmp_slow(d, a, b);
}

static void swap_keys(struct sort_key *a, struct sort_key *b)
{
	struct sort_key t = *a;

	*a = *b;
	*b = t;
}

/* In place (no copy of the 2 MB array): quicksort, median of three,
 * insertion sort for short ranges; past a depth bound (hostile input)
 * the range goes to qsort_r. */
static void sort_keys(struct dc *d, struct sort_key *k, size_t n, int depth)
{
	while (n > 16) {
		size_t m = n / 2, i, j;
		struct sort_key pivot;

		if (depth-- <= 0) {
			qsort_r(k, n, sizeof(*k), cmp_keys_r, d);
			return;
		}
		if (key_less(d, &k[m], &k[0]))
			swap_keys(&k[m], &k[0]);
		if (key_less(d, &k[n - 1], &k[m])) {
			swap_keys(&k[n - 1], &k[m]);
			if (key_less(d, &k[m], &k[0]))
				swap_keys(&k[m], &k[0]);
		}
		pivot = k[m];
		i = 0;
		j = n - 1;
		for (;;) { /* Hoare partition: keys are distinct (ids) */
			while (key_less(d, &k[i], &pivot))
				i++;
			while (key_less(d, &pivot, &k[j]))
				j--;
			if (i >= j)
				break;
			swap_keys(&k[i++], &k[j--]);
		}
		/* [0, j] <= pivot <= [j + 1, n): recurse on the smaller part */
		if (j + 1 < n - j - 1) {
			sort_keys(d, k, j + 1, depth);
			k += j + 1;
			n -= j + 1;
		} else {
			sort_keys(d, k + j + 1, n - j - 1, depth);
			n = j + 1;
		}
	}
	for (size_t i = 1; i < n; i++) {
		struct sort_key x = k[i];
		size_t j = i;

		for (; j > 0 && key_less(d, &x, &k[j - 1]); j--)
			k[j] = k[j - 1];
		k[j] = x;
	}
}

struct tie {
	uint64_t hash;
	uint32_t id;
};

static int cmp_ties(const void *a, const void *b)
{
	const struct tie *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* Same rank and names: by hash, then id. The hash is computed only for
 * these (anonymous types mostly). */
static int order_ties(struct dc *d, struct sort_key *keys, size_t n)
{
	struct tie *tmp = malloc(n * sizeof(*tmp));

	if (!tmp)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		tmp[i] = (struct tie){ shape_hash(d, keys[i].id, true, 0), keys[i].id };
	qsort(tmp, n, sizeof(*tmp), cmp_ties);
	for (size_t i = 0; i < n; i++)
		keys[i].id = tmp[i].id;
	free(tmp);
	return 0;
}

uint32_t *dci_sorted_ids(struct dc *d, uint32_t *cnt)
{
	uint32_t n = d->nr_types - 1;
	struct sort_key *keys = malloc((size_t)(n ? n : 1) * sizeof(*keys));
	uint32_t *ids = (uint32_t *)keys; /* filled in place at the end */
	uint32_t kept = 0;
	int depth = 2;

	if (!keys)
		return NULL;
	/* FUNC, VAR, DATASEC and DECL_TAG roots print nothing and order
	 * nothing (their types come out through other roots, as in bpftool),
	 * so where they sort does not matter: they are left out (45% of a
	 * vmlinux's types are FUNCs) */
	for (uint32_t id = 1; id < d->nr_types; id++) {
		const struct lbtf_type *t = dci_type(d, id);
		unsigned int kind = lbtf_kind(t);

		if (kind == LBTF_KIND_FUNC || kind == LBTF_KIND_VAR || kind == LBTF_KIND_DATASEC ||
		    kind == LBTF_KIND_DECL_TAG)
			continue;
		keys[kept].id = id;
		keys[kept].sort_off = sort_name_of(d, id, false, 0);
		keys[kept].own_off = t->name_off;
		keys[kept].prefix = prefix_of(rank_of(d, id, false, 0),
					      dci_str(d, keys[kept].sort_off));
		kept++;
	}
	n = kept;
	for (uint32_t m = n; m; m >>= 1)
		depth += 2;
	sort_keys(d, keys, n, depth);
	for (uint32_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && !cmp_names(d, &keys[i], &keys[j]); j++)
			;
		if (j - i > 1 && order_ties(d, keys + i, j - i)) {
			free(keys);
			return NULL;
		}
	}
	/* ids[i] (bytes 4i..) only overwrites keys already read (24i.. for i) */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t id = keys[i].id;

		ids[i] = id;
	}
	*cnt = n;
	return ids;
}
