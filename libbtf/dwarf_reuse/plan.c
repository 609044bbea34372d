// SPDX-License-Identifier: BSD-2-Clause
/*
 * Hashing plans (struct lbtfi_dw_plan): a signature (sig.c) hashes ~8
 * million DIEs of a kernel, most of them members, enumerators and
 * parameters of a few abbreviations per unit. Reading each attribute
 * through the accessors decides its form, its slot and its byte order
 * again for every DIE; a plan decides them once per abbreviation, and a
 * DIE then hashes as a few loads and mixes at fixed places.
 *
 * A plan only changes how the words are read, never which words: each
 * kind below gives exactly what sig.c's mix_attr gives for that form, and
 * everything else is LBTFI_PLAN_ANY (mix_attr itself). So a DIE hashes the
 * same with a plan, with a plan made for another unit's abbreviation of
 * other forms, or without one, and the 128-bit signatures keep their
 * strength: nothing of what they hash is dropped or merged.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* The kind for want w of an abbreviation of unit u */
static enum lbtfi_dw_plan_kind kind_of(const struct lbtfi_dr_unit *u, const struct lbtfi_dr_want *w)
{
	bool le = !u->f->big_endian;

	if (w->off < 0 || w->off > UINT16_MAX)
		return LBTFI_PLAN_ANY;
	switch (w->slot) {
	case DA_NAME: /* (lbtfi_dr_string's own fast case) */
		return w->form == DW_FORM_strp && u->h->offset_size == 4 && le ? LBTFI_PLAN_STRP4 :
										 LBTFI_PLAN_ANY;
	case DA_TYPE:
		return w->form == DW_FORM_ref4 && le ? LBTFI_PLAN_REF4 : LBTFI_PLAN_ANY;
	}
	switch (w->form) {
	case DW_FORM_data1: return LBTFI_PLAN_DATA1;
	case DW_FORM_data2: return le ? LBTFI_PLAN_DATA2 : LBTFI_PLAN_ANY;
	case DW_FORM_data4: return le ? LBTFI_PLAN_DATA4 : LBTFI_PLAN_ANY;
	case DW_FORM_data8: return le ? LBTFI_PLAN_DATA8 : LBTFI_PLAN_ANY;
	case DW_FORM_flag: return LBTFI_PLAN_FLAG;
	case DW_FORM_flag_present: return LBTFI_PLAN_FLAG_PRESENT;
	default: return LBTFI_PLAN_ANY;
	}
}

/* The word of op, a value's (not a name's or type's), when its
 * abbreviation ab gives it: a flag_present, or an implicit_const as
 * sig.c's mix_value hashes it in one word */
static bool word_known(const struct lbtfi_dr_abbrev *ab, const struct lbtfi_dw_plan_op *op, uint64_t *w)
{
	const struct lbtfi_dr_want *want;

	if (op->kind == LBTFI_PLAN_FLAG_PRESENT) {
		*w = lbtfi_dw_sig_flag_word(true);
		return true;
	}
	if (op->kind != LBTFI_PLAN_ANY)
		return false;
	want = &ab->want[op->arg];
	if (want->form != DW_FORM_implicit_const || want->slot == DA_NAME || want->slot == DA_TYPE ||
	    want->implicit < 0 || (uint64_t)want->implicit >= LBTFI_DW_SIG_SMALL)
		return false;
	*w = lbtfi_dw_sig_const_word(0xc0, (uint64_t)want->implicit);
	return true;
}

/* pl's fixed form (struct lbtfi_dw_plan), when its abbreviation ab and its
 * ops have one (the ops by ascending slot: a name's comes first, a type's
 * next) */
static void compile_fixed(const struct lbtfi_dr_abbrev *ab, struct lbtfi_dw_plan *pl)
{
	unsigned int i = 0, n = 0;
	uint8_t fixed = LBTFI_PLAN_FIXED;

	pl->fixed = 0;
	pl->nconst = 0;
	pl->cwide = 0;
	pl->cknown = 0;
	if (ab->nvar) /* (variable-size attributes, or not compiled) */
		return;
	if (i < pl->nops && pl->op[i].kind == LBTFI_PLAN_STRP4) {
		pl->name_off = pl->op[i++].arg;
		fixed |= LBTFI_PLAN_FIXED_NAME;
	}
	if (i < pl->nops && pl->op[i].kind == LBTFI_PLAN_REF4) {
		pl->type_off = pl->op[i++].arg;
		fixed |= LBTFI_PLAN_FIXED_TYPE;
	}
	for (; i < pl->nops; i++, n++) {
		pl->coff[n] = pl->op[i].arg; /* (a want, not an offset, for a word known) */
		if (word_known(ab, &pl->op[i], &pl->cword[n]))
			pl->cknown |= (uint16_t)(1u << n);
		else if (pl->op[i].kind == LBTFI_PLAN_DATA2)
			pl->cwide |= (uint16_t)(1u << n);
		else if (pl->op[i].kind != LBTFI_PLAN_DATA1)
			return;
	}
	_Static_assert(DA_LOWER_BOUND + 1 <= 16, "a bit of cwide and cknown per constant");
	pl->nconst = (uint8_t)n;
	pl->fixed = fixed;
}

void lbtfi_dw_plan_compile(const struct lbtfi_dr_unit *u, const struct lbtfi_dr_abbrev *ab,
			   struct lbtfi_dw_plan *pl)
{
	unsigned int i;

	pl->ab = ab;
	pl->nops = ab->ntypeslots;
	pl->shape = ab->tag | (uint64_t)ab->children << 16 |
		    (uint64_t)(ab->slots & LBTFI_DW_HASHED_SLOTS) << 32;
	for (i = 0; i < ab->ntypeslots; i++) {
		const struct lbtfi_dr_want *w = &ab->want[ab->byslot[i]];
		struct lbtfi_dw_plan_op *op = &pl->op[i];

		op->kind = (uint8_t)kind_of(u, w);
		op->seg = w->seg;
		op->arg = op->kind == LBTFI_PLAN_ANY ? ab->byslot[i] : (uint16_t)w->off;
	}
	compile_fixed(ab, pl);
}

void lbtfi_dw_plans_use(struct lbtfi_dw_plans *ps, const struct lbtfi_dr_unit *u)
{
	if (ps->h == u->h)
		return;
	ps->h = u->h;
	ps->last_ab = NULL;
	if (++ps->gen == 0) {
		if (ps->p)
			memset(ps->p, 0, (size_t)ps->cap * sizeof(*ps->p));
		ps->gen = 1;
	}
	/* room for every abbreviation of the unit now: a plan in use (a
	 * DIE's, while the references it hashes make plans) never moves.
	 * Out of memory, the table keeps its size: tmp serves beyond it. */
	if (u->nbyc > ps->cap) {
		size_t cap = ps->cap;
		void *p = ps->p;
		int err = lbtfi_grow(&p, &cap, u->nbyc, sizeof(*ps->p));

		ps->p = p;
		if (!err && cap <= UINT32_MAX) {
			memset(ps->p + ps->cap, 0, (cap - ps->cap) * sizeof(*ps->p));
			ps->cap = (uint32_t)cap;
		}
	}
}

const struct lbtfi_dw_plan *lbtfi_dw_plan_make(struct lbtfi_dw_plans *ps, const struct lbtfi_dw_die *die,
					       struct lbtfi_dw_plan *tmp)
{
	const struct lbtfi_dr_unit *u = die->u;
	uintptr_t i = ((uintptr_t)die->ab - (uintptr_t)u->byc) / sizeof(*die->ab);
	struct lbtfi_dw_plan *pl = tmp;

	ps->last_ab = NULL; /* (an entry may change) */
	if (u->h == ps->h && i < u->nbyc && i < ps->cap && &u->byc[i] == die->ab)
		pl = &ps->p[i];
	lbtfi_dw_plan_compile(u, die->ab, pl);
	pl->gen = ps->gen;
	return pl;
}

void lbtfi_dw_plans_free(struct lbtfi_dw_plans *ps)
{
	free(ps->p);
	memset(ps, 0, sizeof(*ps));
}
