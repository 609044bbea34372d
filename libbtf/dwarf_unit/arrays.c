// SPDX-License-Identifier: BSD-2-Clause
/*
 * How this conversion spells arrays (see enum lbtf_dwarf_style): the
 * index type and whether dimensions nest. Over a base, the base's own
 * arrays say it: the INT most of them are indexed by (copied as it is:
 * name, size, encoding) and whether any ARRAY has an ARRAY as its
 * element. A base with arrays but no nested one is taken as flattening
 * when its index type is not clang's: nesting is only seen where a
 * multi-dimensional array exists, and pahole, the one encoder that
 * flattens, indexes by "int".
 */
#include <string.h>
#include "internal.h"

#define CLANG_INDEX "__ARRAY_SIZE_TYPE__"

static void set_spelling(struct lbtfi_dw_array_style *s, int style)
{
	bool pahole = style == LBTF_DWARF_STYLE_PAHOLE;

	s->index_name = pahole ? "int" : CLANG_INDEX;
	s->index_size = 4;
	s->index_flags = pahole ? LBTF_INT_SIGNED : 0;
	s->flatten = pahole;
}

/* The index type most arrays of the base use (0: no array), and whether
 * any array nests another directly */
static uint32_t base_index_type(const struct lbtf *base, bool *nested)
{
	uint32_t cand = 0, votes = 0, n = lbtf_type_cnt(base);

	*nested = false;
	for (uint32_t id = lbtf_start_id(base); id < n; id++) {
		const struct lbtf_type *t = lbtf_type_by_id(base, id), *elem;

		if (!t || lbtf_kind(t) != LBTF_KIND_ARRAY)
			continue;
		elem = lbtf_type_by_id(base, lbtf_array(t)->type);
		if (elem && lbtf_kind(elem) == LBTF_KIND_ARRAY)
			*nested = true;
		/* Boyer-Moore majority vote: one pass, no table */
		if (!votes)
			cand = lbtf_array(t)->index_type;
		votes += cand == lbtf_array(t)->index_type ? 1 : -1;
	}
	return cand;
}

void lbtfi_dw_array_style_init(struct lbtfi_dw_array_style *s, int style, const struct lbtf *base)
{
	const struct lbtf_type *t;
	const char *name;
	bool nested;
	uint32_t idx;

	set_spelling(s, style);
	if (!base || !(idx = base_index_type(base, &nested)))
		return;
	t = lbtf_type_by_id(base, idx);
	name = t ? lbtf_type_name(base, t) : NULL;
	if (!t || lbtf_kind(t) != LBTF_KIND_INT || !name || !*name ||
	    lbtf_int_bits(t) != t->size * 8 || lbtf_int_offset(t))
		return; /* not an index type this converter can spell again */
	s->index_name = name;
	s->index_size = t->size;
	s->index_flags = lbtf_int_encoding(t);
	s->flatten = !nested && strcmp(name, CLANG_INDEX);
}
