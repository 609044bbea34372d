/* SPDX-License-Identifier: BSD-2-Clause */
/* btfgen --in-place on an object with .BTF.ext: its records onto the new .BTF */
#ifndef BTFGEN_EXT_H
#define BTFGEN_EXT_H

#include <stddef.h>
#include "libbtf.h"
#include "libbtf_build.h"
#include "libbtf_ext.h"

struct ext_job {
	struct lbtf_ext *ext; /* the input's .BTF.ext (NULL: none) */
	struct lbtf *old;     /* the .BTF it was made with */
	void *data;           /* the rewritten .BTF.ext */
	size_t size;
};

/* Read input's .BTF.ext and .BTF if it has one; 0 or an exit status (said why) */
int ext_open(struct ext_job *x, const char *input);
/*
 * Rewrite the .BTF.ext onto the BTF of b, whose serialized blob is
 * *data, *size (in the ELF's order, swapped); the strings it needs join b
 * and *data, *size are replaced by the blob serialized again. 0 or an exit
 * status (said why, naming input).
 */
int ext_remap(struct ext_job *x, const char *input, struct lbtf_builder *b, int swapped,
	      void **data, size_t *size);
void ext_free(struct ext_job *x);

#endif
