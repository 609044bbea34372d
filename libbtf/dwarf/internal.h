/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The DWARF -> BTF driver (libbtf/dwarf), not installed: lbtf_dwarf_to_btf
 * (convert.c) over the unit converter (libbtf/dwarf_unit) and pahole's
 * function rules (libbtf/dwarf_funcs); what it does with the whole output
 * (DATASECs, pruning, a BPF object's type set); .BTF.ext lines (extlines.c).
 */
#ifndef LIBBTF_DWARF_INTERNAL_H
#define LIBBTF_DWARF_INTERNAL_H

#include "dwarf_unit/internal.h"
#include "dwarf_funcs/internal.h"

/* DATASECs from collected VARs (datasec.c); vars sorted in place */
/* (pahole: a DATASEC ends where its last variable does, not at the
 * section's end) */
int lbtfi_dw_add_datasecs(struct lbtf_builder *b, const struct lbtfi_dw_elf_info *ei, bool pahole,
		    struct lbtfi_dw_var *vars, uint32_t nvars, uint32_t *nsecs, uint32_t *nplaced);

/* Keep the first FUNC of each name, drop unreferenced DW_OP_convert base
 * types (prune.c), in place in b, just deduplicated */
int lbtfi_dw_prune(struct lbtf_builder *b, uint32_t features, bool pahole, uint32_t *dropped);
/* A BPF object's types cut to what clang's BTF would hold (bpfset.c): the
 * input's own .BTF at path, if any, adds roots; may replace *pb */
int lbtfi_dw_bpf_typeset(struct lbtf_builder **pb, const char *path, const struct lbtf *base,
		   uint32_t *dropped);

#endif
