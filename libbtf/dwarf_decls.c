// SPDX-License-Identifier: BSD-2-Clause
/*
 * Declarations of one unit: functions (FUNC + FUNC_PROTO, linkage from the
 * ELF symbol), variables with a symbol (VAR, recorded for the DATASECs),
 * btf_decl_tag annotations (DECL_TAG), and the walk over a unit's DIEs.
 */
#include <stdlib.h>
#include <string.h>
#include "dwarf_internal.h"


int dw_add_decl_tags(struct dw_unit *u, Dwarf_Die *die, uint32_t target, int component_idx)
{
	Dwarf_Die c;

	if (!(u->g->features & LBTF_DWARF_FEAT_DECL_TAG) || !dw_may_have_annotations(u, die) ||
	    !dwarf_haschildren(die) ||
	    dwarf_child(die, &c) != 0)
		return 0;
	do {
		Dwarf_Attribute a;
		const char *n, *v;
		int r;

		if (dwarf_tag(&c) != DW_TAG_LLVM_annotation)
			continue;
		n = dw_die_name(&c);
		if (!n || strcmp(n, "btf_decl_tag"))
			continue;
		v = dwarf_formstring(dwarf_attr(&c, DW_AT_const_value, &a));
		if (!v || !*v)
			continue;
		r = lbtf_add_decl_tag(u->b, v, target, component_idx);
		if (r < 0)
			return r;
	} while (dwarf_siblingof(&c, &c) == 0);
	return 0;
}

/* The DIE that declares the function: an out-of-line or concrete instance
 * points at its abstract origin / specification, which has the prototype. */
static void decl_origin(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;
	int guard = 8;

	*out = *die;
	while (guard--) {
		if ((dwarf_attr(out, DW_AT_abstract_origin, &a) ||
		     dwarf_attr(out, DW_AT_specification, &a)) &&
		    dwarf_formref_die(&a, out))
			continue;
		break;
	}
}

static int extern_function(struct dw_unit *u, Dwarf_Die *die);

int dw_convert_subprogram(struct dw_unit *u, Dwarf_Die *die)
{
	const struct dw_elf_info *ei = u->g->ei;
	Dwarf_Die origin, *pdies = NULL;
	uint32_t npdies = 0, i;
	Dwarf_Addr lowpc = 0;
	const char *name;
	int64_t sym, proto;
	int id, err = 0;

	if (!(u->g->features & LBTF_DWARF_FEAT_FUNC))
		return 0;
	if (dw_own_flag(die, DW_AT_declaration))
		return ei->is_rel ? extern_function(u, die) : 0;
	name = dw_die_name(die);
	if (!name || !*name)
		return 0;
	if (dwarf_lowpc(die, &lowpc) == 0 || ei->is_rel) {
		sym = dw_sym_find(ei, name, STT_FUNC, ei->is_rel ? UINT64_MAX : lowpc,
				  dw_die_flag(die, DW_AT_external));
	} else {
		/* split hot/cold code: the entry is where the first range starts */
		Dwarf_Addr base, end;

		if (dwarf_hasattr(die, DW_AT_ranges) &&
		    dwarf_ranges(die, 0, &base, &lowpc, &end) > 0)
			sym = dw_sym_find(ei, name, STT_FUNC, lowpc, dw_die_flag(die, DW_AT_external));
		else if (dwarf_func_inline(die))
			sym = -1; /* abstract instance: its concrete copies have addresses */
		else
			/* a definition gcc described without its address: trust
			 * the symbol only when its name is unambiguous */
			sym = dw_sym_unique(ei, name, STT_FUNC);
	}
	if (sym < 0)
		return 0; /* no symbol of that name (e.g. foo.isra.0): ABI may differ */
	decl_origin(die, &origin);
	proto = dw_func_proto(u, &origin, true, &pdies, &npdies);
	if (proto <= 0)
		return proto;
	id = lbtf_add_func(u->b, name,
			   ei->syms[sym].bind == STB_LOCAL ? LBTF_LINKAGE_STATIC : LBTF_LINKAGE_GLOBAL,
			   proto);
	if (id < 0) {
		free(pdies);
		return id;
	}
	u->nfuncs++;
	err = dw_add_decl_tags(u, &origin, id, -1);
	for (i = 0; !err && i < npdies; i++)
		err = dw_add_decl_tags(u, &pdies[i], id, i);
	free(pdies);
	return err;
}

/* Static address of a variable (DW_OP_addr / DW_OP_addrx), false for
 * register, stack, TLS or optimized-out variables. */
static bool var_address(Dwarf_Die *die, Dwarf_Addr *addr)
{
	Dwarf_Attribute a, res;
	Dwarf_Op *ops;
	size_t nops;

	Dwarf_Block blk;
	unsigned int form;

	if (!dwarf_attr(die, DW_AT_location, &a))
		return false;
	/* Most variables here are locals: a location list (a non-block form)
	 * or an expression not starting with an address operation. Told from
	 * the first byte, without decoding (and caching) the expression. */
	form = dwarf_whatform(&a);
	if (form != DW_FORM_exprloc && form != DW_FORM_block1 && form != DW_FORM_block2 &&
	    form != DW_FORM_block4 && form != DW_FORM_block)
		return false;
	if (dwarf_formblock(&a, &blk) != 0 || !blk.length ||
	    (blk.data[0] != DW_OP_addr && blk.data[0] != DW_OP_addrx &&
	     blk.data[0] != DW_OP_GNU_addr_index))
		return false;
	if (dwarf_getlocation(&a, &ops, &nops) != 0 || nops != 1)
		return false;
	if (ops[0].atom == DW_OP_addr) {
		*addr = ops[0].number;
		return true;
	}
	if (ops[0].atom == DW_OP_addrx || ops[0].atom == DW_OP_GNU_addr_index)
		return dwarf_getlocation_attr(&a, &ops[0], &res) == 0 &&
		       dwarf_formaddr(&res, addr) == 0;
	return false;
}

static int add_var_rec(struct dw_unit *u, uint32_t id, uint32_t sym, uint32_t size,
		       enum dw_extern ext)
{
	int err = dw_grow(&u->vars, &u->capvars, u->nvars, sizeof(*u->vars), 32);

	if (err)
		return err;
	u->vars[u->nvars++] = (struct dw_var){ id, sym, size, ext };
	return 0;
}

/*
 * Externs of a BPF object, as clang encodes them: VAR/FUNC with extern
 * linkage in DATASEC .kconfig (libbpf's CONFIG_* and LINUX_* values) or
 * .ksyms (kernel symbols and kfuncs). DWARF does not keep the section
 * attribute, so the kconfig ones are told by libbpf's naming rule.
 */
static enum dw_extern extern_kind(const char *name)
{
	return !strncmp(name, "CONFIG_", 7) || !strncmp(name, "LINUX_", 6) ? DW_EXT_KCONFIG
									    : DW_EXT_KSYMS;
}

static int extern_variable(struct dw_unit *u, Dwarf_Die *die)
{
	const char *name = dw_die_name(die);
	Dwarf_Attribute a;
	Dwarf_Die tdie;
	Dwarf_Word tsize = 0;
	uint64_t pend;
	int64_t sym, type;
	int id, err;

	if (!name || (sym = dw_sym_undef(u->g->ei, name)) < 0)
		return 0;
	type = dw_ref_of(u, die, &pend);
	if (type <= 0 && !pend)
		return type < 0 ? (int)type : 0;
	if (dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, &tdie))
		dwarf_aggregate_size(&tdie, &tsize);
	id = lbtf_add_var(u->b, name, LBTF_LINKAGE_EXTERN, type);
	if (id < 0)
		return id;
	if (pend && (err = dw_fixup_add(u, id, 2, pend)))
		return err;
	return add_var_rec(u, id, (uint32_t)sym, (uint32_t)tsize, extern_kind(name));
}

static int extern_function(struct dw_unit *u, Dwarf_Die *die)
{
	const char *name = dw_die_name(die);
	int64_t sym, proto;
	int id;

	if (!name || (sym = dw_sym_undef(u->g->ei, name)) < 0)
		return 0;
	proto = dw_func_proto(u, die, false, NULL, NULL);
	if (proto <= 0)
		return proto;
	id = lbtf_add_func(u->b, name, LBTF_LINKAGE_EXTERN, proto);
	if (id < 0)
		return id;
	u->nfuncs++;
	return add_var_rec(u, id, (uint32_t)sym, 0, DW_EXT_KSYMS);
}

int dw_convert_variable(struct dw_unit *u, Dwarf_Die *die)
{
	const struct dw_elf_info *ei = u->g->ei;
	uint32_t feat = u->g->features;
	const struct dw_symbol *s;
	const char *name, *sec;
	Dwarf_Addr addr;
	Dwarf_Attribute a;
	Dwarf_Die tdie;
	Dwarf_Word tsize;
	uint64_t pend;
	int64_t sym, type;
	uint64_t size;
	int id, err;

	if (!(feat & (LBTF_DWARF_FEAT_VAR | LBTF_DWARF_FEAT_PERCPU_VAR)))
		return 0;
	if (dw_own_flag(die, DW_AT_declaration))
		return (feat & LBTF_DWARF_FEAT_VAR) && ei->is_rel ? extern_variable(u, die) : 0;
	if (!var_address(die, &addr))
		return 0;
	name = dw_die_name(die);
	if (!name || !*name)
		return 0;
	sym = dw_sym_find(ei, name, STT_OBJECT, ei->is_rel ? UINT64_MAX : addr,
			  dw_die_flag(die, DW_AT_external));
	if (sym < 0)
		return 0;
	s = &ei->syms[sym];
	sec = ei->secs[s->shndx].name;
	if (!sec || !ei->secs[s->shndx].alloc)
		return 0;
	if (!(feat & LBTF_DWARF_FEAT_VAR) && strcmp(sec, ".data..percpu"))
		return 0;
	type = dw_ref_of(u, die, &pend);
	if (type < 0)
		return type;
	if (!type && !pend)
		return 0; /* VAR of void is invalid */
	size = s->size;
	if (dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, &tdie) &&
	    dwarf_aggregate_size(&tdie, &tsize) == 0 && tsize)
		size = tsize;
	if (!size || size > UINT32_MAX)
		return 0;
	id = lbtf_add_var(u->b, name, s->bind == STB_LOCAL ? LBTF_LINKAGE_STATIC : LBTF_LINKAGE_GLOBAL,
			  type);
	if (id < 0)
		return id;
	if (pend && (err = dw_fixup_add(u, id, 2, pend)))
		return err;
	if ((err = dw_add_decl_tags(u, die, id, -1)))
		return err;
	return add_var_rec(u, id, (uint32_t)sym, (uint32_t)size, DW_EXT_NONE);
}

/* Visit every DIE that can carry a type, function or variable. */
static int walk(struct dw_unit *u, Dwarf_Die *parent, bool top)
{
	Dwarf_Die c;
	int rc = dwarf_child(parent, &c), err = 0;

	if (rc)
		return rc < 0 ? lbtfi_err(EINVAL, "bad DWARF: %s", dwarf_errmsg(-1)) : 0;
	do {
		unsigned int tag = dwarf_tag(&c);
		int64_t id;

		switch (tag) {
		case DW_TAG_subprogram:
			err = dw_convert_subprogram(u, &c);
			if (!err && dwarf_haschildren(&c))
				err = walk(u, &c, false);
			break;
		case DW_TAG_variable:
			/* function-scope statics of a relocatable object cannot be
			 * told apart by name from file-scope ones */
			if (top || !u->g->ei->is_rel)
				err = dw_convert_variable(u, &c);
			break;
		case DW_TAG_lexical_block:
			/* Not entered: nested blocks hold locals and inline
			 * expansions (most of a kernel's DIEs) and, rarely, block
			 * scoped types that no FUNC or VAR can refer to. */
			break;
		case DW_TAG_namespace:
			dw_warn(u, DW_WARN_NAMESPACE);
			break;
		case DW_TAG_imported_unit:
			break; /* partial units are units of their own; refs resolve lazily */
		default:
			if (!dw_is_type_tag(tag))
				break;
			id = dw_type_id(u, &c);
			if (id < 0)
				err = id;
			else if ((tag == DW_TAG_structure_type || tag == DW_TAG_union_type) &&
				 dwarf_haschildren(&c))
				err = walk(u, &c, false); /* nested type definitions */
			break;
		}
	} while (!err && dwarf_siblingof(&c, &c) == 0);
	return err;
}

/*
 * BTF describes C: units of other languages (C++ runtimes linked into a C
 * program, Rust in a kernel) are skipped whole, with one warning per
 * language family. Assembler units are kept (their functions have symbols).
 */
static bool language_ok(struct dw_unit *u, Dwarf_Die *unit_die)
{
	int lang = dwarf_srclang(unit_die);

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
		dw_warn(u, DW_WARN_LANG_CXX);
		return false;
	case DW_LANG_Rust:
		dw_warn(u, DW_WARN_LANG_RUST);
		return false;
	default:
		dw_warn(u, DW_WARN_LANG_OTHER);
		return false;
	}
}

/*
 * DW_TAG_LLVM_annotation is an LLVM vendor tag: units written by GCC never
 * have it (GCC 14 writes its own DW_TAG_GNU_annotation), so the walks over
 * children looking for type/decl tags are skipped for them. Units without
 * a producer (dwz partial units) are searched.
 */
static bool producer_is_gcc(Dwarf_Die *unit_die)
{
	Dwarf_Attribute a;
	const char *p = dwarf_formstring(dwarf_attr(unit_die, DW_AT_producer, &a));

	return p && !strncmp(p, "GNU ", 4);
}

int dw_convert_unit(struct dw_unit *u, Dwarf_Die *unit_die)
{
	int err;

	if (!language_ok(u, unit_die))
		return 0;
	u->cu = unit_die->cu;
	u->no_annot = producer_is_gcc(unit_die);
	err = walk(u, unit_die, true);

	if (!err)
		err = dw_fixups_apply(u);
	return err;
}

int dw_unit_init(struct dw_unit *u, const struct dw_global *g, Dwarf *dw)
{
	memset(u, 0, sizeof(*u));
	u->g = g;
	u->dw = dw;
	return dw_diemap_init(&u->map);
}

void dw_unit_reset(struct dw_unit *u)
{
	u->b = NULL;
	dw_diemap_clear(&u->map);
	u->nfix = 0;
	u->vars = NULL;
	u->nvars = u->capvars = 0;
	u->array_index_id = 0;
	u->byte_id = 0;
	u->nfuncs = 0;
	u->err = 0;
	u->cu = NULL;
	u->no_annot = false;
}

void dw_unit_free(struct dw_unit *u)
{
	dw_diemap_free(&u->map);
	free(u->fix);
	free(u->vars);
	memset(u, 0, sizeof(*u));
}
