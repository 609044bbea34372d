// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: the .BTF.ext parser (lbtf_ext_new), every record of
 * every section, CO-RE access strings resolved against a BTF, and the
 * rewrite onto a copy of that BTF (lbtf_ext_remap). Any input must give a
 * clean error or clean records.
 *
 * Input layout: two bytes (little-endian) give the length of a BTF blob that
 * follows; the rest is the .BTF.ext section.
 */
#include "fuzz_common.h"
#include "libbtf_build.h"
#include "libbtf_ext.h"

static void walk(const struct lbtf_ext *ext, const struct lbtf *btf)
{
	struct lbtf_core_step st[8];

	for (unsigned int k = 0; k < LBTF_EXT_KIND_CNT; k++)
		for (uint32_t s = 0; s < lbtf_ext_sec_cnt(ext, k); s++) {
			struct lbtf_ext_sec sec;

			if (lbtf_ext_sec(ext, k, s, &sec))
				abort(); /* every section below the count must read */
			(void)lbtf_name_by_offset(btf, sec.sec_name_off);
			for (uint32_t i = 0; i < sec.rec_cnt && i < 4096; i++) {
				struct lbtf_ext_func_info fi;
				struct lbtf_ext_line_info li;
				struct lbtf_ext_core_relo cr;
				const char *acc;

				if (k == LBTF_EXT_FUNC_INFO && lbtf_ext_func_info(ext, s, i, &fi))
					abort();
				if (k == LBTF_EXT_LINE_INFO && lbtf_ext_line_info(ext, s, i, &li))
					abort();
				if (k != LBTF_EXT_CORE_RELO)
					continue;
				if (lbtf_ext_core_relo(ext, s, i, &cr))
					abort();
				(void)lbtf_core_relo_kind_name(cr.kind);
				acc = lbtf_name_by_offset(btf, cr.access_str_off);
				(void)lbtf_core_access_resolve(btf, cr.type_id, cr.kind, acc, st, 8);
			}
		}
}

/* Rewrite onto a builder holding the same types (same ids) */
static void remap(const struct lbtf_ext *ext, const struct lbtf *btf)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);
	void *out = NULL;
	size_t out_size;

	if (!b)
		return;
	for (uint32_t id = 1; id < lbtf_type_cnt(btf) && id < 4096; id++)
		if (lbtf_builder_add_type_copy(b, btf, id) < 0)
			goto out;
	if (!lbtf_ext_remap(ext, btf, b, &out, &out_size)) {
		struct lbtf_ext *again = lbtf_ext_new(out, out_size);

		if (!again)
			abort(); /* what the rewrite makes must parse */
		lbtf_ext_free(again);
	}
	free(out);
out:
	lbtf_builder_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lbtf *btf = NULL;
	struct lbtf_ext *ext;
	void *btf_bytes = NULL;

	if (!fz_split_base(&data, &size, &btf, &btf_bytes))
		return 0;
	ext = lbtf_ext_new(data, size);
	if (ext) {
		walk(ext, btf);
		if (lbtf_type_cnt(btf) < 4096)
			remap(ext, btf);
		lbtf_ext_free(ext);
	}
	lbtf_free(btf);
	free(btf_bytes);
	return 0;
}
