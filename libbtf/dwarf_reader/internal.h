/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The converter's own reader of DWARF DIEs (libbtf/dwarf_reader), not installed.
 *
 * libdw opens the file, finds the dwz alternate file, decompresses sections
 * and (through libdwfl) applies the relocations of ET_REL objects; this
 * reader then decodes .debug_info from those very section buffers. It exists
 * for speed: libdw looks every attribute up by walking the DIE's abbreviation
 * from the start and takes locks on its caches, which was three quarters of
 * the conversion time of a kernel. Here a DIE's attributes are decoded in
 * one pass, straight into the slots the converter reads (struct lbtfi_dw_attrs),
 * with the unit's abbreviations in an array indexed by code. Every read of
 * a DIE, its attributes, range lists (reader_ranges.c) and type sizes is
 * done here: libdw/libdwfl only open, decompress, relocate and find the
 * dwz alternate.
 *
 * A DIE is named by its section offset; the top bit of a 64-bit key marks
 * the alternate (dwz -m) file, the next bit .debug_types.
 */
#ifndef LIBBTF_DWARF_READER_INTERNAL_H
#define LIBBTF_DWARF_READER_INTERNAL_H

#include <endian.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include "util/grow.h"
#include "util/tls.h"

#define LBTFI_DW_KEY_ALT (1ull << 63)   /* a DIE of the dwz alternate file */
#define LBTFI_DW_KEY_TYPES (1ull << 62) /* a DIE of .debug_types (DWARF 4 type units) */

/* One ELF's DWARF sections as libdw holds them (decompressed, relocated) */
struct lbtfi_dr_sect {
	const uint8_t *p;
	uint64_t len;
};

enum lbtfi_dr_sect_id {
	DS_INFO, DS_ABBREV, DS_STR, DS_LINE_STR, DS_STR_OFFSETS, DS_ADDR, DS_TYPES,
	DS_RANGES, DS_RNGLISTS, DS_LOC, DS_LOCLISTS, DS_NR
};

struct lbtfi_dr_unit_hdr {
	uint64_t off;        /* unit header */
	uint64_t end;        /* first byte after the unit */
	uint64_t die_off;    /* the unit DIE */
	uint64_t abbrev_off;
	uint8_t version, addr_size, offset_size, unit_type;
	uint16_t tag;        /* of the unit DIE (DW_TAG_compile_unit, ...), 0 unreadable */
	bool dwo;            /* a skeleton, or its DIE may name a .dwo file */
	uint64_t sig;        /* type units: the signature, and the type DIE's offset */
	uint64_t type_off;
};

/* A type unit's signature and the offset of the type it describes */
struct lbtfi_dr_sig {
	uint64_t sig, off;
};

/* The DIEs of one .debug_info (or .debug_types) with the sections they use */
struct lbtfi_dr_file {
	struct lbtfi_dr_sect s[DS_NR];
	bool big_endian;            /* the file's byte order (ELFDATA2MSB) */
	uint64_t key_base;          /* 0, LBTFI_DW_KEY_ALT or LBTFI_DW_KEY_TYPES */
	const struct lbtfi_dr_sect *alt_str; /* the .debug_str of DW_FORM_GNU_strp_alt */
	const struct lbtfi_dr_file *root;    /* the main file (for its alt, types, sigs) */
	struct lbtfi_dr_unit_hdr *units;  /* every unit, by offset */
	uint32_t nunits;
	uint32_t dwo_units;         /* units with dwo set */
	struct lbtfi_dr_sig *sigs;        /* DWARF 5 type units in .debug_info, by signature */
	uint32_t nsigs;
	bool shared_units;          /* units and sigs belong to another lbtfi_dr_file */
	struct lbtfi_dr_file *alt;        /* dwz alternate file, or NULL */
	struct lbtfi_dr_file *types;      /* .debug_types as a file of its own, or NULL */
	uint8_t *joined[2];         /* .debug_info/.debug_types with COMDAT copies appended */
};

/*
 * Sections of dw (and of its alternate file) and its unit headers. 0 or <0.
 * With shared set, its unit headers are used rather than read again (another
 * thread's handle on the same file). Otherwise the headers are read: with
 * src, .debug_info's headers by pread from the file it is mapped from
 * (.debug_info at file offset foff of fd), not through the mapping.
 */
struct lbtfi_dr_info_src {
	int fd;
	uint64_t foff;
};
int lbtfi_dr_file_open(struct lbtfi_dr_file *f, Dwarf *dw, const struct lbtfi_dr_file *shared,
		 const struct lbtfi_dr_info_src *src);
void lbtfi_dr_file_close(struct lbtfi_dr_file *f);
/* Index of the unit holding section offset off, or -1 */
int64_t lbtfi_dr_unit_index(const struct lbtfi_dr_file *f, uint64_t off);

/* One attribute specification of an abbreviation */
struct lbtfi_dr_spec {
	uint16_t at, form;
	int8_t size;     /* fixed size in bytes, or -1 */
	uint8_t slot;    /* enum lbtfi_dw_attr_slot + 1, 0: not read */
	int32_t off;     /* from the first attribute when every one before has a
			  * fixed size, else -1 */
	int64_t implicit; /* DW_FORM_implicit_const value */
};

/*
 * An abbreviation compiled for decoding: its attributes split into segments
 * at each variable-size one (segment 0 starts at the first attribute,
 * segment k right after the k-th variable-size attribute), so that a DIE's
 * attributes are placed by decoding the sizes of the variable-size ones
 * only, and the wanted ones (those with a slot) are read from their segment
 * at a fixed offset, without a pass over the others.
 */
#define LBTFI_DR_MAX_VAR 15     /* more variable-size attributes: decoded spec by spec */
#define LBTFI_DR_GENERIC 0xff   /* nvar of such an abbreviation (or one with DW_FORM_indirect) */

struct lbtfi_dr_var {
	uint16_t form;
	int32_t gap;     /* fixed bytes from the start of its segment */
};

struct lbtfi_dr_want {
	uint16_t form;
	uint8_t slot;    /* enum lbtfi_dw_attr_slot */
	uint8_t seg;
	int32_t off;     /* from the start of segment seg */
	int64_t implicit;
};

struct lbtfi_dr_abbrev {
	uint16_t tag;
	bool children;
	uint16_t nspecs;
	int32_t fixed;   /* bytes of all attributes when every size is fixed, else -1 */
	uint32_t slots;  /* bit per slot some attribute fills */
	struct lbtfi_dr_spec *specs;
	uint8_t nvar;    /* variable-size attributes, or LBTFI_DR_GENERIC */
	uint8_t nwant;
	int32_t tail;    /* fixed bytes after the last variable-size attribute */
	struct lbtfi_dr_var *var;
	struct lbtfi_dr_want *want;
	int16_t sib;     /* want of the first DW_AT_sibling, -1 none */
	int32_t sib_ref4; /* where that DW_AT_sibling is from the first attribute
			   * when it is a ref4 at a fixed place (gcc's), else -1 */
	uint8_t nbyslot;
	uint8_t byslot[27]; /* wants by ascending slot, each slot once (its last) */
	uint8_t ntypeslots; /* of those, the slots up to DA_LOWER_BOUND (a type's
			     * own values: what its signature hashes) */
};

/* A unit ready for reading: its header, abbreviations and DWARF 5 bases */
struct lbtfi_dr_unit {
	const struct lbtfi_dr_file *f;
	const struct lbtfi_dr_unit_hdr *h;
	uint64_t key_base;          /* of its file */
	const uint8_t *info, *end;  /* .debug_info, and the end of this unit in it */
	struct lbtfi_dr_abbrev *byc;      /* by code - 1 */
	uint32_t nbyc;
	struct lbtfi_dr_spec *pool;
	struct lbtfi_dr_var *vpool;
	struct lbtfi_dr_want *wpool;
	uint64_t str_offsets_base, addr_base, rnglists_base;
	uint64_t base_addr;         /* the unit DIE's DW_AT_low_pc (range lists' base) */
	uint32_t last_use;
	struct lbtfi_dr_buf { uint8_t *p; size_t cap; } buf; /* its bytes, when read */
};

/* A DIE: where its attributes start, its abbreviation */
struct lbtfi_dw_die {
	const struct lbtfi_dr_unit *u;
	const uint8_t *p;           /* first attribute byte */
	const struct lbtfi_dr_abbrev *ab;
	uint64_t off;               /* section offset of the DIE */
	const uint8_t *end;         /* after the attributes, NULL until known */
};

static inline unsigned int lbtfi_dr_tag(const struct lbtfi_dw_die *d)
{
	return d->ab->tag;
}

static inline uint64_t lbtfi_dr_key(const struct lbtfi_dw_die *d)
{
	return d->off | d->u->key_base;
}

#define LBTFI_DR_SPARE_BUFS 4

/* Per-thread reader: the files and a cache of prepared units */
struct lbtfi_dr_ctx {
	const struct lbtfi_dr_file *main;
	struct lbtfi_dr_unit **units;
	uint32_t nunits, capunits;
	uint32_t clock;
	int info_fd;                /* lbtfi_dr_ctx_read_units(), else -1 */
	uint64_t info_foff;
	struct lbtfi_dr_buf spare[LBTFI_DR_SPARE_BUFS]; /* buffers of units dropped, for the next */
	uint32_t nspare;
};

void lbtfi_dr_ctx_init(struct lbtfi_dr_ctx *c, const struct lbtfi_dr_file *main);
/*
 * The main file's units read into memory (pread from fd, where its
 * .debug_info starts at file offset foff), a unit at a time as it is
 * prepared, into buffers reused from unit to unit, instead of through the
 * mapping of .debug_info: a first touch of each mapped page is a page
 * fault (costly in a VM), and the DIEs a unit refers to would be cache
 * misses in the middle of its conversion; the kernel's streaming copy
 * leaves the unit in the cache.
 */
void lbtfi_dr_ctx_read_units(struct lbtfi_dr_ctx *c, int fd, uint64_t foff);
/* Drop prepared units not used lately (between converted units) */
void lbtfi_dr_ctx_trim(struct lbtfi_dr_ctx *c, uint32_t keep);
/* Drop the prepared unit of file f holding section offset off, if any (a
 * unit converted, which no later one reads again unless it refers to it:
 * kept by lbtfi_dr_ctx_trim, it stayed resident for 8 units more) */
void lbtfi_dr_ctx_forget(struct lbtfi_dr_ctx *c, const struct lbtfi_dr_file *f, uint64_t off);
void lbtfi_dr_ctx_free(struct lbtfi_dr_ctx *c);
/* The DIE at section offset off of file f (main, alternate, types). 0 or <0 */
int lbtfi_dr_die_at(struct lbtfi_dr_ctx *c, const struct lbtfi_dr_file *f, uint64_t off, struct lbtfi_dw_die *out);
/* "", "(alternate file) " or "(.debug_types) " for messages about a key */
const char *lbtfi_dr_key_where(uint64_t key);

/* Tree walk: first child, next sibling (in place). false: none. A malformed
 * entry ends the walk and its offset (key) goes to lbtfi_dr_bad_off, which stays
 * UINT64_MAX while everything read was well formed. */
extern LBTFI_TLS uint64_t lbtfi_dr_bad_off;
bool lbtfi_dr_child_slow(struct lbtfi_dw_die *d, struct lbtfi_dw_die *out);
bool lbtfi_dr_sibling_slow(struct lbtfi_dw_die *d);
/* The names of d's first max children (DW_FORM_strp: nearly all) on their
 * way into the cache (reader_die.c says why); a hint, which changes nothing
 * the walks see */
void lbtfi_dr_prefetch_child_names(struct lbtfi_dw_die *d, uint32_t max);
/* Between these (one unit's conversion, this thread) a step over a DIE
 * without DW_AT_sibling remembers where its subtree ends, for the next
 * step over it; the files read stay open meanwhile */
void lbtfi_dr_memo_begin(void);
void lbtfi_dr_memo_end(void);

/* The DIE at p (inside u) when its abbreviation code is one byte and one
 * of u's, as the inline paths mostly meet: true with *out set to it; false
 * (*out untouched) for anything else, the null entry included */
static inline bool lbtfi_dr_short_entry(const struct lbtfi_dr_unit *u, const uint8_t *p, struct lbtfi_dw_die *out)
{
	const struct lbtfi_dr_abbrev *ab;

	if (!*p || *p >= 0x80 || *p > u->nbyc || !(ab = &u->byc[*p - 1])->specs)
		return false;
	out->u = u;
	out->ab = ab;
	out->p = p + 1;
	out->off = (uint64_t)(p - u->info);
	out->end = NULL;
	return true;
}

static inline bool lbtfi_dr_child(struct lbtfi_dw_die *d, struct lbtfi_dw_die *out)
{
	const struct lbtfi_dr_abbrev *ab = d->ab;
	const uint8_t *p = d->end;

	/* (inline: attributes read or of a fixed size, and a first child
	 * with a one-byte abbreviation code, as walks mostly meet) */
	if (!ab->children)
		return false;
	if (!p && !ab->nvar && ab->tail <= d->u->end - d->p)
		p = d->end = d->p + ab->tail;
	if (p && p < d->u->end && lbtfi_dr_short_entry(d->u, p, out))
		return true;
	return lbtfi_dr_child_slow(d, out);
}

/* (always inline: the walks' loops step with it millions of times, and an
 * out-of-line copy costs a call, a frame and the die reloaded per step) */
static inline __attribute__((always_inline)) bool lbtfi_dr_sibling(struct lbtfi_dw_die *d)
{
	const struct lbtfi_dr_unit *u = d->u;
	const struct lbtfi_dr_abbrev *ab = d->ab;
	const uint8_t *p = d->end;

	/* (inline: a childless DIE whose attributes were read or have a
	 * fixed size, or a DIE with children and gcc's DW_AT_sibling, followed
	 * by a DIE with a one-byte abbreviation code or by the null entry that
	 * ends the siblings, as walks mostly meet) */
	if (ab->children) {
		if (ab->sib_ref4 >= 0 && ab->sib_ref4 <= u->end - d->p - 4) {
			uint32_t x;
			uint64_t v;

			memcpy(&x, d->p + ab->sib_ref4, 4);
			v = (uint64_t)(u->f->big_endian ? be32toh(x) : le32toh(x)) + u->h->off;

			if (v > d->off && v < u->h->end) {
				p = u->info + v;
				if (!*p)
					return false;
				if (lbtfi_dr_short_entry(u, p, d))
					return true;
			}
		}
		return lbtfi_dr_sibling_slow(d);
	}
	if (!p && !ab->nvar && ab->tail <= u->end - d->p)
		p = d->p + ab->tail;
	if (p && p < u->end) {
		if (!*p)
			return false;
		if (lbtfi_dr_short_entry(u, p, d))
			return true;
	}
	return lbtfi_dr_sibling_slow(d);
}

/*
 * The attributes the converter reads, gathered in one pass over a DIE. Like
 * libdw's dwarf_attr_integrate, slots a DIE lacks are filled from the DIE
 * its DW_AT_abstract_origin or DW_AT_specification points at; own says
 * which ones the DIE has itself.
 */
enum lbtfi_dw_attr_slot {
	DA_NAME, DA_TYPE, DA_BYTE_SIZE, DA_BIT_SIZE, DA_DATA_BIT_OFFSET, DA_MEMBER_LOC,
	DA_BIT_OFFSET, DA_DECLARATION, DA_EXTERNAL, DA_ENCODING, DA_CONST_VALUE, DA_COUNT,
	DA_UPPER_BOUND, DA_LOWER_BOUND, DA_LOCATION, DA_LOW_PC, DA_RANGES, DA_INLINE,
	DA_LANGUAGE, DA_PRODUCER, DA_SIBLING, DA_STR_OFFSETS_BASE, DA_ADDR_BASE,
	DA_SIGNATURE, DA_ORIGIN, DA_SPEC, DA_RNGLISTS_BASE, DA_NR
};

struct lbtfi_dw_attr {
	uint16_t form;
	const uint8_t *p;           /* the value's bytes */
	int64_t implicit;
	const struct lbtfi_dr_unit *u;
};

struct lbtfi_dw_attrs {
	struct lbtfi_dw_attr a[DA_NR];
	uint32_t have;              /* bit per slot */
	uint32_t own;               /* of those, the DIE's own */
};

_Static_assert(DA_NR <= 27, "lbtfi_dr_abbrev.byslot holds a want per slot");

/*
 * The places of d's attributes without gathering them (compiled
 * abbreviations only: d->ab->nvar != LBTFI_DR_GENERIC): seg[k] where segment k
 * starts (room for LBTFI_DR_MAX_VAR + 1). Sets d->end; false when malformed
 * (noted in lbtfi_dr_bad_off). A wanted attribute w is at seg[w->seg] + w->off.
 */
bool lbtfi_dr_place_slow(struct lbtfi_dw_die *d, const uint8_t **seg);
static inline bool lbtfi_dr_place(struct lbtfi_dw_die *d, const uint8_t **seg)
{
	/* (inline: every attribute of a fixed size, one segment) */
	if (!d->ab->nvar && d->ab->tail <= d->u->end - d->p) {
		seg[0] = d->p;
		d->end = d->p + d->ab->tail;
		return true;
	}
	return lbtfi_dr_place_slow(d, seg);
}

/* Integrate attributes gathered without (once the DIE's own ones have shown
 * that it is worth it) */
void lbtfi_dr_integrate_slow(struct lbtfi_dr_ctx *c, struct lbtfi_dw_attrs *da);
static inline void lbtfi_dr_integrate(struct lbtfi_dr_ctx *c, struct lbtfi_dw_attrs *da)
{
	if (da->own & (1u << DA_ORIGIN | 1u << DA_SPEC))
		lbtfi_dr_integrate_slow(c, da);
}
/* d's own attributes (sets d->end) */
void lbtfi_dr_gather(struct lbtfi_dw_die *d, struct lbtfi_dw_attrs *da);
/* Gather d's attributes (sets d->end); integrate: follow origin/specification */
static inline void lbtfi_dr_attrs(struct lbtfi_dr_ctx *c, struct lbtfi_dw_die *d, struct lbtfi_dw_attrs *da,
			    bool integrate)
{
	lbtfi_dr_gather(d, da);
	if (integrate)
		lbtfi_dr_integrate(c, da);
}
static inline const struct lbtfi_dw_attr *lbtfi_dw_attrs_get(const struct lbtfi_dw_attrs *da, enum lbtfi_dw_attr_slot s)
{
	return (da->have >> s & 1) ? &da->a[s] : NULL;
}

/* Value decoders; false (NULL) when the form does not fit */
bool lbtfi_dr_udata(const struct lbtfi_dw_attr *a, uint64_t *v);
bool lbtfi_dr_sdata(const struct lbtfi_dw_attr *a, int64_t *v);
bool lbtfi_dr_flag(const struct lbtfi_dw_attr *a);
/* A signed constant form (sdata, implicit_const) with a negative value */
bool lbtfi_dr_negative(const struct lbtfi_dw_attr *a);
const char *lbtfi_dr_string_slow(const struct lbtfi_dw_attr *a);
static inline const char *lbtfi_dr_string(const struct lbtfi_dw_attr *a)
{
	if (a->form == DW_FORM_strp && a->u->h->offset_size == 4 && !a->u->f->big_endian) {
		const struct lbtfi_dr_sect *s = &a->u->f->s[DS_STR]; /* (most names) */
		uint32_t off;

		memcpy(&off, a->p, 4);
		off = le32toh(off);
		return off < s->len ? (const char *)s->p + off : NULL;
	}
	return lbtfi_dr_string_slow(a);
}
bool lbtfi_dr_block(const struct lbtfi_dw_attr *a, const uint8_t **p, uint64_t *len);
bool lbtfi_dr_addr(const struct lbtfi_dw_attr *a, uint64_t *v);
/* Start address of the first range a DW_AT_ranges attribute lists
 * (.debug_ranges or DWARF 5 .debug_rnglists), false if there is none */
bool lbtfi_dr_first_range(const struct lbtfi_dw_attr *a, uint64_t *start);
/* Value of a unit-relative reference form (ref1..ref8, ref_udata) */
bool lbtfi_dr_udata_ref(const struct lbtfi_dw_attr *a, uint64_t *v);
/* [p, e) is exactly one ULEB128 number (an expression operand) */
bool lbtfi_dr_expr_uleb(const uint8_t *p, const uint8_t *e, uint64_t *v);
/* An address (of the unit's address size) at p */
uint64_t lbtfi_dr_read_addr(const struct lbtfi_dr_unit *u, const uint8_t *p);
/* Each location expression of a DW_AT_location (an expression, or a
 * .debug_loc / .debug_loclists list: its entries with an expression, in
 * order) given to fn until fn returns false. False if it cannot be read. */
bool lbtfi_dr_loc_exprs(const struct lbtfi_dw_attr *a, bool (*fn)(const uint8_t *p, uint64_t len, void *ctx),
		  void *ctx);
/* Address at index idx of the unit's .debug_addr table */
bool lbtfi_dr_addrx(const struct lbtfi_dr_unit *u, uint64_t idx, uint64_t *v);
/* The DIE a reference attribute refers to */
bool lbtfi_dr_ref_slow(struct lbtfi_dr_ctx *c, const struct lbtfi_dw_attr *a, struct lbtfi_dw_die *out);
static inline bool lbtfi_dr_ref(struct lbtfi_dr_ctx *c, const struct lbtfi_dw_attr *a, struct lbtfi_dw_die *out)
{
	const struct lbtfi_dr_unit *u = a->u;

	/* (inline: a ref4 into its unit, to a DIE with a one-byte code) */
	if (a->form == DW_FORM_ref4 && !u->f->big_endian) {
		uint32_t v;
		uint64_t off;

		memcpy(&v, a->p, 4);
		off = (uint64_t)le32toh(v) + u->h->off;
		if (off >= u->h->die_off && off < u->h->end && lbtfi_dr_short_entry(u, u->info + off, out))
			return true;
	}
	return lbtfi_dr_ref_slow(c, a, out);
}
/* Key of a reference's target, without preparing the DIE */
bool lbtfi_dr_ref_key_slow(const struct lbtfi_dw_attr *a, uint64_t *key);
static inline bool lbtfi_dr_ref_key(const struct lbtfi_dw_attr *a, uint64_t *key)
{
	if (a->form == DW_FORM_ref4 && !a->u->f->big_endian) { /* (nearly every one) */
		uint32_t v;

		memcpy(&v, a->p, 4);
		*key = (le32toh(v) + a->u->h->off) | a->u->key_base;
		return true;
	}
	return lbtfi_dr_ref_key_slow(a, key);
}

/* Slot accessors over gathered attributes */
static inline const char *lbtfi_dw_attrs_name(const struct lbtfi_dw_attrs *da)
{
	const struct lbtfi_dw_attr *a = lbtfi_dw_attrs_get(da, DA_NAME);

	return a ? lbtfi_dr_string(a) : NULL;
}

static inline bool lbtfi_dw_attrs_flag(const struct lbtfi_dw_attrs *da, enum lbtfi_dw_attr_slot s)
{
	const struct lbtfi_dw_attr *a = lbtfi_dw_attrs_get(da, s);

	return a && lbtfi_dr_flag(a);
}

static inline bool lbtfi_dw_attrs_own_flag(const struct lbtfi_dw_attrs *da, enum lbtfi_dw_attr_slot s)
{
	return (da->own >> s & 1) && lbtfi_dr_flag(&da->a[s]);
}

static inline bool lbtfi_dw_attrs_udata(const struct lbtfi_dw_attrs *da, enum lbtfi_dw_attr_slot s, uint64_t *v)
{
	const struct lbtfi_dw_attr *a = lbtfi_dw_attrs_get(da, s);

	return a && lbtfi_dr_udata(a, v);
}

/* DW_AT_byte_size as a number, or -1 */
static inline int lbtfi_dw_attrs_bytesize(const struct lbtfi_dw_attrs *da)
{
	uint64_t v;

	return lbtfi_dw_attrs_udata(da, DA_BYTE_SIZE, &v) && v <= INT32_MAX ? (int)v : -1;
}

/* ---- the reader's own decoding helpers (reader*.c; and its unit test) ---- */
/*
 * An unsigned n-byte value (n <= 8) at p, stored in the file's byte order
 * (big_endian or little), decoded the same on any host. This runs for nearly
 * every attribute btfgen reads: the 2/4/8-byte cases are one load plus at
 * most a byte swap (le*toh/be*toh are no-ops in the host's own order).
 */
static inline uint64_t lbtfi_dr_read(bool big_endian, const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;
	unsigned int i;

	switch (n) {
	case 1:
		return p[0];
	case 2: {
		uint16_t x;

		memcpy(&x, p, 2);
		return big_endian ? be16toh(x) : le16toh(x);
	}
	case 4: {
		uint32_t x;

		memcpy(&x, p, 4);
		return big_endian ? be32toh(x) : le32toh(x);
	}
	case 8:
		memcpy(&v, p, 8);
		return big_endian ? be64toh(v) : le64toh(v);
	}
	/* other widths (3: strx3, addrx3) byte by byte, most significant first */
	if (big_endian)
		for (i = 0; i < n; i++)
			v = v << 8 | p[i];
	else
		for (i = n; i--;)
			v = v << 8 | p[i];
	return v;
}

/* The bits of a LEB128 number at *pp (before *e), its shift after the last
 * byte and that byte; false if it runs past e */
static inline bool lbtfi_dr_leb(const uint8_t **pp, const uint8_t *e, uint64_t *v, unsigned int *shift,
			  uint8_t *last)
{
	const uint8_t *p = *pp;

	*v = 0;
	*shift = 0;
	while (p < e) {
		uint8_t b = *p++;

		if (*shift < 64)
			*v |= (uint64_t)(b & 0x7f) << *shift;
		*shift += 7;
		if (!(b & 0x80)) {
			*pp = p;
			*last = b;
			return true;
		}
	}
	return false;
}

static inline bool lbtfi_dr_uleb(const uint8_t **pp, const uint8_t *e, uint64_t *out)
{
	unsigned int shift;
	uint8_t last;

	/* (one byte, as nearly every abbreviation code, tag, attribute and
	 * form is: ~4 instructions rather than ~15) */
	if (*pp < e && **pp < 0x80) {
		*out = *(*pp)++;
		return true;
	}
	return lbtfi_dr_leb(pp, e, out, &shift, &last);
}

static inline bool lbtfi_dr_sleb(const uint8_t **pp, const uint8_t *e, int64_t *out)
{
	unsigned int shift;
	uint8_t last;
	uint64_t v;

	if (!lbtfi_dr_leb(pp, e, &v, &shift, &last))
		return false;
	if (shift < 64 && (last & 0x40))
		v |= ~0ull << shift; /* sign-extend */
	*out = (int64_t)v;
	return true;
}

/* The type DIE of the type unit with that signature */
bool lbtfi_dr_sig_lookup(const struct lbtfi_dr_file *f, uint64_t sig, uint64_t *off);
int lbtfi_dr_form_size(const struct lbtfi_dr_unit_hdr *h, unsigned int form);
/* The DIE at section offset off of unit u: 0, or -1 (malformed, null entry) */
int lbtfi_dr_die_in_unit(const struct lbtfi_dr_unit *u, uint64_t off, struct lbtfi_dw_die *out);

#endif
