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

#define HDR_LEN 24u

int lbtf_builder_serialize(const struct lbtf_builder *b, bool swap, void **data, size_t *size)
{
	size_t types_len = b->nwords * 4, total;
	struct lbtf_header h = { .magic = LBTF_MAGIC, .version = LBTF_VERSION, .hdr_len = HDR_LEN };
	unsigned char *out;
	int err = lbtfi_builder_check(b);

	if (err)
		return err;
	if (types_len > UINT32_MAX || b->strs.len > UINT32_MAX ||
	    types_len + b->strs.len + HDR_LEN > UINT32_MAX)
		return lbtfi_err(E2BIG, "BTF too large to serialize");
	h.type_off = 0;
	h.type_len = (uint32_t)types_len;
	h.str_off = (uint32_t)types_len;
	h.str_len = (uint32_t)b->strs.len;
	total = HDR_LEN + types_len + b->strs.len;
	/* (a vmlinux's blob is megabytes: on huge pages it is a few page
	 * faults, not one per 4 KiB page; still freed by free()) */
	out = lbtfi_malloc_big(total);
	if (!out)
		return lbtfi_err(ENOMEM, "out of memory serializing BTF (%zu bytes)", total);
	if (types_len) /* (no word array yet in an empty builder) */
		memcpy(out + HDR_LEN, b->words, types_len);
	if (b->strs.len)
		memcpy(out + HDR_LEN + types_len, b->strs.data, b->strs.len);
	if (swap) {
		lbtfi_swap_type_words(out + HDR_LEN, types_len);
		lbtfi_swap_header(&h);
	}
	memcpy(out, &h, HDR_LEN);
	*data = out;
	*size = total;
	return 0;
}
