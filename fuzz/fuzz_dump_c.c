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
#include "fuzz_common.h"

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
	if ((mode & 1) && !fz_split_base(&data, &size, &base, &base_bytes))
		return 0;
	btf = fz_parse(data, size, base, &bytes);
	if (btf) {
		o.sort = mode & 2;
		o.kfuncs = mode & 8;
		if (mode & 4) {
			for (uint32_t i = 0; i < 4; i++)
				roots[i] = (i + 1) % lbtf_type_cnt(btf);
			o.root_ids = roots;
			o.root_cnt = 4;
		}
		lbtf_dump_c(btf, fz_sink(), &o);
		lbtf_dump_c_find_types(btf, "struct a", roots, 4);
		lbtf_free(btf);
	}
	free(bytes);
	lbtf_free(base);
	free(base_bytes);
	return 0;
}
