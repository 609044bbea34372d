// SPDX-License-Identifier: BSD-2-Clause
/*
 * String pass of dedup: rebuild the builder's string section with only the
 * strings its types reference, in first-reference order, each once; a
 * string the base already has uses the base's offset.
 */
#include <string.h>
#include "build_internal.h"

struct strs_ctx {
	struct lbtf_builder *b;
	struct lbtfi_strset ns;
	struct lbtfi_offmap seen; /* old offset -> new offset */
	bool write;  /* second walk: rewrite slots from the map */
	int err;
};

static int remap_str(uint32_t *slot, void *ctx)
{
	struct strs_ctx *c = ctx;
	struct lbtf_builder *b = c->b;
	uint32_t old = *slot, rel;
	int64_t off;
	const char *s;

	if (old < b->start_str_off)
		return 0; /* base strings (and "" of base BTF) are kept */
	if (c->write) {
		lbtfi_offmap_get(&c->seen, old, slot);
		return 0;
	}
	if (lbtfi_offmap_get(&c->seen, old, &rel))
		return 0;
	rel = old - b->start_str_off;
	if (rel >= b->strs.len)
		return c->err = lbtfi_err(EINVAL, "string offset %u out of range", old);
	s = b->strs.data + rel;
	off = b->base ? lbtfi_strindex_find(b->base_strs, s) : -1;
	if (!*s) {
		off = 0;
	} else if (off < 0) {
		off = lbtfi_strset_add(&c->ns, s);
		if (off < 0)
			return c->err = lbtfi_err(ENOMEM, "out of memory deduplicating strings");
		off += b->start_str_off;
	}
	if (lbtfi_offmap_put(&c->seen, old, (uint32_t)off))
		return c->err = lbtfi_err(ENOMEM, "out of memory deduplicating strings");
	return 0;
}

int lbtfi_dedup_strings(struct lbtf_builder *b)
{
	struct strs_ctx c = { .b = b };

	if (lbtfi_strset_init(&c.ns, !b->base))
		return lbtfi_err(ENOMEM, "out of memory deduplicating strings");
	if (lbtfi_offmap_init(&c.seen, b->strs.cnt + 1)) {
		lbtfi_strset_free(&c.ns);
		return lbtfi_err(ENOMEM, "out of memory deduplicating strings");
	}
	/* first collect the new offsets, then rewrite: a failure (ENOMEM, bad
	 * offset) leaves the types untouched */
	for (uint32_t i = 0; i < b->nr_types && !c.err; i++)
		lbtf_type_visit_str_offs(lbtfi_btype(b, b->start_id + i), remap_str, &c);
	if (c.err) {
		lbtfi_offmap_free(&c.seen);
		lbtfi_strset_free(&c.ns);
		return c.err;
	}
	c.write = true;
	for (uint32_t i = 0; i < b->nr_types; i++)
		lbtf_type_visit_str_offs(lbtfi_btype(b, b->start_id + i), remap_str, &c);
	lbtfi_offmap_free(&c.seen);
	lbtfi_strset_free(&b->strs);
	b->strs = c.ns;
	return 0;
}
