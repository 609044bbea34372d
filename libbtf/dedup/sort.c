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
#include "builder/internal.h"
#include "libbtf_build.h"
#include "util/grow.h"

/* ctx: the names of the own types, by index */
static int cmp_by_name(const void *x, const void *y, void *ctx)
{
	const char *const *names = ctx;
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	int r = strcmp(names[i], names[j]);

	return r ? r : (i > j) - (i < j);
}

struct renumber {
	uint32_t start;
	const uint32_t *new_id;
};

/* A type id slot: own types move, the base's and void stay */
static int renumber(uint32_t *slot, void *ctx)
{
	const struct renumber *r = ctx;

	if (*slot >= r->start)
		*slot = r->new_id[*slot - r->start];
	return 0;
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
		const char *name = lbtf_builder_str(b, b->words[b->offs[i]]);

		names[i] = name ? name : ""; /* (checked above: never NULL) */
	}
	qsort_r(order, n, sizeof(*order), cmp_by_name, names);
	for (uint32_t i = 0; i < n; i++)
		new_id[order[i]] = start + i;
	for (uint32_t i = 0; i < n; i++) {
		const uint32_t *src = b->words + b->offs[order[i]];
		size_t nw = lbtfi_layout_words(b->lay, (const struct lbtf_type *)src);

		offs[i] = (uint32_t)at;
		memcpy(words + at, src, nw * sizeof(*words));
		lbtf_type_visit_type_ids((struct lbtf_type *)(words + at), renumber,
					 &(struct renumber){ start, new_id });
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
