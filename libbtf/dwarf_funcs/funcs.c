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
 *    gets a marker DECL_TAG; after dedup lbtfi_dw_funcs_mark() drops the marked
 *    names and those whose FUNCs have prototypes that do not match.
 *  - decl_tag_kfuncs: a function listed in a BTF_SET8 of .BTF_ids whose
 *    flags say "kfuncs" gets DECL_TAG "bpf_kfunc" (and "bpf_fastcall" when
 *    its flags have KF_FASTCALL).
 *
 * pahole master's rules (after v1.31; abi_func, true_signature), which
 * funcs_abi.c's reading of an instance's parameters feeds:
 *  - a name whose copies at its symbols (by DW_AT_low_pc) are all
 *    .constprop/.isra clones with a parameter optimized out gets no FUNC
 *    (markers abi_changed / abi_kept); a reordered copy, unexpected
 *    registers (master's reading) and symbols at several addresses leave
 *    a name out with or without consistent_func;
 *  - the name's FUNC is its first copy's at one of its symbols (a copy at
 *    none, such as an overridden weak function, is marked off_symbol);
 *  - true_signature: a copy at a '.'-suffixed symbol also gets a FUNC of
 *    that name over its own parameters; after dedup the name's first such
 *    FUNC replaces the name's FUNCs, unless unexpected registers condemn
 *    the name.
 */
#include <stdlib.h>
#include <string.h>
#include "builder/internal.h"
#include "util/grow.h"
#include "internal.h"

/* markers a unit puts on a FUNC for the decisions taken after dedup */
#define MARKER "btfgen:inconsistent_func"      /* the name gets no FUNC */
#define MARKER_UNEXP "btfgen:unexpected_reg"   /* the same, and no true signature */
#define MARKER_CHANGED "btfgen:abi_changed"    /* a clone at a symbol changed the ABI */
#define MARKER_KEPT "btfgen:abi_kept"          /* a copy at a symbol kept it */
#define MARKER_NOSYM "btfgen:off_symbol"       /* code at no symbol of its name */
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
	uint32_t sym;       /* index into lbtfi_dw_elf_info.syms: the symbol named exactly so, or the first */
	uint32_t kflags;    /* the kfunc's flags in its BTF_SET8 */
	bool ambiguous;
	bool kfunc;
	bool dotted;        /* one of its symbols has a '.' suffix (a clone) */
	bool one_place;     /* all its symbols defined, at sym's address */
};

/* A symbol of a name with clones: pahole master's rules ask which of the
 * name's symbols sit at a copy's address */
struct dw_psym {
	uint32_t f;         /* its name, index into lbtfi_dw_pfuncs.f */
	uint32_t sym;       /* index into lbtfi_dw_elf_info.syms */
	uint64_t addr;
};

struct lbtfi_dw_pfuncs {
	struct dw_pfunc *f;
	uint32_t n;
	struct lbtfi_htab by_name;   /* hash of the name -> index into f */
	/* A bit per hash (its top fbits bits) of the names in by_name: most
	 * subprograms' names are in no symbol (inline functions of headers)
	 * and by_name, megabytes, would miss the cache for each; the filter
	 * (8 bits a symbol, in the last level of cache) answers most no's */
	uint64_t *filter;            /* (in f's block) */
	unsigned int fbits;
	int nregs;                   /* parameters passed in registers */
	int regs[MAX_REG_PARAMS];    /* DW_OP_regN of each */
	struct dw_psym *ps;          /* by name, address, symbol order (master's rules) */
	uint32_t nps;
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
static bool pf_maybe(const struct lbtfi_dw_pfuncs *t, uint32_t h)
{
	uint32_t b = h >> (32 - t->fbits);

	return t->filter[b / 64] >> (b % 64) & 1;
}

/* The name of the first len bytes of name, whose pf_hash is h */
static struct dw_pfunc *pf_find_hashed(const struct lbtfi_dw_pfuncs *t, const char *name, size_t len,
				       uint32_t h)
{
	if (!pf_maybe(t, h))
		return NULL;
	LBTFI_HTAB_FOR_EACH(&t->by_name, h, i, v)
		if (t->f[v].len == len && !memcmp(t->f[v].name, name, len))
			return &t->f[v];
	return NULL;
}

static struct dw_pfunc *pf_find(const struct lbtfi_dw_pfuncs *t, const char *name, size_t len)
{
	return pf_find_hashed(t, name, len, pf_hash(name, len));
}

static void set_regs(struct lbtfi_dw_pfuncs *t, unsigned int machine)
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
static void find_kfuncs(struct lbtfi_dw_elf_info *ei, struct lbtfi_dw_pfuncs *t)
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
		const struct lbtfi_dw_symbol *set = &ei->syms[i];
		uint64_t off = set->value - addr;

		if (set->shndx != idx || strncmp(set->name, SET8_PFX, strlen(SET8_PFX)) ||
		    set->value < addr || off + 8 > data->d_size ||
		    !(((const uint32_t *)data->d_buf)[off / 4 + 1] & SET8_KFUNCS))
			continue;
		for (j = 0; j < ei->nsyms; j++) {
			const struct lbtfi_dw_symbol *s = &ei->syms[j];
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

/* A function symbol's name up to its first '.', hashed (pf_hash) */
struct sym_key {
	uint32_t hash, len;
};

/* Whether a function symbol's key names a function; its key in *k. One
 * pass over the name: the bytes hashed are the ones strcspn would count */
static bool func_key(const char *name, struct sym_key *k)
{
	const unsigned char *p = (const unsigned char *)name;
	uint32_t h = 2166136261u;

	for (; *p && *p != '.'; p++)
		h = (h ^ *p) * 16777619u;
	k->hash = lbtfi_hash_fin(h);
	k->len = (uint32_t)(p - (const unsigned char *)name);
	/* pieces of a function, not functions */
	return !*p || (!strstr((const char *)p, ".cold") && !strstr((const char *)p, ".part"));
}

/* What loading the table needs beside it */
struct pf_load {
	uint64_t *last;        /* each name's last address */
	uint32_t *name_of;     /* each symbol's name (index into f), or UINT32_MAX */
	uint32_t lastname;     /* the greatest name, or UINT32_MAX */
};

/*
 * The table's names met in symbol table order, each looked up by hash (a
 * sort of a kernel's names would delay the start, before any unit can be
 * converted): ambiguous when an address differs from the last nonzero one
 * before it, as pahole v1.31 compares them; the symbol named exactly so
 * gives the linkage, else the first.
 */
static void add_symbol(struct lbtfi_dw_pfuncs *t, const struct lbtfi_dw_elf_info *ei,
		       struct pf_load *ld, uint32_t i, const struct sym_key *k)
{
	const struct lbtfi_dw_symbol *s = &ei->syms[i];
	uint32_t len = k->len;
	struct dw_pfunc *f = pf_find_hashed(t, s->name, len, k->hash);

	if (!f) {
		uint32_t b = k->hash >> (32 - t->fbits);

		t->f[t->n] = (struct dw_pfunc){ .name = s->name, .len = len, .sym = i,
						.dotted = s->name[len] == '.',
						.one_place = s->shndx != SHN_UNDEF };
		ld->last[t->n] = s->value;
		if (ld->lastname == UINT32_MAX || pf_cmp_key(s->name, len, &t->f[ld->lastname]) > 0)
			ld->lastname = t->n;
		ld->name_of[i] = t->n;
		/* (sized for every STT_FUNC: never full) */
		lbtfi_htab_put(&t->by_name, k->hash, t->n++);
		t->filter[b / 64] |= 1ull << (b % 64);
		return;
	}
	ld->name_of[i] = (uint32_t)(f - t->f);
	/* (against the symbol sym names before it may change: a name
	 * without clones keeps its first) */
	f->one_place &= s->shndx != SHN_UNDEF && s->value == ei->syms[f->sym].value;
	if (ld->last[f - t->f] && ld->last[f - t->f] != s->value)
		f->ambiguous = true;
	f->dotted |= s->name[len] == '.';
	ld->last[f - t->f] = s->value;
	if (!s->name[len] && ei->syms[f->sym].name[len])
		f->sym = i;
}

/* Every function symbol added, in order: the keys first (a sequential pass
 * over the names), then the lookups, each slot prefetched a few symbols
 * ahead (the table is megabytes: each probe would miss the cache) */
#define PF_AHEAD 8u
static int add_symbols(struct lbtfi_dw_pfuncs *t, const struct lbtfi_dw_elf_info *ei,
		       struct pf_load *ld)
{
	struct sym_key *keys = malloc((ei->nsyms ? ei->nsyms : 1) * sizeof(*keys));
	uint32_t *idx = malloc((ei->nsyms ? ei->nsyms : 1) * sizeof(*idx));
	uint32_t i, n = 0;

	if (!keys || !idx) {
		free(keys);
		free(idx);
		return lbtfi_err(ENOMEM, "out of memory");
	}
	for (i = 0; i < ei->nsyms; i++) {
		ld->name_of[i] = UINT32_MAX;
		if (ei->syms[i].type == STT_FUNC && func_key(ei->syms[i].name, &keys[n]))
			idx[n++] = i;
	}
	for (i = 0; i < n; i++) {
		if (i + PF_AHEAD < n)
			__builtin_prefetch(lbtfi_htab_home(&t->by_name, keys[i + PF_AHEAD].hash));
		add_symbol(t, ei, ld, idx[i], &keys[i]);
	}
	free(keys);
	free(idx);
	return 0;
}

static int psym_cmp(const void *a, const void *b)
{
	const struct dw_psym *x = a, *y = b;

	if (x->f != y->f)
		return x->f < y->f ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->sym > y->sym) - (x->sym < y->sym);
}

/* The symbols of the names with clones, for master's rules; name_of:
 * each symbol's name (add_symbols) */
static int load_clone_syms(struct lbtfi_dw_pfuncs *t, const struct lbtfi_dw_elf_info *ei,
			   const uint32_t *name_of)
{
	uint32_t i, n = 0;

	for (i = 0; i < t->n; i++)
		n += t->f[i].dotted;
	if (!n)
		return 0;
	for (int pass = 0; pass < 2; pass++) {
		for (i = 0, n = 0; i < ei->nsyms; i++) {
			if (name_of[i] == UINT32_MAX || !t->f[name_of[i]].dotted)
				continue;
			if (pass)
				t->ps[n] = (struct dw_psym){ name_of[i], i, ei->syms[i].value };
			n++;
		}
		if (!pass && !(t->ps = malloc(n * sizeof(*t->ps))))
			return lbtfi_err(ENOMEM, "out of memory");
	}
	t->nps = n;
	qsort(t->ps, n, sizeof(*t->ps), psym_cmp);
	return 0;
}

/* What sits at addr among the symbols of f (a name with clones) */
struct at_addr {
	bool any;           /* a symbol of the name */
	bool optimized;     /* a .constprop/.isra clone */
	int64_t dotted;     /* the first '.'-suffixed symbol, or -1 */
};

static void syms_at(const struct lbtfi_dw_pfuncs *t, const struct lbtfi_dw_elf_info *ei,
		    const struct dw_pfunc *f, uint64_t addr, struct at_addr *r)
{
	struct dw_psym key = { (uint32_t)(f - t->f), 0, addr };
	uint32_t lo = 0, hi = t->nps;

	*r = (struct at_addr){ .dotted = -1 };
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (psym_cmp(&t->ps[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < t->nps && t->ps[lo].f == key.f && t->ps[lo].addr == addr; lo++) {
		const char *dot = strchr(ei->syms[t->ps[lo].sym].name, '.');

		r->any = true;
		if (dot && (strstr(dot, ".constprop") || strstr(dot, ".isra")))
			r->optimized = true;
		if (dot && r->dotted < 0)
			r->dotted = t->ps[lo].sym;
	}
}

/* A name without clones: whether its symbol (or one of them) is at addr.
 * Its symbols are the function symbols of exactly its name: when they are
 * all defined at one address, sym's says (no lookup by name among all the
 * ELF's symbols) */
static bool at_symbol(const struct lbtfi_dw_elf_info *ei, const struct dw_pfunc *f, uint64_t addr)
{
	int64_t s;

	if (f->one_place)
		return ei->syms[f->sym].value == addr;
	s = lbtfi_dw_sym_find(ei, f->name, STT_FUNC, addr, false);

	return s >= 0 && ei->syms[s].value == addr;
}

int lbtfi_dw_pfuncs_load(struct lbtfi_dw_elf_info *ei, uint32_t features)
{
	struct lbtfi_dw_pfuncs *t = calloc(1, sizeof(*t));
	struct pf_load ld = { .lastname = UINT32_MAX };
	uint32_t i, n = 0;
	size_t fbytes, foff;
	GElf_Ehdr eh;
	int err;

	if (!t)
		return lbtfi_err(ENOMEM, "out of memory");
	for (i = 0; i < ei->nsyms; i++)
		n += ei->syms[i].type == STT_FUNC;
	/* (2^fbits >= 8n, at least 64) */
	for (t->fbits = 6; t->fbits < 31 && (1ull << t->fbits) < 8ull * n; t->fbits++)
		;
	/* the filter after the names, in one block: on the same huge pages
	 * where big blocks go on them (util/grow.c: a kernel's filter alone
	 * would be 4 KiB pages there, each probe of it a TLB miss besides the
	 * cache miss) */
	fbytes = (1ull << t->fbits) / 8;
	foff = ((n ? n : 1) * sizeof(*t->f) + 63) & ~(size_t)63;
	t->f = lbtfi_malloc_big(foff + fbytes);
	if (t->f) {
		t->filter = (uint64_t *)(void *)((char *)t->f + foff);
		memset(t->filter, 0, fbytes);
	}
	ld.last = lbtfi_malloc_big((n ? n : 1) * sizeof(*ld.last));
	ld.name_of = malloc((ei->nsyms ? ei->nsyms : 1) * sizeof(*ld.name_of));
	if (!t->f || !ld.last || !ld.name_of || lbtfi_htab_init(&t->by_name, n, 2)) {
		free(ld.last);
		free(ld.name_of);
		lbtfi_dw_pfuncs_free(t);
		return lbtfi_err(ENOMEM, "out of memory");
	}
	set_regs(t, gelf_getehdr(ei->elf, &eh) ? eh.e_machine : EM_NONE);
	err = add_symbols(t, ei, &ld);
	/* as pahole v1.31: its grouping loop over the sorted names decides a
	 * name's ambiguity when the next name starts, so the last never is */
	if (ld.lastname != UINT32_MAX)
		t->f[ld.lastname].ambiguous = false;
	free(ld.last);
	ei->pfuncs = t;
	if (!err)
		find_kfuncs(ei, t);
	if (!err && (features & LBTFI_DW_PAHOLE_MASTER))
		err = load_clone_syms(t, ei, ld.name_of);
	free(ld.name_of);
	return err;
}

void lbtfi_dw_pfuncs_free(struct lbtfi_dw_pfuncs *t)
{
	if (t) {
		free(t->f); /* (and the filter) */
		free(t->ps);
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
		if (!lbtfi_dw_leb_next(&q, e, &n) || n != 1 || (uint64_t)(e - q) < n ||
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
static bool is_struct_param(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *p)
{
	struct lbtfi_dw_attrs da;
	struct lbtfi_dw_die t;
	int guard = 16;

	lbtfi_dw_attrs_read(u, p, &da);
	if (!(da.have >> DA_TYPE & 1) || !lbtfi_dw_type_target(u, &da.a[DA_TYPE], &t))
		return false;
	while (guard--) {
		switch (lbtfi_dr_tag(&t)) {
		case DW_TAG_structure_type:
			return true;
		case DW_TAG_typedef:
		case DW_TAG_const_type:
			lbtfi_dw_attrs_read(u, &t, &da);
			if (!(da.have >> DA_TYPE & 1) || !lbtfi_dw_type_target(u, &da.a[DA_TYPE], &t))
				return false;
			continue;
		default:
			return false;
		}
	}
	return false;
}

/* A struct parameter excuses unexpected registers: it may take several */
static bool any_struct_param(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *params, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (is_struct_param(u, &params[i]))
			return true;
	return false;
}

/* An instance whose register parameters are not where the ABI puts them,
 * as pahole v1.31 sees it (master's: funcs_abi.c) */
static bool unexpected_regs(struct lbtfi_dw_unit *u, const struct lbtfi_dw_pfuncs *t,
			    struct lbtfi_dw_die *params, uint32_t n)
{
	for (uint32_t i = 0; i < n && (int)i < t->nregs; i++) {
		struct reg_scan r = { t->regs[i], -1, 0 };
		struct lbtfi_dw_attrs da;

		lbtfi_dr_attrs(u->rd, &params[i], &da, false);
		if (!(da.own >> DA_LOCATION & 1) || !lbtfi_dr_loc_exprs(&da.a[DA_LOCATION], scan_expr, &r))
			continue;
		if (r.reg >= 0 && r.reg != t->regs[i])
			return !any_struct_param(u, params, n);
	}
	return false;
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

/* A prototype's return type and a copy of its parameters (a copy: adding
 * records moves the builder's); false when proto is no FUNC_PROTO */
static bool proto_copy(struct lbtf_builder *b, int64_t proto, int64_t *ret,
		       struct lbtf_param **p, uint32_t *n)
{
	const struct lbtf_type *t = lbtf_builder_type_by_id(b, (uint32_t)proto);

	*p = NULL;
	if (!t || lbtf_kind(t) != LBTF_KIND_FUNC_PROTO)
		return false;
	*n = lbtf_vlen(t);
	*ret = t->type;
	if (*n && !(*p = malloc(*n * sizeof(**p))))
		*ret = lbtfi_err(ENOMEM, "out of memory");
	else if (*n)
		memcpy(*p, lbtf_params(t), *n * sizeof(**p));
	return true;
}

/* A prototype of ret (or its error) and the parameters p[0..n) whose bit in
 * skip is clear; frees p */
static int64_t proto_add(struct lbtf_builder *b, int64_t ret, struct lbtf_param *p, uint32_t n,
			 uint64_t skip)
{
	int64_t id = ret < 0 ? ret : lbtf_builder_add_func_proto(b, (uint32_t)ret);

	for (uint32_t i = 0; id >= 0 && i < n; i++) {
		int e = i < 64 && (skip >> i & 1) ? 0 :
			lbtf_builder_add_func_param(b, lbtf_builder_str(b, p[i].name_off), p[i].type);

		if (e < 0)
			id = e;
	}
	free(p);
	return id;
}

/*
 * attributes (pahole >= 1.30, with decl_tag_kfuncs): the pointers a
 * kfunc's flags mark as arena pointers point to TYPE_TAG address_space(1)
 * with kind_flag: the prototype again with those pointers replaced
 */
static int64_t arena_proto(struct lbtfi_dw_unit *u, const struct dw_pfunc *f, int64_t proto)
{
	struct lbtf_builder *b = u->b;
	struct lbtf_param *p;
	uint32_t n, i;
	int64_t ret, id;

	if (!(f->kflags & (KF_ARENA_RET | KF_ARENA_ARG1 | KF_ARENA_ARG2)) ||
	    !proto_copy(b, proto, &ret, &p, &n))
		return proto;
	if (ret >= 0 && (f->kflags & KF_ARENA_RET))
		ret = arena_ptr(b, (uint32_t)ret);
	for (i = 0; ret >= 0 && i < 2 && i < n; i++)
		if ((f->kflags & (i ? KF_ARENA_ARG2 : KF_ARENA_ARG1)) && p[i].type) {
			id = arena_ptr(b, p[i].type);
			if (id < 0)
				ret = id;
			else
				p[i].type = (uint32_t)id;
		}
	return proto_add(b, ret, p, n, 0);
}

/* A FUNC's DECL_TAGs from its DWARF: the function's (its origin's), and each
 * parameter's unless some were left out (their indexes would not match) */
static int func_decl_tags(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, int id, struct lbtfi_dw_die *pdies,
			  uint32_t npdies, bool params)
{
	struct lbtfi_dw_die origin, pd;
	int err;

	/* (a gcc unit whose origins are its own: no annotation to look for,
	 * without reading the function's and each parameter's origin) */
	if (!(u->g->features & LBTF_DWARF_FEAT_DECL_TAG) || u->no_annot_reached)
		return 0;
	lbtfi_dw_decl_origin(u, die, &origin);
	err = lbtfi_dw_add_decl_tags(u, &origin, id, -1);
	for (uint32_t i = 0; params && !err && i < npdies; i++) {
		lbtfi_dw_decl_origin(u, &pdies[i], &pd);
		err = lbtfi_dw_add_decl_tags(u, &pd, id, i);
	}
	return err;
}

/* pahole master's true signature: a FUNC named as the clone's symbol
 * (foo.isra.0) over the copy's own parameters, less those in drop */
static int true_signature(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, int64_t sym, int64_t proto,
			  uint64_t drop, struct lbtfi_dw_die *pdies, uint32_t npdies)
{
	struct lbtf_param *p;
	int64_t ret;
	uint32_t n;
	int id;

	if (drop && proto_copy(u->b, proto, &ret, &p, &n) && (proto = proto_add(u->b, ret, p, n, drop)) < 0)
		return (int)proto;
	id = lbtf_builder_add_func(u->b, u->g->ei->syms[sym].name, lbtfi_dw_func_linkage(u, sym, true),
				   (uint32_t)proto);
	if (id < 0)
		return id;
	u->nfuncs++;
	return func_decl_tags(u, die, id, pdies, npdies, !drop);
}

/* The DECL_TAGs a unit puts on FUNCs, many times each: their strings'
 * offsets are remembered in u->func_tag_offs */
enum func_tag { T_COND, T_UNEXP, T_CHANGED, T_KEPT, T_NOSYM, T_KFUNC, T_FASTCALL, T_NR };

static const char *const func_tag_value[T_NR] = {
	[T_COND] = MARKER, [T_UNEXP] = MARKER_UNEXP, [T_CHANGED] = MARKER_CHANGED,
	[T_KEPT] = MARKER_KEPT, [T_NOSYM] = MARKER_NOSYM, [T_KFUNC] = "bpf_kfunc",
	[T_FASTCALL] = "bpf_fastcall",
};
_Static_assert(T_NR <= sizeof(((struct lbtfi_dw_unit *)0)->func_tag_offs) / sizeof(uint32_t),
	       "a remembered offset per DECL_TAG value");

static int add_func_tag(struct lbtfi_dw_unit *u, enum func_tag tag, int id)
{
	int err = lbtfi_builder_add_decl_tag_memo(u->b, func_tag_value[tag], &u->func_tag_offs[tag], id, -1);

	return err < 0 ? err : 0;
}

/*
 * The decisions taken after dedup (lbtfi_dw_funcs_mark), as markers on FUNC id.
 * v1.31 (consistent_func): a name with symbols at several addresses, or an
 * unexpected register. Master: those and a reordered copy, with or without
 * consistent_func; whether a copy at one of its name's symbols is a clone
 * that changed the ABI, or kept it; with true_signature, a clone's FUNC.
 */
static int mark_func(struct lbtfi_dw_unit *u, const struct dw_pfunc *f, struct lbtfi_dw_die *die,
		     const struct lbtfi_dw_attrs *da, struct lbtfi_dw_die *pdies, uint32_t n, int64_t proto,
		     int id)
{
	const struct lbtfi_dw_pfuncs *t = u->g->ei->pfuncs;
	uint32_t feat = u->g->features;
	struct at_addr at = { .dotted = -1 };
	struct lbtfi_dw_abi abi;
	uint64_t addr;
	int err = 0;

	if (!(feat & LBTFI_DW_PAHOLE_MASTER))
		return (feat & LBTF_DWARF_FEAT_CONSISTENT_FUNC) &&
		       (f->ambiguous || unexpected_regs(u, t, pdies, n)) ? add_func_tag(u, T_COND, id) : 0;
	lbtfi_dw_abi_facts(u, da, pdies, n, (uint32_t)proto, t->regs, t->nregs, &abi);
	if ((abi.unexpected || abi.origin_unexpected) && !any_struct_param(u, pdies, n))
		err = add_func_tag(u, T_UNEXP, id);
	if (!err && (f->ambiguous || abi.reordered))
		err = add_func_tag(u, T_COND, id);
	/* (pahole: the copy's own DW_AT_low_pc; a definition without one nor
	 * ranges, not an abstract instance, is a discarded weak function) */
	if (err || (da->own & (1u << DA_INLINE | 1u << DA_RANGES)))
		return err;
	if (!(da->own >> DA_LOW_PC & 1) || !lbtfi_dr_addr(&da->a[DA_LOW_PC], &addr))
		addr = 0;
	if (f->dotted && addr)
		syms_at(t, u->g->ei, f, addr, &at);
	else if (addr)
		at.any = at_symbol(u->g->ei, f, addr);
	/* master emits a name's first copy at one of its symbols; a weak
	 * function's overridden copy has none. (Abstract instances are at
	 * none either, but share their FUNC with their copies: not marked.) */
	if (!at.any)
		return add_func_tag(u, T_NOSYM, id);
	if (feat & LBTF_DWARF_FEAT_TRUE_SIGNATURE)
		return at.dotted < 0 ? 0 : true_signature(u, die, at.dotted, proto,
							  abi.reordered ? abi.drop : 0, pdies, n);
	return add_func_tag(u, at.optimized && abi.optimized ? T_CHANGED : T_KEPT, id);
}

/*
 * A declaration for sure by its abbreviation: its (last) DW_AT_declaration
 * is DW_FORM_flag_present, as gcc and clang write it. A unit's calls name
 * such declarations by the tens of thousands in a kernel; they are skipped
 * without gathering their attributes.
 */
static bool declaration_by_abbrev(const struct lbtfi_dw_die *die)
{
	const struct lbtfi_dr_abbrev *ab = die->ab;
	unsigned int form = 0;

	if (!(ab->slots >> DA_DECLARATION & 1))
		return false;
	for (uint16_t k = 0; k < ab->nspecs; k++)
		if (ab->specs[k].at == DW_AT_declaration)
			form = ab->specs[k].form;
	return form == DW_FORM_flag_present;
}

int lbtfi_dw_funcs_subprogram(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die)
{
	const struct lbtfi_dw_elf_info *ei = u->g->ei;
	const struct lbtfi_dw_pfuncs *t = ei->pfuncs;
	const struct dw_pfunc *f;
	struct lbtfi_dw_die *pdies = NULL;
	uint32_t npdies = 0;
	struct lbtfi_dw_attrs da;
	const char *name;
	int64_t proto;
	size_t len;
	uint32_t h;
	int id, err;

	if (!t || declaration_by_abbrev(die))
		return 0;
	lbtfi_dr_attrs(u->rd, die, &da, false);
	if (lbtfi_dw_attrs_own_flag(&da, DA_DECLARATION))
		return 0;
	lbtfi_dr_integrate(u->rd, &da);
	name = lbtfi_dw_attrs_name(&da);
	if (!name || !*name)
		return 0;
	h = lbtfi_str_hash(name, &len); /* (pf_hash, with the length) */
	if (!(f = pf_find_hashed(t, name, len, h)))
		return 0;
	/* the instance's own parameter list, names and types from its origin */
	proto = lbtfi_dw_func_proto(u, die, true, &pdies, &npdies);
	if (proto <= 0)
		return proto;
	if (f->kfunc && (u->g->features & LBTF_DWARF_FEAT_ATTRIBUTES) &&
	    (u->g->features & LBTF_DWARF_FEAT_DECL_TAG_KFUNCS) &&
	    (proto = arena_proto(u, f, proto)) < 0) {
		free(pdies);
		return (int)proto;
	}
	id = lbtf_builder_add_func(u->b, name, lbtfi_dw_func_linkage(u, f->sym, true), proto);
	if (id < 0) {
		free(pdies);
		return id;
	}
	u->nfuncs++;
	err = mark_func(u, f, die, &da, pdies, npdies, proto, id);
	if (!err && f->kfunc && (u->g->features & LBTF_DWARF_FEAT_DECL_TAG_KFUNCS) &&
	    (u->g->features & LBTF_DWARF_FEAT_DECL_TAG)) {
		err = add_func_tag(u, T_KFUNC, id);
		if (!err && (f->kflags & KF_FASTCALL))
			err = add_func_tag(u, T_FASTCALL, id);
	}
	if (!err)
		err = func_decl_tags(u, die, id, pdies, npdies, true);
	free(pdies);
	return err;
}

/* ---- after dedup: the names left out, the true signatures kept ----- */

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

/* pahole's comparison of two types of one function's prototypes; of
 * function pointers, v1.31 compares the return type only (once per
 * parameter), master each parameter too */
static bool types_match(const struct lbtf_builder *out, uint32_t a, uint32_t b, bool master)
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
			if (lbtf_vlen(x) != lbtf_vlen(y))
				return false;
			for (uint32_t i = 0; master && i < lbtf_vlen(x); i++)
				if (!types_match(out, lbtf_params(x)[i].type, lbtf_params(y)[i].type,
						 master))
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

static bool protos_match(const struct lbtf_builder *out, uint32_t pa, uint32_t pb, bool master)
{
	const struct lbtf_type *x = lbtfi_builder_any_type(out, pa), *y = lbtfi_builder_any_type(out, pb);
	const struct lbtf_param *px, *py;

	if (pa == pb)
		return true;
	if (!x || !y || lbtf_vlen(x) != lbtf_vlen(y) || !types_match(out, x->type, y->type, master))
		return false;
	px = lbtf_params(x);
	py = lbtf_params(y);
	for (uint32_t i = 0; i < lbtf_vlen(x); i++)
		if (!types_match(out, px[i].type, py[i].type, master))
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

/* the markers (bits per FUNC) */
enum { M_COND = 1, M_UNEXP = 2, M_CHANGED = 4, M_KEPT = 8, M_NOSYM = 16 };

static int marker_bit(const char *v)
{
	if (!v || strncmp(v, "btfgen:", 7))
		return 0;
	return !strcmp(v, MARKER) ? M_COND : !strcmp(v, MARKER_UNEXP) ? M_UNEXP :
	       !strcmp(v, MARKER_CHANGED) ? M_CHANGED : !strcmp(v, MARKER_KEPT) ? M_KEPT :
	       !strcmp(v, MARKER_NOSYM) ? M_NOSYM : 0;
}

/* A true signature's FUNC (foo.isra.0): its name up to the '.' */
struct clone_ref {
	const char *name;
	size_t len;
	uint32_t id;
	bool kept;
};

static int clone_cmp(const void *a, const void *b)
{
	const struct clone_ref *x = a, *y = b;
	size_t m = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->name, y->name, m);

	if (c || x->len != y->len)
		return c ? c : x->len < y->len ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* The true signatures of name (sorted clones): the first index, count */
static uint32_t clones_of(struct clone_ref *cs, uint32_t n, const char *name, uint32_t *cnt)
{
	struct clone_ref key = { name, strlen(name), 0, false };
	uint32_t lo = 0, hi = n, i;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (clone_cmp(&cs[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < n && cs[i].len == key.len && !memcmp(cs[i].name, name, key.len); i++)
		;
	*cnt = i - lo;
	return lo;
}

static void drop_one(uint8_t *drop, uint32_t idx, uint32_t *dropped)
{
	if (!drop[idx]) {
		drop[idx] = 1;
		(*dropped)++;
	}
}

/*
 * Master keeps the prototype of a name's first copy at one of its symbols
 * whose clone did not change the ABI (faaa3f1): its FUNC, dropping the
 * name's others (the prune pass then keeps it as the name's first). fs:
 * the name's FUNCs by id; marks and drop indexed by id - start.
 */
static void keep_canonical(const struct fn_ref *fs, uint32_t n, uint32_t start,
			   const uint8_t *marks, uint8_t *drop, uint32_t *dropped)
{
	uint32_t k, pick = 0;

	for (k = 0; k < n; k++) {
		uint8_t m = marks[fs[k].id - start];

		if (!(m & M_NOSYM) && (!(m & M_CHANGED) || (m & M_KEPT)))
			break;
	}
	if (k < n)
		pick = k;
	for (k = 0; k < n; k++)
		if (k != pick)
			drop_one(drop, fs[k].id - start, dropped);
}

/*
 * A name's FUNCs go when a marker condemns it, when consistent_func finds
 * two prototypes that do not match, or (abi_func) when a clone at one of
 * its symbols changed the ABI and no copy at one kept it. With
 * true_signature, a name whose copies were not condemned for unexpected
 * registers and that has a clone's FUNC keeps that one instead (the first).
 */
uint32_t lbtfi_dw_funcs_mark(const struct lbtf_builder *out, uint32_t start, uint32_t cnt,
		       uint8_t *drop, uint32_t features)
{
	bool master = features & LBTFI_DW_PAHOLE_MASTER, tsig = features & LBTF_DWARF_FEAT_TRUE_SIGNATURE;
	bool abi = (features & LBTF_DWARF_FEAT_ABI_FUNC) && !tsig;
	struct clone_ref *cs = NULL;
	struct fn_ref *fs;
	uint8_t *marks;
	uint32_t id, n = 0, nc = 0, i, j, dropped = 0;

	if (!(features & (LBTF_DWARF_FEAT_CONSISTENT_FUNC | LBTFI_DW_PAHOLE_MASTER)) || cnt <= start)
		return 0;
	fs = malloc((cnt - start) * sizeof(*fs));
	marks = calloc(cnt - start, 1);
	if (tsig)
		cs = malloc((cnt - start) * sizeof(*cs));
	if (!fs || !marks || (tsig && !cs)) {
		free(fs);
		free(marks);
		free(cs);
		return 0;
	}
	for (id = start; id < cnt; id++) {
		const struct lbtf_type *t = lbtfi_builder_any_type(out, id);
		const char *v = lbtf_builder_str(out, t->name_off), *dot;
		int bit;

		if (lbtf_kind(t) == LBTF_KIND_FUNC) {
			if (tsig && v && (dot = strchr(v, '.')))
				cs[nc++] = (struct clone_ref){ v, (size_t)(dot - v), id, false };
			else
				fs[n++] = (struct fn_ref){ t->name_off, id };
		} else if (lbtf_kind(t) == LBTF_KIND_DECL_TAG && (bit = marker_bit(v))) {
			/* (a module's FUNC that dedup merged into the base's has
			 * no FUNC here to drop; the marker itself never stays) */
			if (t->type >= start && t->type < cnt)
				marks[t->type - start] |= (uint8_t)bit;
			drop_one(drop, id - start, &dropped);
		}
	}
	qsort(fs, n, sizeof(*fs), fn_ref_cmp);
	if (nc)
		qsort(cs, nc, sizeof(*cs), clone_cmp);
	for (i = 0; i < n; i = j) {
		uint8_t m = marks[fs[i].id - start];
		bool bad;

		for (j = i + 1; j < n && fs[j].name_off == fs[i].name_off; j++)
			m |= marks[fs[j].id - start];
		bad = (m & (M_COND | M_UNEXP)) || (abi && (m & M_CHANGED) && !(m & M_KEPT));
		for (uint32_t k = i + 1; !bad && k < j && (features & LBTF_DWARF_FEAT_CONSISTENT_FUNC); k++)
			bad = !protos_match(out, lbtfi_builder_any_type(out, fs[i].id)->type,
					    lbtfi_builder_any_type(out, fs[k].id)->type, master);
		if (nc) {
			uint32_t c0, cn = 0;

			c0 = clones_of(cs, nc, lbtf_builder_str(out, fs[i].name_off), &cn);
			if (cn && !(m & M_UNEXP)) {
				cs[c0].kept = true;
				bad = true; /* the clone's FUNC instead */
			}
		}
		for (uint32_t k = i; bad && k < j; k++)
			drop_one(drop, fs[k].id - start, &dropped);
		if (!bad && master && j - i > 1)
			keep_canonical(fs + i, j - i, start, marks, drop, &dropped);
	}
	for (i = 0; i < nc; i++)
		if (!cs[i].kept)
			drop_one(drop, cs[i].id - start, &dropped);
	free(fs);
	free(marks);
	free(cs);
	return dropped;
}
