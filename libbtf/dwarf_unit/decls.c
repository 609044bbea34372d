// SPDX-License-Identifier: BSD-2-Clause
/*
 * Declarations of one unit: functions (FUNC + FUNC_PROTO, linkage from the
 * ELF symbol), variables with a symbol (VAR, recorded for the DATASECs),
 * btf_decl_tag annotations (DECL_TAG), and the walk over a unit's DIEs.
 */
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include "builder/internal.h"
#include "internal.h"


int lbtfi_dw_add_decl_tags(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, uint32_t target, int component_idx)
{
	struct lbtfi_dw_die c;

	if (!(u->g->features & LBTF_DWARF_FEAT_DECL_TAG) || !lbtfi_dw_may_have_annotations(u, die) ||
	    !lbtfi_dr_child(die, &c))
		return 0;
	do {
		const char *v;
		int r;

		if (!lbtfi_dw_is_annotation(u, &c, "btf_decl_tag", &v))
			continue;
		r = lbtf_builder_add_decl_tag(u->b, v, target, component_idx);
		if (r < 0)
			return r;
	} while (lbtfi_dr_sibling(&c));
	return 0;
}

/* The DIE that declares the function: an out-of-line or concrete instance
 * points at its abstract origin / specification, which has the prototype. */
void lbtfi_dw_decl_origin(struct lbtfi_dw_unit *u, const struct lbtfi_dw_die *die, struct lbtfi_dw_die *out)
{
	struct lbtfi_dw_attrs da;
	int guard = 8;

	*out = *die;
	while (guard--) {
		lbtfi_dr_attrs(u->rd, out, &da, false);
		if ((da.own >> DA_ORIGIN & 1) && lbtfi_dr_ref(u->rd, &da.a[DA_ORIGIN], out))
			continue;
		if ((da.own >> DA_SPEC & 1) && lbtfi_dr_ref(u->rd, &da.a[DA_SPEC], out))
			continue;
		break;
	}
}

/* The entry address of a split (hot/cold) function: where its first range
 * starts */
static bool first_range_start(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, uint64_t *start)
{
	struct lbtfi_dw_attrs da;

	lbtfi_dw_attrs_read(u, die, &da);
	return lbtfi_dw_attrs_get(&da, DA_RANGES) && lbtfi_dr_first_range(lbtfi_dw_attrs_get(&da, DA_RANGES), start);
}

static int extern_function(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, struct lbtfi_dw_attrs *da);

/* sym if it is a global symbol, else -1 */
uint32_t lbtfi_dw_func_linkage(const struct lbtfi_dw_unit *u, int64_t sym, bool external)
{
	const struct lbtfi_dw_elf_info *ei = u->g->ei;

	if (u->g->pahole)
		return LBTF_LINKAGE_STATIC; /* pahole v1.31: every FUNC */
	/* In a BPF object the source's (DW_AT_external), as clang writes it:
	 * the kernel verifies a global FUNC on its own and a static one with
	 * its caller, so a program that loaded as clang described it keeps
	 * that even where the symbol says otherwise (a weak static one) */
	if (ei->is_bpf && ei->is_rel)
		return external ? LBTF_LINKAGE_GLOBAL : LBTF_LINKAGE_STATIC;
	return ei->syms[sym].bind == STB_LOCAL ? LBTF_LINKAGE_STATIC : LBTF_LINKAGE_GLOBAL;
}

static int64_t global_only(const struct lbtfi_dw_elf_info *ei, int64_t sym)
{
	return sym >= 0 && ei->syms[sym].bind != STB_LOCAL ? sym : -1;
}

/* A subprogram in btfgen's own style (lbtfi_dw_convert_subprogram);
 * not inlined there: its frame would be set up for pahole's style too */
static __attribute__((noinline)) int convert_subprogram_own(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die)
{
	const struct lbtfi_dw_elf_info *ei = u->g->ei;
	struct lbtfi_dw_die origin, *pdies = NULL;
	uint32_t npdies = 0, i;
	uint64_t lowpc = 0, inl;
	struct lbtfi_dw_attrs da;
	const char *name;
	int64_t sym, proto;
	bool external, abstract;
	int id, err = 0;

	/* the DIE's own attributes tell most subprograms apart (declarations,
	 * abstract inline instances) before its origin is read */
	lbtfi_dr_attrs(u->rd, die, &da, false);
	if (lbtfi_dw_attrs_own_flag(&da, DA_DECLARATION)) {
		if (!ei->is_rel)
			return 0;
		lbtfi_dr_integrate(u->rd, &da);
		return extern_function(u, die, &da);
	}
	abstract = !ei->is_rel && !(da.own & (1u << DA_LOW_PC | 1u << DA_RANGES)) &&
		   (da.own >> DA_INLINE & 1) && lbtfi_dr_udata(&da.a[DA_INLINE], &inl) &&
		   inl != DW_INL_not_inlined;
	/* an abstract instance: its concrete copies have addresses, except
	 * for a global function inlined everywhere whose out-of-line copy
	 * (exported, address taken) gcc did not describe */
	if (abstract && !lbtfi_dw_attrs_own_flag(&da, DA_EXTERNAL))
		return 0;
	lbtfi_dr_integrate(u->rd, &da);
	name = lbtfi_dw_attrs_name(&da);
	if (!name || !*name)
		return 0;
	external = lbtfi_dw_attrs_flag(&da, DA_EXTERNAL);
	if (((da.own >> DA_LOW_PC & 1) && lbtfi_dr_addr(&da.a[DA_LOW_PC], &lowpc)) || ei->is_rel) {
		sym = lbtfi_dw_sym_find(ei, name, STT_FUNC, ei->is_rel ? UINT64_MAX : lowpc, external);
	} else {
		if ((da.own >> DA_RANGES & 1) && first_range_start(u, die, &lowpc))
			sym = lbtfi_dw_sym_find(ei, name, STT_FUNC, lowpc, external);
		else if (abstract)
			sym = global_only(ei, lbtfi_dw_sym_unique(ei, name, STT_FUNC));
		else
			/* a definition gcc described without its address: trust
			 * the symbol only when its name is unambiguous */
			sym = lbtfi_dw_sym_unique(ei, name, STT_FUNC);
	}
	/* a BPF object whose static function exists only as gcc's copy
	 * (emit.isra.0): .BTF.ext's func_info needs a FUNC for every function
	 * the kernel sees; the source's prototype (the copy may pass fewer
	 * parameters or return nothing: the kernel takes a static function's
	 * BTF as unreliable then, and func_info notes it) */
	if (sym < 0 && ei->is_bpf && ei->is_rel && (da.own >> DA_LOW_PC & 1) && !external)
		sym = lbtfi_dw_sym_copy(ei, name);
	if (sym < 0)
		return 0; /* no symbol of that name (e.g. foo.isra.0): ABI may differ */
	lbtfi_dw_decl_origin(u, die, &origin);
	proto = lbtfi_dw_func_proto(u, &origin, true, &pdies, &npdies);
	if (proto <= 0)
		return proto;
	id = lbtf_builder_add_func(u->b, name, lbtfi_dw_func_linkage(u, sym, external), proto);
	if (id < 0) {
		free(pdies);
		return id;
	}
	u->nfuncs++;
	err = lbtfi_dw_add_decl_tags(u, &origin, id, -1);
	for (i = 0; !err && i < npdies; i++)
		err = lbtfi_dw_add_decl_tags(u, &pdies[i], id, i);
	free(pdies);
	return err;
}

int lbtfi_dw_convert_subprogram(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die)
{
	if (!(u->g->features & LBTF_DWARF_FEAT_FUNC))
		return 0;
	if (u->g->subprogram)
		return u->g->subprogram(u, die);
	return convert_subprogram_own(u, die);
}

/* Static address of a variable (DW_OP_addr / DW_OP_addrx), false for
 * register, stack, TLS or optimized-out variables. */
static bool var_address(struct lbtfi_dw_attrs *da, uint64_t *addr)
{
	const struct lbtfi_dw_attr *a = &da->a[DA_LOCATION];
	const struct lbtfi_dr_unit *cu = a->u;
	const uint8_t *p;
	uint64_t len, idx;

	/* A location list (a non-block form) is a local; so is any expression
	 * but a single DW_OP_addr / DW_OP_addrx */
	if (!(da->own >> DA_LOCATION & 1) || !lbtfi_dr_block(a, &p, &len) || !len)
		return false;
	if (p[0] == DW_OP_addr) {
		if (len != 1u + cu->h->addr_size)
			return false;
		*addr = lbtfi_dr_read_addr(cu, p + 1);
		return true;
	}
	if (p[0] != DW_OP_addrx && p[0] != DW_OP_GNU_addr_index)
		return false;
	return lbtfi_dr_expr_uleb(p + 1, p + len, &idx) && lbtfi_dr_addrx(cu, idx, addr);
}

static int add_var_rec(struct lbtfi_dw_unit *u, uint32_t id, uint32_t sym, uint32_t size,
		       enum lbtfi_dw_extern ext, const char *sec)
{
	int err = lbtfi_dw_grow(&u->vars, &u->capvars, u->nvars, sizeof(*u->vars), 32);

	if (err)
		return err;
	u->vars[u->nvars++] = (struct lbtfi_dw_var){ id, sym, size, ext, sec };
	return 0;
}

/*
 * Externs of a BPF object, as clang encodes them: VAR/FUNC with extern
 * linkage, in the DATASEC of their section attribute (.kconfig for
 * __kconfig, .ksyms for __ksym variables and kfuncs, .maps for extern maps)
 * or, without one (externs for static linking), in no DATASEC. See
 * lbtfi_dw_extern_place() for how that is told.
 */

/* A type of unknown size that is a function type (through typedefs and
 * qualifiers): a VAR of it is invalid BTF (the kernel: "Invalid type") */
static bool is_function_type(struct lbtfi_dw_unit *u, const struct lbtfi_dw_attr *a)
{
	struct lbtfi_dw_attrs ta;
	struct lbtfi_dw_die t;

	for (int i = 0; i < 32 && a && lbtfi_dw_type_target(u, a, &t); i++) {
		unsigned int tag = lbtfi_dr_tag(&t);

		if (tag == DW_TAG_subroutine_type || tag == DW_TAG_subprogram)
			return true;
		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type &&
		    tag != DW_TAG_volatile_type && tag != DW_TAG_restrict_type &&
		    tag != DW_TAG_atomic_type)
			return false;
		lbtfi_dw_attrs_read(u, &t, &ta);
		a = lbtfi_dw_attrs_get(&ta, DA_TYPE);
	}
	return false;
}

/*
 * A BTF-defined map's type as libbpf's macros spell it (__uint, __type,
 * __array): a struct whose members are all pointers, one named "type".
 * An extern of that type is an extern map (.maps), where nothing else
 * (clang's .BTF) says.
 */
static bool is_map_def(struct lbtfi_dw_unit *u, const struct lbtfi_dw_attr *a)
{
	struct lbtfi_dw_attrs ta, ma;
	struct lbtfi_dw_die t, c, mt;
	bool has_type = false;

	for (int i = 0; i < 32 && a && lbtfi_dw_type_target(u, a, &t); i++) {
		unsigned int tag = lbtfi_dr_tag(&t);

		if (tag == DW_TAG_structure_type)
			break;
		if (tag != DW_TAG_typedef && tag != DW_TAG_const_type && tag != DW_TAG_volatile_type)
			return false;
		lbtfi_dw_attrs_read(u, &t, &ta);
		a = lbtfi_dw_attrs_get(&ta, DA_TYPE);
	}
	if (!a || lbtfi_dr_tag(&t) != DW_TAG_structure_type || !lbtfi_dr_child(&t, &c))
		return false;
	do {
		const char *n;

		if (lbtfi_dr_tag(&c) != DW_TAG_member)
			continue;
		lbtfi_dw_attrs_read(u, &c, &ma);
		if (!lbtfi_dw_type_target(u, lbtfi_dw_attrs_get(&ma, DA_TYPE), &mt) || lbtfi_dr_tag(&mt) != DW_TAG_pointer_type)
			return false;
		n = lbtfi_dw_attrs_name(&ma);
		has_type |= n && !strcmp(n, "type");
	} while (lbtfi_dr_sibling(&c));
	return has_type;
}

static int extern_variable(struct lbtfi_dw_unit *u, struct lbtfi_dw_attrs *da)
{
	const char *name = lbtfi_dw_attrs_name(da), *sec;
	enum lbtfi_dw_extern ext;
	uint64_t pend, tsize;
	int64_t sym, type;
	int id, err;

	if (!name || (sym = lbtfi_dw_sym_undef(u->g->ei, name)) < 0)
		return 0;
	type = lbtfi_dw_ref_attr(u, lbtfi_dw_attrs_get(da, DA_TYPE), &pend);
	if (type <= 0 && !pend)
		return type < 0 ? (int)type : 0;
	tsize = lbtfi_dw_type_size(u, lbtfi_dw_attrs_get(da, DA_TYPE));
	if (!tsize && is_function_type(u, lbtfi_dw_attrs_get(da, DA_TYPE))) {
		lbtfi_dw_warn(u, LBTFI_DW_WARN_VAR_FUNC);
		return 0;
	}
	id = lbtf_builder_add_var(u->b, name, LBTF_LINKAGE_EXTERN, type);
	if (id < 0)
		return id;
	if (pend && (err = lbtfi_dw_fixup_add(u, id, 2, pend)))
		return err;
	ext = lbtfi_dw_extern_place(u->g->ei, name, false, is_map_def(u, lbtfi_dw_attrs_get(da, DA_TYPE)), &sec);
	return add_var_rec(u, id, (uint32_t)sym, (uint32_t)tsize, ext, sec);
}

static int extern_function(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, struct lbtfi_dw_attrs *da)
{
	const char *name = lbtfi_dw_attrs_name(da), *sec;
	enum lbtfi_dw_extern ext;
	int64_t sym, proto;
	int id;

	if (!name || (sym = lbtfi_dw_sym_undef(u->g->ei, name)) < 0)
		return 0;
	proto = lbtfi_dw_func_proto(u, die, false, NULL, NULL);
	if (proto <= 0)
		return proto;
	id = lbtf_builder_add_func(u->b, name, LBTF_LINKAGE_EXTERN, proto);
	if (id < 0)
		return id;
	u->nfuncs++;
	ext = lbtfi_dw_extern_place(u->g->ei, name, true, false, &sec);
	return add_var_rec(u, id, (uint32_t)sym, 0, ext, sec);
}

/* The symbol of the function-scope static da of function func (clang's
 * naming in a relocatable object), or -1 */
static int64_t local_static_sym(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *func, struct lbtfi_dw_attrs *da,
				uint64_t off)
{
	struct lbtfi_dw_attrs fa;

	lbtfi_dr_attrs(u->rd, func, &fa, false);
	lbtfi_dr_integrate(u->rd, &fa); /* the name may sit on its abstract origin */
	return lbtfi_dw_sym_local_static(u->g->ei, lbtfi_dw_attrs_name(&fa), lbtfi_dw_attrs_name(da), off);
}

int lbtfi_dw_convert_variable(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, struct lbtfi_dw_die *func)
{
	const struct lbtfi_dw_elf_info *ei = u->g->ei;
	uint32_t feat = u->g->features;
	const struct lbtfi_dw_symbol *s;
	const char *name, *sec;
	struct lbtfi_dw_attrs da;
	uint64_t pend, addr, tsize, size;
	int64_t sym, type;
	int id, err;

	if (!(feat & (LBTF_DWARF_FEAT_VAR | LBTF_DWARF_FEAT_PERCPU_VAR)))
		return 0;
	/* most variables are locals: no location of their own, or not a
	 * static address; told from the DIE's own attributes */
	if (!(die->ab->slots & (1u << DA_LOCATION | 1u << DA_DECLARATION)))
		return 0;
	lbtfi_dr_attrs(u->rd, die, &da, false);
	if (lbtfi_dw_attrs_own_flag(&da, DA_DECLARATION)) {
		if (!(feat & LBTF_DWARF_FEAT_VAR) || !ei->is_rel)
			return 0;
		lbtfi_dr_integrate(u->rd, &da);
		return extern_variable(u, &da);
	}
	if (!var_address(&da, &addr))
		return 0;
	lbtfi_dr_integrate(u->rd, &da);
	name = lbtfi_dw_attrs_name(&da);
	if (!name || !*name)
		return 0;
	if (func)
		sym = local_static_sym(u, func, &da, addr);
	else
		sym = lbtfi_dw_sym_find(ei, name, STT_OBJECT, ei->is_rel ? UINT64_MAX : addr,
				  lbtfi_dw_attrs_flag(&da, DA_EXTERNAL));
	if (sym < 0)
		return 0;
	s = &ei->syms[sym];
	name = s->name; /* a function's static: "FUNC.NAME", as clang's VAR */
	sec = ei->secs[s->shndx].name;
	/* storage in the image; but libbpf finds a BPF object's sections by
	 * name whatever their flags (a .maps without SHF_ALLOC holds maps) */
	if (!sec || (!ei->secs[s->shndx].alloc && !(ei->is_rel && ei->is_bpf)))
		return 0;
	if (!(feat & LBTF_DWARF_FEAT_VAR) && strcmp(sec, ".data..percpu"))
		return 0;
	type = lbtfi_dw_ref_attr(u, lbtfi_dw_attrs_get(&da, DA_TYPE), &pend);
	if (type < 0)
		return type;
	if (!type && !pend)
		return 0; /* VAR of void is invalid */
	/* the symbol's size where it is larger than the type's: a map with
	 * static .values = { ... } (PROG_ARRAY, map-in-map) initialises more
	 * than the map type covers, and libbpf finds those relocations by the
	 * DATASEC entry's size (linked files keep the type's size) */
	size = s->size;
	if ((tsize = lbtfi_dw_type_size(u, lbtfi_dw_attrs_get(&da, DA_TYPE)))) {
		if (tsize >= size || !ei->is_rel)
			size = tsize;
	} else if (is_function_type(u, lbtfi_dw_attrs_get(&da, DA_TYPE))) {
		lbtfi_dw_warn(u, LBTFI_DW_WARN_VAR_FUNC);
		return 0;
	}
	if (!size || size > UINT32_MAX)
		return 0;
	id = lbtf_builder_add_var(u->b, name,
				  s->bind == STB_LOCAL ? LBTF_LINKAGE_STATIC : LBTF_LINKAGE_GLOBAL,
				  type);
	if (id < 0)
		return id;
	if (pend && (err = lbtfi_dw_fixup_add(u, id, 2, pend)))
		return err;
	if ((err = lbtfi_dw_add_decl_tags(u, die, id, -1)))
		return err;
	return add_var_rec(u, id, (uint32_t)sym, (uint32_t)size, LBTFI_DW_EXT_NONE, NULL);
}

/* Where walk() is: a unit's top, inside a function or type, or inside a
 * block of a function body (types only) */
enum scope { AT_TOP, NESTED, IN_BLOCK };

/* Visit every DIE that can carry a type, function or variable. */
static int walk(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *parent, enum scope where)
{
	struct lbtfi_dw_die c;
	int err = 0;

	if (!lbtfi_dr_child(parent, &c))
		return 0;
	do {
		unsigned int tag = lbtfi_dr_tag(&c);
		int64_t id;

		switch (tag) {
		case DW_TAG_subprogram:
			if (where == IN_BLOCK)
				break;
			err = lbtfi_dw_convert_subprogram(u, &c);
			if (!err && c.ab->children)
				err = walk(u, &c, NESTED);
			break;
		case DW_TAG_variable:
			/* function-scope statics of a relocatable object are found
			 * by clang's symbol names (FUNC.NAME) in a BPF object, as
			 * clang's own .BTF has them; elsewhere (gcc's NAME.N) they
			 * cannot be told apart by name from file-scope ones */
			if (where == AT_TOP || (where == NESTED && !u->g->ei->is_rel))
				err = lbtfi_dw_convert_variable(u, &c, NULL);
			else if (where == NESTED && u->g->ei->is_bpf &&
				 lbtfi_dr_tag(parent) == DW_TAG_subprogram)
				err = lbtfi_dw_convert_variable(u, &c, parent);
			break;
		case DW_TAG_lexical_block:
			/* Entered in pahole's style only: nested blocks hold locals
			 * and inline expansions (most of a kernel's DIEs) and,
			 * rarely, block scoped types that no FUNC or VAR can refer
			 * to, which pahole keeps. (Inline expansions are not
			 * entered: their blocks repeat the abstract instance's,
			 * where gcc and clang declare the types: walking them
			 * too finds no other type, only costs time.) */
			if (u->g->pahole && c.ab->children)
				err = walk(u, &c, IN_BLOCK);
			break;
		case DW_TAG_namespace:
			lbtfi_dw_warn(u, LBTFI_DW_WARN_NAMESPACE);
			break;
		case DW_TAG_imported_unit:
			break; /* partial units are units of their own; refs resolve lazily */
		default:
			if (!lbtfi_dw_is_type_tag(tag))
				break;
			id = lbtfi_dw_type_id(u, &c);
			if (id < 0)
				err = id;
			else if ((tag == DW_TAG_structure_type || tag == DW_TAG_union_type) &&
				 c.ab->children && id >= u->first_id)
				/* nested type definitions (of a type converted
				 * here: a reused one had them in its signature) */
				err = walk(u, &c, where == AT_TOP ? NESTED : where);
			break;
		}
	} while (!err && lbtfi_dr_sibling(&c));
	return err;
}

/*
 * BTF describes C: units of other languages (C++ runtimes linked into a C
 * program, Rust in a kernel) are skipped whole, with one warning per
 * language family. Assembler units are kept (their functions have symbols).
 */
static bool language_ok(struct lbtfi_dw_unit *u, struct lbtfi_dw_attrs *da)
{
	uint64_t v;
	int lang = lbtfi_dw_attrs_udata(da, DA_LANGUAGE, &v) && v <= INT32_MAX ? (int)v : -1;

	switch (lang) {
	case -1: /* not recorded (e.g. dwz partial units) */
	case DW_LANG_C89:
	case DW_LANG_C:
	case DW_LANG_C99:
	case DW_LANG_C11:
	case 0x2c: /* DW_LANG_C17 */
	case DW_LANG_ObjC:
	case DW_LANG_Mips_Assembler:
		return true;
	case DW_LANG_C_plus_plus:
	case DW_LANG_C_plus_plus_03:
	case DW_LANG_C_plus_plus_11:
	case DW_LANG_C_plus_plus_14:
	case 0x2a: /* C++17 */
	case 0x2b: /* C++20 */
		lbtfi_dw_warn(u, LBTFI_DW_WARN_LANG_CXX);
		return false;
	case DW_LANG_Rust:
		lbtfi_dw_warn(u, LBTFI_DW_WARN_LANG_RUST);
		return false;
	default:
		lbtfi_dw_warn(u, LBTFI_DW_WARN_LANG_OTHER);
		return false;
	}
}

/*
 * DW_TAG_LLVM_annotation is an LLVM vendor tag: units written by GCC never
 * have it (GCC 14 writes its own DW_TAG_GNU_annotation), so the walks over
 * children looking for type/decl tags are skipped for them. Units without
 * a producer (dwz partial units) are searched.
 */
static const char *producer(struct lbtfi_dw_attrs *da)
{
	const struct lbtfi_dw_attr *a = lbtfi_dw_attrs_get(da, DA_PRODUCER);

	return a ? lbtfi_dr_string(a) : NULL;
}

static bool producer_is_gcc(struct lbtfi_dw_attrs *da)
{
	const char *p = producer(da);

	return p && !strncmp(p, "GNU ", 4);
}

/* A reference form that names a DIE of the same unit */
static bool unit_ref_form(unsigned int form)
{
	return form == DW_FORM_ref1 || form == DW_FORM_ref2 || form == DW_FORM_ref4 ||
	       form == DW_FORM_ref8 || form == DW_FORM_ref_udata;
}

/*
 * Whether the unit's abstract origins and specifications all lie in the
 * unit, as its abbreviations say (no DW_FORM_ref_addr, as dwz or LTO write,
 * no reference to a supplementary file): then the declarations reached from
 * its DIEs are its own, and a gcc unit's have no annotations. A few hundred
 * abbreviations per unit, against a decl origin read per function and
 * parameter (lbtfi_dw_funcs_subprogram's DECL_TAGs).
 */
static bool origins_in_unit(const struct lbtfi_dr_unit *cu)
{
	for (uint32_t i = 0; i < cu->nbyc; i++) {
		const struct lbtfi_dr_abbrev *ab = &cu->byc[i];

		if (!ab->specs || !(ab->slots & (1u << DA_ORIGIN | 1u << DA_SPEC)))
			continue;
		for (uint16_t k = 0; k < ab->nspecs; k++)
			if ((ab->specs[k].at == DW_AT_abstract_origin || ab->specs[k].at == DW_AT_specification) &&
			    !unit_ref_form(ab->specs[k].form))
				return false;
	}
	return true;
}

int lbtfi_dw_convert_unit(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *unit_die)
{
	struct lbtfi_dw_attrs da;
	int err;

	lbtfi_dr_attrs(u->rd, unit_die, &da, false);
	if (!language_ok(u, &da))
		return 0;
	u->cu = unit_die->u;
	/* (the DIE table indexes the unit's own DIEs by offset) */
	if ((err = lbtfi_dw_dies_begin(&u->ru.map, u->cu->h->off | u->cu->key_base,
				       u->cu->h->end | u->cu->key_base)))
		return err;
	u->no_annot = producer_is_gcc(&da);
	u->no_annot_reached = u->no_annot && origins_in_unit(u->cu);
	/* (what pahole master takes for a clang unit) */
	u->producer_clang = producer(&da) && strstr(producer(&da), "clang");
	u->first_id = lbtf_builder_type_cnt(u->b);
	lbtfi_dr_bad_off = UINT64_MAX;
	lbtfi_dr_memo_begin();
	err = walk(u, unit_die, AT_TOP);
	lbtfi_dr_memo_end();
	if (!err && lbtfi_dr_bad_off != UINT64_MAX)
		err = lbtfi_err(EINVAL, "bad DWARF entry at %s.debug_info+0x%llx",
				lbtfi_dr_key_where(lbtfi_dr_bad_off),
				(unsigned long long)(lbtfi_dr_bad_off & ~(LBTFI_DW_KEY_ALT | LBTFI_DW_KEY_TYPES)));

	if (!err && (err = lbtfi_dw_reuse_verify(lbtfi_dw_ru(u))) > 0)
		return 1; /* a reused type did not hold: the caller converts again */
	if (!err)
		err = lbtfi_dw_fixups_apply(u);
	return err;
}

/* lbtfi_dw_type_id for the reuse, which knows the unit by its ru */
static int64_t reuse_type_id(struct lbtfi_dw_reuse_unit *ru, struct lbtfi_dw_die *die)
{
	return lbtfi_dw_type_id((struct lbtfi_dw_unit *)((char *)ru - offsetof(struct lbtfi_dw_unit, ru)), die);
}

int lbtfi_dw_unit_init(struct lbtfi_dw_unit *u, const struct lbtfi_dw_global *g, struct lbtfi_dr_ctx *rd)
{
	memset(u, 0, sizeof(*u));
	u->g = g;
	u->rd = rd;
	u->ru.rd = rd;
	u->ru.type_id = reuse_type_id;
	lbtfi_dw_sigs_init(&u->ru.sigs);
	return lbtfi_dw_dies_init(&u->ru.map);
}

void lbtfi_dw_unit_reset(struct lbtfi_dw_unit *u)
{
	u->b = NULL;
	u->vars = NULL;
	u->nvars = u->capvars = 0;
	u->array_index_id = 0;
	u->byte_id = 0;
	u->nfuncs = 0;
	lbtfi_dw_unit_next(u);
}

void lbtfi_dw_unit_next(struct lbtfi_dw_unit *u)
{
	lbtfi_dw_dies_clear(&u->ru.map);
	u->nfix = 0;
	u->err = 0;
	u->cu = NULL;
	u->no_annot = false;
	u->no_annot_reached = false;
	u->producer_clang = false;
	lbtfi_dw_group_unit_begin(lbtfi_dw_ru(u));
}

void lbtfi_dw_unit_mark(const struct lbtfi_dw_unit *u, struct lbtfi_dw_unit_mark *m)
{
	m->nr_types = u->b->nr_types;
	m->nwords = u->b->nwords;
	m->strs_len = u->b->strs.len;
	m->nvars = u->nvars;
	m->nfuncs = u->nfuncs;
}

void lbtfi_dw_unit_rollback(struct lbtfi_dw_unit *u, const struct lbtfi_dw_unit_mark *m)
{
	uint32_t first_new = u->b->start_id + m->nr_types;

	lbtfi_builder_truncate(u->b, m->nr_types, m->nwords);
	lbtfi_strset_truncate(&u->b->strs, m->strs_len);
	u->nvars = m->nvars;
	u->nfuncs = m->nfuncs;
	if (u->array_index_id >= first_new)
		u->array_index_id = 0;
	if (u->byte_id >= first_new)
		u->byte_id = 0;
	lbtfi_dw_reuse_abort(lbtfi_dw_ru(u));
	lbtfi_dw_dies_clear(&u->ru.map);
	u->nfix = 0;
}

void lbtfi_dw_unit_free(struct lbtfi_dw_unit *u)
{
	lbtfi_dw_dies_free(&u->ru.map);
	lbtfi_dw_sigs_free(&u->ru.sigs);
	free(u->fix);
	free(u->vars);
	while (u->nscr)
		free(u->scr[--u->nscr].p);
	free(u->scr);
	memset(u, 0, sizeof(*u));
}
