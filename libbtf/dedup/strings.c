// SPDX-License-Identifier: BSD-2-Clause
/*
 * String pass of dedup: keep only the string bytes the types reference, in
 * their existing order. The builder interned every string once, so this is
 * a compaction, not a re-interning: mark the referenced bytes in a bitmap
 * (a string from its referenced offset to its NUL, so offsets into the
 * middle of a string stay valid), slide the kept bytes down, and give each
 * slot its new offset by rank (kept bytes before it: per-64-byte-block
 * prefix counts plus a popcount). The hash set is rebuilt from its
 * offset-ordered entries and their stored hashes: no string is hashed again.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

struct strs_ctx {
	struct lbtf_builder *b;
	uint64_t *keep;      /* bit per string byte */
	uint32_t *before;    /* kept bytes before each 64-byte block */
};

static bool kept(const uint64_t *keep, size_t i)
{
	return (keep[i >> 6] >> (i & 63)) & 1;
}

/* Keep the bytes of the string at offset off (through its NUL) */
static void mark(struct strs_ctx *c, uint32_t off)
{
	const struct lbtf_builder *b = c->b;
	size_t i, end;

	if (off < b->start_str_off)
		return; /* base strings (and "" of base BTF) are kept as they are */
	i = off - b->start_str_off;
	if (kept(c->keep, i))
		return; /* marked from here on already */
	end = i + strlen(b->strs.data + i) + 1;
	while (i < end) { /* whole words at a time */
		size_t bit = i & 63, n = end - i < 64 - bit ? end - i : 64 - bit;

		c->keep[i >> 6] |= (n == 64 ? ~0ull : (1ull << n) - 1) << bit;
		i += n;
	}
}

/* (inline: without -mpopcnt the builtin becomes a libgcc call) */
static inline uint32_t popcount64(uint64_t v)
{
	v = v - ((v >> 1) & 0x5555555555555555ull);
	v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (uint32_t)((v * 0x0101010101010101ull) >> 56);
}

static uint32_t rank(const struct strs_ctx *c, size_t i)
{
	uint64_t below = c->keep[i >> 6] & ((1ull << (i & 63)) - 1);

	return c->before[i >> 6] + popcount64(below);
}

static uint32_t rewrite(const struct strs_ctx *c, uint32_t off)
{
	uint32_t start = c->b->start_str_off;

	return off >= start ? start + rank(c, off - start) : off;
}

/* String-offset words of a record of n words: 0, then each element's name */
static inline size_t str_word_next(const struct lbtfi_layout *l, size_t i, size_t n)
{
	if (i == 0)
		return l->elem_name_word >= 0 ? l->fixed_words + (size_t)l->elem_name_word : n;
	return i + l->elem_words;
}

int lbtfi_dedup_strings(struct lbtf_builder *b)
{
	/* (records known checked stay so: every offset is rewritten to a
	 * kept string's; the check only remembers the strings' length) */
	bool known = lbtfi_builder_checked_known(b);
	struct lbtfi_strset *ss = &b->strs;
	size_t len = ss->len, blocks = (len + 63) / 64 + 1, out = 0, kept_bytes = 0;
	struct strs_ctx c = { .b = b };
	uint32_t cnt = 0;
	int err;

	c.keep = calloc(blocks, sizeof(*c.keep));
	c.before = malloc(blocks * sizeof(*c.before));
	if (!c.keep || !c.before) {
		free(c.keep);
		free(c.before);
		return lbtfi_err(ENOMEM, "out of memory compacting strings");
	}
	if (!b->base && len)
		c.keep[0] |= 1; /* the leading "" */
	/* offsets were range-checked by lbtfi_builder_check() */
	for (uint32_t t = 0; t < b->nr_types; t++) {
		const uint32_t *w = b->words + b->offs[t];
		const struct lbtfi_layout *l = &b->lay[lbtf_kind((const struct lbtf_type *)w)];
		size_t n = lbtfi_layout_words(b->lay, (const struct lbtf_type *)w);

		for (size_t i = 0; i < n; i = str_word_next(l, i, n))
			mark(&c, w[i]);
	}
	for (size_t k = 0; k < blocks; k++) {
		c.before[k] = (uint32_t)kept_bytes;
		kept_bytes += popcount64(c.keep[k]);
	}
	if (kept_bytes == len) { /* every string referenced (a raw vmlinux after
				   * dedup): offsets, bytes and entries stay */
		free(c.keep);
		free(c.before);
		return 0;
	}
	/* the entries again, in order: a kept string start keeps its entry */
	for (uint32_t i = 0; i < ss->cnt; i++)
		if (kept(c.keep, ss->seq[i].off))
			ss->seq[cnt++] = (struct lbtfi_strset_slot){ rank(&c, ss->seq[i].off), ss->seq[i].hash };
	for (uint32_t t = 0; t < b->nr_types; t++) {
		uint32_t *w = b->words + b->offs[t];
		const struct lbtfi_layout *l = &b->lay[lbtf_kind((const struct lbtf_type *)w)];
		size_t n = lbtfi_layout_words(b->lay, (const struct lbtf_type *)w);

		for (size_t i = 0; i < n; i = str_word_next(l, i, n))
			w[i] = rewrite(&c, w[i]);
	}
	/* slide the kept bytes down, a run of kept bytes at a time */
	for (size_t i = 0; i < len;) {
		uint64_t w = c.keep[i >> 6] >> (i & 63);
		size_t run;

		if (!w) {
			i = (i | 63) + 1;
			continue;
		}
		i += (size_t)__builtin_ctzll(w);
		w = ~(c.keep[i >> 6] >> (i & 63));
		run = w ? (size_t)__builtin_ctzll(w) : 64 - (i & 63);
		if (run > len - i)
			run = len - i;
		memmove(ss->data + out, ss->data + i, run);
		out += run;
		i += run;
	}
	ss->len = out;
	free(c.keep);
	free(c.before);
	/* (fewer entries than before: the table keeps its size) */
	err = lbtfi_strset_reindex(ss, cnt);
	if (err)
		return lbtfi_err(-err, "out of memory compacting strings");
	if (known)
		lbtfi_builder_checked_now(b);
	return 0;
}
