// SPDX-License-Identifier: BSD-2-Clause
/*
 * lbtf_builder_sort_by_name: a builder's own types permuted into name
 * order, the order the kernel build leaves vmlinux and module BTF in
 * (resolve_btfids over libbpf 1.8's btf__permute): by strcmp of the names,
 * equal names (the anonymous types among them, which come first) in their
 * old order. Readers that find the names in order (libbpf 1.8,
 * lbtf_sorted_from) look them up by binary search.
 */
#include <stdlib.h>
#include <string.h>
#include "build/internal.h"
#include "libbtf_build.h"
#include "util/grow.h"

static const char *name_of(const struct lbtf_builder *b, uint32_t off)
{
	if (off < b->start_str_off) {
		const char *s = lbtf_name_by_offset(b->base, off);

		return s ? s : "";
	}
	return b->strs.data + (off - b->start_str_off);
}

struct by_name {
	const struct lbtf_builder *b;
	const char **names;
};

static int cmp_by_name(const void *x, const void *y, void *ctx)
{
	const struct by_name *c = ctx;
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	int r = strcmp(c->names[i], c->names[j]);

	return r ? r : (i > j) - (i < j);
}

/* Renumber the type ids of record w (n words) that point at own types */
static void remap_ids(uint32_t *w, const struct lbtfi_layout *l, size_t n, uint32_t start,
		      const uint32_t *new_id)
{
	for (unsigned int m = l->fixed_type_mask; m; m &= m - 1) {
		uint32_t *s = &w[__builtin_ctz(m)];

		if (*s >= start)
			*s = new_id[*s - start];
	}
	if (l->elem_type_word >= 0)
		for (size_t e = l->fixed_words + (size_t)l->elem_type_word; e < n; e += l->elem_words)
			if (w[e] >= start)
				w[e] = new_id[w[e] - start];
}

int lbtf_builder_sort_by_name(struct lbtf_builder *b)
{
	uint32_t n, start;
	uint32_t *order = NULL, *new_id = NULL, *offs = NULL, *words = NULL;
	const char **names = NULL;
	size_t at = 0;
	int err;

	if (!b)
		return lbtfi_err(EINVAL, "lbtf_builder_sort_by_name: NULL builder");
	n = b->nr_types;
	start = b->start_id;
	/* every id in range and every record its kind's size: remap_ids relies on it */
	if ((err = lbtfi_builder_check(b)))
		return err;
	if (n < 2)
		return 0;
	order = malloc(n * sizeof(*order));
	new_id = malloc(n * sizeof(*new_id));
	names = malloc(n * sizeof(*names));
	offs = malloc(n * sizeof(*offs));
	words = lbtfi_malloc_big(b->nwords * sizeof(*words));
	if (!order || !new_id || !names || !offs || !words) {
		err = lbtfi_err(ENOMEM, "out of memory sorting %u types", n);
		goto out;
	}
	for (uint32_t i = 0; i < n; i++) {
		order[i] = i;
		names[i] = name_of(b, b->words[b->offs[i]]);
	}
	qsort_r(order, n, sizeof(*order), cmp_by_name, &(struct by_name){ b, names });
	for (uint32_t i = 0; i < n; i++)
		new_id[order[i]] = start + i;
	for (uint32_t i = 0; i < n; i++) {
		const uint32_t *src = b->words + b->offs[order[i]];
		const struct lbtfi_layout *l = &b->lay[lbtf_kind((const struct lbtf_type *)src)];
		size_t nw = lbtfi_layout_words(b->lay, (const struct lbtf_type *)src);

		offs[i] = (uint32_t)at;
		memcpy(words + at, src, nw * sizeof(*words));
		remap_ids(words + at, l, nw, start, new_id);
		at += nw;
	}
	free(b->offs);
	b->offs = offs;
	b->cap_types = n;
	free(b->words);
	b->words = words;
	b->cap_words = b->nwords;
	offs = NULL;
	words = NULL;
	err = 0;
out:
	free(order);
	free(new_id);
	free(names);
	free(offs);
	free(words);
	return err;
}
