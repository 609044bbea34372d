/* SPDX-License-Identifier: BSD-2-Clause */
/* Test helper: type graphs the dedup tests build in more than one file. */
#ifndef TESTS_BUILD_DEDUP_CASES_H
#define TESTS_BUILD_DEDUP_CASES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "libbtf_build.h"

/* A chain of 15 structs "fan", each with 8 members all of the next one's
 * type (the last one's of leaf): 8^15 paths for a walk with no budget */
static inline uint32_t add_fan_chain(struct lbtf_builder *b, uint32_t leaf)
{
	uint32_t prev = leaf;

	for (int level = 0; level < 15; level++) {
		uint32_t s = (uint32_t)lbtf_builder_add_struct(b, "fan", 64);

		for (int m = 0; m < 8; m++) {
			char name[8];

			snprintf(name, sizeof(name), "m%d", m);
			lbtf_builder_add_field(b, name, prev, 0, 0);
		}
		prev = s;
	}
	return prev;
}

/*
 * struct C { fan x, y; } over one chain, then an equivalent C' whose x and
 * y are two more copies of the chain, added after it (so still unmerged
 * when C' is compared: the bounded walk gives up on it). false if the
 * copies did not get the ids C' names.
 */
static inline bool add_c_twins(struct lbtf_builder *b)
{
	uint32_t i = (uint32_t)lbtf_builder_add_int(b, "int", 4, 0);
	uint32_t t = add_fan_chain(b, i), t1, t2;

	lbtf_builder_add_struct(b, "C", 128);
	lbtf_builder_add_field(b, "x", t, 0, 0);
	lbtf_builder_add_field(b, "y", t, 0, 0);
	t1 = lbtf_builder_type_cnt(b) + 15;
	t2 = t1 + 15;
	lbtf_builder_add_struct(b, "C", 128);
	lbtf_builder_add_field(b, "x", t1, 0, 0);
	lbtf_builder_add_field(b, "y", t2, 0, 0);
	return add_fan_chain(b, i) == t1 && add_fan_chain(b, i) == t2;
}

#endif
