/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef BTFGEN_DISTILL_H
#define BTFGEN_DISTILL_H
#include <stddef.h>

struct lbtf;
/*
 * --distilled-base (pahole's distilled_base, kbuild's out-of-tree modules):
 * the serialized split BTF *data over base becomes split BTF over a
 * distilled base (lbtf_distill_base), verified like any output. On success
 * data and size are replaced by the new split BTF and base_data, base_size
 * hold the distilled base (the .BTF.base section); 0, or the exit status
 * after an error line naming input.
 */
int btfgen_distill(const char *prog, const char *input, const struct lbtf *base, void **data,
		   size_t *size, void **base_data, size_t *base_size);
#endif
