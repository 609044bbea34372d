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
 * types (prune.c), in place in b, just deduplicated (its strings not
 * compacted yet: lbtfi_builder_dedup_types); then the strings nothing
 * refers to go */
int lbtfi_dw_prune(struct lbtf_builder *b, uint32_t features, bool pahole, uint32_t *dropped);
/* A BPF object's types cut to what clang's BTF would hold (bpfset.c): the
 * input's own .BTF at path, if any, adds roots; may replace *pb */
int lbtfi_dw_bpf_typeset(struct lbtf_builder **pb, const char *path, const struct lbtf *base,
		   uint32_t *dropped);

/* A converted group's definitions (structs, unions and enums with a body)
 * with their shapes, found once per conversion of the group (group_defs.c) */
struct lbtfi_dw_group_def {
	uint32_t rel;   /* its id - the group's first id in the output */
	uint32_t shape; /* lbtfi_eq_def_shape */
};
struct lbtfi_dw_group_defs {
	struct lbtfi_dw_group_def *v;
	uint32_t n, cap;
	bool known;     /* v is found (else it is at the next add) */
};
/* The group's definitions, its types [first, end) of out, into table (a
 * pairing check's, keyed by shape): found first unless known. 0, <0 ENOMEM */
int lbtfi_dw_group_defs_add(struct lbtfi_eq_defs *table, const struct lbtf_builder *out,
			    uint32_t first, uint32_t end, struct lbtfi_dw_group_defs *gd);
void lbtfi_dw_group_defs_free(struct lbtfi_dw_group_defs *gd);

#endif
