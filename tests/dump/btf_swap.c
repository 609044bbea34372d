// SPDX-License-Identifier: BSD-2-Clause
/*
 * Test helper: writes the BTF of IN (ELF .BTF or raw) as a raw blob in the
 * opposite byte order, or in host order with --native. The swap works on
 * the bytes: header fields and every 32-bit word of the type section;
 * strings are bytes and stay as they are.
 *   btf_swap [--native] IN OUT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libbtf.h"

static void swap32(unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
}

int main(int argc, char **argv)
{
	bool native = argc == 4 && !strcmp(argv[1], "--native");
	const char *in = argv[argc - 2], *out = argv[argc - 1];
	struct lbtf *btf;
	const void *data;
	unsigned char *buf;
	size_t size;
	FILE *f;

	if (argc != 3 && !native) {
		fprintf(stderr, "usage: btf_swap [--native] IN OUT\n");
		return 2;
	}
	btf = lbtf_open(in, NULL);
	if (!btf) {
		fprintf(stderr, "btf_swap: %s\n", lbtf_errmsg());
		return 2;
	}
	data = lbtf_raw_data(btf, &size); /* host order */
	buf = malloc(size);
	if (!buf)
		return 2;
	memcpy(buf, data, size);
	if (!native) {
		const struct lbtf_header *h = lbtf_header(btf);
		unsigned char *types = buf + h->hdr_len + h->type_off;
		uint16_t magic;

		memcpy(&magic, buf, 2);
		magic = __builtin_bswap16(magic);
		memcpy(buf, &magic, 2);
		for (size_t off = 4; off + 4 <= h->hdr_len && off < 24; off += 4)
			swap32(buf + off);
		for (uint32_t i = 0; i < h->type_len; i += 4)
			swap32(types + i);
	}
	f = fopen(out, "wb");
	if (!f || fwrite(buf, 1, size, f) != size || fclose(f)) {
		perror(out);
		return 2;
	}
	free(buf);
	lbtf_free(btf);
	return 0;
}
