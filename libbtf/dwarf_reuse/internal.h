/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The reuse of types between the units of a group (libbtf/dwarf_reuse),
 * not installed. A unit's type DIE whose structural signature (sig.c)
 * equals that of a type an earlier unit of its group converted is given
 * that type's id instead of being converted again (reuse.c says when that
 * holds and how it is checked); the DIE table that holds each DIE's id,
 * signature and references (diemap.c). The unit converter
 * (libbtf/dwarf_unit) asks through a few calls: lbtfi_dw_reuse_find before it
 * converts a type DIE, lbtfi_dw_reuse_note after, lbtfi_dw_reuse_verify /
 * lbtfi_dw_reuse_commit / lbtfi_dw_reuse_abort at the unit's end; the driver
 * (libbtf/dwarf) makes and finishes the groups and checks their pairings
 * against the output (lbtfi_dw_group_paired_names, lbtfi_dw_defs_*). The reuse knows
 * the unit only as struct lbtfi_dw_reuse_unit, and converts nothing itself: it
 * asks the converter through lbtfi_dw_reuse_unit.type_id.
 */
#ifndef LIBBTF_DWARF_REUSE_INTERNAL_H
#define LIBBTF_DWARF_REUSE_INTERNAL_H

#include <stdint.h>
#include "builder/internal.h"
#include "equiv/internal.h"
#include "dwarf_reader/internal.h"

/* Make room for one more element in a growing array (diemap.c) (*arr with *cap
 * elements of elem_size bytes, n in use): 0 or -ENOMEM with the error set */
int lbtfi_dw_grow_slow(void *arr, uint32_t *cap, uint32_t n, size_t elem_size, uint32_t first_cap);
/* (the test inline: called per signature item and edge, so often that the
 * calls that found room showed in a kernel's profile) */
static inline int lbtfi_dw_grow(void *arr, uint32_t *cap, uint32_t n, size_t elem_size,
			  uint32_t first_cap)
{
	return n < *cap ? 0 : lbtfi_dw_grow_slow(arr, cap, n, elem_size, first_cap);
}

/* ---- DIE offset -> BTF id map (diemap.c) --------------------------- */
/* Open addressing of its own, not util/htab.h: a lookup per DIE reference,
 * 64-bit keys kept in the slot, cleared per unit by a generation bump
 * (diemap.c's header gives the reasons in full). */

#define LBTFI_DW_ID_IN_PROGRESS UINT32_MAX

struct lbtfi_dw_diemap_slot {
	uint64_t key;
	uint32_t val;
	uint32_t gen;    /* the map's gen: in use; else empty */
};

struct lbtfi_dw_diemap {
	struct lbtfi_dw_diemap_slot *slots;
	uint32_t mask, cnt;
	uint32_t gen;    /* never 0 (a fresh slot's) */
};
int lbtfi_dw_diemap_init(struct lbtfi_dw_diemap *m);
void lbtfi_dw_diemap_clear(struct lbtfi_dw_diemap *m);
void lbtfi_dw_diemap_free(struct lbtfi_dw_diemap *m);
static inline uint32_t lbtfi_dw_diemap_slot_of(uint64_t key, uint32_t mask)
{
	key ^= key >> 29;
	key *= 0xbf58476d1ce4e5b9ull;
	key ^= key >> 32;
	return (uint32_t)key & mask;
}

/* Pointer to the value of key or NULL (inline: a lookup per reference) */
static inline uint32_t *lbtfi_dw_diemap_get(const struct lbtfi_dw_diemap *m, uint64_t key)
{
	struct lbtfi_dw_diemap_slot *e;
	uint32_t h;

	for (h = lbtfi_dw_diemap_slot_of(key, m->mask); (e = &m->slots[h])->gen == m->gen;
	     h = (h + 1) & m->mask)
		if (e->key == key)
			return &e->val;
	return NULL;
}

int lbtfi_dw_diemap_put(struct lbtfi_dw_diemap *m, uint64_t key, uint32_t val);

/*
 * What a unit knows of each DIE it met, by key (diemap.c): its BTF id, its
 * signature, what a reference to it led the signatures to. One slot for
 * the three, so that a DIE costs one cache miss where it cost one per map.
 *
 * The slots sit in one array in the order they were made; a DIE of the
 * unit being converted (the window, lbtfi_dw_dies_begin) finds its slot
 * through an index by its offset in the unit, quartered (at[(key - lo) >>
 * LBTFI_DW_AT_SHIFT]: a slot number + 1, 0 none): a load of the index,
 * then the slot, with no probing and no hash. Two DIEs less than 4 bytes
 * apart (after a DIE of 1 to 3 bytes: a DW_TAG_unspecified_parameters, a
 * const void's DW_TAG_const_type, a void *'s DW_TAG_pointer_type with
 * only its size) may share an index entry: the second, and every key
 * outside the window (another unit's
 * DIEs, the dwz alternate file, .debug_types), go to a hashed side table
 * (side, key -> slot number). An index entry is never emptied while the
 * unit lasts, so an empty one also says that the side table does not
 * have the key.
 *
 * Cleared per unit in O(slots made): each slot's entry is zeroed by its key,
 * not the whole index (sized by the largest unit met, a memset per unit
 * would cost more than the lookups). A byte of the unit costs 1 byte of
 * index (4 bytes per 4), touched only where the unit has DIEs looked up:
 * half of what an entry per 2 bytes cost, fewer lines for the lookups to
 * miss (simulated, the vmlinux: 3% fewer L1 and L2 data misses), for a
 * few more DIEs on the side.
 */
#define LBTFI_DW_AT_SHIFT 2
#define LBTFI_DW_NONE (UINT32_MAX - 1) /* a field not known (yet) */

/*
 * The structural signature of a type DIE (see sig.c), in its DIE's slot.
 * Its edge count tells its state too: a count when it is done, else one
 * of the values above any count (one compare on the path of every
 * reference, no field of its own: the slot stays at 40 bytes).
 */
struct lbtfi_dw_sig {
	uint64_t a, b;
	uint32_t edges;         /* done: range in lbtfi_dw_sigs.edge */
	uint32_t nedges;        /* done: count there; else LBTFI_DW_SIG_NEW/BUSY/NONE */
};
#define LBTFI_DW_SIG_NEW  UINT32_MAX       /* not hashed yet */
#define LBTFI_DW_SIG_BUSY (UINT32_MAX - 1) /* being hashed */
#define LBTFI_DW_SIG_NONE (UINT32_MAX - 2) /* the DIE has none */
#define LBTFI_DW_SIG_MAX_EDGES (UINT32_MAX - 3)
static inline bool lbtfi_dw_sig_done(const struct lbtfi_dw_sig *g)
{
	return g->nedges <= LBTFI_DW_SIG_MAX_EDGES;
}

/*
 * A DIE's slot, its signature in it: a reference to a type whose
 * signature is done (most of them: a unit names the same types again
 * and again) finds what it mixes on the lines of the slot it looked up,
 * not on another table's too. 40 bytes, the fields a reference reads
 * (key, ref, the signature) first.
 */
struct lbtfi_dw_die_slot {
	uint64_t key;
	uint32_t ref;    /* a reference to the DIE in a signature: an entry as
			  * on lbtfi_dw_sigs.stack, or LBTFI_DW_NONE */
	uint32_t id;     /* BTF id, LBTFI_DW_ID_IN_PROGRESS or LBTFI_DW_NONE */
	struct lbtfi_dw_sig sig; /* the DIE's (memoised per unit) */
};
struct lbtfi_dw_dies {
	uint32_t *at;            /* by (key - lo) >> LBTFI_DW_AT_SHIFT: slot number + 1, or 0 */
	uint64_t lo, span;       /* the window: keys lo .. lo + span - 1 */
	uint64_t capat;          /* entries at has room for */
	struct lbtfi_dw_die_slot *slots;
	uint32_t cnt, cap;       /* slots in use, room */
	struct lbtfi_dw_diemap side; /* keys not in the index -> slot number */
};
int lbtfi_dw_dies_init(struct lbtfi_dw_dies *m);
/* Empty (the window stays) */
void lbtfi_dw_dies_clear(struct lbtfi_dw_dies *m);
/* Empty, with the window [lo, hi) (the keys of the unit being converted);
 * 0 or -ENOMEM (the error set; the table then has no window, and works) */
int lbtfi_dw_dies_begin(struct lbtfi_dw_dies *m, uint64_t lo, uint64_t hi);
void lbtfi_dw_dies_free(struct lbtfi_dw_dies *m);
/* (the rare paths of lbtfi_dw_dies_get and _add, out of line) */
struct lbtfi_dw_die_slot *lbtfi_dw_dies_get_side(const struct lbtfi_dw_dies *m, uint64_t key);
struct lbtfi_dw_die_slot *lbtfi_dw_dies_add_side(struct lbtfi_dw_dies *m, uint64_t key);
struct lbtfi_dw_die_slot *lbtfi_dw_dies_new_slot(struct lbtfi_dw_dies *m, uint64_t key);

/* The slot of key, or NULL */
static inline struct lbtfi_dw_die_slot *lbtfi_dw_dies_get(const struct lbtfi_dw_dies *m, uint64_t key)
{
	uint64_t o = key - m->lo;

	if (o < m->span) {
		uint32_t i = m->at[o >> LBTFI_DW_AT_SHIFT];

		if (!i)
			return NULL; /* (not in the side table either) */
		if (m->slots[i - 1].key == key)
			return &m->slots[i - 1];
	}
	return m->side.cnt ? lbtfi_dw_dies_get_side(m, key) : NULL;
}

/* A slot made for key: nothing known (the signature's other fields are
 * read only once it is done: not written, 3 stores rather than 5) */
static inline void lbtfi_dw_die_slot_fresh(struct lbtfi_dw_die_slot *e, uint64_t key)
{
	e->key = key;
	e->ref = e->id = LBTFI_DW_NONE;
	e->sig.nedges = LBTFI_DW_SIG_NEW;
}

/* The slot of key, made (lbtfi_dw_die_slot_fresh) if there is none; NULL
 * when out of memory (error set). Any add may move every slot. */
static inline struct lbtfi_dw_die_slot *lbtfi_dw_dies_add(struct lbtfi_dw_dies *m, uint64_t key)
{
	uint64_t o = key - m->lo;

	if (o < m->span) {
		uint32_t *at = &m->at[o >> LBTFI_DW_AT_SHIFT];
		struct lbtfi_dw_die_slot *e;

		if (*at) {
			if (m->slots[*at - 1].key == key)
				return &m->slots[*at - 1];
			return lbtfi_dw_dies_add_side(m, key);
		}
		if (m->cnt == m->cap)
			return lbtfi_dw_dies_new_slot(m, key);
		e = &m->slots[m->cnt++];
		lbtfi_dw_die_slot_fresh(e, key);
		*at = m->cnt;
		return e;
	}
	return lbtfi_dw_dies_add_side(m, key);
}

/* ---- reuse of types converted in earlier units (sig.c, reuse.c) */

/* A reference to a named struct, union or enum inside a signature (hashed
 * by name: these are the types dedup matches with their declarations) */
struct lbtfi_dw_edge {
	struct lbtfi_dw_die die;      /* the struct/union DIE (after DW_AT_signature) */
	uint64_t key;           /* its key */
	const char *name;
	uint64_t name_id;       /* what the hash took: address or bytes' hash */
	uint32_t name_off;      /* in the group's builder: 0 not looked up yet,
				 * UINT32_MAX not there (the name of a type of
				 * an earlier unit: found or not for the unit) */
	uint32_t round;         /* the last edge collection listing it (sig.c) */
	uint8_t flavor;         /* enum lbtfi_flavor (equiv/internal.h) */
	bool is_def;            /* a definition, not a declaration */
	bool name_inline;       /* DW_FORM_string */
};



/*
 * A hashing plan (plan.c): what a signature takes from a DIE of one
 * abbreviation, compiled once per abbreviation of the unit being
 * converted. The words it gives are exactly those of the reading through
 * the attribute accessors (sig.c's mix_attr), so that a DIE hashes the same
 * with a plan and without one (the DIEs of other units, abbreviations the
 * reader does not compile): a value is hashed by what it is, not by its form.
 */
#define LBTFI_DW_HASHED_SLOTS ((2u << DA_LOWER_BOUND) - 1) /* name, type, values */

enum lbtfi_dw_plan_kind {
	LBTFI_PLAN_STRP4,        /* a name through .debug_str, 4-byte offset */
	LBTFI_PLAN_REF4,         /* a DW_AT_type as ref4 */
	LBTFI_PLAN_DATA1,        /* constants of 1..8 bytes */
	LBTFI_PLAN_DATA2,
	LBTFI_PLAN_DATA4,
	LBTFI_PLAN_DATA8,
	LBTFI_PLAN_FLAG,
	LBTFI_PLAN_FLAG_PRESENT,
	LBTFI_PLAN_ANY,          /* anything else: through the accessors */
};

struct lbtfi_dw_plan_op {
	uint8_t kind;            /* enum lbtfi_dw_plan_kind */
	uint8_t seg;             /* the attribute's segment (lbtfi_dr_place) */
	uint16_t arg;            /* its offset there; LBTFI_PLAN_ANY: its want */
};

/* The word of a constant of kind (0xc0, the sign of a signed form at bit
 * 8, sec_offset at bit 9) and value v below LBTFI_DW_SIG_SMALL (a larger one
 * takes two words: the kind, the value), and that of a flag, as a
 * signature hashes them (sig.c; plan.c's fixed form knows some in advance) */
#define LBTFI_DW_SIG_SMALL (1ull << 53)
static inline uint64_t lbtfi_dw_sig_const_word(uint64_t kind, uint64_t v)
{
	return kind | 1u << 10 | v << 11;
}
static inline uint64_t lbtfi_dw_sig_flag_word(bool f)
{
	return 0xf1a6 | (uint64_t)f << 32;
}

/*
 * A plan's fixed form (plan.c): an abbreviation of fixed-size attributes
 * only (one segment) whose ops are at most a name (STRP4), then at most a
 * type (REF4), then constants of 1 or 2 bytes or whose word the
 * abbreviation gives (an implicit_const below LBTFI_DW_SIG_SMALL, not
 * negative; a flag_present): nearly every member, enumerator, parameter,
 * subrange, pointer and typedef. Such a DIE hashes by loads at constant
 * offsets from its first attribute, without the ops' dispatch; the words
 * are those of the ops.
 */
enum {
	LBTFI_PLAN_FIXED = 1,    /* the fixed form applies */
	LBTFI_PLAN_FIXED_NAME = 2, /* with a name at name_off */
	LBTFI_PLAN_FIXED_TYPE = 4, /* with a type at type_off */
};

struct lbtfi_dw_plan {
	const struct lbtfi_dr_abbrev *ab; /* compiled from (NULL: none) */
	uint32_t gen;            /* the table's gen: valid */
	uint8_t nops;
	uint8_t fixed;           /* LBTFI_PLAN_FIXED* bits, 0: ops only */
	uint8_t nconst;          /* fixed form: its constants */
	uint16_t name_off, type_off; /* fixed form: from the first attribute */
	uint16_t cwide;          /* fixed form: bit i, constant i has 2 bytes */
	uint16_t cknown;         /* fixed form: bit i, constant i's word is cword[i] */
	uint64_t shape;          /* the DIE's first word: tag, children, slots */
	uint16_t coff[DA_LOWER_BOUND + 1]; /* fixed form: the constants' offsets */
	uint64_t cword[DA_LOWER_BOUND + 1]; /* fixed form: words known (cknown) */
	struct lbtfi_dw_plan_op op[DA_LOWER_BOUND + 1]; /* by ascending slot */
};

/* The plans of one unit's abbreviations, by index in its byc */
struct lbtfi_dw_plans {
	const struct lbtfi_dr_unit_hdr *h; /* the unit (its abbreviations are
					    * those of its header for good) */
	struct lbtfi_dw_plan *p;
	uint32_t cap, gen;       /* gen never 0 (a fresh entry's) */
	/* the plan found last, and its abbreviation (a struct's members
	 * mostly share one): NULL when the table changes units */
	const struct lbtfi_dr_abbrev *last_ab;
	const struct lbtfi_dw_plan *last;
};

/* Compile the plan of ab, an abbreviation of unit u, into pl */
void lbtfi_dw_plan_compile(const struct lbtfi_dr_unit *u, const struct lbtfi_dr_abbrev *ab,
			   struct lbtfi_dw_plan *pl);
/* The plans are those of unit u's abbreviations from now on (the table
 * sized for all of them: a plan is never moved while it is in use) */
void lbtfi_dw_plans_use(struct lbtfi_dw_plans *ps, const struct lbtfi_dr_unit *u);
/* The plan of die's abbreviation, compiled when the table has none: in
 * the table for a DIE of its unit, else (or out of memory) in *tmp */
const struct lbtfi_dw_plan *lbtfi_dw_plan_make(struct lbtfi_dw_plans *ps, const struct lbtfi_dw_die *die,
					       struct lbtfi_dw_plan *tmp);
/* The plan of die's abbreviation in the table, or NULL */
static inline const struct lbtfi_dw_plan *lbtfi_dw_plan_get(struct lbtfi_dw_plans *ps,
							    const struct lbtfi_dw_die *die)
{
	uintptr_t i;
	const struct lbtfi_dw_plan *pl;

	if (die->u->h != ps->h)
		return NULL;
	if (die->ab == ps->last_ab)
		return ps->last;
	i = ((uintptr_t)die->ab - (uintptr_t)die->u->byc) / sizeof(*die->ab);
	if (i < ps->cap && (pl = &ps->p[i])->ab == die->ab && pl->gen == ps->gen) {
		ps->last_ab = die->ab;
		return ps->last = pl;
	}
	return NULL;
}
void lbtfi_dw_plans_free(struct lbtfi_dw_plans *ps);

/* What a unit's signatures share (each is memoised in its DIE's slot,
 * lbtfi_dw_die_slot.sig) */
struct lbtfi_dw_sigs {
	uint32_t *edge;         /* the signatures' edges: indices in named */
	uint32_t nedge, capedge;
	/* what the signatures under construction used, in order: a slot
	 * number in the DIE table (a signature whose edges they inherit)
	 * or LBTFI_DW_SIG_NAMED | an index in named (an edge of their own) */
	uint32_t *stack;
	uint32_t nstack, capstack;
	uint32_t base;          /* where the innermost one's part of stack starts */
	struct lbtfi_dw_edge *named;  /* the named aggregates references led to */
	uint32_t nnamed, capnamed;
	uint32_t round;         /* of edge collection (lbtfi_dw_edge.round) */
	struct lbtfi_dw_plans plans;  /* of the unit's abbreviations */
	/* (what a reference led to is lbtfi_dw_die_slot.ref of the key it names,
	 * before any DW_AT_signature) */
};
#define LBTFI_DW_SIG_NAMED 0x80000000u

void lbtfi_dw_sigs_init(struct lbtfi_dw_sigs *s);
/* (only with the unit's DIE table: its slots hold the signatures) */
void lbtfi_dw_sigs_clear(struct lbtfi_dw_sigs *s);
void lbtfi_dw_sigs_free(struct lbtfi_dw_sigs *s);

struct lbtfi_dw_group;

/*
 * The unit being converted, as the reuse sees it (the converter's struct
 * lbtfi_dw_unit holds it as ru): its reader, its group's builder, its DIE table
 * and signatures, the group, and the converter's call for a type DIE
 * whose id a check needs.
 */
struct lbtfi_dw_reuse_unit {
	struct lbtfi_dr_ctx *rd;        /* the thread's DIE reader */
	struct lbtf_builder *b;   /* the group's builder (set by lbtfi_dw_ru) */
	struct lbtfi_dw_dies map;       /* the DIEs met: ids, signatures */
	struct lbtfi_dw_sigs sigs;      /* signatures of this unit's type DIEs */
	struct lbtfi_dw_group *grp;     /* types of earlier units of the group, or NULL */
	/* the BTF id of a type DIE, converted if it was not yet (lbtfi_dw_type_id) */
	int64_t (*type_id)(struct lbtfi_dw_reuse_unit *u, struct lbtfi_dw_die *die);
};

/* The signature of a type DIE, or NULL when it has none (then *err says
 * whether that is an error); in the DIE's slot, so valid until the next
 * add to u->map */
const struct lbtfi_dw_sig *lbtfi_dw_sig_of(struct lbtfi_dw_reuse_unit *u, struct lbtfi_dw_die *die, int *err);
/* (hashing die, whose slot in u->map is number sn, the slot of die's key;
 * LBTFI_DW_NONE: looked up) */
const struct lbtfi_dw_sig *lbtfi_dw_sig_hash(struct lbtfi_dw_reuse_unit *u, struct lbtfi_dw_die *die, uint32_t sn,
					     int *err);
/* The same, die's slot in u->map being number sn (the converter has it:
 * no lookup). Inline: most type DIEs the converter asks for were hashed
 * already, inside the type that refers to them (nothing is being hashed
 * when it asks, so a memoised signature is done or has none) */
static inline const struct lbtfi_dw_sig *lbtfi_dw_sig_of_slot(struct lbtfi_dw_reuse_unit *u,
							       struct lbtfi_dw_die *die, uint32_t sn, int *err)
{
	const struct lbtfi_dw_sig *g = &u->map.slots[sn].sig;

	if (g->nedges == LBTFI_DW_SIG_NEW)
		return lbtfi_dw_sig_hash(u, die, sn, err);
	*err = 0;
	return lbtfi_dw_sig_done(g) ? g : NULL;
}
/* Whether die names its type by DW_AT_signature (gcc -fdebug-types-section):
 * a type a unit only names so is the one its type unit describes */
static inline bool lbtfi_dw_names_signature(const struct lbtfi_dw_die *die)
{
	return die->ab->slots >> DA_SIGNATURE & 1;
}

/* die made the type unit's DIE it names (sig.c; out of line: rare, and
 * its frame would be set up on every reference otherwise) */
void lbtfi_dw_follow_named_signature(struct lbtfi_dr_ctx *rd, struct lbtfi_dw_die *die);

/* die made the type unit's DIE when it names one by DW_AT_signature */
static inline __attribute__((always_inline)) void lbtfi_dw_follow_signature(struct lbtfi_dr_ctx *rd,
									   struct lbtfi_dw_die *die)
{
	if (lbtfi_dw_names_signature(die))
		lbtfi_dw_follow_named_signature(rd, die);
}

/*
 * A group of consecutive units converted into one builder by one worker:
 * a type DIE whose signature matches a type converted in an earlier unit of
 * the group is given that type's id (its named struct/union references are
 * checked: found at once, or queued and checked when the unit ends).
 */
struct lbtfi_dw_group *lbtfi_dw_group_new(void);
void lbtfi_dw_group_free(struct lbtfi_dw_group *g);
/* Start a unit (its builder is u->b, shared by the group) */
void lbtfi_dw_group_unit_begin(struct lbtfi_dw_reuse_unit *u);
/* Id of an earlier equal type, 0 if none, <0 error (die has no id yet, not
 * even "in progress": a reference to itself is taken as one to that type);
 * sn: die's slot number in u->map */
int64_t lbtfi_dw_reuse_find(struct lbtfi_dw_reuse_unit *u, struct lbtfi_dw_die *die, uint32_t sn);
/* die (already signed by lbtfi_dw_reuse_find), of slot number sn, was
 * converted to id in this unit */
int lbtfi_dw_reuse_note(struct lbtfi_dw_reuse_unit *u, struct lbtfi_dw_die *die, uint32_t sn, uint32_t id);
/* Unit done: check the queued references (converting their targets as
 * needed). 0: every reuse holds, 1: one did not (convert the unit again
 * without reuse), <0 error */
int lbtfi_dw_reuse_verify(struct lbtfi_dw_reuse_unit *u);
/* Make the unit's converted types reusable by later units */
int lbtfi_dw_reuse_commit(struct lbtfi_dw_reuse_unit *u);
/* Forget what the unit queued (it is converted again) */
void lbtfi_dw_reuse_abort(struct lbtfi_dw_reuse_unit *u);
/* The group is converted: references to FWDs that reuse resolved are
 * pointed at their struct/union */
void lbtfi_dw_group_finish(struct lbtfi_dw_reuse_unit *u);
/* The names of the structs, unions and enums whose declaration the group
 * paired with a definition: *names = "name\0name\0..." (malloc'd; NULL
 * if none), *len its size. 0 or -ENOMEM */
int lbtfi_dw_group_paired_names(struct lbtfi_dw_reuse_unit *u, char **names, size_t *len);
/* The names with several definitions in a deduplicated output (by id), or
 * with definitions of several shapes in one not deduplicated (shapes) */
struct lbtfi_dw_defs {
	const struct lbtf_builder *out;
	struct lbtfi_eq_defs defs; /* name offset -> its type/shape, or several */
};
int lbtfi_dw_defs_init(struct lbtfi_dw_defs *defs, const struct lbtf_builder *out, bool shapes);
void lbtfi_dw_defs_free(struct lbtfi_dw_defs *defs);
/* How many of the paired names (lbtfi_dw_group_paired_names) have several
 * definitions in the output */
int lbtfi_dw_defs_check(const struct lbtfi_dw_defs *defs, const char *names, size_t len);

#endif
