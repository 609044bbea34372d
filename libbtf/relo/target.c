// SPDX-License-Identifier: BSD-2-Clause
/*
 * A target kernel's BTF. Candidates are found by one walk over its types
 * for all the local root types of an object at once (libbpf walks them
 * once per local root type): a table of the names' first two bytes rules
 * out nearly every target type on two byte reads, without hashing or
 * indexing a vmlinux's ~130k names. The walk keeps target id order, the
 * order libbpf meets candidates in: the first matching one is reported.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct lbtf_core_target {
	const struct lbtf *btf;
	struct lbtf *owned;
	char *name;
};

struct lbtf_core_target *lbtf_core_target_new(const struct lbtf *btf, const char *name)
{
	struct lbtf_core_target *t = calloc(1, sizeof(*t));

	if (!t || !(t->name = strdup(name ? name : ""))) {
		free(t);
		return lbtfi_err_ptr(ENOMEM, "out of memory");
	}
	t->btf = btf;
	return t;
}

struct lbtf_core_target *lbtf_core_target_open(const char *path)
{
	struct lbtf *btf = lbtf_open(path, NULL);
	struct lbtf_core_target *t;

	if (!btf)
		return NULL;
	if (lbtf_start_id(btf) > 1) {
		lbtf_free(btf);
		return lbtfi_err_ptr(EINVAL, "%s: split BTF (a module's): a CO-RE target is a whole "
					     "kernel's BTF", path);
	}
	t = lbtf_core_target_new(btf, path);
	if (!t) {
		lbtf_free(btf);
		return NULL;
	}
	t->owned = btf;
	return t;
}

const struct lbtf *lbtf_core_target_btf(const struct lbtf_core_target *t)
{
	return t->btf;
}

const char *lbtf_core_target_name(const struct lbtf_core_target *t)
{
	return t->name;
}

void lbtf_core_target_free(struct lbtf_core_target *t)
{
	if (!t)
		return;
	free(t->name);
	lbtf_free(t->owned);
	free(t);
}

const struct lbtf *relo_target_btf(const struct lbtf_core_target *t)
{
	return t->btf;
}

static int cands_add(struct relo_cands *c, uint32_t id)
{
	if (c->len == c->cap) {
		uint32_t cap = c->cap ? c->cap * 2 : 4, *n = realloc(c->ids, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		c->ids = n;
		c->cap = cap;
	}
	c->ids[c->len++] = id;
	return 0;
}

static unsigned int key2(const char *s)
{
	return (unsigned char)s[0] | (s[0] ? (unsigned char)s[1] << 8 : 0);
}

struct want {
	const struct lbtf_type *t;
	const char *name;
	size_t len; /* essential */
	unsigned int key;
};

/* Whether a name's first two bytes are those of a wanted one (a bit per
 * pair), ruling out nearly every target type */
static inline bool may_want(const uint64_t *first2, const char *tn)
{
	unsigned int k = key2(tn);

	return first2[k / 64] & (1ull << (k % 64));
}

/* Target type id (tt, named tn, may_want) as a candidate of every wanted
 * type it fits */
static int consider(const struct want *w, uint32_t n, uint32_t id, const struct lbtf_type *tt,
		    const char *tn, struct relo_cands *out)
{
	unsigned int k = key2(tn);
	size_t tlen = 0;
	int err = 0;

	for (uint32_t i = 0; i < n && !err; i++) {
		if (w[i].key != k || strncmp(tn, w[i].name, w[i].len) || !relo_kind_compat(tt, w[i].t))
			continue;
		if (!tlen)
			tlen = relo_essential_len(tn);
		if (tlen == w[i].len)
			err = cands_add(&out[i], id);
	}
	return err;
}

int relo_find_cands(const struct lbtf_core_target *t, const struct lbtf *lb, const uint32_t *ids,
		    uint32_t n, struct relo_cands *out)
{
	struct want *w = calloc(n ? n : 1, sizeof(*w));
	uint64_t *first2 = calloc(65536 / 64, sizeof(uint64_t));
	const struct lbtf *tb = t->btf;
	int err = w && first2 ? 0 : -ENOMEM;

	for (uint32_t i = 0; !err && i < n; i++) {
		w[i].t = lbtf_type_by_id(lb, ids[i]);
		w[i].name = w[i].t ? lbtf_name_by_offset(lb, w[i].t->name_off) : NULL;
		memset(&out[i], 0, sizeof(out[i]));
		if (!w[i].name || !*w[i].name) {
			err = -EINVAL;
			break;
		}
		w[i].len = relo_essential_len(w[i].name);
		w[i].key = key2(w[i].name);
		first2[w[i].key / 64] |= 1ull << (w[i].key % 64);
	}
	/* a split target's base types, through the accessors */
	for (uint32_t id = 1; id < tb->start_id && !err; id++) {
		const struct lbtf_type *tt = lbtf_type_by_id(tb, id);
		const char *tn = lbtf_name_by_offset(tb, tt->name_off);

		if (tn && *tn && may_want(first2, tn))
			err = consider(w, n, id, tt, tn, out);
	}
	/* its own, straight from the parsed arrays: this loop meets every
	 * type of a vmlinux (~130k), where two accessor calls per type were a
	 * third of btfcheck --target-btf's instructions */
	for (uint32_t i = 0; i < tb->nr_types && !err; i++) {
		const struct lbtf_type *tt = (const struct lbtf_type *)(tb->types + tb->type_offs[i]);
		uint32_t off = tt->name_off - tb->start_str_off;

		/* (anonymous: offset 0; a base string: no split target names its
		 * own types so) */
		if (tt->name_off <= tb->start_str_off || off >= tb->hdr.str_len)
			continue;
		if (may_want(first2, tb->strs + off))
			err = consider(w, n, tb->start_id + i, tt, tb->strs + off, out);
	}
	free(first2);
	free(w);
	if (err)
		for (uint32_t i = 0; i < n; i++) {
			free(out[i].ids);
			memset(&out[i], 0, sizeof(out[i]));
		}
	return err;
}
