/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pahole's functions (libbtf/dwarf_funcs), not installed: which FUNCs
 * pahole v1.31 or master would encode for a subprogram DIE, from the ELF
 * function table and the instances' parameter locations. Over the unit
 * converter (libbtf/dwarf_unit), which calls lbtfi_dw_funcs_subprogram through
 * lbtfi_dw_global.subprogram; the driver loads the table and marks the FUNCs
 * after dedup.
 */
#ifndef LIBBTF_DWARF_FUNCS_INTERNAL_H
#define LIBBTF_DWARF_FUNCS_INTERNAL_H

#include "dwarf_unit/internal.h"

/* pahole's functions, v1.31's or master's rules (funcs.c) */
#define LBTFI_DW_PAHOLE_FUNCS (LBTF_DWARF_FEAT_OPTIMIZED_FUNC | LBTF_DWARF_FEAT_CONSISTENT_FUNC | \
			 LBTF_DWARF_FEAT_DECL_TAG_KFUNCS | LBTFI_DW_PAHOLE_MASTER)
#define LBTFI_DW_PAHOLE_MASTER (LBTF_DWARF_FEAT_ABI_FUNC | LBTF_DWARF_FEAT_TRUE_SIGNATURE)
struct lbtfi_dw_pfuncs;
/* Its ELF function table (names up to the first '.') into ei->pfuncs; with
 * pahole master's rules, also the addresses of the clones' names' symbols */
int lbtfi_dw_pfuncs_load(struct lbtfi_dw_elf_info *ei, uint32_t features);
void lbtfi_dw_pfuncs_free(struct lbtfi_dw_pfuncs *t);
/* pahole master's reading of a function instance's parameters (funcs_abi.c) */
struct lbtfi_dw_abi {
	bool optimized;         /* a parameter optimized out */
	bool unexpected;        /* one in another register than the ABI's */
	bool reordered;         /* a copy with its origin's parameters at other indexes */
	bool origin_unexpected; /* the origin read with the copy's locations: unexpected */
	uint64_t drop;          /* bit per parameter (of the first 64) optimized out */
};
/* da: the instance's attributes (its own at least, as gathered); proto:
 * its FUNC_PROTO in u->b, whose parameters are params' (their sizes) */
void lbtfi_dw_abi_facts(struct lbtfi_dw_unit *u, const struct lbtfi_dw_attrs *da, struct lbtfi_dw_die *params,
			uint32_t n, uint32_t proto, const int *regs, int nregs, struct lbtfi_dw_abi *out);
/* The (U/S)LEB128 number at *p, before e, *p moved past it; false if cut */
bool lbtfi_dw_leb_next(const uint8_t **p, const uint8_t *e, uint64_t *v);
/* A subprogram DIE as pahole (v1.31 or master) encodes it */
int lbtfi_dw_funcs_subprogram(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die);
/* After dedup (consistent_func, master's rules): marks in drop (per id -
 * start) the FUNCs of out's names left out, and the markers; returns how many */
uint32_t lbtfi_dw_funcs_mark(const struct lbtf_builder *out, uint32_t start, uint32_t cnt,
		       uint8_t *drop, uint32_t features);

#endif
