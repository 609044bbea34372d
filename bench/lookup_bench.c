// SPDX-License-Identifier: BSD-2-Clause
/*
 * bench/bench_lookup.sh's driver: name lookups in a BTF as it is and in the
 * same BTF sorted by name by libbtf itself (lbtf_builder_add_btf into a new
 * builder, lbtf_builder_sort_by_name, serialized and parsed again), where
 * lbtf_find_by_name_kind binary-searches. Every 100th named type is looked
 * up by name and kind in both, ROUNDS times (thread CPU time); both answers must name a type
 * of that name and kind. Prints one markdown row.
 *
 *   lookup_bench BTF [ROUNDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "libbtf.h"
#include "libbtf_build.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* the name and kind of what a lookup found are those asked for */
static int same(const struct lbtf *btf, int id, const char *name, unsigned int kind)
{
	const struct lbtf_type *t = id > 0 ? lbtf_type_by_id(btf, id) : NULL;

	return t && lbtf_kind(t) == kind && !strcmp(lbtf_type_name(btf, t), name);
}

int main(int argc, char **argv)
{
	struct lbtf *plain, *sorted;
	struct lbtf_builder *b;
	void *data;
	size_t size;
	int rounds = argc > 2 ? atoi(argv[2]) : 5, n = 0;
	uint32_t *ids;
	long found[2] = { 0, 0 };
	uint32_t cnt;
	double lin = 0, bin = 0, t0;

	if (argc < 2)
		return fprintf(stderr, "usage: %s BTF [ROUNDS]\n", argv[0]), 2;
	plain = lbtf_open(argv[1], NULL);
	b = lbtf_builder_new(NULL);
	if (!plain || !b || lbtf_builder_add_btf(b, plain) < 0 || lbtf_builder_sort_by_name(b) ||
	    lbtf_builder_serialize(b, false, &data, &size) || !(sorted = lbtf_new(data, size, NULL)))
		return fprintf(stderr, "lookup_bench: %s: %s\n", argv[1], lbtf_errmsg()), 1;
	if (lbtf_sorted_from(plain) || !lbtf_sorted_from(sorted))
		return fprintf(stderr, "lookup_bench: %s is sorted already, or the copy is not\n",
			       argv[1]), 1;
	cnt = lbtf_type_cnt(plain);
	ids = malloc((cnt / 100 + 1) * sizeof(*ids));
	if (!ids)
		return 1;
	for (uint32_t id = 1; id < cnt; id += 100) {
		const char *name = lbtf_type_name(plain, lbtf_type_by_id(plain, id));

		if (name && *name)
			ids[n++] = id;
	}
	/* each side timed as a whole loop: a clock read per lookup would
	 * weigh as much as a binary search */
	for (int r = 0; r < rounds; r++) {
		for (int side = 0; side < 2; side++) {
			const struct lbtf *btf = side ? sorted : plain;

			t0 = now();
			for (int i = 0; i < n; i++) {
				const struct lbtf_type *t = lbtf_type_by_id(plain, ids[i]);

				found[side] += lbtf_find_by_name_kind(btf, lbtf_type_name(plain, t),
								      lbtf_kind(t)) > 0;
			}
			*(side ? &bin : &lin) += now() - t0;
		}
	}
	/* the answers, once: a type of the name and kind asked for */
	for (int i = 0; i < n; i++) {
		const struct lbtf_type *t = lbtf_type_by_id(plain, ids[i]);
		const char *name = lbtf_type_name(plain, t);

		if (!same(plain, lbtf_find_by_name_kind(plain, name, lbtf_kind(t)), name, lbtf_kind(t)) ||
		    !same(sorted, lbtf_find_by_name_kind(sorted, name, lbtf_kind(t)), name, lbtf_kind(t)))
			return fprintf(stderr, "lookup_bench: '%s' not found alike\n", name), 1;
	}
	printf("| name lookup (lbtf_find_by_name_kind) in vmlinux BTF sorted by btfgen's sort, "
	       "unsorted / sorted | %.3f ms | %.3f ms | %.0fx faster | %d lookups x %d rounds "
	       "over %u types: linear scan vs binary search, thread CPU time |\n",
	       lin * 1e3 / rounds, bin * 1e3 / rounds, bin > 0 ? lin / bin : 0.0, n, rounds, cnt);
	if (found[0] != found[1])
		return fprintf(stderr, "lookup_bench: %ld found unsorted, %ld sorted\n", found[0], found[1]), 1;
	free(ids);
	free(data);
	lbtf_free(sorted);
	lbtf_builder_free(b);
	lbtf_free(plain);
	return 0;
}
