// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: the parser (lbtf_new / lbtf_new_borrowed, plain and
 * split), the access API over every id, and the raw and JSON dumps to
 * a discarding stream. Any input must give a clean error or a clean dump.
 *
 * Input layout: byte 0 selects the mode; with bit 0 set, the next two bytes
 * give the length of a base blob and the rest is split BTF over it; with
 * bit 1 set, the rest is a file for lbtf_open() (ELF or raw, through a
 * memfd), the path of the ELF .BTF reader.
 */
#include <sys/mman.h>
#include <unistd.h>
#include "fuzz_common.h"

/* Everything a reader of parsed BTF may call on any id */
static void walk(const struct lbtf *btf)
{
	uint32_t cnt = lbtf_type_cnt(btf);

	for (uint32_t id = 0; id < cnt && id < 4096; id++) {
		const struct lbtf_type *t = lbtf_type_by_id(btf, id);

		if (!t)
			abort(); /* every id below the count must resolve */
		(void)lbtf_type_name(btf, t);
		(void)lbtf_resolve_size(btf, id);
		(void)lbtf_align_of(btf, id);
		(void)lbtf_skip_mods(btf, id);
		(void)lbtf_resolve_type(btf, id);
	}
	(void)lbtf_find_by_name_kind(btf, "a", LBTF_KIND_STRUCT);
	lbtf_dump_raw(btf, fz_sink());
	lbtf_dump_json(btf, fz_sink(), false);
	lbtf_dump_json(btf, fz_sink(), true);
}

/* The bytes as a file, opened by path like btfdump does */
static void open_as_file(const uint8_t *data, size_t size)
{
	char path[64];
	struct lbtf *btf;
	int fd = memfd_create("fuzz_parse", MFD_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		btf = lbtf_open(path, NULL);
		if (btf) {
			walk(btf);
			lbtf_free(btf);
		}
	}
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lbtf *base = NULL, *btf;
	void *base_bytes = NULL, *bytes = NULL;
	uint8_t mode;

	if (size < 1)
		return 0;
	mode = data[0];
	data++;
	size--;
	if (mode & 2) {
		open_as_file(data, size);
		return 0;
	}
	if ((mode & 1) && !fz_split_base(&data, &size, &base, &base_bytes))
		return 0;
	btf = fz_parse(data, size, base, &bytes);
	if (btf) {
		walk(btf);
		lbtf_free(btf);
	}
	free(bytes);
	/* the copying constructor must agree with the borrowing one */
	btf = lbtf_new(data, size, base);
	if (btf)
		lbtf_free(btf);
	lbtf_free(base);
	free(base_bytes);
	return 0;
}
