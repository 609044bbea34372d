// SPDX-License-Identifier: BSD-2-Clause
/*
 * The reference side of tests/btfgen/check_sort_types.sh: BTF permuted into
 * name order by libbpf master (1.8, built by scripts/build-libbpf.sh) the
 * way the kernel build's resolve_btfids does it: the type ids (void
 * included for base BTF) sorted by name, equal names by id, then
 * btf__permute and btf__raw_data. Never part of make's build.
 *
 *   libbpf_sort IN OUT [BASE]    IN (split over BASE) sorted, to OUT
 *   libbpf_sort check FILE       libbtf's view of FILE (base BTF): "sorted"
 *                                or "unsorted" (lbtf_sorted_from), then
 *                                "found N" when each named type's name and
 *                                kind lead lbtf_find_by_name_kind to the
 *                                first type with them (libbpf's answer)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "libbtf.h"

static const struct btf *cmp_btf;

static int by_name(const void *a, const void *b)
{
	__u32 x = *(const __u32 *)a, y = *(const __u32 *)b;
	int r = strcmp(btf__name_by_offset(cmp_btf, btf__type_by_id(cmp_btf, x)->name_off),
		       btf__name_by_offset(cmp_btf, btf__type_by_id(cmp_btf, y)->name_off));

	return r ? r : x < y ? -1 : 1;
}

static int check(const char *path)
{
	struct btf *lb = btf__parse(path, NULL);
	struct lbtf *ours = lbtf_open(path, NULL);
	__u32 n, found = 0;

	if (!lb || !ours)
		return fprintf(stderr, "%s: cannot parse\n", path), 2;
	printf("%s\n", lbtf_sorted_from(ours) ? "sorted" : "unsorted");
	n = btf__type_cnt(lb);
	for (__u32 id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(lb, id);
		const char *name = btf__name_by_offset(lb, t->name_off);
		int want = btf__find_by_name_kind(lb, name, btf_kind(t));

		if (!*name)
			continue;
		if (lbtf_find_by_name_kind(ours, name, btf_kind(t)) != want)
			return printf("'%s' kind %u: not at %d\n", name, btf_kind(t), want), 1; /* (exits) */
		found++;
	}
	printf("found %u\n", found);
	btf__free(lb);
	lbtf_free(ours);
	return 0;
}

int main(int argc, char **argv)
{
	struct btf *base = NULL, *btf;
	__u32 start = 0, n, *order, *id_map, size;
	const void *data;
	FILE *f;

	if (argc == 3 && !strcmp(argv[1], "check"))
		return check(argv[2]);
	if (argc != 3 && argc != 4)
		return fprintf(stderr, "usage: %s IN OUT [BASE]\n", argv[0]), 2;
	if (argc == 4 && !(base = btf__parse(argv[3], NULL)))
		return fprintf(stderr, "%s: %s\n", argv[3], strerror(errno)), 2;
	btf = btf__parse_split(argv[1], base);
	if (!btf)
		return fprintf(stderr, "%s: %s\n", argv[1], strerror(errno)), 2;
	if (base)
		start = btf__type_cnt(base);
	n = btf__type_cnt(btf) - start;
	order = calloc(n, sizeof(*order));
	id_map = calloc(n, sizeof(*id_map));
	if (!order || !id_map)
		return 2;
	for (__u32 i = 0; i < n; i++)
		order[i] = start + i;
	cmp_btf = btf;
	qsort(order, n, sizeof(*order), by_name);
	for (__u32 i = 0; i < n; i++)
		id_map[order[i] - start] = start + i;
	if (btf__permute(btf, id_map, n, NULL))
		return fprintf(stderr, "btf__permute: %s\n", strerror(errno)), 2;
	data = btf__raw_data(btf, &size);
	f = fopen(argv[2], "wb");
	if (!data || !f || fwrite(data, 1, size, f) != size || fclose(f))
		return fprintf(stderr, "%s: cannot write\n", argv[2]), 2;
	free(order);
	free(id_map);
	btf__free(btf);
	btf__free(base);
	return 0;
}
