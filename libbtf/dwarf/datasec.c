// SPDX-License-Identifier: BSD-2-Clause
/*
 * One DATASEC per ELF section that holds converted variables, with the
 * section's real size and each variable's section offset and size from the
 * symbol table (what libbpf would otherwise patch in at load time). The
 * kernel wants entries sorted and non-overlapping: aliases and repeated
 * definitions of one symbol keep their first VAR (in unit order).
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static int cmp_var(const void *pa, const void *pb, void *ctx)
{
	const struct lbtfi_dw_elf_info *sort_ei = *(const struct lbtfi_dw_elf_info **)ctx;
	const struct lbtfi_dw_var *a = pa, *b = pb;
	const struct lbtfi_dw_symbol *sa = &sort_ei->syms[a->sym], *sb = &sort_ei->syms[b->sym];

	if (a->ext != b->ext)
		return a->ext < b->ext ? -1 : 1;
	if (a->ext == LBTFI_DW_EXT_SEC && strcmp(a->sec, b->sec))
		return strcmp(a->sec, b->sec);
	if (a->ext)
		return a->id < b->id ? -1 : a->id > b->id;
	if (sa->shndx != sb->shndx)
		return sa->shndx < sb->shndx ? -1 : 1;
	if (sa->value != sb->value)
		return sa->value < sb->value ? -1 : 1;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* Section offset of the var, or UINT64_MAX if it does not fit the section */
static uint64_t var_offset(const struct lbtfi_dw_elf_info *ei, const struct lbtfi_dw_var *v)
{
	const struct lbtfi_dw_symbol *s = &ei->syms[v->sym];
	const struct lbtfi_dw_section *sec = &ei->secs[s->shndx];
	uint64_t off = ei->is_rel ? s->value : s->value - sec->addr;

	if (!ei->is_rel && s->value < sec->addr)
		return UINT64_MAX;
	if (off >= sec->size || v->size > sec->size - off || off > UINT32_MAX)
		return UINT64_MAX;
	return off;
}

static int add_one_section(struct lbtf_builder *b, const struct lbtfi_dw_elf_info *ei, bool pahole,
			   const struct lbtfi_dw_var *vars, uint32_t n, uint32_t *nplaced)
{
	const struct lbtfi_dw_section *sec = &ei->secs[ei->syms[vars[0].sym].shndx];
	uint64_t end = 0, off;
	uint32_t i, keep = 0;
	int id, r;

	if (!sec->size || sec->size > UINT32_MAX || !sec->name || !*sec->name)
		return 0;
	for (i = 0; i < n; i++) {
		off = var_offset(ei, &vars[i]);
		if (off == UINT64_MAX || off < end)
			continue;
		end = off + vars[i].size;
		keep++;
	}
	if (!keep)
		return 0;
	id = lbtf_builder_add_datasec(b, sec->name, (uint32_t)(pahole ? end : sec->size));
	if (id < 0)
		return id;
	for (end = 0, i = 0; i < n; i++) {
		off = var_offset(ei, &vars[i]);
		if (off == UINT64_MAX || off < end)
			continue;
		end = off + vars[i].size;
		r = lbtf_builder_add_datasec_var_info(b, vars[i].id, (uint32_t)off, vars[i].size);
		if (r < 0)
			return r;
	}
	*nplaced += keep;
	return 1;
}

/* Externs: no storage in the object; libbpf sizes these sections at load */
static int add_extern_section(struct lbtf_builder *b, const char *name, const struct lbtfi_dw_var *vars,
			      uint32_t n, uint32_t *nplaced)
{
	uint32_t i;
	int r = lbtf_builder_add_datasec(b, name, 0);

	for (i = 0; r >= 0 && i < n; i++)
		r = lbtf_builder_add_datasec_var_info(b, vars[i].id, 0, vars[i].size);
	*nplaced += n;
	return r < 0 ? r : 1;
}

int lbtfi_dw_add_datasecs(struct lbtf_builder *b, const struct lbtfi_dw_elf_info *ei, bool pahole,
		    struct lbtfi_dw_var *vars, uint32_t nvars, uint32_t *nsecs, uint32_t *nplaced)
{
	uint32_t i, j;

	*nsecs = *nplaced = 0;
	if (!nvars)
		return 0;
	qsort_r(vars, nvars, sizeof(*vars), cmp_var, &ei);
	for (i = 0; i < nvars; i = j) {
		int r;

		for (j = i + 1; j < nvars && vars[j].ext == vars[i].ext &&
			    (vars[i].ext == LBTFI_DW_EXT_SEC ? !strcmp(vars[j].sec, vars[i].sec) :
			     vars[i].ext == LBTFI_DW_EXT_PLAIN ||
			     ei->syms[vars[j].sym].shndx == ei->syms[vars[i].sym].shndx); j++)
			;
		if (vars[i].ext == LBTFI_DW_EXT_PLAIN)
			r = 0; /* externs for static linking: in no DATASEC */
		else if (vars[i].ext == LBTFI_DW_EXT_SEC)
			r = add_extern_section(b, vars[i].sec, vars + i, j - i, nplaced);
		else
			r = add_one_section(b, ei, pahole, vars + i, j - i, nplaced);
		if (r < 0)
			return r;
		*nsecs += r;
	}
	return 0;
}
