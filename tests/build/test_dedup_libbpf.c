// SPDX-License-Identifier: BSD-2-Clause
/*
 * lbtf_builder_dedup against libbpf's btf__dedup on the same raw input: the results
 * must be the same types in the same order (names compared as strings;
 * the string sections may be ordered differently).
 *  - real per-unit BTF: pahole's BTF of each of libbtf's own objects,
 *    concatenated (shared types, FWDs complete elsewhere, duplicates);
 *  - the running kernel's BTF three times over (380k types).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <glob.h>
#include <unistd.h>
#include <cmocka.h>
#include <bpf/btf.h>
#include "libbtf.h"
#include "btf_compare.h"

static int add_delta(uint32_t *slot, void *ctx)
{
	if (*slot)
		*slot += *(uint32_t *)ctx;
	return 0;
}

/* Append every type of src to b, renumbered to follow what b has */
static void append_btf(struct lbtf_builder *b, const struct lbtf *src)
{
	uint32_t delta = lbtf_builder_type_cnt(b) - 1;

	for (uint32_t id = 1; id < lbtf_type_cnt(src); id++) {
		int nid = lbtf_builder_add_type_copy(b, src, id);
		if (nid < 0)
			fail_msg("copy of type %u failed: %s", id, lbtf_errmsg());
		lbtf_type_visit_type_ids(lbtf_builder_type_by_id(b, (uint32_t)nid), add_delta, &delta);
	}
}

/* Dedup the raw contents of b both ways and compare */
static void compare_with_libbpf(struct lbtf_builder *b)
{
	void *raw, *ours;
	size_t raw_size, ours_size;
	struct btf *lb;
	struct lbtf *a, *c;
	const void *theirs;
	uint32_t theirs_size, bad;
	char why[256];
	uint32_t raw_cnt = lbtf_builder_type_cnt(b) - 1;

	assert_int_equal(lbtf_builder_serialize(b, false, &raw, &raw_size), 0);
	lb = btf__new(raw, (uint32_t)raw_size);
	assert_non_null(lb);
	assert_int_equal(btf__dedup(lb, NULL), 0);
	theirs = btf__raw_data(lb, &theirs_size);
	if (lbtf_builder_dedup(b, NULL))
		fail_msg("lbtf_builder_dedup: %s", lbtf_errmsg());
	assert_int_equal(lbtf_builder_serialize(b, false, &ours, &ours_size), 0);
	a = lbtf_new(ours, ours_size, NULL);
	c = lbtf_new(theirs, theirs_size, NULL);
	assert_non_null(a);
	assert_non_null(c);
	print_message("raw %u types -> ours %u, libbpf %u; %zu vs %u bytes\n",
		      raw_cnt, lbtf_type_cnt(a) - 1, lbtf_type_cnt(c) - 1,
		      ours_size, theirs_size);
	bad = btf_compare(a, c, why, sizeof(why));
	if (bad)
		fail_msg("differs from libbpf: %s", why);
	assert_true(ours_size <= theirs_size);
	lbtf_free(a);
	lbtf_free(c);
	btf__free(lb);
	free(raw);
	free(ours);
}

/* pahole's BTF of every libbtf object appended to b, deduplicating after
 * every dedup_every units (0: never) */
static void pahole_units(struct lbtf_builder *b, int dedup_every)
{
	const char *bdir = getenv("B") ? getenv("B") : "build";
	char pattern[512], cmd[1024], tmp[] = "/tmp/lbtf-units-XXXXXX";
	glob_t g;
	int units = 0;

	assert_non_null(mkdtemp(tmp));
	snprintf(pattern, sizeof(pattern), "%s/obj/libbtf/*/*.o", bdir);
	if (glob(pattern, 0, NULL, &g) || g.gl_pathc < 10)
		fail_msg("no libbtf objects under %s (build first)", pattern);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct lbtf *u;
		snprintf(cmd, sizeof(cmd), "pahole --btf_encode_detached=%s/u.btf %s 2>/dev/null",
			 tmp, g.gl_pathv[i]);
		if (system(cmd))
			continue; /* an object without DWARF */
		snprintf(cmd, sizeof(cmd), "%s/u.btf", tmp);
		u = lbtf_open_raw(cmd, NULL);
		if (!u)
			fail_msg("%s: %s", cmd, lbtf_errmsg());
		append_btf(b, u);
		lbtf_free(u);
		units++;
		if (dedup_every && units % dedup_every == 0 && lbtf_builder_dedup(b, NULL))
			fail_msg("dedup: %s", lbtf_errmsg());
	}
	globfree(&g);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	assert_int_equal(system(cmd), 0);
	assert_true(units >= 10);
	print_message("%d units, %u types\n", units, lbtf_builder_type_cnt(b) - 1);
}

static void test_pahole_units(void **state)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);

	pahole_units(b, 0);
	compare_with_libbpf(b);
	lbtf_builder_free(b);
}

static struct lbtf *deduped(struct lbtf_builder *b)
{
	void *data;
	size_t size;
	struct lbtf *btf;

	if (lbtf_builder_dedup(b, NULL))
		fail_msg("dedup: %s", lbtf_errmsg());
	assert_int_equal(lbtf_builder_serialize(b, false, &data, &size), 0);
	btf = lbtf_new(data, size, NULL);
	assert_non_null(btf);
	free(data);
	return btf;
}

/* deduplicating every 4 units on the way gives the one-shot result */
static void test_pahole_units_incremental(void **state)
{
	struct lbtf_builder *b1 = lbtf_builder_new(NULL), *b2 = lbtf_builder_new(NULL);
	struct lbtf *once, *incr;
	char why[256];

	pahole_units(b1, 0);
	pahole_units(b2, 4);
	once = deduped(b1);
	incr = deduped(b2);
	if (btf_compare(once, incr, why, sizeof(why)))
		fail_msg("incremental dedup differs: %s", why);
	lbtf_free(once);
	lbtf_free(incr);
	lbtf_builder_free(b1);
	lbtf_builder_free(b2);
}

static void test_vmlinux_three_times(void **state)
{
	struct lbtf *v = lbtf_open_vmlinux();
	struct lbtf_builder *b = lbtf_builder_new(NULL);

	assert_non_null(v);
	for (int i = 0; i < 3; i++)
		append_btf(b, v);
	compare_with_libbpf(b);
	lbtf_builder_free(b);
	lbtf_free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pahole_units),
		cmocka_unit_test(test_pahole_units_incremental),
		cmocka_unit_test(test_vmlinux_three_times),
	};

	if (system("command -v pahole >/dev/null 2>&1")) {
		printf("SKIP: pahole not installed\n");
		return 77;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		printf("SKIP: /sys/kernel/btf/vmlinux not readable\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
