/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef BTFGEN_VERIFY_OUT_H
#define BTFGEN_VERIFY_OUT_H
#include <stdbool.h>
#include <stddef.h>

struct lbtf;
/* btfgen never writes BTF the kernel would reject: the serialized blob is
 * verified (libbtf's kernel-exact verifier, split BTF over base as the kernel
 * verifies module BTF) before anything is written. 0, or the exit status
 * after "btfgen: INPUT: ..." naming the rejected construct on stderr. */
int btfgen_verify_output(const char *prog, const char *input, const void *data, size_t size,
			 bool swapped, const struct lbtf *base);
#endif
