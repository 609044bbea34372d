/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Pieces the libFuzzer targets share: a stream that discards what is
 * written to it, parsing from an exact-size heap copy, and the optional
 * base blob at the front of an input (split BTF).
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libbtf.h"

/* libFuzzer's entry point, defined by each target */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline ssize_t fz_discard(void *cookie, const char *buf, size_t size)
{
	return size;
}

/* One discarding stream for the process (no file system involved) */
static inline FILE *fz_sink(void)
{
	static FILE *f;
	cookie_io_functions_t io = { .write = fz_discard };

	if (!f)
		f = fopencookie(NULL, "w", io);
	return f;
}

/* Parse an exact-size heap copy, so that overreads are caught; the copy
 * is the parsed BTF's storage, handed back in *keep to free after it. */
static inline struct lbtf *fz_parse(const uint8_t *data, size_t size, const struct lbtf *base,
				    void **keep)
{
	void *copy = malloc(size ? size : 1);
	struct lbtf *btf;

	memcpy(copy, data, size);
	btf = lbtf_new_borrowed(copy, size, base);
	if (!btf) {
		free(copy);
		return NULL;
	}
	*keep = copy;
	return btf;
}

/* A split input: two bytes (little endian) give the length of the base
 * blob that follows. Parses it into *base (storage in *base_bytes) and
 * moves past it; false when the input is too short or the base is bad. */
static inline bool fz_split_base(const uint8_t **data, size_t *size, struct lbtf **base,
				 void **base_bytes)
{
	size_t base_len;

	if (*size < 2)
		return false;
	base_len = (*data)[0] | (size_t)(*data)[1] << 8;
	*data += 2;
	*size -= 2;
	if (base_len > *size || !(*base = fz_parse(*data, base_len, NULL, base_bytes)))
		return false;
	*data += base_len;
	*size -= base_len;
	return true;
}

#endif
