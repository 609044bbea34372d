// SPDX-License-Identifier: BSD-2-Clause
/*
 * pahole master's reading of a function instance's parameters ("true
 * signatures", after v1.31), learnt from its behaviour and source, written
 * anew. funcs.c asks it, per subprogram DIE, for three facts:
 *
 *  - optimized parameters: a parameter with no location, one whose location
 *    never names a register (while registers are left), or (gcc) one with
 *    only a constant value. funcs.c leaves a function out when its copies
 *    at symbols are all at a .constprop/.isra clone with such a parameter:
 *    callers of the clone do not pass what the prototype says.
 *  - an unexpected register: a parameter that arrives in another register
 *    than the ABI's. The ABI's register of a parameter counts the slots the
 *    ones before it take: a value of 9..16 bytes takes two registers, a
 *    larger one is passed in memory (and, as pahole counts, one slot).
 *    A parameter's register is the first one met: a register (or a
 *    register plus offset with DW_OP_stack_value) as the whole first
 *    location expression, or as the first piece of a small value; the first
 *    register of a 9..16-byte value's pieces in any expression;
 *    DW_OP_entry_value(register) in any expression. A struct parameter
 *    excuses the function (funcs.c).
 *  - reordered: an out-of-line copy whose own parameter list puts an
 *    origin's parameter at another index (gcc lists a clone's parameters
 *    without the ones it dropped). Its origin, which pahole reads with the
 *    copy's locations, is checked for unexpected registers too.
 *
 * clang units: a register is checked only against the ABI's window of the
 * parameter's slots, and a constant value is no optimization, as pahole
 * master does for a clang unit whose function kept its signature (clang's
 * DW_CC_nocall for a changed signature is not read here).
 */
#include <string.h>
#include "builder/internal.h"
#include "internal.h"

#define MAX_OPS 64
#define MAX_PARMS 64
#define SLOT 8u /* register size of the 64-bit ABIs this is used for */

bool lbtfi_dw_leb_next(const uint8_t **p, const uint8_t *e, uint64_t *v)
{
	unsigned int shift = 0;

	*v = 0;
	while (*p < e) {
		uint8_t b = *(*p)++;

		if (shift < 64)
			*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return true;
		shift += 7;
	}
	return false;
}

/* The end of the DWARF expression operation at p, or NULL when it cannot
 * be decoded (an unknown operation: libdw stops there too) */
static const uint8_t *op_end(const uint8_t *p, const uint8_t *e, unsigned int addr_size,
			     unsigned int off_size)
{
	uint8_t op = *p++;
	uint64_t v;

#define ULEB() do { if (!lbtfi_dw_leb_next(&p, e, &v)) return NULL; } while (0)
	switch (op) {
	case DW_OP_addr:
		p += addr_size;
		break;
	case DW_OP_const1u: case DW_OP_const1s: case DW_OP_pick: case DW_OP_deref_size:
	case DW_OP_xderef_size:
		p += 1;
		break;
	case DW_OP_const2u: case DW_OP_const2s: case DW_OP_skip: case DW_OP_bra: case DW_OP_call2:
		p += 2;
		break;
	case DW_OP_const4u: case DW_OP_const4s: case DW_OP_call4: case DW_OP_GNU_parameter_ref:
		p += 4;
		break;
	case DW_OP_const8u: case DW_OP_const8s:
		p += 8;
		break;
	case DW_OP_call_ref: case DW_OP_GNU_variable_value:
		p += off_size;
		break;
	case DW_OP_constu: case DW_OP_consts: case DW_OP_plus_uconst: case DW_OP_regx:
	case DW_OP_fbreg: case DW_OP_piece: case DW_OP_addrx: case DW_OP_constx:
	case DW_OP_GNU_addr_index: case DW_OP_GNU_const_index: case DW_OP_convert:
	case DW_OP_GNU_convert: case DW_OP_reinterpret: case DW_OP_GNU_reinterpret:
	case DW_OP_breg0 ... DW_OP_breg31:
		ULEB();
		break;
	case DW_OP_bregx: case DW_OP_bit_piece: case DW_OP_regval_type: case DW_OP_GNU_regval_type:
		ULEB();
		ULEB();
		break;
	case DW_OP_deref_type: case DW_OP_GNU_deref_type: case DW_OP_xderef_type:
		p += 1;
		ULEB();
		break;
	case DW_OP_implicit_pointer: case DW_OP_GNU_implicit_pointer:
		p += off_size;
		ULEB();
		break;
	case DW_OP_implicit_value: case DW_OP_entry_value: case DW_OP_GNU_entry_value:
		if (!lbtfi_dw_leb_next(&p, e, &v) || v > (uint64_t)(e - p))
			return NULL;
		p += v;
		break;
	case DW_OP_const_type: case DW_OP_GNU_const_type:
		ULEB();
		if (p >= e)
			return NULL;
		p += 1 + *p;
		break;
	default:
		/* the one-byte operations (DW_OP_reg*, DW_OP_lit*, arithmetic,
		 * DW_OP_stack_value, ...); the rest are reserved or unknown */
		if (op < DW_OP_addr || op == 0x04 || op == 0x05 || op == 0x07 ||
		    (op > DW_OP_reinterpret && op != DW_OP_GNU_push_tls_address &&
		     op != DW_OP_GNU_uninit))
			return NULL;
		break;
	}
#undef ULEB
	return p <= e ? p : NULL;
}

struct parm_loc {
	int reg;          /* DW_OP_regN, or -1 */
	int n;            /* expressions seen */
	uint64_t size;    /* of the parameter's type */
	unsigned int addr_size, off_size;
};

static bool is_reg(uint8_t op)
{
	return op >= DW_OP_reg0 && op <= DW_OP_reg31;
}

static bool is_breg(uint8_t op)
{
	return op >= DW_OP_breg0 && op <= DW_OP_breg31;
}

static void set_reg(struct parm_loc *l, int reg)
{
	if (l->reg < 0)
		l->reg = reg;
}

/* An expression of several operations (see the top) */
static void multi_ops(struct parm_loc *l, const uint8_t *const *ops, int nops, int loc)
{
	uint8_t first = *ops[0];

	if ((first >= DW_OP_lit0 && first <= DW_OP_lit31) || first == DW_OP_constu ||
	    first == DW_OP_consts)
		return;
	if (l->size <= SLOT) {
		if (loc)
			return;
		if (is_reg(first)) {
			set_reg(l, first);
		} else if (is_breg(first)) {
			for (int i = 1; i < nops; i++)
				if (*ops[i] == DW_OP_stack_value)
					set_reg(l, first - DW_OP_breg0 + DW_OP_reg0);
		}
		return;
	}
	/* a larger value in pieces: the first register of any of them */
	for (int i = 0; i < nops; i++)
		if (is_reg(*ops[i]))
			set_reg(l, *ops[i]);
}

/* One location expression of a parameter: its register, if it names one */
static void parm_expr(struct parm_loc *l, const uint8_t *p, uint64_t len)
{
	const uint8_t *ops[MAX_OPS], *e = p + len, *q;
	int nops = 0, loc = l->n++;
	uint64_t n;
	bool stack_value;

	while (p < e) {
		if (nops == MAX_OPS)
			return;
		ops[nops++] = p;
		if (!(p = op_end(p, e, l->addr_size, l->off_size)))
			return;
	}
	if (!nops)
		return;
	stack_value = *ops[nops - 1] == DW_OP_stack_value;
	if (nops == 2 && stack_value)
		nops = 1;
	if (nops != 1) {
		multi_ops(l, ops, nops, loc);
		return;
	}
	q = ops[0];
	if (is_reg(*q)) {
		if (!loc)
			set_reg(l, *q);
	} else if (is_breg(*q)) {
		if (!loc && stack_value)
			set_reg(l, *q - DW_OP_breg0 + DW_OP_reg0);
	} else if (*q == DW_OP_entry_value || *q == DW_OP_GNU_entry_value) {
		q++;
		if (lbtfi_dw_leb_next(&q, e, &n) && n == 1 && q < e && is_reg(*q))
			set_reg(l, *q);
	}
}

/* The list's expressions until one names the register: the first met is
 * the parameter's (set_reg keeps it), so the rest of a list (most of a
 * kernel's lists are long: a parameter moves as the function runs) cannot
 * change it and is not decoded */
static bool scan_loc(const uint8_t *p, uint64_t len, void *ctx)
{
	struct parm_loc *l = ctx;

	parm_expr(l, p, len);
	return l->reg < 0;
}

/* What funcs_abi reads of one parameter DIE: its attributes are gathered
 * once (read_parm), its type's size and register read from them when some
 * parameter of the instance has a location (parm_where) */
struct parm {
	bool has_loc;
	bool has_key;     /* it names its origin, whose key is key */
	bool has_type;
	int reg;
	uint64_t size;    /* before parm_where: the size known from BTF, or 0 */
	uint64_t key;
	struct lbtfi_dw_attr type, loc;
};

/*
 * The byte size of BTF type id, where it is the one the DWARF type's size
 * (lbtfi_dw_type_size) would give for sure: through typedefs and
 * qualifiers to a pointer, a float, an int that keeps its DWARF size (all
 * its bits: an odd-sized one is rounded up, with fewer bits), a struct or
 * union with a size; else 0, and the DWARF is asked. Types the converter
 * changes (enums of odd sizes, arrays, blobs) are never taken from BTF.
 * A parameter's type converted to BTF already costs a record lookup or
 * two here, against reading the DWARF type chain again.
 */
static uint64_t btf_size(struct lbtf_builder *b, uint32_t id, unsigned int addr_size)
{
	for (int guard = 0; id && guard < 32; guard++) {
		const struct lbtf_type *t = lbtf_builder_type_by_id(b, id);

		if (!t)
			return 0;
		switch (lbtf_kind(t)) {
		case LBTF_KIND_TYPEDEF: case LBTF_KIND_CONST: case LBTF_KIND_VOLATILE:
		case LBTF_KIND_RESTRICT: case LBTF_KIND_TYPE_TAG:
			id = t->type;
			continue;
		case LBTF_KIND_PTR:
			return addr_size;
		case LBTF_KIND_INT:
			return lbtf_int_bits(t) == t->size * 8 && !lbtf_int_offset(t) ? t->size : 0;
		case LBTF_KIND_FLOAT: case LBTF_KIND_STRUCT: case LBTF_KIND_UNION:
			return t->size;
		default:
			return 0;
		}
	}
	return 0;
}

/* size: the one known from BTF, or 0 (its type is then read, through its
 * origin: a copy's parameter has its type there) */
static void read_parm(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *d, uint64_t size, struct parm *pm)
{
	struct lbtfi_dw_attrs da;

	lbtfi_dr_attrs(u->rd, d, &da, false);
	pm->has_loc = da.own >> DA_LOCATION & 1;
	pm->has_key = (da.own >> DA_ORIGIN & 1) && lbtfi_dr_ref_key(&da.a[DA_ORIGIN], &pm->key);
	pm->reg = -1;
	pm->size = size;
	pm->has_type = false;
	if (pm->has_loc)
		pm->loc = da.a[DA_LOCATION];
	if (size)
		return;
	/* (a parameter of an abstract instance, the most numerous, has no
	 * origin: nothing to follow) */
	lbtfi_dr_integrate(u->rd, &da);
	pm->has_type = da.have >> DA_TYPE & 1;
	if (pm->has_type)
		pm->type = da.a[DA_TYPE];
}

/* Its type's size (unless known) and, when it has a location, its register */
static void parm_where(struct lbtfi_dw_unit *u, struct parm *pm)
{
	struct parm_loc l = { .reg = -1 };

	if (!pm->size)
		pm->size = lbtfi_dw_type_size(u, pm->has_type ? &pm->type : NULL);
	if (pm->has_loc) {
		l.size = pm->size;
		l.addr_size = pm->loc.u->h->addr_size;
		l.off_size = pm->loc.u->h->offset_size;
		lbtfi_dr_loc_exprs(&pm->loc, scan_loc, &l);
	}
	pm->reg = l.reg;
}

static uint32_t slots(uint64_t size)
{
	return size <= SLOT ? 1 : (uint32_t)((size + SLOT - 1) / SLOT);
}

/* The ABI registers of parameters ps[0..n) against what they hold: sets
 * *unexpected, *optimized (see the top), and in drop the parameters a
 * true signature leaves out of a reordered copy */
static void check_parms(const struct parm *ps, uint32_t n, const int *regs, int nregs,
			bool clang, bool *unexpected, bool *optimized, uint64_t *drop)
{
	uint32_t r = 0;

	for (uint32_t i = 0; i < n; i++) {
		const struct parm *pm = &ps[i];
		bool in_memory = pm->size > 2 * SLOT, opt = false;
		uint32_t s = slots(pm->size);

		if (clang) {
			if (!pm->has_loc)
				*optimized = true, opt = true;
			if (!in_memory && r < (uint32_t)nregs) {
				bool in_window = false;

				for (uint32_t k = 0; k < s && r + k < (uint32_t)nregs; k++)
					in_window |= pm->reg == regs[r + k];
				if (pm->reg >= 0 && !in_window)
					*unexpected = true;
				r += s;
			}
		} else if (pm->has_loc) {
			if (r >= (uint32_t)nregs)
				continue; /* no register consumed */
			if (pm->reg < 0)
				opt = true;
			else if (pm->reg != regs[r])
				*unexpected = true;
			r += in_memory ? 1 : s;
		} else {
			opt = true;
			r += in_memory ? 1 : s;
		}
		if (opt) {
			*optimized = true;
			if (drop && i < 64)
				*drop |= 1ull << i;
		}
	}
}

void lbtfi_dw_abi_facts(struct lbtfi_dw_unit *u, const struct lbtfi_dw_attrs *da, struct lbtfi_dw_die *params,
			uint32_t n, uint32_t proto, const int *regs, int nregs, struct lbtfi_dw_abi *out)
{
	const struct lbtf_type *pt = lbtf_builder_type_by_id(u->b, proto);
	const struct lbtf_param *bp = pt && lbtf_kind(pt) == LBTF_KIND_FUNC_PROTO &&
				      lbtf_vlen(pt) >= n ? lbtf_params(pt) : NULL;
	unsigned int addr_size = u->cu->h->addr_size;
	struct parm ps[MAX_PARMS], ops[MAX_PARMS];
	struct lbtfi_dw_die odies[MAX_PARMS];
	uint32_t no = 0, i, j;
	int map[MAX_PARMS];
	struct lbtfi_dw_attr origin;
	struct lbtfi_dw_die o, c;
	bool ignored = false, located = false;

	memset(out, 0, sizeof(*out));
	if (n > MAX_PARMS)
		n = MAX_PARMS;
	for (i = 0; i < n; i++) {
		read_parm(u, &params[i], bp ? btf_size(u->b, bp[i].type, addr_size) : 0, &ps[i]);
		located |= ps[i].has_loc;
	}
	/* (sizes and registers count only when a parameter has a location:
	 * not in abstract instances, the most numerous) */
	for (i = 0; located && i < n; i++)
		parm_where(u, &ps[i]);
	check_parms(ps, n, regs, nregs, u->producer_clang, &out->unexpected, &out->optimized,
		    &out->drop);
	/* a copy: where its origin has each of its parameters */
	if (!(da->own >> DA_ORIGIN & 1))
		return;
	origin = da->a[DA_ORIGIN];
	if (!lbtfi_dr_ref(u->rd, &origin, &o) || !lbtfi_dr_child(&o, &c))
		return;
	do {
		if (lbtfi_dr_tag(&c) == DW_TAG_formal_parameter && no < MAX_PARMS)
			odies[no++] = c;
	} while (lbtfi_dr_sibling(&c));
	for (i = 0; i < n; i++) {
		map[i] = -1;
		if (!ps[i].has_key)
			continue;
		for (j = 0; j < no && lbtfi_dr_key(&odies[j]) != ps[i].key; j++)
			;
		if (j == no)
			continue;
		map[i] = (int)j;
		if (j != i)
			out->reordered = true;
	}
	if (!out->reordered)
		return;
	/* the origin read with this copy's locations: its types, and where
	 * the copy has each parameter */
	for (j = 0; j < no; j++) {
		read_parm(u, &odies[j], 0, &ops[j]);
		ops[j].has_loc = false;
		parm_where(u, &ops[j]);
	}
	for (i = 0; i < n; i++)
		if (map[i] >= 0) {
			ops[map[i]].has_loc = ps[i].has_loc;
			ops[map[i]].reg = ps[i].reg;
		}
	check_parms(ops, no, regs, nregs, u->producer_clang, &out->origin_unexpected, &ignored,
		    NULL);
}
