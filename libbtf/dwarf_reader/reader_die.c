// SPDX-License-Identifier: BSD-2-Clause
/*
 * The reader's DIEs: walking the tree (first child, next sibling), gathering
 * a DIE's attributes in one pass, and decoding attribute values by form.
 * Every read is bounded by the end of the DIE's unit; a malformed entry ends
 * the walk and is remembered in lbtfi_dr_bad_off for the caller to report.
 */
#include <dwarf.h>
#include "internal.h"

static void bad(const struct lbtfi_dr_unit *u, const uint8_t *at)
{
	if (lbtfi_dr_bad_off == UINT64_MAX)
		lbtfi_dr_bad_off = (uint64_t)(at - u->info) | u->key_base;
}

/* Decode the entry at p: 1 a DIE, 0 the null entry (after it in *next), -1 bad.
 * (Inline, with the one-byte abbreviation code first: it runs for every
 * DIE a walk passes.) */
static inline int decode_entry(const struct lbtfi_dr_unit *u, const uint8_t *p, struct lbtfi_dw_die *out,
			       const uint8_t **next)
{
	const struct lbtfi_dr_abbrev *ab;
	const uint8_t *q = p;
	uint64_t code;

	if (p < u->end && *p < 0x80)
		code = *q++;
	else if (!lbtfi_dr_uleb(&q, u->end, &code))
		return -1;
	if (!code) {
		*next = q;
		return 0;
	}
	if (code > u->nbyc || !(ab = &u->byc[code - 1])->specs)
		return -1;
	out->u = u;
	out->ab = ab;
	out->p = q;
	out->off = p - u->info;
	out->end = NULL; /* (found when needed: attrs_end, gather) */
	return 1;
}

int lbtfi_dr_die_in_unit(const struct lbtfi_dr_unit *u, uint64_t off, struct lbtfi_dw_die *out)
{
	const uint8_t *next;

	if (off < u->h->die_off || off >= u->h->end)
		return -1;
	return decode_entry(u, u->info + off, out, &next) == 1 ? 0 : -1;
}

/* Size of the value of form at p (variable-size forms decoded); -1 bad */
static int64_t value_size(const struct lbtfi_dr_unit *u, unsigned int form, const uint8_t *p,
			  const uint8_t *e)
{
	const uint8_t *q = p;
	uint64_t v;
	int sz;

	switch (form) {
	case DW_FORM_block1:
		return p < e ? 1 + (int64_t)p[0] : -1;
	case DW_FORM_block2:
		return e - p >= 2 ? 2 + (int64_t)lbtfi_dr_read(u->f->big_endian, p, 2) : -1;
	case DW_FORM_block4:
		return e - p >= 4 ? 4 + (int64_t)lbtfi_dr_read(u->f->big_endian, p, 4) : -1;
	case DW_FORM_block:
	case DW_FORM_exprloc:
		if (!lbtfi_dr_uleb(&q, e, &v) || v > (uint64_t)(e - q))
			return -1;
		return (q - p) + (int64_t)v;
	case DW_FORM_string: {
		const uint8_t *z = memchr(p, 0, e - p);

		return z ? z - p + 1 : -1;
	}
	case DW_FORM_indirect:
		if (!lbtfi_dr_uleb(&q, e, &v) || v == DW_FORM_indirect || v == DW_FORM_implicit_const)
			return -1;
		sz = lbtfi_dr_form_size(u->h, v);
		if (sz == -2)
			return -1;
		if (sz >= 0)
			return (q - p) + sz;
		{
			int64_t in = value_size(u, v, q, e);

			return in < 0 ? -1 : (q - p) + in;
		}
	default: /* LEB128 forms */
		if (!lbtfi_dr_uleb(&q, e, &v))
			return -1;
		return q - p;
	}
}

/* Bytes the value of spec s takes at p (before e), or -1 when malformed */
static int64_t spec_size(const struct lbtfi_dr_unit *u, const struct lbtfi_dr_spec *s, const uint8_t *p,
			 const uint8_t *e)
{
	int64_t sz = s->size >= 0 ? s->size : value_size(u, s->form, p, e);

	return sz <= e - p ? sz : -1;
}

/* decode_entry that remembers a malformed entry in lbtfi_dr_bad_off */
static inline int next_entry(const struct lbtfi_dr_unit *u, const uint8_t *p, struct lbtfi_dw_die *out,
		      const uint8_t **next)
{
	int r = decode_entry(u, p, out, next);

	if (r < 0)
		bad(u, p);
	return r;
}

/* Bytes of a variable-size value of form at p (before e), or -1 */
static inline int64_t var_size(const struct lbtfi_dr_unit *u, unsigned int form, const uint8_t *p,
			       const uint8_t *e)
{
	const uint8_t *q = p;

	switch (form) {
	case DW_FORM_string:
		while (q < e && *q)
			q++;
		return q < e ? q - p + 1 : -1;
	case DW_FORM_sdata: case DW_FORM_udata: case DW_FORM_ref_udata: case DW_FORM_strx:
	case DW_FORM_addrx: case DW_FORM_loclistx: case DW_FORM_rnglistx:
	case DW_FORM_GNU_addr_index: case DW_FORM_GNU_str_index:
		while (q < e && (*q & 0x80))
			q++;
		return q < e ? q - p + 1 : -1;
	case DW_FORM_exprloc:
	case DW_FORM_block1:
		/* (a location of fewer than 128 bytes, as nearly every
		 * parameter's and variable's: its length in one byte) */
		if (q < e && *q < 0x80)
			return *q < e - q ? *q + 1 : -1;
		return value_size(u, form, p, e);
	default:
		return value_size(u, form, p, e);
	}
}

/*
 * Place the segments of d's attributes (struct lbtfi_dr_abbrev): seg[k] is where
 * segment k starts. The end of the attributes, or NULL when they run past
 * the unit. Not for LBTFI_DR_GENERIC abbreviations.
 */
static inline const uint8_t *locate(const struct lbtfi_dw_die *d, const uint8_t **seg)
{
	const struct lbtfi_dr_abbrev *ab = d->ab;
	const uint8_t *p = d->p, *e = d->u->end;
	unsigned int k;

	for (k = 0; k < ab->nvar; k++) {
		const struct lbtfi_dr_var *v = &ab->var[k];
		int64_t sz;

		seg[k] = p;
		if (v->gap > e - p)
			return NULL;
		p += v->gap;
		sz = var_size(d->u, v->form, p, e);
		if (sz < 0 || sz > e - p)
			return NULL;
		p += sz;
	}
	seg[k] = p;
	return ab->tail <= e - p ? p + ab->tail : NULL;
}

bool lbtfi_dr_place_slow(struct lbtfi_dw_die *d, const uint8_t **seg)
{
	const struct lbtfi_dr_abbrev *ab = d->ab;
	const uint8_t *p = d->p, *e = d->u->end;

	if (!ab->nvar) {
		seg[0] = p;
		d->end = ab->tail <= e - p ? p + ab->tail : NULL;
	} else {
		d->end = locate(d, seg);
	}
	if (!d->end)
		bad(d->u, d->p);
	return d->end;
}

/* End of d's attributes, or NULL when malformed (d->end not known yet) */
static const uint8_t *attrs_end_slow(struct lbtfi_dw_die *d)
{
	const uint8_t *p = d->p, *e = d->u->end;
	uint16_t i;

	if (d->ab->nvar != LBTFI_DR_GENERIC) {
		const uint8_t *seg[LBTFI_DR_MAX_VAR + 1];

		if (!(d->end = locate(d, seg)))
			bad(d->u, d->p);
		return d->end;
	}
	for (i = 0; i < d->ab->nspecs; i++) {
		int64_t sz = spec_size(d->u, &d->ab->specs[i], p, e);

		if (sz < 0) {
			bad(d->u, d->p);
			return NULL;
		}
		p += sz;
	}
	d->end = p;
	return p;
}

static inline const uint8_t *attrs_end(struct lbtfi_dw_die *d)
{
	if (d->end)
		return d->end;
	if (!d->ab->nvar && d->ab->tail <= d->u->end - d->p)
		return d->end = d->p + d->ab->tail; /* every size fixed */
	return attrs_end_slow(d);
}

bool lbtfi_dr_child_slow(struct lbtfi_dw_die *d, struct lbtfi_dw_die *out)
{
	const uint8_t *p, *next;

	if (!d->ab->children || !(p = attrs_end(d)))
		return false;
	return next_entry(d->u, p, out, &next) == 1;
}

/*
 * A struct's members and an enum's values are converted one after the
 * other, each name read (checked, then hashed into the builder's strings)
 * where .debug_str has it: a kernel's is 3.6 MB, read in no order, and
 * each name was a cache miss of its own, one after the other (~90 ns a
 * name, 770k names, 4% of a vmlinux run's samples in the name check). The
 * names of the children are started here, before the first is read, so
 * that their misses overlap. Nothing malformed is noted (the walk that
 * follows meets it in its own order).
 */
void lbtfi_dr_prefetch_child_names(struct lbtfi_dw_die *d, uint32_t max)
{
	const struct lbtfi_dr_file *f = d->u->f;
	unsigned int osz = d->u->h->offset_size;
	uint64_t bad_before = lbtfi_dr_bad_off;
	struct lbtfi_dw_die c;

	if (!max || !lbtfi_dr_child(d, &c))
		goto out;
	do {
		const struct lbtfi_dr_abbrev *ab = c.ab;
		const uint8_t *seg[LBTFI_DR_MAX_VAR + 1];
		const struct lbtfi_dr_want *w;
		uint64_t off;

		if (ab->nvar == LBTFI_DR_GENERIC || !(ab->slots >> DA_NAME & 1) || !lbtfi_dr_place(&c, seg))
			continue;
		/* (byslot lists the wants by ascending slot: the name's first) */
		w = &ab->want[ab->byslot[0]];
		if (w->form != DW_FORM_strp)
			continue;
		off = lbtfi_dr_read(f->big_endian, seg[w->seg] + w->off, osz);
		if (off < f->s[DS_STR].len)
			__builtin_prefetch(f->s[DS_STR].p + off);
	} while (--max && lbtfi_dr_sibling(&c));
out:
	lbtfi_dr_bad_off = bad_before;
}

/* Position after d and all its descendants */
static const uint8_t *subtree_end(struct lbtfi_dw_die *d)
{
	const uint8_t *p = attrs_end(d), *next;
	uint32_t depth = d->ab->children;
	struct lbtfi_dw_die c;

	while (p && depth) {
		int r = next_entry(d->u, p, &c, &next);

		if (r < 0)
			return NULL;
		if (!r) {
			depth--;
			p = next;
			continue;
		}
		p = attrs_end(&c);
		depth += c.ab->children;
	}
	return p;
}

/*
 * The subtrees walked over by subtree_end while a unit is converted
 * (lbtfi_dr_memo_begin/end), by the DIE's unit and offset: a function's
 * children are stepped over twice, for its parameters (func_proto) and by
 * the unit's walk, and a child without DW_AT_sibling (a function's or a
 * block's last: gcc writes none there; clang none at all) had its subtree
 * decoded DIE by DIE each time. Section offsets, not pointers: a unit read
 * again into another buffer has the same ones.
 */
#define MEMO_BITS 6

struct subtree_memo {
	const struct lbtfi_dr_unit_hdr *h;
	uint64_t off, next;
};

static LBTFI_TLS struct subtree_memo memo[1u << MEMO_BITS];
static LBTFI_TLS bool memo_on;

void lbtfi_dr_memo_begin(void)
{
	memset(memo, 0, sizeof(memo));
	memo_on = true;
}

void lbtfi_dr_memo_end(void)
{
	memo_on = false;
}

static const uint8_t *subtree_end_memo(struct lbtfi_dw_die *d)
{
	struct subtree_memo *m = &memo[(d->off * 0x9e3779b97f4a7c15ull) >> (64 - MEMO_BITS)];
	const uint8_t *p;

	if (!memo_on)
		return subtree_end(d);
	if (m->h == d->u->h && m->off == d->off)
		return d->u->info + m->next;
	p = subtree_end(d);
	if (p)
		*m = (struct subtree_memo){ d->u->h, d->off, (uint64_t)(p - d->u->info) };
	return p;
}

/* The DW_AT_sibling of d, when it has one that stays in its unit */
static const uint8_t *sibling_attr(struct lbtfi_dw_die *d)
{
	const uint8_t *p = d->p, *e = d->u->end;
	uint16_t i;

	for (i = 0; i < d->ab->nspecs; i++) {
		const struct lbtfi_dr_spec *s = &d->ab->specs[i];
		int64_t sz;

		if (s->off >= 0) /* every attribute before it has a fixed size */
			p = d->p + s->off;
		if (s->at == DW_AT_sibling) {
			struct lbtfi_dw_attr a = { s->form, p, 0, d->u };
			uint64_t v;

			if (s->size < 0 && s->form != DW_FORM_ref_udata)
				return NULL;
			if (s->size > e - p || !lbtfi_dr_udata_ref(&a, &v))
				return NULL;
			v += d->u->h->off;
			return v > d->off && v < d->u->h->end ? d->u->info + v : NULL;
		}
		if (s->off >= 0 && s->size >= 0)
			continue; /* (placed by its offset when needed) */
		if ((sz = spec_size(d->u, s, p, e)) < 0)
			return NULL;
		p += sz;
	}
	return NULL;
}

/* Where the entry after d (and its children) starts, or NULL */
static const uint8_t *after_children(struct lbtfi_dw_die *d)
{
	const struct lbtfi_dr_abbrev *ab = d->ab;
	const uint8_t *p = NULL;

	if (ab->sib_ref4 >= 0 && ab->sib_ref4 <= d->u->end - d->p - 4) {
		/* (gcc's DW_AT_sibling, at a fixed place) */
		uint64_t v = lbtfi_dr_read(d->u->f->big_endian, d->p + ab->sib_ref4, 4) + d->u->h->off;

		p = v > d->off && v < d->u->h->end ? d->u->info + v : NULL;
	} else if (ab->slots >> DA_SIBLING & 1) {
		p = sibling_attr(d);
	}
	return p ? p : subtree_end_memo(d);
}

bool lbtfi_dr_sibling_slow(struct lbtfi_dw_die *d)
{
	const struct lbtfi_dr_abbrev *ab = d->ab, *nab;
	const struct lbtfi_dr_unit *u = d->u;
	const uint8_t *p, *q;
	uint64_t code;

	if (ab->children)
		p = after_children(d);
	else if (!(p = d->end))
		p = !ab->nvar && ab->tail <= u->end - d->p ? d->p + ab->tail : attrs_end_slow(d);
	if (!p)
		return false;
	/* the next entry (decode_entry's, in place: d->u stays) */
	q = p;
	if (p < u->end && *p < 0x80)
		code = *q++;
	else if (!lbtfi_dr_uleb(&q, u->end, &code))
		goto bad;
	if (!code)
		return false;
	if (code > u->nbyc || !(nab = &u->byc[code - 1])->specs)
		goto bad;
	d->ab = nab;
	d->p = q;
	d->off = p - u->info;
	d->end = NULL;
	return true;
bad:
	bad(u, p);
	return false;
}

/* Attributes ---------------------------------------------------------------- */

static inline void put_attr(struct lbtfi_dw_attr *a, const struct lbtfi_dr_spec *s, const uint8_t *at,
			    const struct lbtfi_dr_unit *u)
{
	a->form = s->form;
	a->p = at;
	a->implicit = s->implicit;
	a->u = u;
}

/* The wanted attributes of an abbreviation without variable-size ones,
 * whose attributes start at p */
static inline void put_fixed(const struct lbtfi_dr_abbrev *ab, const struct lbtfi_dr_unit *u, const uint8_t *p,
			     struct lbtfi_dw_attrs *da)
{
	const struct lbtfi_dr_want *w = ab->want, *we = w + ab->nwant;

	for (; w < we; w++) {
		struct lbtfi_dw_attr *a = &da->a[w->slot];

		a->form = w->form;
		a->p = p + w->off;
		a->implicit = w->implicit;
		a->u = u;
	}
}

/* One pass over d's attributes into the slots of da */
static bool gather(struct lbtfi_dw_die *d, struct lbtfi_dw_attrs *da)
{
	const uint8_t *p = d->p, *e = d->u->end;
	const struct lbtfi_dr_abbrev *ab = d->ab;
	uint16_t i;

	if (ab->nvar != LBTFI_DR_GENERIC) {
		/* the variable-size attributes' sizes only, then each wanted
		 * one at its place */
		const struct lbtfi_dr_want *w = ab->want, *we = w + ab->nwant;
		const struct lbtfi_dr_unit *u = d->u;
		const uint8_t *seg[LBTFI_DR_MAX_VAR + 1], *end;

		if (!ab->nvar) {
			end = ab->tail <= e - p ? p + ab->tail : NULL;
			seg[0] = p;
		} else {
			end = locate(d, seg);
		}
		if (!end) {
			bad(d->u, d->p);
			da->have = 0;
			return false;
		}
		if (!ab->nvar) {
			put_fixed(ab, u, p, da);
		} else {
			for (; w < we; w++) {
				struct lbtfi_dw_attr *a = &da->a[w->slot];

				a->form = w->form;
				a->p = seg[w->seg] + w->off;
				a->implicit = w->implicit;
				a->u = u;
			}
		}
		da->have = ab->slots;
		d->end = end;
		return true;
	}
	da->have = 0;
	for (i = 0; i < ab->nspecs; i++) {
		const struct lbtfi_dr_spec *s = &ab->specs[i];
		int64_t sz = spec_size(d->u, s, p, e);

		if (sz < 0) {
			bad(d->u, d->p);
			da->have = 0;
			return false;
		}
		if (s->slot) {
			struct lbtfi_dw_attr *a = &da->a[s->slot - 1];

			put_attr(a, s, p, d->u);
			if (s->form == DW_FORM_indirect) {
				const uint8_t *q = p;
				uint64_t f = 0;

				lbtfi_dr_uleb(&q, e, &f);
				a->form = f;
				a->p = q;
			}
			da->have |= 1u << (s->slot - 1);
		}
		p += sz;
	}
	d->end = p;
	return true;
}

#define INTEGRATED (((1u << DA_NR) - 1) & ~(1u << DA_SIBLING | 1u << DA_ORIGIN | 1u << DA_SPEC | \
					      1u << DA_STR_OFFSETS_BASE | 1u << DA_ADDR_BASE | \
					      1u << DA_RNGLISTS_BASE))

void lbtfi_dr_gather(struct lbtfi_dw_die *d, struct lbtfi_dw_attrs *da)
{
	const struct lbtfi_dr_abbrev *ab = d->ab;

	/* (every attribute of a fixed size, as most DIEs have: here, where
	 * no call is made, rather than in gather, whose other paths keep
	 * more registers to save: ~17 instructions a DIE) */
	if (!ab->nvar && ab->tail <= d->u->end - d->p) {
		put_fixed(ab, d->u, d->p, da);
		d->end = d->p + ab->tail;
		da->have = da->own = ab->slots;
		return;
	}
	gather(d, da);
	da->own = da->have;
}

void lbtfi_dr_integrate_slow(struct lbtfi_dr_ctx *c, struct lbtfi_dw_attrs *da)
{
	struct lbtfi_dw_attrs g;
	struct lbtfi_dw_die next;
	int guard = 16;

	if (!(da->own & (1u << DA_ORIGIN | 1u << DA_SPEC)) || da->have != da->own)
		return; /* nothing to follow, or done already */
	/* libdw's dwarf_attr_integrate order: the abstract origin, else the
	 * specification, each of which may point further */
	g.have = da->have;
	g.a[DA_ORIGIN] = da->a[DA_ORIGIN];
	g.a[DA_SPEC] = da->a[DA_SPEC];
	while (guard-- && (g.have & (1u << DA_ORIGIN | 1u << DA_SPEC)) &&
	       lbtfi_dr_ref(c, &g.a[(g.have >> DA_ORIGIN & 1) ? DA_ORIGIN : DA_SPEC], &next)) {
		uint32_t add, s;

		if (!gather(&next, &g))
			break;
		add = g.have & INTEGRATED & ~da->have;
		for (s = 0; add >> s; s++)
			if (add >> s & 1)
				da->a[s] = g.a[s];
		da->have |= add;
	}
}

/* Values -------------------------------------------------------------------- */

bool lbtfi_dr_udata(const struct lbtfi_dw_attr *a, uint64_t *v)
{
	const uint8_t *q = a->p, *e = a->u->end;
	bool big_endian = a->u->f->big_endian;
	int64_t s;

	switch (a->form) {
	case DW_FORM_data1: *v = a->p[0]; return true;
	case DW_FORM_data2: *v = lbtfi_dr_read(big_endian, a->p, 2); return true;
	case DW_FORM_data4: *v = lbtfi_dr_read(big_endian, a->p, 4); return true;
	case DW_FORM_data8: *v = lbtfi_dr_read(big_endian, a->p, 8); return true;
	case DW_FORM_sec_offset: *v = lbtfi_dr_read(big_endian, a->p, a->u->h->offset_size); return true;
	case DW_FORM_udata: return lbtfi_dr_uleb(&q, e, v);
	case DW_FORM_sdata:
		if (!lbtfi_dr_sleb(&q, e, &s))
			return false;
		*v = (uint64_t)s;
		return true;
	case DW_FORM_implicit_const: *v = (uint64_t)a->implicit; return true;
	default: return false;
	}
}

bool lbtfi_dr_sdata(const struct lbtfi_dw_attr *a, int64_t *v)
{
	const uint8_t *q = a->p;
	uint64_t u;

	if (a->form == DW_FORM_sdata)
		return lbtfi_dr_sleb(&q, a->u->end, v);
	if (a->form == DW_FORM_implicit_const) {
		*v = a->implicit;
		return true;
	}
	if (a->form == DW_FORM_sec_offset || !lbtfi_dr_udata(a, &u))
		return false;
	*v = (int64_t)u;
	return true;
}

bool lbtfi_dr_negative(const struct lbtfi_dw_attr *a)
{
	int64_t v;

	return (a->form == DW_FORM_sdata || a->form == DW_FORM_implicit_const) && lbtfi_dr_sdata(a, &v) &&
	       v < 0;
}

bool lbtfi_dr_flag(const struct lbtfi_dw_attr *a)
{
	return a->form == DW_FORM_flag_present || (a->form == DW_FORM_flag && a->p[0]);
}

static const char *str_at(const struct lbtfi_dr_sect *s, uint64_t off)
{
	return off < s->len ? (const char *)s->p + off : NULL;
}

/* The index a strx or addrx form holds; false for other forms */
static bool index_operand(const struct lbtfi_dw_attr *a, uint64_t *idx)
{
	const uint8_t *q = a->p;
	bool big_endian = a->u->f->big_endian;

	switch (a->form) {
	case DW_FORM_strx1: case DW_FORM_addrx1: *idx = a->p[0]; return true;
	case DW_FORM_strx2: case DW_FORM_addrx2: *idx = lbtfi_dr_read(big_endian, a->p, 2); return true;
	case DW_FORM_strx3: case DW_FORM_addrx3: *idx = lbtfi_dr_read(big_endian, a->p, 3); return true;
	case DW_FORM_strx4: case DW_FORM_addrx4: *idx = lbtfi_dr_read(big_endian, a->p, 4); return true;
	case DW_FORM_strx: case DW_FORM_addrx: case DW_FORM_GNU_addr_index:
		return lbtfi_dr_uleb(&q, a->u->end, idx);
	default:
		return false;
	}
}

const char *lbtfi_dr_string_slow(const struct lbtfi_dw_attr *a)
{
	const struct lbtfi_dr_unit *u = a->u;
	const struct lbtfi_dr_file *f = u->f;
	bool big_endian = f->big_endian;
	uint64_t idx, off;
	unsigned int osz = u->h->offset_size;

	switch (a->form) {
	case DW_FORM_string:
		return (const char *)a->p;
	case DW_FORM_strp:
		return str_at(&f->s[DS_STR], lbtfi_dr_read(big_endian, a->p, osz));
	case DW_FORM_line_strp:
		return str_at(&f->s[DS_LINE_STR], lbtfi_dr_read(big_endian, a->p, osz));
	case DW_FORM_GNU_strp_alt:
	case DW_FORM_strp_sup:
		return f->alt_str ? str_at(f->alt_str, lbtfi_dr_read(big_endian, a->p, osz)) : NULL;
	case DW_FORM_strx1: case DW_FORM_strx2: case DW_FORM_strx3: case DW_FORM_strx4:
	case DW_FORM_strx:
		if (!index_operand(a, &idx))
			return NULL;
		break;
	default:
		return NULL;
	}
	off = u->str_offsets_base + idx * osz;
	if (idx > f->s[DS_STR_OFFSETS].len || off + osz > f->s[DS_STR_OFFSETS].len)
		return NULL;
	return str_at(&f->s[DS_STR], lbtfi_dr_read(big_endian, f->s[DS_STR_OFFSETS].p + off, osz));
}

bool lbtfi_dr_block(const struct lbtfi_dw_attr *a, const uint8_t **p, uint64_t *len)
{
	const uint8_t *q = a->p;

	switch (a->form) {
	case DW_FORM_block1: *len = q[0]; *p = q + 1; return true;
	case DW_FORM_block2: *len = lbtfi_dr_read(a->u->f->big_endian, q, 2); *p = q + 2; return true;
	case DW_FORM_block4: *len = lbtfi_dr_read(a->u->f->big_endian, q, 4); *p = q + 4; return true;
	case DW_FORM_block:
	case DW_FORM_exprloc:
		if (!lbtfi_dr_uleb(&q, a->u->end, len))
			return false;
		*p = q;
		return true;
	default:
		return false;
	}
}

uint64_t lbtfi_dr_read_addr(const struct lbtfi_dr_unit *u, const uint8_t *p)
{
	return lbtfi_dr_read(u->f->big_endian, p, u->h->addr_size);
}

bool lbtfi_dr_expr_uleb(const uint8_t *p, const uint8_t *e, uint64_t *v)
{
	return lbtfi_dr_uleb(&p, e, v) && p == e;
}

bool lbtfi_dr_addrx(const struct lbtfi_dr_unit *u, uint64_t idx, uint64_t *v)
{
	const struct lbtfi_dr_sect *s = &u->f->s[DS_ADDR];
	uint64_t off = u->addr_base + idx * u->h->addr_size;

	if (idx > s->len || off + u->h->addr_size > s->len)
		return false;
	*v = lbtfi_dr_read(u->f->big_endian, s->p + off, u->h->addr_size);
	return true;
}

bool lbtfi_dr_addr(const struct lbtfi_dw_attr *a, uint64_t *v)
{
	uint64_t idx;

	switch (a->form) {
	case DW_FORM_addr:
		*v = lbtfi_dr_read_addr(a->u, a->p);
		return true;
	case DW_FORM_addrx1: case DW_FORM_addrx2: case DW_FORM_addrx3: case DW_FORM_addrx4:
	case DW_FORM_addrx: case DW_FORM_GNU_addr_index:
		return index_operand(a, &idx) && lbtfi_dr_addrx(a->u, idx, v);
	default:
		return false;
	}
}

/* References ---------------------------------------------------------------- */

bool lbtfi_dr_udata_ref(const struct lbtfi_dw_attr *a, uint64_t *v)
{
	const uint8_t *q = a->p;

	switch (a->form) {
	case DW_FORM_ref1: *v = a->p[0]; return true;
	case DW_FORM_ref2: *v = lbtfi_dr_read(a->u->f->big_endian, a->p, 2); return true;
	case DW_FORM_ref4: *v = lbtfi_dr_read(a->u->f->big_endian, a->p, 4); return true;
	case DW_FORM_ref8: *v = lbtfi_dr_read(a->u->f->big_endian, a->p, 8); return true;
	case DW_FORM_ref_udata: return lbtfi_dr_uleb(&q, a->u->end, v);
	default: return false;
	}
}

/* Section offset of a reference's target and the file it is in; false for
 * what is not a (followable) reference */
static inline bool ref_target(const struct lbtfi_dw_attr *a, uint64_t *off,
			      const struct lbtfi_dr_file **file)
{
	const struct lbtfi_dr_unit *u = a->u;
	const struct lbtfi_dr_file *root = u->f->root;
	uint64_t sig;

	*file = u->f;
	if (a->form == DW_FORM_ref4) { /* (nearly every reference) */
		*off = lbtfi_dr_read(u->f->big_endian, a->p, 4) + u->h->off;
		return true;
	}
	if (lbtfi_dr_udata_ref(a, off)) {
		*off += u->h->off;
		return true;
	}
	switch (a->form) {
	case DW_FORM_ref_addr: /* (into .debug_info, also from .debug_types) */
		*off = lbtfi_dr_read(u->f->big_endian, a->p, lbtfi_dr_form_size(u->h, DW_FORM_ref_addr));
		if (u->f == root->types)
			*file = root;
		return true;
	case DW_FORM_GNU_ref_alt:
	case DW_FORM_ref_sup4:
	case DW_FORM_ref_sup8:
		*off = lbtfi_dr_read(u->f->big_endian, a->p, a->form == DW_FORM_ref_sup4 ? 4
						 : a->form == DW_FORM_ref_sup8 ? 8
						 : u->h->offset_size);
		*file = root->alt;
		return *file != NULL;
	case DW_FORM_ref_sig8: /* a type unit: DWARF 5 in .debug_info, 4 in .debug_types */
		sig = lbtfi_dr_read(u->f->big_endian, a->p, 8);
		*file = root;
		if (lbtfi_dr_sig_lookup(root, sig, off))
			return true;
		*file = root->types;
		return *file && lbtfi_dr_sig_lookup(*file, sig, off);
	default:
		return false;
	}
}

bool lbtfi_dr_ref_key_slow(const struct lbtfi_dw_attr *a, uint64_t *key)
{
	const struct lbtfi_dr_file *f;
	uint64_t off;

	if (!ref_target(a, &off, &f))
		return false;
	*key = off | f->key_base;
	return true;
}

bool lbtfi_dr_ref_slow(struct lbtfi_dr_ctx *c, const struct lbtfi_dw_attr *a, struct lbtfi_dw_die *out)
{
	const struct lbtfi_dr_file *f;
	uint64_t off;

	if (!ref_target(a, &off, &f))
		return false;
	if (f == a->u->f && off >= a->u->h->die_off && off < a->u->h->end)
		return lbtfi_dr_die_in_unit(a->u, off, out) == 0;
	return lbtfi_dr_die_at(c, f, off, out) == 0;
}
