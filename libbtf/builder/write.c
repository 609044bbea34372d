// SPDX-License-Identifier: BSD-2-Clause
/* Serializing a builder to a raw BTF blob, and writing it to a file. */
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"
#include "util/grow.h"

void lbtf_builder_set_layout(struct lbtf_builder *b, bool on)
{
	b->layout_sec = on;
}

/* A vlen past 16 bits only where the reader is told to expect it: the
 * 2024 format's readers (kernels before 7.2, libbpf before 1.8) take bits
 * 16-23 of info for unused, and refuse or misread the type. */
static int check_vlen_width(const struct lbtf_builder *b)
{
	if (b->layout_sec)
		return 0;
	for (uint32_t i = 0; i < b->nr_types; i++) {
		const struct lbtf_type *t = (const struct lbtf_type *)(b->words + b->offs[i]);

		if (lbtf_vlen(t) > 0xffffu)
			return lbtfi_err(E2BIG, "type %u: %u elements need the 24-bit vlen of the "
					 "layout format (lbtf_builder_set_layout)", b->start_id + i,
					 lbtf_vlen(t));
	}
	return 0;
}

/* The layout section: each known kind's sizes from the kind table (kind 0,
 * void, has none), flags 0; in the byte order asked for */
static void put_layout(unsigned char *p, bool swap)
{
	for (unsigned int k = 0; k < LBTF_NR_KINDS; k++) {
		const struct lbtf_kind_desc *d = lbtf_kind_desc(k);
		struct lbtf_layout l = { 0 };

		if (k != LBTF_KIND_UNKN) {
			l.info_sz = (uint8_t)d->extra_size;
			l.elem_sz = (uint8_t)d->vlen_elem_size;
		}
		l.flags = swap ? lbtf_bswap16(l.flags) : l.flags;
		memcpy(p + k * sizeof(l), &l, sizeof(l));
	}
}

int lbtf_builder_serialize(const struct lbtf_builder *b, bool swap, void **data, size_t *size)
{
	size_t types_len = b->nwords * 4, total;
	uint32_t hdr_len = b->layout_sec ? sizeof(struct lbtf_header) : LBTF_HDR_LEN_V1;
	uint32_t layout_len = b->layout_sec ? LBTF_NR_KINDS * sizeof(struct lbtf_layout) : 0;
	struct lbtf_header h = { .magic = LBTF_MAGIC, .version = LBTF_VERSION, .hdr_len = hdr_len };
	unsigned char *out;
	int err = lbtfi_builder_check(b);

	if (err)
		return err;
	if ((err = check_vlen_width(b)))
		return err;
	if (types_len > UINT32_MAX || b->strs.len > UINT32_MAX ||
	    types_len + layout_len + b->strs.len + hdr_len > UINT32_MAX)
		return lbtfi_err(E2BIG, "BTF too large to serialize");
	h.type_off = 0;
	h.type_len = (uint32_t)types_len;
	/* libbpf's order: types, layout, strings */
	h.layout_off = layout_len ? (uint32_t)types_len : 0;
	h.layout_len = layout_len;
	h.str_off = (uint32_t)types_len + layout_len;
	h.str_len = (uint32_t)b->strs.len;
	total = hdr_len + types_len + layout_len + b->strs.len;
	/* (a vmlinux's blob is megabytes: a big block, on huge pages where
	 * they pay (util/grow.c); still freed by free()) */
	out = lbtfi_malloc_big(total);
	if (!out)
		return lbtfi_err(ENOMEM, "out of memory serializing BTF (%zu bytes)", total);
	if (types_len) /* (no word array yet in an empty builder) */
		memcpy(out + hdr_len, b->words, types_len);
	if (layout_len)
		put_layout(out + hdr_len + types_len, swap);
	if (b->strs.len)
		memcpy(out + hdr_len + types_len + layout_len, b->strs.data, b->strs.len);
	if (swap) {
		lbtfi_swap_type_words(out + hdr_len, types_len);
		lbtfi_swap_header(&h);
	}
	memcpy(out, &h, hdr_len);
	*data = out;
	*size = total;
	return 0;
}
