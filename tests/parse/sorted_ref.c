// SPDX-License-Identifier: BSD-2-Clause
/*
 * Name lookups in sorted BTF (issue 32) against libbpf master (1.8, its
 * binary search of 1c96b72c), built by tests/parse/check_sorted.sh (never
 * part of make's build):
 *   sorted_ref BTF    permutes BTF's types into name order with libbpf's
 *                     btf__permute (a stable sort by name, as resolve_btfids
 *                     leaves a kernel's), then: libbtf sees the result sorted
 *                     and the input not; every named type's (name, kind) is
 *                     found at the id libbpf finds, and at the new id of what
 *                     a linear scan finds in the input (a sample); and the
 *                     sorted lookups take less time than the linear ones.
 * Prints the figures; exit 0 when all hold.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "libbtf.h"

static const struct btf *sort_btf;

static int by_name(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	int c = strcmp(btf__name_by_offset(sort_btf, btf__type_by_id(sort_btf, x)->name_off),
		       btf__name_by_offset(sort_btf, btf__type_by_id(sort_btf, y)->name_off));

	return c ? c : (x > y) - (x < y); /* stable: equal names keep their order */
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct btf *lb, *ls;
	struct lbtf *orig, *sorted;
	uint32_t n, *order, *id_map, size, sample = 0, bad = 0;
	const void *data;
	double t0, lin = 0, bin = 0;

	if (argc != 2)
		return fprintf(stderr, "usage: %s BTF\n", argv[0]), 2;
	libbpf_set_print(NULL);
	lb = btf__parse(argv[1], NULL);
	orig = lbtf_open(argv[1], NULL);
	if (!lb || !orig)
		return fprintf(stderr, "%s: cannot parse\n", argv[1]), 2;
	n = btf__type_cnt(lb);
	order = malloc(n * sizeof(*order));
	id_map = malloc(n * sizeof(*id_map));
	if (!order || !id_map)
		return 2;
	for (uint32_t i = 0; i < n - 1; i++)
		order[i] = i + 1;
	sort_btf = lb;
	qsort(order, n - 1, sizeof(*order), by_name);
	id_map[0] = 0;
	for (uint32_t i = 0; i < n - 1; i++)
		id_map[order[i]] = i + 1;
	if (btf__permute(lb, id_map, n, NULL))
		return fprintf(stderr, "btf__permute: %s\n", strerror(errno)), 2;
	data = btf__raw_data(lb, &size);
	sorted = lbtf_new(data, size, NULL);
	/* parsed again: libbpf checks the order when it parses */
	ls = btf__new(data, size);
	if (!sorted || !ls)
		return fprintf(stderr, "parsing the sorted BTF: %s\n", lbtf_errmsg()), 2;
	if (lbtf_sorted_from(orig))
		printf("note: %s is sorted already\n", argv[1]);
	if (!lbtf_sorted_from(sorted)) {
		printf("FAIL: libbtf does not see libbpf's permutation as sorted\n");
		bad++;
	}
	for (uint32_t id = 1; id < n; id++) {
		const struct lbtf_type *t = lbtf_type_by_id(sorted, id);
		const char *name = lbtf_name_by_offset(sorted, t->name_off);
		int kind = (int)lbtf_kind(t), ours, theirs;

		if (!name || !name[0])
			continue;
		ours = lbtf_find_by_name_kind(sorted, name, kind);
		theirs = btf__find_by_name_kind(ls, name, kind);
		if (ours != theirs && bad++ < 5)
			printf("FAIL: '%s' kind %d: libbtf %d, libbpf %d\n", name, kind, ours, theirs);
		/* a sample against the linear scan of the unsorted input, timed */
		if (id % 64)
			continue;
		sample++;
		t0 = now();
		ours = lbtf_find_by_name_kind(orig, name, kind);
		lin += now() - t0;
		t0 = now();
		theirs = lbtf_find_by_name_kind(sorted, name, kind);
		bin += now() - t0;
		if ((ours < 0 || id_map[ours] != (uint32_t)theirs) && bad++ < 5)
			printf("FAIL: '%s' kind %d: sorted %d, linear %d (now %u)\n", name, kind,
			       theirs, ours, ours < 0 ? 0 : id_map[ours]);
	}
	printf("%u types; %u lookups: linear %.3f ms, sorted %.3f ms (%.1fx faster)\n", n - 1,
	       sample, lin * 1e3, bin * 1e3, bin > 0 ? lin / bin : 0);
	if (!(bin < lin)) {
		printf("FAIL: sorted lookups not faster than linear ones\n");
		bad++;
	}
	lbtf_free(sorted);
	lbtf_free(orig);
	btf__free(ls);
	btf__free(lb);
	free(order);
	free(id_map);
	return bad ? 1 : 0;
}
