// SPDX-License-Identifier: BSD-2-Clause
/*
 * Functions as pahole v1.31 selects them for a kernel build (features
 * optimized_func, consistent_func, decl_tag_kfuncs), learnt from its
 * documented behaviour and source, written anew:
 *
 *  - The ELF function table names each STT_FUNC symbol up to its first '.',
 *    so an out-of-line clone the compiler renamed (foo.isra.0,
 *    foo.constprop.0) stands for foo; symbols whose suffix has ".cold" or
 *    ".part" (pieces of a function, not functions) are left out. A name
 *    whose symbols sit at several addresses is "ambiguous" (except the
 *    table's last name, as in pahole v1.31).
 *  - Every subprogram DIE of the name (not a declaration, every parameter
 *    named) gives the name a prototype: a definition, an abstract inline
 *    instance, a concrete out-of-line instance (whose own parameter list
 *    counts: a clone may list fewer).
 *  - consistent_func leaves a name out when its prototypes differ (pahole's
 *    loose comparison: const ignored, structs/unions/enums/typedefs by name),
 *    when it is ambiguous, or when an instance receives one of its first
 *    register parameters in another register than the ABI's (the compiler
 *    changed the calling convention; a struct parameter excuses it). A
 *    unit cannot see the other units, so an instance that condemns its name
 *    gets a marker DECL_TAG; after dedup dw_funcs_mark() drops the marked
 *    names and those whose FUNCs have prototypes that do not match.
 *  - decl_tag_kfuncs: a function listed in a BTF_SET8 of .BTF_ids whose
 *    flags say "kfuncs" gets DECL_TAG "bpf_kfunc" (and "bpf_fastcall" when
 *    its flags have KF_FASTCALL).
 */
#include <stdlib.h>
#include <string.h>
#include "build/internal.h"
#include "util/grow.h"
#include "internal.h"

#define MARKER "btfgen:inconsistent_func"
#define SET8_PFX "__BTF_ID__set8__"
#define FUNC_PFX "__BTF_ID__func__"
#define SET8_KFUNCS 1u
#define KF_FASTCALL (1u << 12)
/* the kfunc returns / takes as first, second parameter an arena pointer */
#define KF_ARENA_RET (1u << 13)
#define KF_ARENA_ARG1 (1u << 14)
#define KF_ARENA_ARG2 (1u << 15)
#define ARENA_ATTR "address_space(1)"
#define MAX_REG_PARAMS 8

struct dw_pfunc {
	const char *name;   /* the symbol's name; the function's is its first len bytes */
	uint32_t len;
	uint32_t sym;       /* index into dw_elf_info.syms: the symbol named exactly so, or the first */
	uint32_t kflags;    /* the kfunc's flags in its BTF_SET8 */
	bool ambiguous;
	bool kfunc;
};

struct dw_pfuncs {
	struct dw_pfunc *f;
	uint32_t n;
	struct lbtfi_htab by_name;   /* hash of the name -> index into f */
	int nregs;                   /* parameters passed in registers */
	int regs[MAX_REG_PARAMS];    /* DW_OP_regN of each */
};

static int pf_cmp_key(const char *name, size_t len, const struct dw_pfunc *f)
{
	size_t m = len < f->len ? len : f->len;
	int c = memcmp(name, f->name, m);

	return c ? c : (len > f->len) - (len < f->len);
}

/* lbtfi_str_hash of the first len bytes of name */
static uint32_t pf_hash(const char *name, size_t len)
{
	const unsigned char *p = (const unsigned char *)name;
	uint32_t h = 2166136261u;

	while (len--)
		h = (h ^ *p++) * 16777619u;
	return lbtfi_hash_fin(h);
}

/* By hash, not by bisecting the sorted names: once per subprogram DIE of
 * every unit (a bisection's cache misses show in a kernel's profile) */
static struct dw_pfunc *pf_find(const struct dw_pfuncs *t, const char *name, size_t len)
{
	uint32_t h = pf_hash(name, len);

	LBTFI_HTAB_FOR_EACH(&t->by_name, h, i, v)
		if (t->f[v].len == len && !memcmp(t->f[v].name, name, len))
			return &t->f[v];
	return NULL;
}

static void set_regs(struct dw_pfuncs *t, unsigned int machine)
{
	static const int x86_64[] = { DW_OP_reg5, DW_OP_reg4, DW_OP_reg1, DW_OP_reg2,
				      DW_OP_reg8, DW_OP_reg9 };

	switch (machine) {
	case EM_X86_64:
		t->nregs = 6;
		memcpy(t->regs, x86_64, sizeof(x86_64));
		break;
	case EM_AARCH64:
		t->nregs = 8;
		for (int i = 0; i < 8; i++)
			t->regs[i] = DW_OP_reg0 + i;
		break;
	default:
		t->nregs = 0; /* no check of the registers */
		break;
	}
}

/* kfuncs: the __BTF_ID__func__NAME__N symbols inside a BTF_SET8 whose
 * flags word has SET8_KFUNCS; the pair after the symbol holds the flags */
static void find_kfuncs(struct dw_elf_info *ei, struct dw_pfuncs *t)
{
	Elf_Data *data = NULL;
	uint64_t addr = 0;
	size_t idx;
	uint32_t i, j;

	for (idx = 1; idx < ei->nsecs; idx++)
		if (ei->secs[idx].name && !strcmp(ei->secs[idx].name, ".BTF_ids"))
			break;
	if (idx >= ei->nsecs)
		return;
	{
		Elf_Scn *scn = elf_getscn(ei->elf, idx);
		GElf_Shdr sh;

		if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			return;
		/* 32-bit words: converted to the host's byte order */
		data = elf_getdata_rawchunk(ei->elf, sh.sh_offset, sh.sh_size, ELF_T_WORD);
		addr = sh.sh_addr;
	}
	if (!data)
		return;
	for (i = 0; i < ei->nsyms; i++) {
		const struct dw_symbol *set = &ei->syms[i];
		uint64_t off = set->value - addr;

		if (set->shndx != idx || strncmp(set->name, SET8_PFX, strlen(SET8_PFX)) ||
		    set->value < addr || off + 8 > data->d_size ||
		    !(((const uint32_t *)data->d_buf)[off / 4 + 1] & SET8_KFUNCS))
			continue;
		for (j = 0; j < ei->nsyms; j++) {
			const struct dw_symbol *s = &ei->syms[j];
			const char *fn = s->name + strlen(FUNC_PFX), *end;
			struct dw_pfunc *f;
			uint64_t o = s->value - addr;

			if (s->shndx != idx || s->value < set->value ||
			    s->value >= set->value + set->size || o + 8 > data->d_size ||
			    strncmp(s->name, FUNC_PFX, strlen(FUNC_PFX)))
				continue;
			/* NAME__N: the name ends at the last "__" */
			end = strrchr(fn, '_');
			if (!end || end == fn || end[-1] != '_')
				continue;
			f = pf_find(t, fn, end - 1 - fn);
			if (!f)
				continue;
			f->kfunc = true;
			f->kflags = ((const uint32_t *)data->d_buf)[o / 4 + 1];
		}
	}
}

static bool piece_of_function(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot && (strstr(dot, ".cold") || strstr(dot, ".part"));
}

/*
 * The table's names met in symbol table order, each looked up by hash (a
 * sort of a kernel's names would delay the start, before any unit can be
 * converted): ambiguous when an address differs from the last nonzero one
 * before it, as pahole v1.31 compares them; the symbol named exactly so
 * gives the linkage, else the first. last[] holds each name's last address.
 */
static void add_symbol(struct dw_pfuncs *t, const struct dw_elf_info *ei, uint64_t *last,
		       uint32_t i)
{
	const struct dw_symbol *s = &ei->syms[i];
	uint32_t len = (uint32_t)strcspn(s->name, ".");
	struct dw_pfunc *f = pf_find(t, s->name, len);

	if (!f) {
		t->f[t->n] = (struct dw_pfunc){ .name = s->name, .len = len, .sym = i };
		last[t->n] = s->value;
		/* (sized for every STT_FUNC: never full) */
		lbtfi_htab_put(&t->by_name, pf_hash(s->name, len), t->n++);
		return;
	}
	if (last[f - t->f] && last[f - t->f] != s->value)
		f->ambiguous = true;
	last[f - t->f] = s->value;
	if (!s->name[len] && ei->syms[f->sym].name[len])
		f->sym = i;
}

int dw_pfuncs_load(struct dw_elf_info *ei)
{
	struct dw_pfuncs *t = calloc(1, sizeof(*t));
	struct dw_pfunc *lastname = NULL;
	uint64_t *last = NULL;
	uint32_t i, n = 0;
	GElf_Ehdr eh;

	if (!t)
		return lbtfi_err(ENOMEM, "out of memory");
	for (i = 0; i < ei->nsyms; i++)
		n += ei->syms[i].type == STT_FUNC;
	t->f = lbtfi_malloc_big((n ? n : 1) * sizeof(*t->f));
	last = lbtfi_malloc_big((n ? n : 1) * sizeof(*last));
	if (!t->f || !last || lbtfi_htab_init(&t->by_name, n, 2)) {
		free(last);
		dw_pfuncs_free(t);
		return lbtfi_err(ENOMEM, "out of memory");
	}
	set_regs(t, gelf_getehdr(ei->elf, &eh) ? eh.e_machine : EM_NONE);
	for (i = 0; i < ei->nsyms; i++)
		if (ei->syms[i].type == STT_FUNC && !piece_of_function(ei->syms[i].name))
			add_symbol(t, ei, last, i);
	/* as pahole v1.31: its grouping loop over the sorted names decides a
	 * name's ambiguity when the next name starts, so the last never is */
	for (i = 0; i < t->n; i++)
		if (!lastname || pf_cmp_key(t->f[i].name, t->f[i].len, lastname) > 0)
			lastname = &t->f[i];
	if (lastname)
		lastname->ambiguous = false;
	free(last);
	ei->pfuncs = t;
	find_kfuncs(ei, t);
	return 0;
}

void dw_pfuncs_free(struct dw_pfuncs *t)
{
	if (t) {
		free(t->f);
		lbtfi_htab_free(&t->by_name);
	}
	free(t);
}

/*
 * The register a parameter's location starts in, as pahole reads it: among
 * the location expressions that are one operation (a trailing
 * DW_OP_stack_value aside), DW_OP_regN as the first expression, or
 * DW_OP_entry_value(DW_OP_regN) in any; the expected register ends the
 * search. reg stays -1 when there is none (optimized out).
 */
struct reg_scan {
	int expected, reg, n;
};

static bool uleb(const uint8_t **p, const uint8_t *e, uint64_t *v)
{
	unsigned int shift = 0;

	*v = 0;
	while (*p < e && shift < 64) {
		uint8_t b = *(*p)++;

		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return true;
		shift += 7;
	}
	return false;
}

static bool scan_expr(const uint8_t *p, uint64_t len, void *ctx)
{
	struct reg_scan *r = ctx;
	const uint8_t *e = p + len, *q = p + 1;
	uint64_t n;
	int reg;

	r->n++;
	if (!len)
		return true;
	if (*p >= DW_OP_reg0 && *p <= DW_OP_reg31) {
		if (r->n != 1)
			return true;
		reg = *p;
	} else if (*p == DW_OP_entry_value || *p == DW_OP_GNU_entry_value) {
		/* one register operation inside */
		if (!uleb(&q, e, &n) || n != 1 || (uint64_t)(e - q) < n ||
		    q[0] < DW_OP_reg0 || q[0] > DW_OP_reg31)
			return true;
		reg = q[0];
		q += n;
	} else {
		return true;
	}
	if (q != e && !(q + 1 == e && *q == DW_OP_stack_value))
		return true;
	r->reg = reg;
	return reg != r->expected;
}

/* A struct (through typedefs and const) */
static bool is_struct_param(struct dw_unit *u, struct dw_die *p)
{
	struct dw_attrs da;
	struct dw_die t;
	int guard = 16;

	dw_attrs_read(u, p, &da);
	if (!(da.have >> DA_TYPE & 1) || !dw_type_target(u, &da.a[DA_TYPE], &t))
		return false;
	while (guard--) {
		switch (dr_tag(&t)) {
		case DW_TAG_structure_type:
			return true;
		case DW_TAG_typedef:
		case DW_TAG_const_type:
			dw_attrs_read(u, &t, &da);
			if (!(da.have >> DA_TYPE & 1) || !dw_type_target(u, &da.a[DA_TYPE], &t))
				return false;
			continue;
		default:
			return false;
		}
	}
	return false;
}

/* An instance whose register parameters are not where the ABI puts them */
static bool unexpected_regs(struct dw_unit *u, const struct dw_pfuncs *t,
			    struct dw_die *params, uint32_t n)
{
	bool unexpected = false;

	for (uint32_t i = 0; i < n && (int)i < t->nregs; i++) {
		struct reg_scan r = { t->regs[i], -1, 0 };
		struct dw_attrs da;

		dr_attrs(u->rd, &params[i], &da, false);
		if (!(da.own >> DA_LOCATION & 1) || !dr_loc_exprs(&da.a[DA_LOCATION], scan_expr, &r))
			continue;
		if (r.reg >= 0 && r.reg != t->regs[i]) {
			unexpected = true;
			break;
		}
	}
	if (!unexpected)
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (is_struct_param(u, &params[i]))
			return false;
	return true;
}

/* A pointer to ATTR over what ptr points to; ptr itself when it is no
 * pointer (pahole then fails the function; it is kept as it is here) */
static int64_t arena_ptr(struct lbtf_builder *b, uint32_t ptr)
{
	const struct lbtf_type *t = ptr ? lbtf_builder_type_by_id(b, ptr) : NULL;
	int id;

	if (!t || lbtf_kind(t) != LBTF_KIND_PTR)
		return ptr;
	id = lbtfi_builder_add_type_attr(b, ARENA_ATTR, t->type);
	return id < 0 ? id : lbtf_builder_add_ptr(b, (uint32_t)id);
}

/*
 * attributes (pahole >= 1.30, with decl_tag_kfuncs): the pointers a
 * kfunc's flags mark as arena pointers point to TYPE_TAG address_space(1)
 * with kind_flag: the prototype again with those pointers replaced
 */
static int64_t arena_proto(struct dw_unit *u, const struct dw_pfunc *f, int64_t proto)
{
	struct lbtf_builder *b = u->b;
	const struct lbtf_type *t = lbtf_builder_type_by_id(b, (uint32_t)proto);
	struct lbtf_param *p = NULL;
	uint32_t n, i;
	int64_t ret, id;

	if (!(f->kflags & (KF_ARENA_RET | KF_ARENA_ARG1 | KF_ARENA_ARG2)) || !t ||
	    lbtf_kind(t) != LBTF_KIND_FUNC_PROTO)
		return proto;
	/* (a copy: adding records moves the builder's) */
	n = lbtf_vlen(t);
	ret = t->type;
	if (n && !(p = malloc(n * sizeof(*p))))
		return lbtfi_err(ENOMEM, "out of memory");
	if (n)
		memcpy(p, lbtf_params(t), n * sizeof(*p));
	if (f->kflags & KF_ARENA_RET)
		ret = arena_ptr(b, (uint32_t)ret);
	for (i = 0; ret >= 0 && i < 2 && i < n; i++)
		if ((f->kflags & (i ? KF_ARENA_ARG2 : KF_ARENA_ARG1)) && p[i].type) {
			id = arena_ptr(b, p[i].type);
			if (id < 0)
				ret = id;
			else
				p[i].type = (uint32_t)id;
		}
	id = ret < 0 ? ret : lbtf_builder_add_func_proto(b, (uint32_t)ret);
	for (i = 0; id >= 0 && i < n; i++) {
		int e = lbtf_builder_add_func_param(b, lbtf_builder_str(b, p[i].name_off), p[i].type);

		if (e < 0)
			id = e;
	}
	free(p);
	return id;
}

int dw_funcs_subprogram(struct dw_unit *u, struct dw_die *die)
{
	const struct dw_elf_info *ei = u->g->ei;
	const struct dw_pfuncs *t = ei->pfuncs;
	const struct dw_pfunc *f;
	struct dw_die origin, *pdies = NULL, pd;
	uint32_t npdies = 0, i;
	struct dw_attrs da;
	const char *name;
	int64_t proto;
	int id, err = 0;

	if (!t)
		return 0;
	dr_attrs(u->rd, die, &da, false);
	if (dw_attrs_own_flag(&da, DA_DECLARATION))
		return 0;
	dr_integrate(u->rd, &da);
	name = dw_attrs_name(&da);
	if (!name || !*name || !(f = pf_find(t, name, strlen(name))))
		return 0;
	/* the instance's own parameter list, names and types from its origin */
	proto = dw_func_proto(u, die, true, &pdies, &npdies);
	if (proto <= 0)
		return proto;
	if (f->kfunc && (u->g->features & LBTF_DWARF_FEAT_ATTRIBUTES) &&
	    (u->g->features & LBTF_DWARF_FEAT_DECL_TAG_KFUNCS) &&
	    (proto = arena_proto(u, f, proto)) < 0) {
		free(pdies);
		return (int)proto;
	}
	id = lbtf_builder_add_func(u->b, name, dw_func_linkage(u, f->sym), proto);
	if (id < 0) {
		free(pdies);
		return id;
	}
	u->nfuncs++;
	if ((u->g->features & LBTF_DWARF_FEAT_CONSISTENT_FUNC) &&
	    (f->ambiguous || unexpected_regs(u, t, pdies, npdies)))
		err = lbtf_builder_add_decl_tag(u->b, MARKER, id, -1);
	if (!err && f->kfunc && (u->g->features & LBTF_DWARF_FEAT_DECL_TAG_KFUNCS) &&
	    (u->g->features & LBTF_DWARF_FEAT_DECL_TAG)) {
		err = lbtf_builder_add_decl_tag(u->b, "bpf_kfunc", id, -1);
		if (err >= 0 && (f->kflags & KF_FASTCALL))
			err = lbtf_builder_add_decl_tag(u->b, "bpf_fastcall", id, -1);
	}
	err = err < 0 ? err : 0;
	dw_decl_origin(u, die, &origin);
	if (!err)
		err = dw_add_decl_tags(u, &origin, id, -1);
	for (i = 0; !err && i < npdies; i++) {
		dw_decl_origin(u, &pdies[i], &pd);
		err = dw_add_decl_tags(u, &pd, id, i);
	}
	free(pdies);
	return err;
}

/* ---- after dedup: the names consistent_func leaves out ------------- */

static int fwd_kind(const struct lbtf_type *t)
{
	if (lbtf_kind(t) == LBTF_KIND_FWD)
		return lbtf_kflag(t) ? LBTF_KIND_UNION : LBTF_KIND_STRUCT;
	return lbtf_kind(t);
}

static bool same_name(const struct lbtf_builder *out, const struct lbtf_type *a,
		      const struct lbtf_type *b)
{
	const char *x = lbtf_builder_str(out, a->name_off);
	const char *y = lbtf_builder_str(out, b->name_off);

	return a->name_off == b->name_off || (x && y && !strcmp(x, y));
}

/* pahole's comparison of two types of one function's prototypes */
static bool types_match(const struct lbtf_builder *out, uint32_t a, uint32_t b)
{
	for (int guard = 0; guard < 64; guard++) {
		const struct lbtf_type *x, *y;
		int kx, ky;

		if (a == b)
			return true;
		if (!a || !b)
			return false;
		x = lbtfi_builder_any_type(out, a);
		y = lbtfi_builder_any_type(out, b);
		if (!x || !y)
			return false;
		kx = fwd_kind(x);
		ky = fwd_kind(y);
		if (kx != ky) {
			/* a const on one side only does not count */
			if (kx == LBTF_KIND_CONST) {
				a = x->type;
				continue;
			}
			if (ky == LBTF_KIND_CONST) {
				b = y->type;
				continue;
			}
			return false;
		}
		switch (kx) {
		case LBTF_KIND_INT:
			return x->size == y->size &&
			       *(const uint32_t *)(x + 1) == *(const uint32_t *)(y + 1) &&
			       same_name(out, x, y);
		case LBTF_KIND_FLOAT:
			return x->size == y->size && same_name(out, x, y);
		case LBTF_KIND_TYPEDEF: case LBTF_KIND_STRUCT: case LBTF_KIND_UNION:
		case LBTF_KIND_ENUM: case LBTF_KIND_ENUM64:
			return same_name(out, x, y);
		case LBTF_KIND_PTR: case LBTF_KIND_VOLATILE: case LBTF_KIND_CONST:
		case LBTF_KIND_RESTRICT: case LBTF_KIND_TYPE_TAG:
			a = x->type;
			b = y->type;
			continue;
		case LBTF_KIND_ARRAY: {
			const struct lbtf_array *ax = lbtf_array(x), *ay = lbtf_array(y);

			if (ax->nelems != ay->nelems)
				return false;
			a = ax->type;
			b = ay->type;
			continue;
		}
		case LBTF_KIND_FUNC_PROTO:
			/* (pahole compares the count and the return types) */
			if (lbtf_vlen(x) != lbtf_vlen(y))
				return false;
			a = x->type;
			b = y->type;
			continue;
		default:
			return false;
		}
	}
	return false;
}

static bool protos_match(const struct lbtf_builder *out, uint32_t pa, uint32_t pb)
{
	const struct lbtf_type *x = lbtfi_builder_any_type(out, pa), *y = lbtfi_builder_any_type(out, pb);
	const struct lbtf_param *px, *py;

	if (pa == pb)
		return true;
	if (!x || !y || lbtf_vlen(x) != lbtf_vlen(y) || !types_match(out, x->type, y->type))
		return false;
	px = lbtf_params(x);
	py = lbtf_params(y);
	for (uint32_t i = 0; i < lbtf_vlen(x); i++)
		if (!types_match(out, px[i].type, py[i].type))
			return false;
	return true;
}

struct fn_ref {
	uint32_t name_off, id;
};

static int fn_ref_cmp(const void *a, const void *b)
{
	const struct fn_ref *x = a, *y = b;

	if (x->name_off != y->name_off)
		return x->name_off < y->name_off ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

uint32_t dw_funcs_mark(const struct lbtf_builder *out, uint32_t start, uint32_t cnt,
		       uint8_t *drop, uint32_t features)
{
	struct fn_ref *fs;
	uint8_t *marked;
	uint32_t id, n = 0, i, j, dropped = 0;

	if (!(features & LBTF_DWARF_FEAT_CONSISTENT_FUNC) || cnt <= start)
		return 0;
	fs = malloc((cnt - start) * sizeof(*fs));
	marked = calloc(cnt - start, 1);
	if (!fs || !marked) {
		free(fs);
		free(marked);
		return 0;
	}
	for (id = start; id < cnt; id++) {
		const struct lbtf_type *t = lbtfi_builder_any_type(out, id);
		const char *v;

		if (lbtf_kind(t) == LBTF_KIND_FUNC) {
			fs[n++] = (struct fn_ref){ t->name_off, id };
		} else if (lbtf_kind(t) == LBTF_KIND_DECL_TAG &&
			   (v = lbtf_builder_str(out, t->name_off)) && !strcmp(v, MARKER)) {
			/* (a module's FUNC that dedup merged into the base's has
			 * no FUNC here to drop; the marker itself never stays) */
			if (t->type >= start && t->type < cnt)
				marked[t->type - start] = 1;
			drop[id - start] = 1;
			dropped++;
		}
	}
	qsort(fs, n, sizeof(*fs), fn_ref_cmp);
	for (i = 0; i < n; i = j) {
		bool bad = marked[fs[i].id - start];

		for (j = i + 1; j < n && fs[j].name_off == fs[i].name_off; j++)
			bad = bad || marked[fs[j].id - start] ||
			      !protos_match(out, lbtfi_builder_any_type(out, fs[i].id)->type,
					    lbtfi_builder_any_type(out, fs[j].id)->type);
		for (uint32_t k = i; bad && k < j; k++)
			if (!drop[fs[k].id - start]) {
				drop[fs[k].id - start] = 1;
				dropped++;
			}
	}
	free(fs);
	free(marked);
	return dropped;
}
