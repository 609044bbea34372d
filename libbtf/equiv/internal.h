/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The rules of type equivalence, in one place (not installed). Dedup
 * (dedup/) applies them to BTF records; btfgen's reuse of types between
 * units (dwarf_reuse/reuse.c) applies them to DWARF DIEs before any BTF is
 * deduplicated, and must reach what dedup would: a rule changed here holds
 * for both.
 *
 *  - Named types are looked up by name and flavour: struct, union or enum
 *    (a FWD by its kind_flag, ENUM and ENUM64 alike).
 *  - A declaration (a FWD, an enum without values) and a definition of one
 *    name and flavour are equivalent: a struct/union FWD then resolves to
 *    the definition; an enum declaration matches any enum of its name,
 *    ENUM or ENUM64, of any size, and resolves to nothing in a graph walk
 *    (the primitive pass resolves it to the first full enum of the name).
 *  - Two definitions are equivalent only as one type: equal records, and
 *    for a struct/union, equivalent member types.
 *  - One definition rule: a pairing of a declaration with a definition
 *    holds for the whole input only when the name has one definition
 *    (struct and union share a name space, enums have their own); the
 *    table below says which names have several.
 *  - Member signatures: what a member's type is without ids; equivalent
 *    types always sign alike.
 */
#ifndef LIBBTF_EQUIV_INTERNAL_H
#define LIBBTF_EQUIV_INTERNAL_H

#include <string.h>
#include "builder/internal.h"

/* The name space of a named type */
enum lbtfi_flavor {
	LBTFI_FLAVOR_STRUCT,
	LBTFI_FLAVOR_UNION,
	LBTFI_FLAVOR_ENUM,
	LBTFI_FLAVOR_NONE,   /* any other kind */
};

/* A declaration: a FWD, or an enum without values */
static inline bool lbtfi_eq_is_decl(const struct lbtf_type *t)
{
	return lbtf_kind(t) == LBTF_KIND_FWD || (lbtf_is_enum(t) && !lbtf_vlen(t));
}

/* The flavour a struct, union, FWD or enum is named in */
static inline enum lbtfi_flavor lbtfi_eq_flavor(const struct lbtf_type *t)
{
	switch (lbtf_kind(t)) {
	case LBTF_KIND_STRUCT:
		return LBTFI_FLAVOR_STRUCT;
	case LBTF_KIND_UNION:
		return LBTFI_FLAVOR_UNION;
	case LBTF_KIND_FWD:
		return lbtf_kflag(t) ? LBTFI_FLAVOR_UNION : LBTFI_FLAVOR_STRUCT;
	case LBTF_KIND_ENUM:
	case LBTF_KIND_ENUM64:
		return LBTFI_FLAVOR_ENUM;
	default:
		return LBTFI_FLAVOR_NONE;
	}
}

/* A named struct, union or enum with values (what the one definition rule
 * counts) */
static inline bool lbtfi_eq_is_def(const struct lbtf_type *t)
{
	return t->name_off && lbtfi_eq_flavor(t) != LBTFI_FLAVOR_NONE && !lbtfi_eq_is_decl(t);
}

/* How two types of one name and flavour are equivalent */
enum lbtfi_eq_named {
	LBTFI_EQ_SAME,       /* two definitions: only as one type (compare them) */
	LBTFI_EQ_DECLS,      /* two declarations: equivalent */
	LBTFI_EQ_RESOLVES,   /* a struct/union FWD and a definition: equivalent,
			      * the FWD resolves to the definition */
	LBTFI_EQ_ENUM_DECL,  /* an enum declaration and an enum definition:
			      * equivalent, nothing resolved */
};

static inline enum lbtfi_eq_named lbtfi_eq_named(enum lbtfi_flavor flavor, bool a_decl, bool b_decl)
{
	if (!a_decl && !b_decl)
		return LBTFI_EQ_SAME;
	if (a_decl && b_decl)
		return LBTFI_EQ_DECLS;
	return flavor == LBTFI_FLAVOR_ENUM ? LBTFI_EQ_ENUM_DECL : LBTFI_EQ_RESOLVES;
}

/* A declaration paired with a definition: holds only under the one
 * definition rule (lbtfi_eq_defs) */
static inline bool lbtfi_eq_pairs_decl(enum lbtfi_eq_named r)
{
	return r == LBTFI_EQ_RESOLVES || r == LBTFI_EQ_ENUM_DECL;
}

/*
 * Two enums (ENUM or ENUM64): equivalent when of one name and either is a
 * declaration (never anonymous), or of one kind with equal records.
 */
static inline bool lbtfi_eq_enums(const struct lbtf_type *a, const struct lbtf_type *b)
{
	if (a->name_off != b->name_off)
		return false;
	switch (lbtfi_eq_named(LBTFI_FLAVOR_ENUM, !lbtf_vlen(a), !lbtf_vlen(b))) {
	case LBTFI_EQ_SAME:
		return a->info == b->info && !memcmp(a, b, lbtf_type_rec_size(a));
	default:
		return a->name_off != 0;
	}
}

/*
 * A cheap signature of what a member's type is, without ids, mixed into h:
 * the chain of kinds through pointers/modifiers/typedefs/arrays down to the
 * first named type (then its name) or an anonymous non-reference type.
 * Equivalent types always have equal signatures: a FWD signs as the
 * struct/union it stands for, ENUM64 as ENUM (an enum declaration matches
 * either). Dedup hashes struct members with it (without it, shapes such as
 * the kernel's 1600 anonymous "union { event; handler; }" would all collide
 * and be compared pairwise); the one definition check compares the shapes
 * of definitions with it (lbtfi_eq_def_shape).
 */
static inline uint32_t lbtfi_member_sig(const struct lbtf_builder *b, uint32_t id, uint32_t h)
{
	for (int hop = 0; hop < 8; hop++) {
		const struct lbtf_type *t = id >= b->start_id ? lbtfi_btype(b, id)
							      : lbtfi_builder_any_type(b, id);
		static const uint8_t flavor_kind[] = {
			[LBTFI_FLAVOR_STRUCT] = LBTF_KIND_STRUCT,
			[LBTFI_FLAVOR_UNION] = LBTF_KIND_UNION,
			[LBTFI_FLAVOR_ENUM] = LBTF_KIND_ENUM,
		};
		enum lbtfi_flavor f = lbtfi_eq_flavor(t);
		unsigned int k = f == LBTFI_FLAVOR_NONE ? lbtf_kind(t) : flavor_kind[f];

		h = lbtfi_hash_mix(h, k);
		if (t->name_off)
			return lbtfi_hash_mix(h, t->name_off);
		if (k == LBTF_KIND_ARRAY) {
			h = lbtfi_hash_mix(h, lbtf_array(t)->nelems);
			id = lbtf_array(t)->type;
		} else if (lbtf_is_mod(t) || k == LBTF_KIND_PTR) {
			id = t->type;
		} else {
			return lbtfi_hash_mix(h, lbtf_vlen(t));
		}
	}
	return h;
}

/* ---- the one definition rule (defs.c) ---- */

/* A value of the table that is neither an id nor a shape */
#define LBTFI_EQ_SEVERAL 0

/*
 * Names -> their one definition (a key: its id, or its shape), or
 * LBTFI_EQ_SEVERAL: structs and unions in one table (a FWD resolves only
 * to the one struct or union of its name, whichever kind), enums with
 * values in another.
 */
struct lbtfi_eq_defs {
	struct lbtfi_offmap aggr, enums;
};

int lbtfi_eq_defs_init(struct lbtfi_eq_defs *defs);
void lbtfi_eq_defs_free(struct lbtfi_eq_defs *defs);
/* Count t (ignored unless lbtfi_eq_is_def) with its key (never
 * LBTFI_EQ_SEVERAL): a second key for a name makes it several. <0 ENOMEM */
int lbtfi_eq_defs_add(struct lbtfi_eq_defs *defs, const struct lbtf_type *t, uint32_t key);
/* The key of a name's one definition of flavour f, LBTFI_EQ_SEVERAL for
 * several, false if none */
static inline bool lbtfi_eq_defs_get(const struct lbtfi_eq_defs *defs, uint32_t name_off,
				     enum lbtfi_flavor f, uint32_t *key)
{
	return lbtfi_offmap_get(f == LBTFI_FLAVOR_ENUM ? &defs->enums : &defs->aggr, name_off, key);
}

/*
 * A hash of what dedup cannot see past: two definitions of one name with
 * different shapes are never one type. Equal shapes may still be two types
 * (their members reach different types further on). Never
 * LBTFI_EQ_SEVERAL or LBTFI_HTAB_FREE.
 */
uint32_t lbtfi_eq_def_shape(const struct lbtf_builder *b, const struct lbtf_type *t);

#endif
