// SPDX-License-Identifier: BSD-2-Clause
/*
 * Externs, as libbpf 1.1's bpf_object__collect_externs() turns them into
 * BTF the kernel accepts: every undefined global symbol needs a VAR or FUNC
 * of extern linkage in a .kconfig or .ksyms DATASEC; .ksyms VARs become
 * allocated 4-byte ints, .ksyms FUNCs global functions whose DATASEC slot is
 * a "dummy_ksym" VAR; .kconfig VARs are allocated and laid out by alignment,
 * size and name.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

enum ext_type { EXT_KCFG = 1, EXT_KSYM = 2 }; /* libbpf's order */

struct ext {
	const char *name;
	enum ext_type type;
	int64_t size;
	int align;
	uint32_t data_off;
};

/* type 0 or a VAR/FUNC; the kcfg types libbpf accepts (find_kcfg_type) */
static bool kcfg_type_ok(const struct obtf *b, uint32_t id, bool elem)
{
	const struct lbtf_type *t = lbtfi_obj_btf_type(b, id);
	const char *name;

	while (t && (lbtf_kind(t) == LBTF_KIND_TYPEDEF || lbtf_is_mod(t)))
		t = lbtfi_obj_btf_type(b, t->type);
	if (!t)
		return false;
	name = lbtfi_obj_btf_str(b, t->name_off);
	switch (lbtf_kind(t)) {
	case LBTF_KIND_INT: {
		uint32_t enc = lbtf_int_encoding(t);

		if (enc & LBTF_INT_BOOL)
			return t->size == 1 && !elem;
		if (t->size == 1)
			return true;
		return !elem && t->size >= 1 && t->size <= 8 && !(t->size & (t->size - 1));
	}
	case LBTF_KIND_ENUM:
		return !elem && t->size == 4 && name && !strcmp(name, "libbpf_tristate");
	case LBTF_KIND_ENUM64:
		return !elem && name && !strcmp(name, "libbpf_tristate");
	case LBTF_KIND_ARRAY:
		return !elem && lbtf_array(t)->nelems && kcfg_type_ok(b, lbtf_array(t)->type, true);
	default:
		return false;
	}
}

static bool sym_is_extern(const Elf64_Sym *s)
{
	int bind = ELF64_ST_BIND(s->st_info);

	return s->st_shndx == SHN_UNDEF && (bind == STB_GLOBAL || bind == STB_WEAK) &&
	       ELF64_ST_TYPE(s->st_info) == STT_NOTYPE;
}

const char *lbtfi_obj_first_extern(const struct oelf *e)
{
	Elf64_Sym sym;
	const char *name;

	for (size_t i = 0; i < e->nr_syms; i++)
		if (lbtfi_obj_elf_sym(e, i, &sym) && sym_is_extern(&sym) &&
		    (name = lbtfi_obj_elf_sym_name(e, &sym)) && *name)
			return name;
	return NULL;
}

/* the first VAR or FUNC of that name; -EINVAL when it is not extern */
static int find_extern_btf_id(const struct obtf *b, const char *name)
{
	for (uint32_t id = 1; id <= b->nr; id++) {
		const struct lbtf_type *t = lbtfi_obj_btf_type(b, id);
		unsigned int k = lbtf_kind(t);
		const char *n;

		if (k != LBTF_KIND_VAR && k != LBTF_KIND_FUNC)
			continue;
		n = lbtfi_obj_btf_str(b, t->name_off);
		if (!n || strcmp(n, name))
			continue;
		if (k == LBTF_KIND_VAR && lbtf_var(t)->linkage != LBTF_LINKAGE_EXTERN)
			return -EINVAL;
		if (k == LBTF_KIND_FUNC && lbtf_vlen(t) != LBTF_LINKAGE_EXTERN)
			return -EINVAL;
		return id;
	}
	return -ENOENT;
}

static uint32_t find_extern_sec(const struct obtf *b, uint32_t ext_id)
{
	for (size_t k = 0; k < b->nr_dsecs; k++) {
		uint32_t id = b->dsecs[k];
		const struct lbtf_type *t = lbtfi_obj_btf_type(b, id);

		for (unsigned int i = 0; i < lbtf_vlen(t); i++)
			if (lbtf_secinfos(t)[i].type == ext_id)
				return id;
	}
	return 0;
}

static int cmp_ext(const void *pa, const void *pb)
{
	const struct ext *a = pa, *b = pb;

	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	if (a->type == EXT_KCFG) {
		if (a->align != b->align)
			return a->align > b->align ? -1 : 1;
		if (a->size != b->size)
			return a->size < b->size ? -1 : 1;
	}
	return strcmp(a->name, b->name);
}

static struct ext *find_ext(struct ext *ext, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (name && !strcmp(ext[i].name, name))
			return &ext[i];
	return NULL;
}

/* libbpf's add_dummy_ksym_var(): only when .ksyms holds a FUNC */
static int add_dummy_ksym(struct octx *c, uint32_t *dummy)
{
	struct obtf *b = &c->b;
	const struct lbtf_type *sec = NULL;
	struct {
		struct lbtf_type t;
		struct lbtf_var v;
	} rec = { 0 };
	unsigned int i;
	int err;

	*dummy = 0;
	for (size_t k = 0; k < b->nr_dsecs && !sec; k++) { /* the name of DATASECs only */
		const struct lbtf_type *t = lbtfi_obj_btf_type(b, b->dsecs[k]);
		const char *n;

		n = lbtfi_obj_btf_str(b, t->name_off);
		if (n && !strcmp(n, ".ksyms"))
			sec = t;
	}
	if (!sec)
		return 0;
	for (i = 0; i < lbtf_vlen(sec); i++) {
		const struct lbtf_type *vt = lbtfi_obj_btf_type(b, lbtf_secinfos(sec)[i].type);

		if (vt && lbtf_kind(vt) == LBTF_KIND_FUNC)
			break;
	}
	if (i == lbtf_vlen(sec))
		return 0;
	rec.t.info = lbtf_info(LBTF_KIND_VAR, 0, false);
	rec.t.type = lbtfi_obj_btf_find_int32(b);
	rec.v.linkage = LBTF_LINKAGE_GLOBAL;
	if ((err = lbtfi_obj_btf_add_str(b, "dummy_ksym", &rec.t.name_off)))
		return err;
	return lbtfi_obj_btf_add_type(b, &rec, sizeof(rec), dummy);
}

static int fix_ksyms(struct octx *c, uint32_t sec_id, struct ext *ext, size_t n, uint32_t dummy)
{
	struct obtf *b = &c->b;
	struct lbtf_type *sec = lbtfi_obj_btf_type(b, sec_id);
	uint32_t int_id = lbtfi_obj_btf_find_int32(b), off = 0, dummy_name = lbtfi_obj_btf_type(b, dummy)->name_off;

	for (unsigned int i = 0; i < lbtf_vlen(sec); i++, off += 4) {
		struct lbtf_var_secinfo *vs = (struct lbtf_var_secinfo *)(sec + 1) + i;
		struct lbtf_type *vt = lbtfi_obj_btf_type(b, vs->type);
		const char *name = vt ? lbtfi_obj_btf_str(b, vt->name_off) : NULL;

		if (!vt || !find_ext(ext, n, name))
			return lbtfi_err(ESRCH, "%s: failed to find extern definition for BTF '%s'",
					 c->path, name ? name : "?");
		if (lbtf_kind(vt) == LBTF_KIND_FUNC) {
			struct lbtf_type *proto = lbtfi_obj_btf_type(b, vt->type);

			/* (libbpf 1.1 takes any type here for a prototype and reads
			 * past it when it is none, which nothing can mirror: only a
			 * FUNC_PROTO's parameters are named) */
			if (proto && lbtf_kind(proto) != LBTF_KIND_FUNC_PROTO)
				proto = NULL;
			for (unsigned int j = 0; proto && j < lbtf_vlen(proto); j++) {
				struct lbtf_param *p = (struct lbtf_param *)(proto + 1) + j;

				if (p->type && !p->name_off)
					p->name_off = dummy_name;
			}
			vs->type = dummy;
			vt->info = (vt->info & ~0xffffu) | LBTF_LINKAGE_GLOBAL;
			c->fixups |= LBTF_FIXUP_KSYM_FUNC;
		} else {
			((struct lbtf_var *)(vt + 1))->linkage = LBTF_LINKAGE_GLOBAL;
			vt->type = int_id;
			c->fixups |= LBTF_FIXUP_KSYM_VAR;
		}
		vs->offset = off;
		vs->size = 4;
	}
	sec->size = off;
	return 0;
}

static int fix_kconfig(struct octx *c, uint32_t sec_id, struct ext *ext, size_t n)
{
	struct obtf *b = &c->b;
	struct lbtf_type *sec = lbtfi_obj_btf_type(b, sec_id);
	uint32_t off = 0;

	for (size_t i = 0; i < n; i++) {
		if (ext[i].type != EXT_KCFG)
			continue;
		ext[i].data_off = (off + ext[i].align - 1) / ext[i].align * ext[i].align;
		off = ext[i].data_off + ext[i].size;
	}
	sec->size = off;
	for (unsigned int i = 0; i < lbtf_vlen(sec); i++) {
		struct lbtf_var_secinfo *vs = (struct lbtf_var_secinfo *)(sec + 1) + i;
		struct lbtf_type *t = lbtfi_obj_btf_type(b, vs->type);
		const char *name = t ? lbtfi_obj_btf_str(b, t->name_off) : NULL;
		struct ext *e = find_ext(ext, n, name);

		if (!e)
			return lbtfi_err(ESRCH, "%s: failed to find extern definition for BTF var '%s'",
					 c->path, name ? name : "?");
		((struct lbtf_var *)(t + 1))->linkage = LBTF_LINKAGE_GLOBAL;
		vs->offset = e->data_off;
	}
	c->fixups |= LBTF_FIXUP_KCONFIG;
	return 0;
}

static int collect(struct octx *c, struct ext **out, size_t *nr, uint32_t *ksym_sec,
		   uint32_t *kcfg_sec)
{
	struct obtf *b = &c->b;
	struct ext *ext = NULL;
	size_t n = 0, cap = 0;
	Elf64_Sym sym;

	for (size_t i = 0; i < c->e.nr_syms; i++) {
		const char *name, *sname;
		const struct lbtf_type *t, *sec;
		struct ext *x;
		uint32_t sec_id;
		int id;

		if (!lbtfi_obj_elf_sym(&c->e, i, &sym))
			return lbtfi_err(4001, "%s: bad symbol %zu", c->path, i);
		if (!sym_is_extern(&sym) || !(name = lbtfi_obj_elf_sym_name(&c->e, &sym)) || !*name)
			continue;
		if (LBTFI_GROW(ext, cap, n + 1))
			return lbtfi_err(ENOMEM, "out of memory");
		*out = ext;
		x = &ext[n++];
		*nr = n;
		memset(x, 0, sizeof(*x));
		id = find_extern_btf_id(b, name);
		if (id <= 0)
			return lbtfi_err(-id, "%s: failed to find BTF for extern '%s': %d", c->path,
					 name, id);
		t = lbtfi_obj_btf_type(b, id);
		x->name = lbtfi_obj_btf_str(b, t->name_off);
		sec_id = find_extern_sec(b, id);
		if (!sec_id)
			return lbtfi_err(ENOENT, "%s: failed to find BTF for extern '%s' [%d] section: -2",
					 c->path, name, id);
		sec = lbtfi_obj_btf_type(b, sec_id);
		sname = lbtfi_obj_btf_str(b, sec->name_off);
		if (sname && !strcmp(sname, ".kconfig")) {
			if (lbtf_kind(t) == LBTF_KIND_FUNC)
				return lbtfi_err(ENOTSUP, "%s: extern function %s is unsupported under .kconfig",
						 c->path, x->name);
			*kcfg_sec = sec_id;
			x->type = EXT_KCFG;
			if (lbtfi_obj_btf_resolve_size(b, t->type, &x->size) || x->size <= 0)
				return lbtfi_err(EINVAL, "%s: failed to resolve size of extern (kcfg) '%s'",
						 c->path, name);
			x->align = lbtfi_obj_btf_align_of(b, t->type);
			if (x->align <= 0)
				return lbtfi_err(EINVAL, "%s: failed to determine alignment of extern (kcfg) '%s'",
						 c->path, name);
			if (!kcfg_type_ok(b, t->type, false))
				return lbtfi_err(ENOTSUP, "%s: extern (kcfg) '%s': type is unsupported",
						 c->path, name);
		} else if (sname && !strcmp(sname, ".ksyms")) {
			*ksym_sec = sec_id;
			x->type = EXT_KSYM;
		} else {
			return lbtfi_err(ENOTSUP, "%s: unrecognized extern section '%s'", c->path,
					 sname ? sname : "?");
		}
	}
	return 0;
}

int lbtfi_obj_collect_externs(struct octx *c)
{
	struct ext *ext = NULL;
	size_t n = 0;
	uint32_t dummy, ksym_sec = 0, kcfg_sec = 0;
	int err;

	if (!c->e.has_symtab)
		return 0;
	if ((err = add_dummy_ksym(c, &dummy)))
		return err;
	err = collect(c, &ext, &n, &ksym_sec, &kcfg_sec);
	if (!err && n) {
		qsort(ext, n, sizeof(*ext), cmp_ext);
		if (ksym_sec)
			err = fix_ksyms(c, ksym_sec, ext, n, dummy);
		if (!err && kcfg_sec)
			err = fix_kconfig(c, kcfg_sec, ext, n);
	}
	free(ext);
	return err;
}
