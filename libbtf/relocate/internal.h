/* SPDX-License-Identifier: BSD-2-Clause */
/* The relocation of split BTF from its distilled base onto a real base (not installed). */
#ifndef LIBBTF_RELOCATE_INTERNAL_H
#define LIBBTF_RELOCATE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "core/internal.h"

struct lbtfi_reloc {
	const struct lbtf *split; /* the split BTF, over dist */
	const struct lbtf *dist;  /* its distilled base */
	const struct lbtf *base;  /* the base it is relocated onto */
	const char *name;         /* names split in messages, or NULL */
	uint32_t nr_dist;         /* lbtf_type_cnt(dist): split's ids below are dist's */
	uint32_t nr_split;        /* lbtf_type_cnt(split) */
	uint32_t nr_base;         /* lbtf_type_cnt(base) */
	uint32_t dist_str_len;    /* dist's strings: split's own start after them */
	uint32_t base_str_len;
	uint32_t *id_map;         /* split's ids (all nr_split) -> the result's */
	uint32_t *str_map;        /* dist's string offsets -> base's (0: not a matched name) */
};

/* The message "NAME: what" (or "what" without a name) as lbtf_errmsg(); -err */
int lbtfi_reloc_err(const struct lbtfi_reloc *r, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Fills id_map for dist's ids (1 to nr_dist - 1) with the base types they
 * match, and str_map for their names (match.c). 0, or -EINVAL naming the
 * type that matches nothing or twice, -ELOOP for a chain of split types
 * that comes back to itself, -ENOMEM.
 */
int lbtfi_reloc_match(struct lbtfi_reloc *r);

#endif
