// SPDX-License-Identifier: BSD-2-Clause
/*
 * The definitions each converted group adds to the pairing check's table,
 * found as the group is appended to the raw output (on the appending
 * thread, while the workers convert the groups after it) instead of by a
 * walk of the whole raw output once the last group is in: that walk sat
 * on the critical path after the workers, once per look.
 *
 * A definition's shape (lbtfi_eq_def_shape) reads only its own group's
 * types and the raw output's strings, which only grow: it does not depend
 * on where the group's types sit nor on the other groups. So a group's
 * shapes are found once per conversion of the group and kept (with each
 * definition's place within the group), and a later look, after other
 * groups were converted again, adds them back without finding them again.
 * The table is a set (a name with two keys is several, in any order): the
 * same as the walk of the whole output made.
 */
#include <stdlib.h>
#include "internal.h"
#include "util/grow.h"

int lbtfi_dw_group_defs_add(struct lbtfi_eq_defs *table, const struct lbtf_builder *out,
			    uint32_t first, uint32_t end, struct lbtfi_dw_group_defs *gd)
{
	uint32_t id, k;
	int err;

	if (!gd->known) {
		for (id = first; id < end; id++) {
			const struct lbtf_type *t = lbtfi_btype(out, id);

			if (!lbtfi_eq_is_def(t))
				continue;
			if (LBTFI_GROW(gd->v, gd->cap, (size_t)gd->n + 1))
				return lbtfi_err(ENOMEM, "out of memory");
			gd->v[gd->n].rel = id - first;
			gd->v[gd->n++].shape = lbtfi_eq_def_shape(out, t);
		}
		gd->known = true;
	}
	for (k = 0; k < gd->n; k++)
		if ((err = lbtfi_eq_defs_add(table, lbtfi_btype(out, first + gd->v[k].rel),
					     gd->v[k].shape)))
			return err;
	return 0;
}

void lbtfi_dw_group_defs_free(struct lbtfi_dw_group_defs *gd)
{
	free(gd->v);
	*gd = (struct lbtfi_dw_group_defs){ 0 };
}
