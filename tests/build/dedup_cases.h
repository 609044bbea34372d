/* SPDX-License-Identifier: BSD-2-Clause */
/* Test helper: type graphs the dedup tests build in more than one file. */
#ifndef TESTS_BUILD_DEDUP_CASES_H
#define TESTS_BUILD_DEDUP_CASES_H

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

#endif
