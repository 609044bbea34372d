// SPDX-License-Identifier: BSD-2-Clause
/*
 * An object's externs against a target kernel, as libbpf (1.1 to 1.8) resolves them
 * when it loads the object there (bpf_object__resolve_externs, before any
 * CO-RE relocation): a typed __ksym variable must be a VAR of the kernel's
 * BTF and a __ksym function a FUNC, both of compatible types (CO-RE's type
 * compatibility), unless __weak (then 0); a typeless __ksym comes from
 * kallsyms and a __kconfig from the kernel's config, at load time.
 */
#include <errno.h>
#include <string.h>
#include "internal.h"

const char *lbtf_core_extern_kind_name(enum lbtf_core_extern_kind k)
{
	static const char *const names[] = { "ksym", "ksym_typeless", "kfunc", "kconfig" };

	return (unsigned int)k < 4 ? names[k] : "unknown";
}

const char *lbtf_core_extern_outcome_name(enum lbtf_core_extern_outcome o)
{
	static const char *const names[] = { "found", "missing_weak", "missing", "incompatible",
					     "at_load" };

	return (unsigned int)o < 5 ? names[o] : "unknown";
}

/* Whether the object's symbol of that name is weak */
static bool is_weak(const struct lbtf_core_object *o, const char *name)
{
	size_t n = lbtfi_elf_nr_syms(&o->elf, &o->symtab);

	for (size_t i = 1; i < n; i++) {
		Elf64_Sym sym;
		const char *s;

		if (!lbtfi_elf_sym(&o->elf, &o->symtab, i, &sym) || sym.st_shndx != SHN_UNDEF)
			continue;
		s = lbtfi_elf_str(&o->elf, o->symtab.link, sym.st_name);
		if (s && !strcmp(s, name))
			return ELF64_ST_BIND(sym.st_info) == STB_WEAK;
	}
	return false;
}

/* A __ksym against the target: e->outcome, target_id, err */
static void resolve_ksym(const struct lbtf *lb, const struct lbtf *tb, uint32_t local_type,
			 unsigned int tkind, struct lbtf_core_extern *e)
{
	int id = lbtf_find_by_name_kind(tb, e->name, (int)tkind);
	const struct lbtf_type *tt;
	uint32_t ttype;

	if (id <= 0) {
		e->outcome = e->weak ? LBTF_CORE_EXT_MISSING_WEAK : LBTF_CORE_EXT_MISSING;
		e->err = e->weak ? 0 : -ESRCH;
		return;
	}
	e->target_id = (uint32_t)id;
	tt = lbtf_type_by_id(tb, (uint32_t)id);
	ttype = tt->type;
	if (tkind == LBTF_KIND_VAR && !relo_skip(tb, &ttype))
		ttype = 0;
	if (relo_types_compat(lb, local_type, tb, ttype) <= 0) {
		e->outcome = LBTF_CORE_EXT_INCOMPATIBLE;
		e->err = -EINVAL;
		return;
	}
	e->outcome = LBTF_CORE_EXT_FOUND;
}

int lbtf_core_externs(const struct lbtf_core_object *o, const struct lbtf_core_target *t,
		      lbtf_core_extern_fn fn, void *ctx)
{
	const struct lbtf *lb = o->btf, *tb = lbtf_core_target_btf(t);
	uint32_t n = lbtf_type_cnt(lb);

	for (uint32_t id = 1; id < n; id++) {
		const struct lbtf_type *ds = lbtf_type_by_id(lb, id);
		const char *sec = relo_str(lb, ds->name_off);
		bool ksyms = !strcmp(sec, ".ksyms");

		if (lbtf_kind(ds) != LBTF_KIND_DATASEC || (!ksyms && strcmp(sec, ".kconfig")))
			continue;
		for (unsigned int i = 0; i < lbtf_vlen(ds); i++) {
			uint32_t vid = lbtf_secinfos(ds)[i].type, ltype;
			const struct lbtf_type *v = lbtf_type_by_id(lb, vid);
			struct lbtf_core_extern e = { .sz = sizeof(e), .local_id = vid };
			int err;

			if (!v || (lbtf_kind(v) != LBTF_KIND_VAR && lbtf_kind(v) != LBTF_KIND_FUNC))
				continue;
			e.name = relo_str(lb, v->name_off);
			e.weak = is_weak(o, e.name);
			ltype = v->type;
			if (!ksyms) {
				e.kind = LBTF_CORE_KCONFIG;
				e.outcome = LBTF_CORE_EXT_AT_LOAD;
			} else if (lbtf_kind(v) == LBTF_KIND_FUNC) {
				e.kind = LBTF_CORE_KFUNC;
				resolve_ksym(lb, tb, ltype, LBTF_KIND_FUNC, &e);
			} else if (!relo_skip(lb, &ltype) || !ltype) {
				e.kind = LBTF_CORE_KSYM_TYPELESS;
				e.outcome = LBTF_CORE_EXT_AT_LOAD;
			} else {
				e.kind = LBTF_CORE_KSYM;
				resolve_ksym(lb, tb, ltype, LBTF_KIND_VAR, &e);
			}
			if ((err = fn(&e, ctx)))
				return err;
		}
	}
	return 0;
}
