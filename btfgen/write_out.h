/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef BTFGEN_WRITE_OUT_H
#define BTFGEN_WRITE_OUT_H
#include <stdbool.h>
#include <stddef.h>

struct lbtf;
/* The raw BTF blob written atomically to out (a file: not standard output)
 * if btfgen_verify_output() passes it; the write runs while it verifies
 * (write_out.c). 0, or the exit status after the message on stderr; when
 * the verdict is bad, out is left as it was. */
int btfgen_write_verified(const char *prog, const char *input, const char *out, const void *data,
			  size_t size, bool swapped, const struct lbtf *base);
#endif
