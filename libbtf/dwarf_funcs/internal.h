/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pahole's functions (libbtf/dwarf_funcs), not installed: which FUNCs
 * pahole v1.31 or master would encode for a subprogram DIE, from the ELF
 * function table and the instances' parameter locations. Over the unit
 * converter (libbtf/dwarf_unit), which calls dw_funcs_subprogram through
 * dw_global.subprogram; the driver loads the table and marks the FUNCs
 * after dedup.
 */
#ifndef LIBBTF_DWARF_FUNCS_INTERNAL_H
#define LIBBTF_DWARF_FUNCS_INTERNAL_H

#include "dwarf_unit/internal.h"

/* pahole's functions, v1.31's or master's rules (funcs.c) */
#define DW_PAHOLE_FUNCS (LBTF_DWARF_FEAT_OPTIMIZED_FUNC | LBTF_DWARF_FEAT_CONSISTENT_FUNC | \
			 LBTF_DWARF_FEAT_DECL_TAG_KFUNCS | DW_PAHOLE_MASTER)
#define DW_PAHOLE_MASTER (LBTF_DWARF_FEAT_ABI_FUNC | LBTF_DWARF_FEAT_TRUE_SIGNATURE)
struct dw_pfuncs;
/* Its ELF function table (names up to the first '.') into ei->pfuncs; with
 * pahole master's rules, also the addresses of the clones' names' symbols */
int dw_pfuncs_load(struct dw_elf_info *ei, uint32_t features);
void dw_pfuncs_free(struct dw_pfuncs *t);
/* pahole master's reading of a function instance's parameters (funcs_abi.c) */
struct dw_abi {
	bool optimized;         /* a parameter optimized out */
	bool unexpected;        /* one in another register than the ABI's */
	bool reordered;         /* a copy with its origin's parameters at other indexes */
	bool origin_unexpected; /* the origin read with the copy's locations: unexpected */
	uint64_t drop;          /* bit per parameter (of the first 64) optimized out */
};
void dw_abi_facts(struct dw_unit *u, struct dw_die *die, struct dw_die *params, uint32_t n,
		  const int *regs, int nregs, struct dw_abi *out);
/* The (U/S)LEB128 number at *p, before e, *p moved past it; false if cut */
bool dw_leb_next(const uint8_t **p, const uint8_t *e, uint64_t *v);
/* A subprogram DIE as pahole (v1.31 or master) encodes it */
int dw_funcs_subprogram(struct dw_unit *u, struct dw_die *die);
/* After dedup (consistent_func, master's rules): marks in drop (per id -
 * start) the FUNCs of out's names left out, and the markers; returns how many */
uint32_t dw_funcs_mark(const struct lbtf_builder *out, uint32_t start, uint32_t cnt,
		       uint8_t *drop, uint32_t features);

#endif
