// SPDX-License-Identifier: BSD-2-Clause
/*
 * The typed data printer on arbitrary BTF and bytes. Input: 8 header bytes
 * (style flags, type id, data length, key length), the data, then a raw
 * BTF blob. Prints one value with each style and one map entry through the
 * map layer; any out-of-bounds read or endless walk is a bug.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "fuzz_common.h"

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	struct lbtf *btf;
	uint32_t id, dlen, klen;
	const uint8_t *data;

	if (size < 8)
		return 0;
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	id = in[1] | in[2] << 8;
	dlen = in[3] | in[4] << 8;
	klen = in[5];
	if (dlen > size - 8)
		dlen = size - 8;
	if (klen > dlen)
		klen = dlen;
	data = in + 8;
	btf = lbtf_new(data + dlen, size - 8 - dlen, NULL);
	if (!btf)
		return 0;
	for (int style = 0; style < 4; style++) {
		struct lbtf_data_opts o = {
			.sz = sizeof(o), .json = style & 1, .pretty = in[0] & 1,
			.valid_json = style & 2, .net = in[0] & 2,
		};
		struct lbtf_data_printer *p = lbtf_data_printer_new(btf, devnull, &o);

		if (p) {
			lbtf_data_print(p, id, data, dlen);
			lbtf_data_printer_free(p);
		}
	}
	/* one map element: key typed by id+1, the rest of the bytes the value */
	struct lbtf_data_opts o = { .sz = sizeof(o), .json = in[0] & 4, .valid_json = in[0] & 8 };
	struct lbtf_map_desc m = {
		.sz = sizeof(m), .key_size = klen, .value_size = dlen - klen, .btf_id = 1,
		.btf_key_type_id = in[6] ? id + 1 : 0, .btf_value_type_id = id,
		.nr_cpus = in[7] & 3,
	};
	if (m.nr_cpus)
		m.value_size = (dlen - klen) / m.nr_cpus & ~7u;
	lbtf_map_print_lookup(devnull, &m, btf, data, data + klen, dlen - klen, &o);
	lbtf_free(btf);
	return 0;
}
