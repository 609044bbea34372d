// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: lbtf_relocate() of split BTF from its distilled base
 * onto a base, then the raw and JSON dumps of the result to a discarding
 * stream. Any input must give a clean error or a clean dump.
 *
 * Input layout: two length-prefixed blobs (two bytes each, little endian),
 * the base and the distilled base, then the split BTF over the distilled
 * base.
 */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lbtf *base = NULL, *dist = NULL, *split = NULL, *rel;
	void *base_bytes = NULL, *dist_bytes = NULL, *bytes = NULL;

	if (fz_split_base(&data, &size, &base, &base_bytes) &&
	    fz_split_base(&data, &size, &dist, &dist_bytes) &&
	    (split = fz_parse(data, size, dist, &bytes))) {
		rel = lbtf_relocate(split, base, NULL);
		if (rel) {
			if (lbtf_type_cnt(rel) != lbtf_type_cnt(base) + lbtf_type_cnt(split) -
						      lbtf_type_cnt(dist))
				abort(); /* every split type moved, none lost */
			lbtf_dump_raw(rel, fz_sink());
			lbtf_dump_json(rel, fz_sink(), false);
			lbtf_free(rel);
		}
	}
	lbtf_free(split);
	lbtf_free(dist);
	lbtf_free(base);
	free(bytes);
	free(dist_bytes);
	free(base_bytes);
	return 0;
}
