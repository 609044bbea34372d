/* SPDX-License-Identifier: BSD-2-Clause */
/* Test helper: are two BTF objects the same type by type, comparing every
 * name as a string (so string offsets and string order may differ)? */
#ifndef TESTS_BUILD_BTF_COMPARE_H
#define TESTS_BUILD_BTF_COMPARE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libbtf.h"

struct name_walk {
	const char *names[70000];
	unsigned int n;
	const struct lbtf *btf;
};

static int btfcmp_collect(uint32_t off, void *ctx)
{
	struct name_walk *w = ctx;

	if (w->n < sizeof(w->names) / sizeof(w->names[0]))
		w->names[w->n++] = lbtf_name_by_offset(w->btf, off);
	return 0;
}

static int btfcmp_zero(uint32_t *slot, void *ctx)
{
	*slot = 0;
	return 0;
}

/* 0 if equal, else the first differing id (and a description in why) */
static uint32_t btf_compare(const struct lbtf *a, const struct lbtf *b, char *why, size_t why_len)
{
	static struct name_walk wa, wb;

	if (lbtf_type_cnt(a) != lbtf_type_cnt(b)) {
		snprintf(why, why_len, "type counts differ: %u vs %u", lbtf_type_cnt(a), lbtf_type_cnt(b));
		return lbtf_type_cnt(a) < lbtf_type_cnt(b) ? lbtf_type_cnt(a) : lbtf_type_cnt(b);
	}
	for (uint32_t id = 1; id < lbtf_type_cnt(a); id++) {
		const struct lbtf_type *ta = lbtf_type_by_id(a, id), *tb = lbtf_type_by_id(b, id);
		size_t n = lbtf_type_rec_size(ta);
		struct lbtf_type *ca, *cb;
		int diff = 0;

		if (ta->info != tb->info || n != lbtf_type_rec_size(tb)) {
			snprintf(why, why_len, "type %u: %s vs %s", id, lbtf_kind_name(lbtf_kind(ta)),
				 lbtf_kind_name(lbtf_kind(tb)));
			return id;
		}
		/* names as strings */
		wa.n = wb.n = 0;
		wa.btf = a;
		wb.btf = b;
		lbtf_type_read_str_offs(ta, btfcmp_collect, &wa);
		lbtf_type_read_str_offs(tb, btfcmp_collect, &wb);
		for (unsigned int i = 0; i < wa.n; i++)
			if (!wa.names[i] || !wb.names[i] || strcmp(wa.names[i], wb.names[i])) {
				snprintf(why, why_len, "type %u: name %u '%s' vs '%s'", id, i,
					 wa.names[i] ? wa.names[i] : "?", wb.names[i] ? wb.names[i] : "?");
				return id;
			}
		/* everything else bit for bit: blank the name slots of copies */
		ca = malloc(n);
		cb = malloc(n);
		memcpy(ca, ta, n);
		memcpy(cb, tb, n);
		lbtf_type_visit_str_offs(ca, btfcmp_zero, NULL);
		lbtf_type_visit_str_offs(cb, btfcmp_zero, NULL);
		diff = memcmp(ca, cb, n);
		free(ca);
		free(cb);
		if (diff) {
			snprintf(why, why_len, "type %u (%s '%s'): records differ", id,
				 lbtf_kind_name(lbtf_kind(ta)), lbtf_type_name(a, ta));
			return id;
		}
	}
	return 0;
}

#endif
