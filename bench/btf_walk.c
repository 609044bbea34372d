// SPDX-License-Identifier: BSD-2-Clause
/*
 * btf_walk FILE: the floor of `btfcheck FILE` on raw BTF (bench_verify.sh's
 * floor row): a fresh process linked like btfcheck that takes the file in
 * as btfcheck takes its last input (mapped), walks every type record once
 * (kind and length from the shared kind table, as pass 1 must) and reads
 * every byte of the string section once (every name is checked), and
 * nothing more. Prints the number of types and of strings; exit 0, or 1
 * when the file cannot be read or is not raw BTF of this byte order.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "libbtf.h"
#include "io/io.h"

int main(int argc, char **argv)
{
	struct lbtf_header h;
	const unsigned char *p, *cur, *end, *s;
	size_t size, types = 0, strings = 0;
	void *data;
	bool mapped;

	if (argc != 2) {
		fprintf(stderr, "usage: btf_walk FILE\n");
		return 1;
	}
	if (lbtfi_file_load_mapped(argv[1], &data, &size, &mapped)) {
		fprintf(stderr, "btf_walk: %s\n", lbtf_errmsg());
		return 1;
	}
	p = data;
	if (size < sizeof(h) || (memcpy(&h, p, sizeof(h)), h.magic != LBTF_MAGIC) ||
	    (uint64_t)h.hdr_len + h.type_off + h.type_len > size ||
	    (uint64_t)h.hdr_len + h.str_off + h.str_len > size) {
		fprintf(stderr, "btf_walk: %s: not raw BTF of this byte order\n", argv[1]);
		return 1;
	}
	cur = p + h.hdr_len + h.type_off;
	end = cur + h.type_len;
	while (end - cur >= (ptrdiff_t)sizeof(struct lbtf_type)) {
		const struct lbtf_type *t = (const struct lbtf_type *)cur;
		const struct lbtf_kind_desc *d = lbtf_kind_desc(lbtf_kind(t));

		if (!d)
			break;
		types++;
		cur += sizeof(*t) + d->extra_size + (size_t)d->vlen_elem_size * lbtf_vlen(t);
	}
	/* string by string, as fast as the C library reads bytes */
	s = p + h.hdr_len + h.str_off;
	for (const unsigned char *e = s + h.str_len, *z; s < e && (z = memchr(s, 0, e - s)); s = z + 1)
		strings++;
	printf("%zu types, %zu strings\n", types, strings);
	return 0;
}
