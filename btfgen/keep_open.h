/* SPDX-License-Identifier: BSD-2-Clause */
/* btfgen --in-place never turns a BPF object libbpf opens into one it refuses */
#ifndef BTFGEN_KEEP_OPEN_H
#define BTFGEN_KEEP_OPEN_H

#include <stddef.h>

/*
 * Before input's .BTF (and .BTF.ext, ext NULL: kept) is replaced by these
 * bytes: if input is a BPF object that libbpf 1.1's bpf_object__open()
 * accepts as it is (libbtf's lbtf_object_btf), the object as rewritten
 * must be accepted too. 0 (also for any other input), or exit 4 with an
 * error naming input and libbpf's reason.
 */
int btfgen_keeps_open(const char *prog, const char *input, const void *btf, size_t btf_size,
		      const void *ext, size_t ext_size);

#endif
