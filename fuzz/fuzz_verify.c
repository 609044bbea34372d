// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target for lbtf_verify(): the first two bytes pick the log
 * level and buffer size and the kernel rule set (bits 4-5: default, 7.1,
 * 7.2), the rest is the blob (verified as base BTF and,
 * when it parses, as split BTF over itself with --strict semantics).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint32_t rules[4] = { 0, 0x070100, 0x070200, 0x070200 };
	static char buf[4096];
	struct lbtf_verify_opts o = { .sz = sizeof(o) };
	struct lbtf_verify_result res = { .sz = sizeof(res) };
	struct lbtf *base;
	void *copy;

	if (size < 2)
		return 0;
	o.log_level = data[0] & 15;
	o.log_size = o.log_level ? 1 + (data[1] * 16) % sizeof(buf) : 0;
	o.log_buf = o.log_size ? buf : NULL;
	o.kernel_version = rules[(data[0] >> 4) & 3];
	o.flags = LBTF_VERIFY_NO_KERNEL_BTF | (data[0] & 0x80 ? LBTF_VERIFY_KEEP_LOG : 0) |
		  (data[0] & 0x40 ? LBTF_VERIFY_KERNEL_LOG : 0);
	data += 2;
	size -= 2;
	buf[0] = '\0'; /* the kernel-log mode leaves the buffer alone */
	lbtf_verify(data, size, &o, &res);
	if (o.log_size && strlen(buf) >= o.log_size)
		abort();
	lbtf_verify_result_free(&res);

	/* lbtf_new() wants aligned, native-endian bytes with 4-aligned
	 * hdr_len and type_off (the verifier takes anything) */
	if (size < 12 || data[0] != 0x9f || data[1] != 0xeb || (data[4] & 3) || (data[8] & 3) ||
	    !(copy = malloc(size)))
		return 0;
	memcpy(copy, data, size);
	base = lbtf_new(copy, size, NULL);
	if (base) {
		o.base = base;
		o.flags |= LBTF_VERIFY_STRICT;
		lbtf_verify(data, size, &o, &res);
		lbtf_verify_result_free(&res);
		lbtf_free(base);
	}
	free(copy);
	return 0;
}
