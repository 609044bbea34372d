// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: the builder and dedup on arbitrary (parse-valid) BTF.
 * Every type is copied into a builder, which is deduplicated, serialized
 * and parsed back; the result is deduplicated once more. Bad input must
 * give a clean error (dangling ids, reference loops), never a crash or a
 * hang; a successful dedup must serialize to BTF that parses again.
 * Byte 0 selects the mode: bit 0 appends the types twice (duplicates for
 * every type), bit 1 goes through lbtf_builder_append, bit 2 makes the
 * first builder with lbtf_builder_adopt_raw over a copy of the input (whose
 * walk, when it finds the records good, spares dedup and serialize their
 * check: a record taken as checked wrongly crashes here). The builders
 * write the layout format when the input has it or needs it (a 24-bit vlen).
 */
#include <stdlib.h>
#include <string.h>
#include "fuzz_common.h"

/* Whether src has a type of more than 65535 elements: the parser reads
 * the 24-bit vlen as libbpf 1.8 does, and only the layout format can
 * write such a type back */
static bool has_wide_vlen(const struct lbtf *src)
{
	for (uint32_t id = 1; id < lbtf_type_cnt(src); id++)
		if (lbtf_vlen(lbtf_type_by_id(src, id)) > 0xffff)
			return true;
	return false;
}

static bool needs_layout(const struct lbtf *src)
{
	return lbtf_header(src)->layout_len || has_wide_vlen(src);
}

static struct lbtf_builder *copy_all(const struct lbtf *src)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);

	if (b && needs_layout(src))
		lbtf_builder_set_layout(b, true);

	for (uint32_t id = 1; b && id < lbtf_type_cnt(src); id++)
		if (lbtf_builder_add_type_copy(b, src, id) < 0) {
			lbtf_builder_free(b);
			return NULL;
		}
	return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lbtf_builder *b, *twice = NULL;
	struct lbtf *in, *out;
	void *blob;
	size_t len;
	uint8_t mode;

	if (size < 1)
		return 0;
	mode = data[0];
	in = lbtf_new(data + 1, size - 1, NULL);
	if (!in)
		return 0;
	if (mode & 4) {
		void *raw = malloc(size - 1);

		b = raw ? lbtf_builder_adopt_raw(memcpy(raw, data + 1, size - 1), size - 1) : NULL;
		if (b && needs_layout(in))
			lbtf_builder_set_layout(b, true);
	} else {
		b = copy_all(in);
	}
	if (b && (mode & 1)) {
		twice = copy_all(in);
		if (twice && (mode & 2)) {
			if (lbtf_builder_append(b, twice) < 0) {
				/* only bad ids can make it fail; b is unchanged */
			}
		}
	}
	lbtf_free(in);
	if (!b)
		goto out;
	if (lbtf_builder_dedup(b, NULL) == 0) {
		if (lbtf_builder_serialize(b, false, &blob, &len))
			abort(); /* dedup output must be serializable */
		out = lbtf_new(blob, len, NULL);
		if (!out)
			abort(); /* and parse again */
		lbtf_free(out);
		free(blob);
		if (lbtf_builder_dedup(b, NULL))
			abort(); /* deduplicated BTF deduplicates again */
	}
out:
	lbtf_builder_free(twice);
	lbtf_builder_free(b);
	return 0;
}
