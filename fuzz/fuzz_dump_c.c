// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: the C header dumper (lbtf_dump_c) in id order, sorted,
 * and from a few root types, on plain and split BTF, into a discarding
 * stream. Hostile input must end in a clean error: no crash, no endless or
 * exponential walk (budgets), no unbounded output.
 *
 * Input layout: byte 0 selects the mode (bit 0: split, then two bytes give
 * the base blob's length; bit 1: sorted; bit 2: roots = the first ids;
 * bit 3: kfunc prototypes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libbtf.h"

static ssize_t discard(void *cookie, const char *buf, size_t size)
{
	return size;
}

static FILE *sink(void)
{
	static FILE *f;
	cookie_io_functions_t io = { .write = discard };

	if (!f)
		f = fopencookie(NULL, "w", io);
	return f;
}

static struct lbtf *parse(const uint8_t *data, size_t size, const struct lbtf *base, void **keep)
{
	void *copy = malloc(size ? size : 1);
	struct lbtf *btf;

	memcpy(copy, data, size);
	btf = lbtf_new_borrowed(copy, size, base);
	if (!btf)
		free(copy);
	else
		*keep = copy;
	return btf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lbtf_dump_c_opts o = { .sz = sizeof(o) };
	void *base_bytes = NULL, *bytes = NULL;
	struct lbtf *base = NULL, *btf;
	uint32_t roots[4];
	uint8_t mode;

	if (size < 1)
		return 0;
	mode = *data++;
	size--;
	if (mode & 1) {
		size_t base_len;

		if (size < 2)
			return 0;
		base_len = data[0] | (size_t)data[1] << 8;
		data += 2;
		size -= 2;
		if (base_len > size || !(base = parse(data, base_len, NULL, &base_bytes)))
			return 0;
		data += base_len;
		size -= base_len;
	}
	btf = parse(data, size, base, &bytes);
	if (btf) {
		o.sort = mode & 2;
		o.kfuncs = mode & 8;
		if (mode & 4) {
			for (uint32_t i = 0; i < 4; i++)
				roots[i] = (i + 1) % lbtf_type_cnt(btf);
			o.root_ids = roots;
			o.root_cnt = 4;
		}
		lbtf_dump_c(btf, sink(), &o);
		lbtf_dump_c_find_types(btf, "struct a", roots, 4);
		lbtf_free(btf);
	}
	free(bytes);
	lbtf_free(base);
	free(base_bytes);
	return 0;
}
