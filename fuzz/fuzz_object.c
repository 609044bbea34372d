// SPDX-License-Identifier: BSD-2-Clause
/*
 * libFuzzer target: libbpf's fixups of a BPF object's BTF (lbtf_object_btf)
 * on arbitrary ELF images. Byte 0 picks the kernel features to sanitize
 * away, the rest is the file. Bad input must give a clean error, never a
 * crash or a hang; fixed-up BTF goes on to lbtf_min_kernel and lbtf_verify.
 */
#include <stdlib.h>
#include <string.h>
#include "fuzz_common.h"
#include "libbtf_object.h"
#include "libbtf_verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	LBTF_OPTS(lbtf_object_opts, oo);
	struct lbtf_object_btf ob = { .sz = sizeof(ob) };
	struct lbtf_min_kernel mk = { .sz = sizeof(mk) };
	void *elf;

	if (size < 2)
		return 0;
	oo.missing_features = data[0] & LBTF_KFEAT_ALL;
	elf = malloc(size - 1);
	if (!elf)
		return 0;
	memcpy(elf, data + 1, size - 1);
	if (lbtf_is_bpf_object(elf, size - 1) &&
	    !lbtf_object_btf("fuzz.o", elf, size - 1, &oo, &ob) && ob.data) {
		lbtf_min_kernel(ob.data, ob.size, NULL, &mk);
		lbtf_verify(ob.data, ob.size, NULL, NULL);
		lbtf_object_btf_free(&ob);
	}
	free(elf);
	return 0;
}
