/* SPDX-License-Identifier: BSD-2-Clause */
/* btfgen --in-place on an object with .BTF.ext: its records onto the new .BTF */
#ifndef BTFGEN_EXT_H
#define BTFGEN_EXT_H

#include <stdbool.h>
#include <stddef.h>
#include "libbtf.h"
#include "libbtf_build.h"
#include "libbtf_dwarf.h"
#include "libbtf_ext.h"

struct ext_job {
	const char *prog;     /* the name messages start with */
	struct lbtf_ext *ext; /* the input's .BTF.ext (NULL: none) */
	struct lbtf *old;     /* the .BTF it was made with */
	bool gen;             /* make func_info/line_info from DWARF (gcc-bpf objects) */
	void *data;           /* the rewritten or generated .BTF.ext */
	size_t size;
};

/* Read input's .BTF.ext and .BTF if it has one, and decide whether to
 * generate func_info/line_info: a BPF object (ET_REL, EM_BPF) without a
 * .BTF.ext, or with one that has neither (gcc-bpf -gbtf's); 0 or an exit
 * status (said why) */
int ext_open(struct ext_job *x, const char *input);
/*
 * Rewrite the .BTF.ext onto the BTF of b, whose serialized blob is
 * *data, *size (in the ELF's order, swapped); the strings it needs join b
 * and *data, *size are replaced by the blob serialized again. 0 or an exit
 * status (said why, naming input).
 */
int ext_remap(struct ext_job *x, const char *input, struct lbtf_builder *b, int swapped,
	      void **data, size_t *size);
/*
 * Generate func_info and line_info from the object's symbols and DWARF line
 * table (lbtf_dwarf_ext_lines), keeping the CO-RE relocations of a .BTF.ext
 * it had (rewritten onto b); *data, *size serialized again as ext_remap.
 * Notes go to warn(ctx). 0 or an exit status (said why, naming input).
 */
int ext_generate(struct ext_job *x, const char *input, struct lbtf_builder *b, int swapped,
		 void **data, size_t *size, void (*warn)(void *ctx, const char *msg), void *ctx);
void ext_free(struct ext_job *x);

#endif
