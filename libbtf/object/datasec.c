// SPDX-License-Identifier: BSD-2-Clause
/*
 * DATASECs as libbpf 1.1's bpf_object_fixup_btf() leaves them: clang emits
 * size 0 and VAR offsets 0; libbpf takes the size from the ELF section of
 * that name and each global VAR's offset from its ELF symbol (a linked
 * object already has both), makes hidden globals static, and sorts the
 * entries by offset. Also its hidden-subprog rule (bpf_object__load): a
 * hidden global function in .text of a multi-program object gets a static
 * FUNC.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* libbpf's compare_vsi_off(): the difference as int */
static int vsi_cmp(const struct lbtf_var_secinfo *a, const struct lbtf_var_secinfo *b)
{
	return (int)(a->offset - b->offset);
}

/* Stable (glibc's qsort is a merge sort here): returns whether the order changed */
static bool sort_vsi(struct lbtf_var_secinfo *v, size_t n, struct lbtf_var_secinfo *tmp)
{
	bool moved = false;

	if (n < 2)
		return false;
	moved |= sort_vsi(v, n / 2, tmp);
	moved |= sort_vsi(v + n / 2, n - n / 2, tmp);
	memcpy(tmp, v, n * sizeof(*v));
	for (size_t i = 0, l = 0, r = n / 2; i < n; i++) {
		if (l < n / 2 && (r == n || vsi_cmp(&tmp[l], &tmp[r]) <= 0)) {
			v[i] = tmp[l++];
		} else {
			moved = true;
			v[i] = tmp[r++];
		}
	}
	return moved;
}

/* The first global or weak STT_OBJECT symbol of that name */
static bool find_var_sym(const struct octx *c, const char *name, Elf64_Sym *out)
{
	for (size_t k = 0; k < c->e.nr_vars; k++) {
		const char *n;

		lbtfi_obj_elf_sym(&c->e, c->e.vars[k], out);
		n = lbtfi_obj_elf_sym_name(&c->e, out);
		if (n && n[0] == name[0] && !strcmp(n, name)) /* (a variable per symbol) */
			return true;
	}
	return false;
}

static bool hidden(const Elf64_Sym *s)
{
	int v = ELF64_ST_VISIBILITY(s->st_other);

	return v == STV_HIDDEN || v == STV_INTERNAL;
}

static int fixup_datasec(struct octx *c, struct lbtf_type *t)
{
	const char *sec = lbtfi_obj_btf_str(&c->b, t->name_off);
	struct lbtf_var_secinfo *vsi = (struct lbtf_var_secinfo *)(t + 1), *tmp, here[64];
	unsigned int n = lbtf_vlen(t);
	bool offsets = false;

	if (!sec)
		return lbtfi_err(ENOENT, "%s: no name found for a DATASEC", c->path);
	if (strcmp(sec, ".kconfig") && strcmp(sec, ".ksyms")) {
		if (t->size == 0) {
			uint32_t size = 0;

			if (lbtfi_obj_elf_sec_size(&c->e, sec, &size) || !size)
				return lbtfi_err(ENOENT, "%s: sec '%s': failed to determine size from ELF",
						 c->path, sec);
			t->size = size;
			offsets = true;
			c->fixups |= LBTF_FIXUP_DATASEC_SIZE;
		}
		for (unsigned int i = 0; i < n; i++) {
			struct lbtf_type *v = lbtfi_obj_btf_type(&c->b, vsi[i].type);
			struct lbtf_var *var;
			const char *name;
			Elf64_Sym sym;

			if (!v || lbtf_kind(v) != LBTF_KIND_VAR)
				return lbtfi_err(EINVAL, "%s: sec '%s': unexpected non-VAR type found",
						 c->path, sec);
			var = (struct lbtf_var *)(v + 1);
			if (var->linkage == LBTF_LINKAGE_STATIC || var->linkage == LBTF_LINKAGE_EXTERN)
				continue;
			name = lbtfi_obj_btf_str(&c->b, v->name_off);
			if (!name)
				return lbtfi_err(ENOENT, "%s: sec '%s': failed to find name of DATASEC's member #%u",
						 c->path, sec, i);
			if (!find_var_sym(c, name, &sym))
				return lbtfi_err(ENOENT, "%s: sec '%s': failed to find ELF symbol for VAR '%s'",
						 c->path, sec, name);
			if (offsets && vsi[i].offset != (uint32_t)sym.st_value) {
				vsi[i].offset = (uint32_t)sym.st_value;
				c->fixups |= LBTF_FIXUP_VAR_OFFSET;
			}
			if (hidden(&sym)) {
				var->linkage = LBTF_LINKAGE_STATIC;
				c->fixups |= LBTF_FIXUP_HIDDEN_VAR;
			}
		}
	}
	/* the merge sort's room: on the stack for the usual few variables
	 * (a malloc per DATASEC size can start a new group of fresh pages) */
	tmp = n <= sizeof(here) / sizeof(here[0]) ? here : malloc(n * sizeof(*tmp));
	if (!tmp)
		return lbtfi_err(ENOMEM, "out of memory");
	if (sort_vsi(vsi, n, tmp))
		c->fixups |= LBTF_FIXUP_SORT;
	if (tmp != here)
		free(tmp);
	return 0;
}

int lbtfi_obj_fixup_datasecs(struct octx *c)
{
	for (size_t k = 0; k < c->b.nr_dsecs; k++) {
		int err = fixup_datasec(c, lbtfi_obj_btf_type(&c->b, c->b.dsecs[k]));

		if (err)
			return err;
	}
	return 0;
}

int lbtfi_obj_mark_static_subprogs(struct octx *c)
{
	Elf64_Sym s;

	if (!c->e.text_shndx || c->e.nr_progs < 2)
		return 0;
	for (size_t k = 0; k < c->e.nr_funcs; k++) {
		const char *name;

		if (!lbtfi_obj_elf_sym(&c->e, c->e.funcs[k], &s) || s.st_shndx != c->e.text_shndx ||
		    ELF64_ST_TYPE(s.st_info) != STT_FUNC || ELF64_ST_BIND(s.st_info) == STB_LOCAL ||
		    !hidden(&s) || !(name = lbtfi_obj_elf_sym_name(&c->e, &s)))
			continue;
		for (uint32_t id = 1; id <= c->b.nr; id++) {
			struct lbtf_type *t = lbtfi_obj_btf_type(&c->b, id);
			const char *n;

			if (lbtf_kind(t) != LBTF_KIND_FUNC || lbtf_vlen(t) != LBTF_LINKAGE_GLOBAL)
				continue;
			n = lbtfi_obj_btf_str(&c->b, t->name_off);
			if (!n || strcmp(n, name))
				continue;
			t->info = lbtf_info(LBTF_KIND_FUNC, LBTF_LINKAGE_STATIC, false);
			c->fixups |= LBTF_FIXUP_HIDDEN_FUNC;
			break;
		}
	}
	return 0;
}
