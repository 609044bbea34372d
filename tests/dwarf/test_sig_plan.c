// SPDX-License-Identifier: BSD-2-Clause
/*
 * Structural signatures read through hashing plans (libbtf/dwarf_reuse/
 * plan.c, sig.c), over units written here byte by byte: the same struct in
 * units with other abbreviation codes, attribute orders and forms (data1,
 * data2, udata, implicit_const, attributes the signature does not read)
 * has the same signature, also when its int is another unit's (hashed by a
 * plan made apart from the table, which holds the plans of S's unit); a
 * struct that differs in a member's offset, a member's type, a base type's
 * size or a name has another. A named struct reached several times is one
 * edge of a signature; edges come through the signatures used, in order,
 * each with its name and whether it is a declaration. A stub (a
 * declaration with DW_AT_signature) hashes as its type unit's type.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "dwarf_reuse/internal.h"

/* .debug_str: the names, at fixed offsets */
static const char strs[] = "\0S\0a\0b\0int\0char";
enum { STR_S = 1, STR_A = 3, STR_B = 5, STR_INT = 7, STR_CHAR = 11 };

struct buf {
	uint8_t b[4096];
	size_t n;
};

static void u8(struct buf *b, unsigned int v)
{
	assert_true(b->n < sizeof(b->b));
	b->b[b->n++] = (uint8_t)v;
}

static void u16(struct buf *b, unsigned int v)
{
	u8(b, v & 0xff);
	u8(b, v >> 8);
}

static void u32(struct buf *b, uint32_t v)
{
	u16(b, v & 0xffff);
	u16(b, v >> 16);
}

/* LEB128 (signed when sleb; small values only here) */
static void leb(struct buf *b, int64_t v, bool sleb)
{
	for (;;) {
		uint8_t byte = v & 0x7f;

		v >>= 7;
		if ((!sleb && !v) || (sleb && ((!v && !(byte & 0x40)) || (v == -1 && (byte & 0x40))))) {
			u8(b, byte);
			return;
		}
		u8(b, byte | 0x80);
	}
}

/* An abbreviation: code, tag, children, then (attribute, form) pairs
 * ending with 0, 0 (an implicit_const's value follows its form) */
static void abbrev(struct buf *b, unsigned int code, unsigned int tag, int children, ...)
{
	va_list ap;
	unsigned int at, form;

	leb(b, code, false);
	leb(b, tag, false);
	u8(b, (unsigned int)children);
	va_start(ap, children);
	do {
		at = va_arg(ap, unsigned int);
		form = va_arg(ap, unsigned int);
		leb(b, at, false);
		leb(b, form, false);
		if (form == DW_FORM_implicit_const)
			leb(b, va_arg(ap, int), true);
	} while (at || form);
	va_end(ap);
}

/* What a unit's struct S is made of */
struct shape {
	unsigned int b_off;     /* member b's offset */
	unsigned int b_type;    /* STR_INT or STR_CHAR: which base type b is */
	unsigned int int_size;  /* of the base type named int */
	unsigned int a_name;    /* member a's name */
};

static const struct shape plain = { 4, STR_INT, 4, STR_A };

/* The units' sections and headers */
struct dwarf {
	struct buf info, abbrev;
	struct lbtfi_dr_unit_hdr units[12];
	uint32_t nunits;
	uint64_t s_off[12];      /* struct S of each unit */
	uint64_t int_sec[12];    /* its int (section offsets) */
	struct lbtfi_dr_file f;
	struct lbtfi_dr_ctx c;
	struct lbtfi_dw_reuse_unit ru;
};

/* A DWARF 5 unit's header: a compile unit, or a type unit (DW_UT_type) of
 * signature sig (its type offset left 0: type_unit sets it); its
 * abbreviations at abbrev_off */
static uint64_t unit_begin_as(struct dwarf *d, unsigned int unit_type, uint64_t abbrev_off, uint64_t sig)
{
	struct lbtfi_dr_unit_hdr *h = &d->units[d->nunits];

	memset(h, 0, sizeof(*h));
	h->off = d->info.n;
	h->abbrev_off = abbrev_off;
	h->version = 5;
	h->addr_size = 8;
	h->offset_size = 4;
	h->unit_type = (uint8_t)unit_type;
	h->tag = unit_type == DW_UT_type ? DW_TAG_type_unit : DW_TAG_compile_unit;
	u32(&d->info, 0); /* (length, set at the end) */
	u16(&d->info, 5);
	u8(&d->info, unit_type);
	u8(&d->info, 8);
	u32(&d->info, (uint32_t)h->abbrev_off);
	if (unit_type == DW_UT_type) {
		h->sig = sig;
		u32(&d->info, (uint32_t)sig);
		u32(&d->info, (uint32_t)(sig >> 32));
		u32(&d->info, 0); /* (the type's offset, 20 bytes in) */
	}
	h->die_off = d->info.n;
	return h->off;
}

/* A compile unit with the abbreviations that follow it */
static uint64_t unit_begin(struct dwarf *d)
{
	return unit_begin_as(d, DW_UT_compile, d->abbrev.n, 0);
}

/* The unit ends after S's last member: the ends of S's children and of
 * the unit's */
static void unit_end(struct dwarf *d)
{
	struct lbtfi_dr_unit_hdr *h = &d->units[d->nunits++];
	uint32_t len;

	u8(&d->info, 0);
	u8(&d->info, 0);
	len = (uint32_t)(d->info.n - h->off - 4);
	h->end = d->info.n;
	memcpy(d->info.b + h->off, &len, 4);
}

/* A member DIE of abbreviation code (name strp, type ref4/ref_addr, offset data1) */
static void member(struct dwarf *d, unsigned int code, uint32_t name, uint64_t type, unsigned int off)
{
	u8(&d->info, code), u32(&d->info, name), u32(&d->info, (uint32_t)type), u8(&d->info, off);
}

/* A unit in the first layout: abbreviation codes 1..5 in tree order, the
 * common forms */
static void unit_first(struct dwarf *d, const struct shape *s)
{
	uint64_t base = unit_begin(d), int_off, char_off;

	abbrev(&d->abbrev, 1, DW_TAG_compile_unit, true, 0, 0);
	abbrev(&d->abbrev, 2, DW_TAG_base_type, false, DW_AT_name, DW_FORM_strp,
	       DW_AT_byte_size, DW_FORM_data1, DW_AT_encoding, DW_FORM_data1, 0, 0);
	abbrev(&d->abbrev, 3, DW_TAG_structure_type, true, DW_AT_name, DW_FORM_strp,
	       DW_AT_byte_size, DW_FORM_data1, DW_AT_decl_line, DW_FORM_data1, 0, 0);
	abbrev(&d->abbrev, 4, DW_TAG_member, false, DW_AT_name, DW_FORM_strp, DW_AT_type, DW_FORM_ref4,
	       DW_AT_data_member_location, DW_FORM_data1, 0, 0);
	u8(&d->abbrev, 0);
	u8(&d->info, 1);
	int_off = d->info.n - base;
	d->int_sec[d->nunits] = d->info.n;
	u8(&d->info, 2), u32(&d->info, STR_INT), u8(&d->info, s->int_size), u8(&d->info, DW_ATE_signed);
	char_off = d->info.n - base;
	u8(&d->info, 2), u32(&d->info, STR_CHAR), u8(&d->info, 1), u8(&d->info, DW_ATE_signed_char);
	d->s_off[d->nunits] = d->info.n;
	u8(&d->info, 3), u32(&d->info, STR_S), u8(&d->info, 8), u8(&d->info, 42);
	member(d, 4, s->a_name, int_off, 0);
	u8(&d->info, 4), u32(&d->info, STR_B), u32(&d->info, (uint32_t)(s->b_type == STR_INT ? int_off : char_off));
	u8(&d->info, s->b_off);
	unit_end(d);
}

/* The same types with other codes, attribute orders and forms: the
 * struct's size as udata (a variable-size attribute: the others after it
 * in a segment of their own), the base type's as data2, the first member's
 * offset as an implicit_const, the second's as data2, a decl_line between */
static void unit_second(struct dwarf *d, const struct shape *s)
{
	uint64_t base = unit_begin(d), int_off;

	abbrev(&d->abbrev, 9, DW_TAG_member, false, DW_AT_decl_line, DW_FORM_data2,
	       DW_AT_data_member_location, DW_FORM_data2, DW_AT_type, DW_FORM_ref4, DW_AT_name,
	       DW_FORM_strp, 0, 0);
	abbrev(&d->abbrev, 7, DW_TAG_compile_unit, true, 0, 0);
	abbrev(&d->abbrev, 5, DW_TAG_structure_type, true, DW_AT_byte_size, DW_FORM_udata,
	       DW_AT_name, DW_FORM_strp, 0, 0);
	abbrev(&d->abbrev, 3, DW_TAG_base_type, false, DW_AT_encoding, DW_FORM_data1,
	       DW_AT_byte_size, DW_FORM_data2, DW_AT_name, DW_FORM_strp, 0, 0);
	abbrev(&d->abbrev, 2, DW_TAG_member, false, DW_AT_type, DW_FORM_ref4, DW_AT_name, DW_FORM_strp,
	       DW_AT_data_member_location, DW_FORM_implicit_const, 0, 0, 0);
	u8(&d->abbrev, 0);
	u8(&d->info, 7);
	u8(&d->info, 0x55); /* (padding a DIE could not start at: offsets differ) */
	int_off = d->info.n - base;
	d->int_sec[d->nunits] = d->info.n;
	u8(&d->info, 3), u8(&d->info, DW_ATE_signed), u16(&d->info, 4), u32(&d->info, STR_INT);
	d->s_off[d->nunits] = d->info.n;
	u8(&d->info, 5), leb(&d->info, 8, false), u32(&d->info, STR_S);
	u8(&d->info, 2), u32(&d->info, (uint32_t)int_off), u32(&d->info, STR_A);
	u8(&d->info, 9), u16(&d->info, 1000), u16(&d->info, s->b_off), u32(&d->info, (uint32_t)int_off);
	u32(&d->info, STR_B);
	unit_end(d);
}

static void dwarf_open(struct dwarf *d)
{
	d->f.s[DS_INFO] = (struct lbtfi_dr_sect){ d->info.b, d->info.n };
	d->f.s[DS_ABBREV] = (struct lbtfi_dr_sect){ d->abbrev.b, d->abbrev.n };
	d->f.s[DS_STR] = (struct lbtfi_dr_sect){ (const uint8_t *)strs, sizeof(strs) };
	d->f.root = &d->f;
	d->f.units = d->units;
	d->f.nunits = d->nunits;
	lbtfi_dr_ctx_init(&d->c, &d->f);
	d->ru.rd = &d->c;
	assert_int_equal(lbtfi_dw_dies_init(&d->ru.map), 0);
	lbtfi_dw_sigs_init(&d->ru.sigs);
}

static void dwarf_close(struct dwarf *d)
{
	lbtfi_dw_sigs_free(&d->ru.sigs);
	lbtfi_dw_dies_free(&d->ru.map);
	lbtfi_dr_ctx_free(&d->c);
}

/* The signature of unit k's struct S, as a unit's conversion computes it
 * (the DIE table and signatures cleared for the unit) */
static struct lbtfi_dw_sig sig_of_unit(struct dwarf *d, uint32_t k)
{
	const struct lbtfi_dw_sig *s;
	struct lbtfi_dw_die die;
	int err;

	lbtfi_dw_dies_clear(&d->ru.map);
	lbtfi_dw_sigs_clear(&d->ru.sigs);
	assert_int_equal(lbtfi_dr_die_at(&d->c, &d->f, d->s_off[k], &die), 0);
	assert_int_equal(lbtfi_dr_tag(&die), DW_TAG_structure_type);
	s = lbtfi_dw_sig_of(&d->ru, &die, &err);
	assert_int_equal(err, 0);
	assert_non_null(s);
	return *s;
}

/* The signature of the DIE at section offset off, or NULL (without an
 * error), the DIE table as the signatures before it left it */
static const struct lbtfi_dw_sig *sig_kept(struct dwarf *d, uint64_t off)
{
	const struct lbtfi_dw_sig *s;
	struct lbtfi_dw_die die;
	int err = -1;

	assert_int_equal(lbtfi_dr_die_at(&d->c, &d->f, off, &die), 0);
	s = lbtfi_dw_sig_of(&d->ru, &die, &err);
	assert_int_equal(err, 0);
	return s;
}

static bool same(const struct lbtfi_dw_sig *x, const struct lbtfi_dw_sig *y)
{
	return x->a == y->a && x->b == y->b;
}

/* One struct in two layouts of abbreviations and forms: one signature */
static void test_forms_agree(void **state)
{
	static struct dwarf d;
	struct lbtfi_dw_sig s0, s1, again;

	(void)state;
	memset(&d, 0, sizeof(d));
	unit_first(&d, &plain);
	unit_second(&d, &plain);
	dwarf_open(&d);
	s0 = sig_of_unit(&d, 0);
	s1 = sig_of_unit(&d, 1);
	assert_true(same(&s0, &s1));
	/* (compiled once per unit: the second reading of unit 0 goes
	 * through the plans its first one made, for its own unit) */
	again = sig_of_unit(&d, 0);
	assert_true(same(&s0, &again));
	assert_ptr_equal(d.ru.sigs.plans.h, &d.units[0]);
	dwarf_close(&d);
}

/* A unit whose S refers to the int of another unit (DW_FORM_ref_addr, at
 * section offset int_sec) */
static void unit_ref_other(struct dwarf *d, uint64_t int_sec)
{
	unit_begin(d);
	abbrev(&d->abbrev, 1, DW_TAG_compile_unit, true, 0, 0);
	abbrev(&d->abbrev, 2, DW_TAG_structure_type, true, DW_AT_name, DW_FORM_strp,
	       DW_AT_byte_size, DW_FORM_data1, 0, 0);
	abbrev(&d->abbrev, 3, DW_TAG_member, false, DW_AT_name, DW_FORM_strp, DW_AT_type, DW_FORM_ref_addr,
	       DW_AT_data_member_location, DW_FORM_data1, 0, 0);
	u8(&d->abbrev, 0);
	u8(&d->info, 1);
	d->s_off[d->nunits] = d->info.n;
	u8(&d->info, 2), u32(&d->info, STR_S), u8(&d->info, 8);
	member(d, 3, STR_A, int_sec, 0);
	member(d, 3, STR_B, int_sec, 4);
	unit_end(d);
}

/* A DIE of a unit whose plans the table does not hold (the int of another
 * unit, which a reference leads to) is hashed by a plan made for it: the
 * same signature as with the int of S's own unit */
static void test_plan_of_another_unit(void **state)
{
	static struct dwarf d;
	struct lbtfi_dw_sig s0, s2;

	(void)state;
	memset(&d, 0, sizeof(d));
	unit_first(&d, &plain);
	unit_second(&d, &plain);
	unit_ref_other(&d, d.int_sec[1]);
	dwarf_open(&d);
	s0 = sig_of_unit(&d, 0);
	s2 = sig_of_unit(&d, 2);
	assert_ptr_equal(d.ru.sigs.plans.h, &d.units[2]); /* (not unit 1's) */
	assert_true(same(&s0, &s2));
	dwarf_close(&d);
}

/* What the converter would make differently gives another signature, in
 * either layout */
static void test_differences_differ(void **state)
{
	static const struct shape diff[] = {
		{ 0, STR_INT, 4, STR_A },     /* b's offset */
		{ 4, STR_CHAR, 4, STR_A },    /* b's type */
		{ 4, STR_INT, 8, STR_A },     /* int's size */
		{ 4, STR_INT, 4, STR_B },     /* a's name */
	};
	static struct dwarf d;
	struct lbtfi_dw_sig s0, s1, sd;
	unsigned int i;

	(void)state;
	memset(&d, 0, sizeof(d));
	unit_first(&d, &plain);
	unit_second(&d, &plain);
	for (i = 0; i < 4; i++)
		unit_first(&d, &diff[i]);
	/* (the second layout has no char: its b's offset only) */
	unit_second(&d, &diff[0]);
	dwarf_open(&d);
	s0 = sig_of_unit(&d, 0);
	s1 = sig_of_unit(&d, 1);
	assert_true(same(&s0, &s1));
	for (i = 2; i < d.nunits; i++) {
		sd = sig_of_unit(&d, i);
		assert_false(same(&s0, &sd));
	}
	/* (the two with b at 0, in either layout, agree with each other) */
	s0 = sig_of_unit(&d, 2);
	s1 = sig_of_unit(&d, 6);
	assert_true(same(&s0, &s1));
	dwarf_close(&d);
}

/* The abbreviations of the edge tests' units: 1 the unit, 2 a named
 * struct (name strp, size data1), 3 a member (as member() writes it), 4 a
 * pointer (size, type ref4); the unit's own ones follow */
static void edge_abbrevs(struct dwarf *d)
{
	abbrev(&d->abbrev, 1, DW_TAG_compile_unit, true, 0, 0);
	abbrev(&d->abbrev, 2, DW_TAG_structure_type, true, DW_AT_name, DW_FORM_strp,
	       DW_AT_byte_size, DW_FORM_data1, 0, 0);
	abbrev(&d->abbrev, 3, DW_TAG_member, false, DW_AT_name, DW_FORM_strp, DW_AT_type, DW_FORM_ref4,
	       DW_AT_data_member_location, DW_FORM_data1, 0, 0);
	abbrev(&d->abbrev, 4, DW_TAG_pointer_type, false, DW_AT_byte_size, DW_FORM_data1,
	       DW_AT_type, DW_FORM_ref4, 0, 0);
}

/* A pointer (abbreviation 4) to the DIE at unit offset target: its offset */
static uint64_t pointer(struct dwarf *d, uint64_t base, uint64_t target)
{
	uint64_t off = d->info.n - base;

	u8(&d->info, 4), u8(&d->info, 8), u32(&d->info, (uint32_t)target);
	return off;
}

/* A unit whose S holds a T by value twice and points to it twice (one
 * pointer type): T, a named struct, is S's only edge, listed once */
static void unit_edges(struct dwarf *d)
{
	uint64_t base = unit_begin(d), t_off, ptr_off;

	edge_abbrevs(d);
	u8(&d->abbrev, 0);
	u8(&d->info, 1);
	t_off = d->info.n - base; /* struct T { } (named "int": any name) */
	u8(&d->info, 2), u32(&d->info, STR_INT), u8(&d->info, 4);
	u8(&d->info, 0);
	ptr_off = pointer(d, base, t_off);
	d->s_off[d->nunits] = d->info.n;
	u8(&d->info, 2), u32(&d->info, STR_S), u8(&d->info, 24);
	member(d, 3, STR_A, t_off, 0);
	member(d, 3, STR_B, t_off, 4);
	member(d, 3, STR_A, ptr_off, 8);
	member(d, 3, STR_B, ptr_off, 16);
	unit_end(d);
}

/* A named struct reached four times (twice by value, twice through one
 * pointer) is one edge of the signature; so again in the next unit's
 * collection (each collection its own) */
static void test_edges_once(void **state)
{
	static struct dwarf d;
	struct lbtfi_dw_sig s;
	uint32_t k;

	(void)state;
	memset(&d, 0, sizeof(d));
	unit_edges(&d);
	unit_edges(&d);
	dwarf_open(&d);
	for (k = 0; k < 2; k++) {
		s = sig_of_unit(&d, k);
		assert_int_equal(s.nedges, 1);
		assert_int_equal(d.ru.sigs.named[d.ru.sigs.edge[s.edges]].key, d.units[k].die_off + 1);
	}
	dwarf_close(&d);
}

/* A unit whose S holds, in order: a pointer to T; an anonymous struct A
 * of a pointer to T and a pointer to U; a void pointer (a signature without
 * edges); a pointer to U. Returns A's section offset. */
static uint64_t unit_nested_edges(struct dwarf *d)
{
	uint64_t base = unit_begin(d), t_off, u_off, pt_off, pu_off, void_off, a_off;

	edge_abbrevs(d);
	abbrev(&d->abbrev, 5, DW_TAG_pointer_type, false, DW_AT_byte_size, DW_FORM_data1, 0, 0);
	abbrev(&d->abbrev, 6, DW_TAG_structure_type, true, DW_AT_byte_size, DW_FORM_data1, 0, 0);
	u8(&d->abbrev, 0);
	u8(&d->info, 1);
	t_off = d->info.n - base; /* struct T { } (named "int": any name) */
	u8(&d->info, 2), u32(&d->info, STR_INT), u8(&d->info, 4);
	u8(&d->info, 0);
	u_off = d->info.n - base; /* struct U { } (named "char") */
	u8(&d->info, 2), u32(&d->info, STR_CHAR), u8(&d->info, 4);
	u8(&d->info, 0);
	pt_off = pointer(d, base, t_off);
	pu_off = pointer(d, base, u_off);
	void_off = d->info.n - base;
	u8(&d->info, 5), u8(&d->info, 8);
	a_off = d->info.n - base;
	u8(&d->info, 6), u8(&d->info, 16);
	member(d, 3, STR_A, pt_off, 0);
	member(d, 3, STR_B, pu_off, 8);
	u8(&d->info, 0);
	d->s_off[d->nunits] = d->info.n;
	u8(&d->info, 2), u32(&d->info, STR_S), u8(&d->info, 40);
	member(d, 3, STR_A, pt_off, 0);
	member(d, 3, STR_B, a_off, 8);
	member(d, 3, STR_A, void_off, 24);
	member(d, 3, STR_B, pu_off, 32);
	unit_end(d);
	return base + a_off;
}

/* The named struct of edge i of signature s: its key */
static uint64_t edge_key(const struct dwarf *d, const struct lbtfi_dw_sig *s, uint32_t i)
{
	return d->ru.sigs.named[d->ru.sigs.edge[s->edges + i]].key;
}

/*
 * The converter's way in (lbtfi_dw_sig_of_slot): the DIE's slot, made
 * before by the converter (here after another key's), named by number;
 * the signature is memoised in that slot, the same as lbtfi_dw_sig_of
 * finds by the key, no slot added for the key, and the references met
 * noted in their targets' slots (T's: what S's members led to); asked
 * again, the slot answers, also that the DIE has no signature
 */
static void test_sig_of_slot(void **state)
{
	static struct dwarf d;
	const struct lbtfi_dw_sig *s, *again;
	struct lbtfi_dw_die_slot *slot;
	struct lbtfi_dw_die die;
	uint32_t sn, cnt;
	int err;

	(void)state;
	memset(&d, 0, sizeof(d));
	unit_edges(&d);
	dwarf_open(&d);
	lbtfi_dw_dies_clear(&d.ru.map);
	lbtfi_dw_sigs_clear(&d.ru.sigs);
	assert_int_equal(lbtfi_dr_die_at(&d.c, &d.f, d.s_off[0], &die), 0);
	assert_non_null(lbtfi_dw_dies_add(&d.ru.map, lbtfi_dr_key(&die) + 1));
	assert_non_null(slot = lbtfi_dw_dies_add(&d.ru.map, lbtfi_dr_key(&die)));
	sn = (uint32_t)(slot - d.ru.map.slots);
	assert_int_equal(sn, 1);
	s = lbtfi_dw_sig_of_slot(&d.ru, &die, sn, &err);
	assert_int_equal(err, 0);
	assert_non_null(s);
	assert_ptr_equal(s, &d.ru.map.slots[sn].sig);
	assert_int_equal(d.ru.map.slots[sn].ref, LBTFI_DW_NONE);
	assert_int_equal(d.ru.map.slots[0].sig.nedges, LBTFI_DW_SIG_NEW);
	assert_int_equal(s->nedges, 1);
	assert_int_equal(lbtfi_dw_dies_get(&d.ru.map, d.units[0].die_off + 1)->ref,
			 LBTFI_DW_SIG_NAMED | d.ru.sigs.edge[s->edges]);
	cnt = d.ru.map.cnt;
	again = lbtfi_dw_sig_of(&d.ru, &die, &err);
	assert_ptr_equal(again, s);
	assert_int_equal(d.ru.map.cnt, cnt);
	/* (memoised: answered from the slot; one without a signature too) */
	err = -1;
	assert_ptr_equal(lbtfi_dw_sig_of_slot(&d.ru, &die, sn, &err), s);
	assert_int_equal(err, 0);
	d.ru.map.slots[sn].sig.nedges = LBTFI_DW_SIG_NONE;
	err = -1;
	assert_null(lbtfi_dw_sig_of_slot(&d.ru, &die, sn, &err));
	assert_int_equal(err, 0);
	assert_int_equal(d.ru.map.cnt, cnt);
	dwarf_close(&d);
}

/*
 * A signature made while the DIE table grows: the slot the DIE's signature
 * is memoised in moves when a reference in its hash adds a slot (the table
 * filled up to its room but one before, the DIE's own slot the last one),
 * and the signature is the one a roomy table gives, in the slot where the
 * DIE is now (sanitizers: no write through the slot's old place)
 */
static void test_sig_slots_move(void **state)
{
	static struct dwarf d;
	struct lbtfi_dw_sig roomy;
	const struct lbtfi_dw_sig *s;
	uint32_t cap, i;

	(void)state;
	memset(&d, 0, sizeof(d));
	unit_first(&d, &plain);
	dwarf_open(&d);
	roomy = sig_of_unit(&d, 0);
	lbtfi_dw_dies_clear(&d.ru.map);
	lbtfi_dw_sigs_clear(&d.ru.sigs);
	cap = d.ru.map.cap;
	assert_true(cap > 0 && d.ru.map.cnt == 0);
	/* (keys far from the unit's: none of them a DIE's) */
	for (i = 0; i + 1 < cap; i++)
		assert_non_null(lbtfi_dw_dies_add(&d.ru.map, 0x40000000 + i));
	assert_non_null(s = sig_kept(&d, d.s_off[0]));
	assert_true(d.ru.map.cap > cap); /* (it grew) */
	assert_ptr_equal(s, &lbtfi_dw_dies_get(&d.ru.map, d.s_off[0])->sig);
	assert_ptr_equal(s, &d.ru.map.slots[cap - 1].sig);
	assert_true(same(s, &roomy));
	assert_int_equal(s->nedges, roomy.nedges);
	dwarf_close(&d);
}

/*
 * A cycle with no name on it: an anonymous struct A whose member is a
 * pointer P to A. Neither has a signature (the hash of either would
 * depend on itself), nor has another pointer Q to A, whether A is hashed
 * first (Q then finds A's slot with no signature) or Q is (A is then met
 * again while it is being hashed); a named struct N in a cycle (its member
 * a pointer to N) has one, N its one edge.
 */
static void test_cycle_without_name(void **state)
{
	static struct dwarf d;
	uint64_t base, a, p, q, n, np, at_p, at_n;
	const struct lbtfi_dw_sig *s;
	int order, k;
	/* (the DIEs hashed first, in each order) */
	const uint64_t *first[2] = { &a, &q };

	(void)state;
	memset(&d, 0, sizeof(d));
	base = unit_begin(&d);
	abbrev(&d.abbrev, 1, DW_TAG_compile_unit, true, 0, 0);
	abbrev(&d.abbrev, 2, DW_TAG_structure_type, true, DW_AT_byte_size, DW_FORM_data1, 0, 0);
	abbrev(&d.abbrev, 3, DW_TAG_member, false, DW_AT_name, DW_FORM_strp, DW_AT_type, DW_FORM_ref4,
	       DW_AT_data_member_location, DW_FORM_data1, 0, 0);
	abbrev(&d.abbrev, 4, DW_TAG_pointer_type, false, DW_AT_byte_size, DW_FORM_data1, DW_AT_type,
	       DW_FORM_ref4, 0, 0);
	abbrev(&d.abbrev, 5, DW_TAG_structure_type, true, DW_AT_name, DW_FORM_strp, DW_AT_byte_size,
	       DW_FORM_data1, 0, 0);
	u8(&d.abbrev, 0);
	u8(&d.info, 1);
	a = d.info.n;
	u8(&d.info, 2), u8(&d.info, 8);
	at_p = d.info.n + 5; /* (the member's type, set once P is written) */
	member(&d, 3, STR_A, 0, 0);
	u8(&d.info, 0);
	p = d.info.n;
	u8(&d.info, 4), u8(&d.info, 8), u32(&d.info, (uint32_t)(a - base));
	q = d.info.n;
	u8(&d.info, 4), u8(&d.info, 8), u32(&d.info, (uint32_t)(a - base));
	np = d.info.n;
	at_n = d.info.n + 2; /* (NP's type, set once N is written) */
	u8(&d.info, 4), u8(&d.info, 8), u32(&d.info, 0);
	n = d.info.n;
	u8(&d.info, 5), u32(&d.info, STR_S), u8(&d.info, 8);
	member(&d, 3, STR_B, np - base, 0);
	memcpy(d.info.b + at_p, &(uint32_t){ (uint32_t)(p - base) }, 4);
	memcpy(d.info.b + at_n, &(uint32_t){ (uint32_t)(n - base) }, 4);
	unit_end(&d); /* (the ends of N's children and of the unit's) */
	dwarf_open(&d);
	for (order = 0; order < 2; order++) {
		const uint64_t none[3] = { *first[order], order ? a : q, p };

		lbtfi_dw_dies_clear(&d.ru.map);
		lbtfi_dw_sigs_clear(&d.ru.sigs);
		for (k = 0; k < 3; k++)
			if (sig_kept(&d, none[k]))
				fail_msg("order %d: DIE at %#llx has a signature", order,
					 (unsigned long long)none[k]);
		assert_non_null(s = sig_kept(&d, order ? np : n));
		assert_int_equal(s->nedges, 1);
		assert_int_equal(edge_key(&d, s, 0), n);
	}
	dwarf_close(&d);
}

/*
 * The converter asks first, references come after: a DIE hashed at its
 * request that is no aggregate (T*) notes itself in its slot as what a
 * reference to its key leads to, an aggregate (T) does not (a reference
 * to it is by name); S, hashed after them, has the signature and the one
 * edge it has when it is hashed first
 */
static void test_converter_first(void **state)
{
	static struct dwarf d;
	struct lbtfi_dw_sig first;
	const struct lbtfi_dw_sig *s;
	struct lbtfi_dw_die die;
	/* (unit_edges' T, 6 bytes and its children's end, then T*) */
	uint64_t t_off, p_off;

	(void)state;
	memset(&d, 0, sizeof(d));
	unit_edges(&d);
	dwarf_open(&d);
	t_off = d.units[0].die_off + 1;
	p_off = t_off + 7;
	first = sig_of_unit(&d, 0);
	lbtfi_dw_dies_clear(&d.ru.map);
	lbtfi_dw_sigs_clear(&d.ru.sigs);
	assert_non_null(sig_kept(&d, t_off));
	assert_int_equal(lbtfi_dw_dies_get(&d.ru.map, t_off)->ref, LBTFI_DW_NONE);
	assert_int_equal(lbtfi_dr_die_at(&d.c, &d.f, p_off, &die), 0);
	assert_int_equal(lbtfi_dr_tag(&die), DW_TAG_pointer_type);
	assert_non_null(sig_kept(&d, p_off));
	assert_int_equal(lbtfi_dw_dies_get(&d.ru.map, p_off)->ref,
			 (uint32_t)(lbtfi_dw_dies_get(&d.ru.map, p_off) - d.ru.map.slots));
	assert_non_null(s = sig_kept(&d, d.s_off[0]));
	assert_true(same(s, &first));
	assert_int_equal(s->nedges, 1);
	assert_int_equal(edge_key(&d, s, 0), t_off);
	dwarf_close(&d);
}

/* Edges through signatures used, several of them, one inside another and
 * one without edges: S's are T, U in the order met, and so are those of the
 * anonymous struct inside it, whose first member's type is the one S used
 * just before (the anonymous one's own use, not S's) */
static void test_edges_nested(void **state)
{
	static struct dwarf d;
	const struct lbtfi_dw_sig *a;
	struct lbtfi_dw_sig s;
	struct lbtfi_dw_die die;
	uint64_t a_off, t_key, u_key;
	int err;

	(void)state;
	memset(&d, 0, sizeof(d));
	a_off = unit_nested_edges(&d);
	dwarf_open(&d);
	t_key = d.units[0].die_off + 1;
	u_key = t_key + 7;
	s = sig_of_unit(&d, 0);
	assert_int_equal(s.nedges, 2);
	assert_int_equal(edge_key(&d, &s, 0), t_key);
	assert_int_equal(edge_key(&d, &s, 1), u_key);
	/* (A's signature, memoised while S's was computed) */
	assert_int_equal(lbtfi_dr_die_at(&d.c, &d.f, a_off, &die), 0);
	a = lbtfi_dw_sig_of(&d.ru, &die, &err);
	assert_int_equal(err, 0);
	assert_non_null(a);
	assert_int_equal(a->nedges, 2);
	assert_int_equal(edge_key(&d, a, 0), t_key);
	assert_int_equal(edge_key(&d, a, 1), u_key);
	dwarf_close(&d);
}

/* A unit whose S points to D, a declaration, and to E, a definition with
 * DW_AT_declaration 0 (as DW_FORM_flag), both with a size as udata before
 * the name: the two named structs are read in place, attributes not in
 * the abbreviation's order, the first placed after a variable-size one */
static void unit_declarations(struct dwarf *d)
{
	uint64_t base = unit_begin(d), d_off, e_off, pd_off, pe_off;

	edge_abbrevs(d);
	abbrev(&d->abbrev, 5, DW_TAG_structure_type, false, DW_AT_byte_size, DW_FORM_udata,
	       DW_AT_declaration, DW_FORM_flag, DW_AT_name, DW_FORM_strp, 0, 0);
	u8(&d->abbrev, 0);
	u8(&d->info, 1);
	d_off = d->info.n - base; /* struct D (named "int"), a declaration */
	u8(&d->info, 5), leb(&d->info, 300, false), u8(&d->info, 1), u32(&d->info, STR_INT);
	e_off = d->info.n - base; /* struct E (named "char"), declaration 0 */
	u8(&d->info, 5), leb(&d->info, 4, false), u8(&d->info, 0), u32(&d->info, STR_CHAR);
	pd_off = pointer(d, base, d_off);
	pe_off = pointer(d, base, e_off);
	d->s_off[d->nunits] = d->info.n;
	u8(&d->info, 2), u32(&d->info, STR_S), u8(&d->info, 16);
	member(d, 3, STR_A, pd_off, 0);
	member(d, 3, STR_B, pe_off, 8);
	unit_end(d);
}

/* A named struct's edge has its name, and is a declaration or not as its
 * DW_AT_declaration says */
static void test_edge_declaration(void **state)
{
	static struct dwarf d;
	const struct lbtfi_dw_edge *e;
	struct lbtfi_dw_sig s;

	(void)state;
	memset(&d, 0, sizeof(d));
	unit_declarations(&d);
	dwarf_open(&d);
	s = sig_of_unit(&d, 0);
	assert_int_equal(s.nedges, 2);
	e = &d.ru.sigs.named[d.ru.sigs.edge[s.edges]];
	assert_int_equal(e->key, d.units[0].die_off + 1);
	assert_string_equal(e->name, "int");
	assert_false(e->is_def);
	e = &d.ru.sigs.named[d.ru.sigs.edge[s.edges + 1]];
	assert_string_equal(e->name, "char");
	assert_true(e->is_def);
	dwarf_close(&d);
}

/* The signature of the DIE at section offset off, as sig_of_unit's */
static struct lbtfi_dw_sig sig_at_off(struct dwarf *d, uint64_t off)
{
	const struct lbtfi_dw_sig *s;

	lbtfi_dw_dies_clear(&d->ru.map);
	lbtfi_dw_sigs_clear(&d->ru.sigs);
	s = sig_kept(d, off);
	assert_non_null(s);
	return *s;
}

/* Units i and j's DIEs (s_off) have one signature when want, else two
 * that differ in both lanes (each lane hashes every word: sig.c) */
static void expect_same(struct dwarf *d, uint32_t i, uint32_t j, bool want)
{
	struct lbtfi_dw_sig si = sig_at_off(d, d->s_off[i]), sj = sig_at_off(d, d->s_off[j]);

	if (want ? !same(&si, &sj) : si.a == sj.a || si.b == sj.b)
		fail_msg("units %u and %u: %s expected", i, j, want ? "one signature" : "two, in both lanes");
}

/* An int (abbreviation 2: name strp, size data1, encoding data1) at the
 * unit's current end: its unit offset */
static uint64_t base_int(struct dwarf *d, uint64_t base)
{
	uint64_t off = d->info.n - base;

	u8(&d->info, 2), u32(&d->info, STR_INT), u8(&d->info, 4), u8(&d->info, DW_ATE_signed);
	return off;
}

/* Abbreviations 1 (the unit) and 2 (base_int's) */
static void int_abbrevs(struct dwarf *d)
{
	abbrev(&d->abbrev, 1, DW_TAG_compile_unit, true, 0, 0);
	abbrev(&d->abbrev, 2, DW_TAG_base_type, false, DW_AT_name, DW_FORM_strp,
	       DW_AT_byte_size, DW_FORM_data1, DW_AT_encoding, DW_FORM_data1, 0, 0);
}

/* struct S { int a: bits; } with the bit size as data1 (layout 0), as
 * an implicit_const, the other attributes in another order and forms (1),
 * or as DW_FORM_indirect data1 (2: an abbreviation read by gathering) */
static void unit_bitfield(struct dwarf *d, unsigned int bits, int layout)
{
	uint64_t base = unit_begin(d), int_off;

	int_abbrevs(d);
	abbrev(&d->abbrev, 3, DW_TAG_structure_type, true, DW_AT_name, DW_FORM_strp,
	       DW_AT_byte_size, DW_FORM_data1, 0, 0);
	if (layout == 0)
		abbrev(&d->abbrev, 4, DW_TAG_member, false, DW_AT_name, DW_FORM_strp, DW_AT_type, DW_FORM_ref4,
		       DW_AT_data_member_location, DW_FORM_data1, DW_AT_bit_size, DW_FORM_data1, 0, 0);
	else if (layout == 2)
		abbrev(&d->abbrev, 4, DW_TAG_member, false, DW_AT_name, DW_FORM_strp, DW_AT_type, DW_FORM_ref4,
		       DW_AT_data_member_location, DW_FORM_data1, DW_AT_bit_size, DW_FORM_indirect, 0, 0);
	else
		abbrev(&d->abbrev, 4, DW_TAG_member, false, DW_AT_type, DW_FORM_ref4, DW_AT_bit_size,
		       DW_FORM_implicit_const, (int)bits, DW_AT_name, DW_FORM_strp,
		       DW_AT_data_member_location, DW_FORM_data2, 0, 0);
	u8(&d->abbrev, 0);
	u8(&d->info, 1);
	int_off = base_int(d, base);
	d->s_off[d->nunits] = d->info.n;
	u8(&d->info, 3), u32(&d->info, STR_S), u8(&d->info, 4);
	if (layout == 0)
		member(d, 4, STR_A, int_off, 0), u8(&d->info, bits);
	else if (layout == 2)
		member(d, 4, STR_A, int_off, 0), u8(&d->info, DW_FORM_data1), u8(&d->info, bits);
	else
		u8(&d->info, 4), u32(&d->info, (uint32_t)int_off), u32(&d->info, STR_A), u16(&d->info, 0);
	unit_end(d);
}

/* A member's bit size is hashed, whatever its form */
static void test_bit_size_differs(void **state)
{
	static struct dwarf d;

	(void)state;
	memset(&d, 0, sizeof(d));
	unit_bitfield(&d, 3, 0);
	unit_bitfield(&d, 3, 1);
	unit_bitfield(&d, 4, 0);
	unit_bitfield(&d, 4, 1);
	unit_bitfield(&d, 3, 2);
	unit_bitfield(&d, 4, 2);
	dwarf_open(&d);
	expect_same(&d, 0, 1, true);
	expect_same(&d, 2, 3, true);
	expect_same(&d, 0, 2, false);
	expect_same(&d, 1, 3, false);
	expect_same(&d, 0, 4, true);
	expect_same(&d, 3, 5, true);
	expect_same(&d, 4, 5, false);
	dwarf_close(&d);
}

/* enum S { a = v0, b = v1 } with the values as data1 before the name
 * (layout 0), as data2 (1), data4 (2) or udata (3) after it */
static void unit_enum(struct dwarf *d, unsigned int v0, unsigned int v1, int layout)
{
	unit_begin(d);
	abbrev(&d->abbrev, 1, DW_TAG_compile_unit, true, 0, 0);
	abbrev(&d->abbrev, 2, DW_TAG_enumeration_type, true, DW_AT_name, DW_FORM_strp,
	       DW_AT_byte_size, DW_FORM_data1, 0, 0);
	if (layout == 0)
		abbrev(&d->abbrev, 3, DW_TAG_enumerator, false, DW_AT_const_value, DW_FORM_data1,
		       DW_AT_name, DW_FORM_strp, 0, 0);
	else
		abbrev(&d->abbrev, 3, DW_TAG_enumerator, false, DW_AT_name, DW_FORM_strp,
		       DW_AT_const_value, layout == 1 ? DW_FORM_data2 : layout == 2 ? DW_FORM_data4 : DW_FORM_udata,
		       0, 0);
	u8(&d->abbrev, 0);
	u8(&d->info, 1);
	d->s_off[d->nunits] = d->info.n;
	u8(&d->info, 2), u32(&d->info, STR_S), u8(&d->info, 4);
	if (layout == 0) {
		u8(&d->info, 3), u8(&d->info, v0), u32(&d->info, STR_A);
		u8(&d->info, 3), u8(&d->info, v1), u32(&d->info, STR_B);
	} else if (layout == 1) {
		u8(&d->info, 3), u32(&d->info, STR_A), u16(&d->info, v0);
		u8(&d->info, 3), u32(&d->info, STR_B), u16(&d->info, v1);
	} else if (layout == 2) {
		u8(&d->info, 3), u32(&d->info, STR_A), u32(&d->info, v0);
		u8(&d->info, 3), u32(&d->info, STR_B), u32(&d->info, v1);
	} else {
		u8(&d->info, 3), u32(&d->info, STR_A), leb(&d->info, v0, false);
		u8(&d->info, 3), u32(&d->info, STR_B), leb(&d->info, v1, false);
	}
	unit_end(d);
}

/* Each enumerator's value is hashed (the first's and the last's),
 * whatever its form, on either side of 2^16 */
static void test_enumerator_value_differs(void **state)
{
	static struct dwarf d;

	(void)state;
	memset(&d, 0, sizeof(d));
	unit_enum(&d, 1, 2, 0);
	unit_enum(&d, 1, 2, 1);
	unit_enum(&d, 1, 3, 0);
	unit_enum(&d, 1, 3, 1);
	unit_enum(&d, 0, 2, 1);
	unit_enum(&d, 0xffff, 2, 1);
	unit_enum(&d, 0xffff, 2, 2);
	unit_enum(&d, 0x10000, 2, 2);
	unit_enum(&d, 0x10000, 0x10000, 2);
	unit_enum(&d, 0x10000, 2, 3);
	unit_enum(&d, 0xffff, 2, 3);
	dwarf_open(&d);
	expect_same(&d, 0, 1, true);
	expect_same(&d, 2, 3, true);
	expect_same(&d, 0, 2, false);
	expect_same(&d, 1, 3, false);
	expect_same(&d, 1, 4, false);
	expect_same(&d, 5, 6, true);
	expect_same(&d, 6, 7, false);
	expect_same(&d, 7, 8, false);
	expect_same(&d, 4, 7, false);
	expect_same(&d, 7, 9, true);
	expect_same(&d, 5, 10, true);
	dwarf_close(&d);
}

/* int (*)(params): a subroutine type returning int, its parameters'
 * types given as 'i' (int) or 'c' (char), each with a decl_line the
 * signature does not read as data2 (layout 1), as udata (2) or not (0) */
static void unit_proto(struct dwarf *d, const char *params, int layout)
{
	uint64_t base = unit_begin(d), int_off, char_off;

	int_abbrevs(d);
	abbrev(&d->abbrev, 3, DW_TAG_subroutine_type, true, DW_AT_prototyped, DW_FORM_flag_present,
	       DW_AT_type, DW_FORM_ref4, 0, 0);
	if (layout == 0)
		abbrev(&d->abbrev, 4, DW_TAG_formal_parameter, false, DW_AT_type, DW_FORM_ref4, 0, 0);
	else
		abbrev(&d->abbrev, 4, DW_TAG_formal_parameter, false, DW_AT_decl_line,
		       layout == 1 ? DW_FORM_data2 : DW_FORM_udata, DW_AT_type, DW_FORM_ref4, 0, 0);
	u8(&d->abbrev, 0);
	u8(&d->info, 1);
	int_off = base_int(d, base);
	char_off = d->info.n - base;
	u8(&d->info, 2), u32(&d->info, STR_CHAR), u8(&d->info, 1), u8(&d->info, DW_ATE_signed_char);
	d->s_off[d->nunits] = d->info.n;
	u8(&d->info, 3), u32(&d->info, (uint32_t)int_off);
	for (; *params; params++) {
		u8(&d->info, 4);
		if (layout == 1)
			u16(&d->info, 77);
		else if (layout == 2)
			leb(&d->info, 300, false);
		u32(&d->info, (uint32_t)(*params == 'i' ? int_off : char_off));
	}
	unit_end(d);
}

/* Each parameter is hashed: one of another type, one more or one fewer
 * gives another signature */
static void test_parameter_differs(void **state)
{
	static struct dwarf d;
	uint32_t k;

	(void)state;
	memset(&d, 0, sizeof(d));
	unit_proto(&d, "ic", 0);
	unit_proto(&d, "ic", 1);
	unit_proto(&d, "ii", 0);
	unit_proto(&d, "icc", 1);
	unit_proto(&d, "i", 0);
	unit_proto(&d, "", 1);
	dwarf_open(&d);
	expect_same(&d, 0, 1, true);
	for (k = 2; k < d.nunits; k++)
		expect_same(&d, 1, k, false);
	dwarf_close(&d);
}

/* A run of parameters of a fixed form (layouts 0 and 1: the type alone,
 * at offset 0 or after a line) hashes as the general path has it (2: the
 * line as udata, a variable size), each parameter counting */
static void test_parameter_runs(void **state)
{
	static struct dwarf d;

	(void)state;
	memset(&d, 0, sizeof(d));
	unit_proto(&d, "icici", 0);
	unit_proto(&d, "icici", 1);
	unit_proto(&d, "icici", 2);
	unit_proto(&d, "icicc", 0);
	unit_proto(&d, "iciic", 1);
	dwarf_open(&d);
	expect_same(&d, 0, 2, true);
	expect_same(&d, 1, 2, true);
	expect_same(&d, 2, 3, false);
	expect_same(&d, 2, 4, false);
	dwarf_close(&d);
}

/*
 * struct S { union { int x; }; int c; } with c at c_off, the union as
 * how says: 's' with a DW_AT_sibling (ref4) at c, 'n' without one, 'h'
 * with one past c (to S's null entry: c is not one of S's children as a
 * reader steps over them), 'd' without one and inside an anonymous struct
 * without one (S { struct { union { int x; }; }; int c; }), 'e' as 'n'
 * without c, 'i' as 'n' with c in the union.
 */
static void unit_nested(struct dwarf *d, char how, unsigned int c_off)
{
	uint64_t base = unit_begin(d), int_off, sib = 0;

	int_abbrevs(d);
	abbrev(&d->abbrev, 3, DW_TAG_structure_type, true, DW_AT_name, DW_FORM_strp,
	       DW_AT_byte_size, DW_FORM_data1, 0, 0);
	abbrev(&d->abbrev, 4, DW_TAG_member, false, DW_AT_name, DW_FORM_strp, DW_AT_type, DW_FORM_ref4,
	       DW_AT_data_member_location, DW_FORM_data1, 0, 0);
	abbrev(&d->abbrev, 5, DW_TAG_union_type, true, DW_AT_byte_size, DW_FORM_data1,
	       DW_AT_sibling, DW_FORM_ref4, 0, 0);
	abbrev(&d->abbrev, 6, DW_TAG_union_type, true, DW_AT_byte_size, DW_FORM_data1, 0, 0);
	abbrev(&d->abbrev, 7, DW_TAG_structure_type, true, DW_AT_byte_size, DW_FORM_data1, 0, 0);
	u8(&d->abbrev, 0);
	u8(&d->info, 1);
	int_off = base_int(d, base);
	d->s_off[d->nunits] = d->info.n;
	u8(&d->info, 3), u32(&d->info, STR_S), u8(&d->info, 8);
	if (how == 'd')
		u8(&d->info, 7), u8(&d->info, 4);
	if (how == 's' || how == 'h') {
		u8(&d->info, 5), u8(&d->info, 4);
		sib = d->info.n;
		u32(&d->info, 0); /* (set below) */
	} else {
		u8(&d->info, 6), u8(&d->info, 4);
	}
	member(d, 4, STR_A, int_off, 0);
	if (how == 'i')
		member(d, 4, STR_B, int_off, c_off);
	u8(&d->info, 0);
	if (how == 'd')
		u8(&d->info, 0);
	if (how == 's')
		memcpy(d->info.b + sib, &(uint32_t){ (uint32_t)(d->info.n - base) }, 4);
	if (how != 'e' && how != 'i')
		member(d, 4, STR_B, int_off, c_off);
	if (how == 'h')
		memcpy(d->info.b + sib, &(uint32_t){ (uint32_t)(d->info.n - base) }, 4);
	unit_end(d);
}

/* The children after one with children of its own are hashed, wherever
 * the step over it comes from (a DW_AT_sibling or the walk of its
 * children, also two levels down), and apart from its children; a
 * DW_AT_sibling that skips a child is followed, as the converter's reader
 * follows it */
static void test_after_nested_children(void **state)
{
	static struct dwarf d;

	(void)state;
	memset(&d, 0, sizeof(d));
	unit_nested(&d, 's', 4);
	unit_nested(&d, 'n', 4);
	unit_nested(&d, 's', 5);
	unit_nested(&d, 'n', 5);
	unit_nested(&d, 'h', 4);
	unit_nested(&d, 'e', 0);
	unit_nested(&d, 'd', 4);
	unit_nested(&d, 'd', 5);
	unit_nested(&d, 'i', 4);
	dwarf_open(&d);
	expect_same(&d, 0, 1, true);
	expect_same(&d, 2, 3, true);
	expect_same(&d, 0, 2, false);
	expect_same(&d, 1, 3, false);
	expect_same(&d, 4, 5, true);
	expect_same(&d, 0, 4, false);
	expect_same(&d, 6, 7, false);
	expect_same(&d, 0, 6, false);
	expect_same(&d, 1, 8, false);
	dwarf_close(&d);
}

/* struct S of members a, b, a, b, ... (of int) at offsets off[0..n-1],
 * of one abbreviation with the offset as data2 (layout 'f': a plan of a
 * fixed form, the members one run), as udata ('u': a variable size, the
 * general path), or as 'f' but for the third member, of another fixed
 * abbreviation with its offset as data1 and other attributes between
 * ('m': the run broken and taken up again) */
static void unit_run(struct dwarf *d, const unsigned int *off, unsigned int n, char layout)
{
	uint64_t base = unit_begin(d), int_off;
	unsigned int i;

	int_abbrevs(d);
	abbrev(&d->abbrev, 3, DW_TAG_structure_type, true, DW_AT_name, DW_FORM_strp,
	       DW_AT_byte_size, DW_FORM_data2, 0, 0);
	abbrev(&d->abbrev, 4, DW_TAG_member, false, DW_AT_name, DW_FORM_strp, DW_AT_type, DW_FORM_ref4,
	       DW_AT_data_member_location, layout == 'u' ? DW_FORM_udata : DW_FORM_data2, 0, 0);
	abbrev(&d->abbrev, 5, DW_TAG_member, false, DW_AT_type, DW_FORM_ref4, DW_AT_decl_line,
	       DW_FORM_data1, DW_AT_data_member_location, DW_FORM_data1, DW_AT_name, DW_FORM_strp, 0, 0);
	u8(&d->abbrev, 0);
	u8(&d->info, 1);
	int_off = base_int(d, base);
	d->s_off[d->nunits] = d->info.n;
	u8(&d->info, 3), u32(&d->info, STR_S), u16(&d->info, 0x400);
	for (i = 0; i < n; i++) {
		uint32_t name = i % 2 ? STR_B : STR_A;

		if (layout == 'm' && i == 2) {
			assert_true(off[i] < 0x100);
			u8(&d->info, 5), u32(&d->info, (uint32_t)int_off), u8(&d->info, 7);
			u8(&d->info, off[i]), u32(&d->info, name);
			continue;
		}
		u8(&d->info, 4), u32(&d->info, name), u32(&d->info, (uint32_t)int_off);
		if (layout == 'u')
			leb(&d->info, off[i], false);
		else
			u16(&d->info, off[i]);
	}
	unit_end(d);
}

/* A run of members of one abbreviation hashes as the general path has
 * it, also broken by another abbreviation and taken up again; each
 * member's offset counts, both its bytes (either side of 2^8), the last
 * member's too */
static void test_fixed_runs(void **state)
{
	static const unsigned int plain[] = { 0, 4, 8, 0x104, 0x204, 0x208 },
				  high[] = { 0, 4, 8, 0x104, 0x304, 0x208 },
				  low[] = { 0, 4, 8, 0x105, 0x204, 0x208 },
				  last[] = { 0, 4, 8, 0x104, 0x204, 0x20c };
	static struct dwarf d;

	(void)state;
	memset(&d, 0, sizeof(d));
	unit_run(&d, plain, 6, 'f');
	unit_run(&d, plain, 6, 'u');
	unit_run(&d, plain, 6, 'm');
	unit_run(&d, high, 6, 'f');
	unit_run(&d, low, 6, 'f');
	unit_run(&d, last, 6, 'f');
	unit_run(&d, last, 6, 'm');
	unit_run(&d, high, 6, 'u');
	unit_run(&d, plain, 5, 'f');
	dwarf_open(&d);
	expect_same(&d, 0, 1, true);
	expect_same(&d, 0, 2, true);
	expect_same(&d, 0, 3, false);
	expect_same(&d, 0, 4, false);
	expect_same(&d, 0, 5, false);
	expect_same(&d, 2, 6, false);
	expect_same(&d, 5, 6, true);
	expect_same(&d, 3, 7, true);
	expect_same(&d, 0, 8, false);
	dwarf_close(&d);
}

/* The plan of the DIE at section offset off, its child (kid) or not */
static void plan_at(struct dwarf *d, uint64_t off, bool kid, struct lbtfi_dw_plan *pl)
{
	struct lbtfi_dw_die die, c;

	assert_int_equal(lbtfi_dr_die_at(&d->c, &d->f, off, &die), 0);
	if (kid) {
		assert_true(lbtfi_dr_child(&die, &c));
		die = c;
	}
	memset(pl, 0xa5, sizeof(*pl));
	lbtfi_dw_plan_compile(die.u, die.ab, pl);
}

/* Which plans have a fixed form, and its places: a name, a type, then
 * constants of 1 or 2 bytes, in an abbreviation of fixed-size forms */
static void test_fixed_form(void **state)
{
	static const unsigned int offs[] = { 0, 4, 8 };
	static struct dwarf d;
	struct lbtfi_dw_plan pl;

	(void)state;
	memset(&d, 0, sizeof(d));
	unit_run(&d, offs, 3, 'f');
	unit_run(&d, offs, 3, 'u');
	unit_run(&d, offs, 3, 'm');
	unit_enum(&d, 1, 2, 2);
	dwarf_open(&d);
	/* the struct: a name, a 2-byte size */
	plan_at(&d, d.s_off[0], false, &pl);
	assert_int_equal(pl.fixed, LBTFI_PLAN_FIXED | LBTFI_PLAN_FIXED_NAME);
	assert_int_equal(pl.name_off, 0);
	assert_int_equal(pl.nconst, 1);
	assert_int_equal(pl.coff[0], 4);
	assert_int_equal(pl.cwide, 1);
	/* its member: name, type, a 2-byte offset */
	plan_at(&d, d.s_off[0], true, &pl);
	assert_int_equal(pl.fixed, LBTFI_PLAN_FIXED | LBTFI_PLAN_FIXED_NAME | LBTFI_PLAN_FIXED_TYPE);
	assert_int_equal(pl.name_off, 0);
	assert_int_equal(pl.type_off, 4);
	assert_int_equal(pl.nconst, 1);
	assert_int_equal(pl.coff[0], 8);
	assert_int_equal(pl.cwide, 1);
	/* the int before it: a name, two 1-byte constants */
	plan_at(&d, d.s_off[0] - 7, false, &pl);
	assert_int_equal(pl.fixed, LBTFI_PLAN_FIXED | LBTFI_PLAN_FIXED_NAME);
	assert_int_equal(pl.nconst, 2);
	assert_int_equal(pl.coff[0], 4);
	assert_int_equal(pl.coff[1], 5);
	assert_int_equal(pl.cwide, 0);
	/* a udata offset: a variable size, no fixed form */
	plan_at(&d, d.s_off[1], true, &pl);
	assert_int_equal(pl.fixed, 0);
	/* the third member of 'm': the type first, a line not hashed, the
	 * name last, the ops by slot */
	plan_at(&d, d.s_off[2] + 7 + 11 + 11, false, &pl);
	assert_int_equal(pl.fixed, LBTFI_PLAN_FIXED | LBTFI_PLAN_FIXED_NAME | LBTFI_PLAN_FIXED_TYPE);
	assert_int_equal(pl.name_off, 6);
	assert_int_equal(pl.type_off, 0);
	assert_int_equal(pl.nconst, 1);
	assert_int_equal(pl.coff[0], 5);
	assert_int_equal(pl.cwide, 0);
	/* an enumerator's 4-byte value: no fixed form */
	plan_at(&d, d.s_off[3], true, &pl);
	assert_int_equal(pl.fixed, 0);
	dwarf_close(&d);
}

/* A pointer to int of byte size size, the size as an implicit_const
 * (layout 'i': a word known from the abbreviation), data1 ('d'), udata
 * ('u': the general path) or sdata ('s'); then a declaration of struct S,
 * its flag as flag_present ('i', 'd') or flag ('u', 's'): s_off is the
 * pointer, the declaration follows it */
static void unit_ptr(struct dwarf *d, int size, char layout)
{
	uint64_t base = unit_begin(d), int_off;

	int_abbrevs(d);
	if (layout == 'i')
		abbrev(&d->abbrev, 3, DW_TAG_pointer_type, false, DW_AT_type, DW_FORM_ref4, DW_AT_byte_size,
		       DW_FORM_implicit_const, size, 0, 0);
	else
		abbrev(&d->abbrev, 3, DW_TAG_pointer_type, false, DW_AT_byte_size,
		       layout == 'd' ? DW_FORM_data1 : layout == 'u' ? DW_FORM_udata : DW_FORM_sdata,
		       DW_AT_type, DW_FORM_ref4, 0, 0);
	abbrev(&d->abbrev, 4, DW_TAG_structure_type, false, DW_AT_name, DW_FORM_strp, DW_AT_declaration,
	       layout == 'i' || layout == 'd' ? DW_FORM_flag_present : DW_FORM_flag, 0, 0);
	u8(&d->abbrev, 0);
	u8(&d->info, 1);
	int_off = base_int(d, base);
	d->s_off[d->nunits] = d->info.n;
	u8(&d->info, 3);
	if (layout == 'd')
		u8(&d->info, (unsigned int)size);
	else if (layout != 'i')
		leb(&d->info, size, layout == 's');
	u32(&d->info, (uint32_t)int_off);
	u8(&d->info, 4), u32(&d->info, STR_S);
	if (layout == 'u' || layout == 's')
		u8(&d->info, 1);
	unit_end(d);
}

/* Words a fixed form knows from the abbreviation (an implicit_const, a
 * flag_present) are those of the general path, and the constant counts;
 * a negative implicit_const is left to the general path */
static void test_fixed_known_words(void **state)
{
	static struct dwarf d;
	struct lbtfi_dw_plan pl;
	uint32_t k;

	(void)state;
	memset(&d, 0, sizeof(d));
	unit_ptr(&d, 8, 'i');
	unit_ptr(&d, 8, 'd');
	unit_ptr(&d, 8, 'u');
	unit_ptr(&d, 4, 'i');
	unit_ptr(&d, -8, 'i');
	unit_ptr(&d, -8, 's');
	unit_ptr(&d, 8, 's');
	dwarf_open(&d);
	plan_at(&d, d.s_off[0], false, &pl);
	assert_int_equal(pl.fixed, LBTFI_PLAN_FIXED | LBTFI_PLAN_FIXED_TYPE);
	assert_int_equal(pl.nconst, 1);
	assert_int_equal(pl.cknown, 1);
	plan_at(&d, d.s_off[0] + 5, false, &pl); /* (the declaration) */
	assert_int_equal(pl.fixed, LBTFI_PLAN_FIXED | LBTFI_PLAN_FIXED_NAME);
	assert_int_equal(pl.nconst, 1);
	assert_int_equal(pl.cknown, 1);
	plan_at(&d, d.s_off[4], false, &pl);
	assert_int_equal(pl.fixed, 0);
	expect_same(&d, 0, 1, true);
	expect_same(&d, 0, 2, true);
	expect_same(&d, 0, 6, true);
	expect_same(&d, 0, 3, false);
	expect_same(&d, 4, 5, true);
	expect_same(&d, 0, 4, false);
	/* the declarations (after a pointer of 5 or 6 bytes): flag_present
	 * known, flag read */
	for (k = 0; k < d.nunits; k++)
		d.s_off[k] += k == 0 || k == 3 || k == 4 ? 5 : 6;
	expect_same(&d, 0, 1, true);
	expect_same(&d, 0, 2, true);
	expect_same(&d, 3, 5, true);
	dwarf_close(&d);
}

/* Stubs: a type named by DW_AT_signature (a declaration whose
 * DW_FORM_ref_sig8 names a type unit) is the type its type unit
 * describes. Abbreviations, one table for all units: 1 compile unit, 2 an
 * int, 3 an anonymous struct, 4 a member, 5 a type unit, 6 a stub, 7 a
 * pointer, 8 a named struct */
static void stub_abbrevs(struct dwarf *d)
{
	int_abbrevs(d);
	abbrev(&d->abbrev, 3, DW_TAG_structure_type, true, DW_AT_byte_size, DW_FORM_data1, 0, 0);
	abbrev(&d->abbrev, 4, DW_TAG_member, false, DW_AT_name, DW_FORM_strp, DW_AT_type, DW_FORM_ref4,
	       DW_AT_data_member_location, DW_FORM_data1, 0, 0);
	abbrev(&d->abbrev, 5, DW_TAG_type_unit, true, 0, 0);
	abbrev(&d->abbrev, 6, DW_TAG_structure_type, false, DW_AT_declaration, DW_FORM_flag_present,
	       DW_AT_signature, DW_FORM_ref_sig8, 0, 0);
	abbrev(&d->abbrev, 7, DW_TAG_pointer_type, false, DW_AT_byte_size, DW_FORM_data1,
	       DW_AT_type, DW_FORM_ref4, 0, 0);
	abbrev(&d->abbrev, 8, DW_TAG_structure_type, true, DW_AT_name, DW_FORM_strp,
	       DW_AT_byte_size, DW_FORM_data1, 0, 0);
	u8(&d->abbrev, 0);
}

/* A type unit of signature sig: an int, then the struct it describes (its
 * name if name, member a an int or, a_char, a char): the struct's section
 * offset */
static uint64_t type_unit(struct dwarf *d, uint64_t sig, uint32_t name, bool a_char)
{
	uint64_t base = unit_begin_as(d, DW_UT_type, 0, sig), base_off, off;

	u8(&d->info, 5);
	base_off = d->info.n - base;
	u8(&d->info, 2), u32(&d->info, a_char ? STR_CHAR : STR_INT), u8(&d->info, a_char ? 1 : 4);
	u8(&d->info, a_char ? DW_ATE_signed_char : DW_ATE_signed);
	off = d->info.n;
	d->units[d->nunits].type_off = off;
	memcpy(d->info.b + base + 20, &(uint32_t){ (uint32_t)(off - base) }, 4);
	if (name)
		u8(&d->info, 8), u32(&d->info, name), u8(&d->info, 4);
	else
		u8(&d->info, 3), u8(&d->info, 4);
	member(d, 4, STR_A, base_off, 0);
	unit_end(d);
	return off;
}

/* Where a stub unit's referrers are (section offsets) */
struct stub_refs {
	uint64_t ptr, memb; /* a pointer to the stub; a struct whose member is one */
};

/* A compile unit with a stub of signature sig (or, sig 0, the struct
 * { int a; } defined in place), a pointer to it and an anonymous struct
 * { stub a; } */
static struct stub_refs stub_unit(struct dwarf *d, uint64_t sig)
{
	uint64_t base = unit_begin_as(d, DW_UT_compile, 0, 0), stub, int_off;
	struct stub_refs r;

	u8(&d->info, 1);
	if (sig) {
		stub = d->info.n - base;
		u8(&d->info, 6), u32(&d->info, (uint32_t)sig), u32(&d->info, (uint32_t)(sig >> 32));
	} else {
		int_off = base_int(d, base);
		stub = d->info.n - base;
		u8(&d->info, 3), u8(&d->info, 4);
		member(d, 4, STR_A, int_off, 0);
		u8(&d->info, 0);
	}
	r.ptr = d->info.n;
	u8(&d->info, 7), u8(&d->info, 8), u32(&d->info, (uint32_t)stub);
	r.memb = d->info.n;
	u8(&d->info, 3), u8(&d->info, 4);
	member(d, 4, STR_A, stub, 0);
	unit_end(d);
	return r;
}

/* Whether the DIEs at section offsets x and y have one signature (want),
 * else two that differ in both lanes */
static void expect_same_at(struct dwarf *d, uint64_t x, uint64_t y, bool want, const char *what)
{
	struct lbtfi_dw_sig sx = sig_at_off(d, x), sy = sig_at_off(d, y);

	if (want ? !same(&sx, &sy) : sx.a == sy.a || sx.b == sy.b)
		fail_msg("%s: %s expected", what, want ? "one signature" : "two, in both lanes");
}

/* A pointer to a stub and a struct with a stub member hash as if they
 * referred to the type unit's type: the same in two units whose stubs
 * name one type unit and as with the struct defined in place, other ones
 * when the type units' structs differ (member a an int or a char); a stub
 * of a named struct makes that struct (its type unit's DIE) the edge, not
 * the stub. Through ref_new, for the reference of a pointer (a fixed
 * plan's DW_AT_type) and of a member (a run's) */
static void test_signature_stubs(void **state)
{
	static struct dwarf d;
	static struct lbtfi_dr_sig sigs[3];
	const uint64_t sig_int = 0x1111111111111111ull, sig_char = 0x2222222222222222ull,
		       sig_named = 0x3333333333333333ull;
	struct stub_refs r[5];
	struct lbtfi_dw_sig s;
	uint64_t named;
	uint32_t k;

	(void)state;
	memset(&d, 0, sizeof(d));
	stub_abbrevs(&d);
	sigs[0] = (struct lbtfi_dr_sig){ sig_int, type_unit(&d, sig_int, 0, false) };
	sigs[1] = (struct lbtfi_dr_sig){ sig_char, type_unit(&d, sig_char, 0, true) };
	named = type_unit(&d, sig_named, STR_S, false);
	sigs[2] = (struct lbtfi_dr_sig){ sig_named, named };
	r[0] = stub_unit(&d, sig_int);
	r[1] = stub_unit(&d, sig_int);
	r[2] = stub_unit(&d, sig_char);
	r[3] = stub_unit(&d, sig_named);
	r[4] = stub_unit(&d, 0);
	d.f.sigs = sigs; /* (sorted by signature, as the reader has them) */
	d.f.nsigs = 3;
	dwarf_open(&d);
	expect_same_at(&d, r[0].ptr, r[1].ptr, true, "pointers to stubs of one type unit");
	expect_same_at(&d, r[0].memb, r[1].memb, true, "members of stubs of one type unit");
	expect_same_at(&d, r[0].ptr, r[4].ptr, true, "pointers to a stub and to its struct in place");
	expect_same_at(&d, r[0].memb, r[4].memb, true, "members of a stub and of its struct in place");
	expect_same_at(&d, r[0].ptr, r[2].ptr, false, "pointers to stubs of two type units");
	expect_same_at(&d, r[0].memb, r[2].memb, false, "members of stubs of two type units");
	for (k = 0; k < 2; k++) {
		s = sig_at_off(&d, k ? r[3].memb : r[3].ptr);
		assert_int_equal(s.nedges, 1);
		assert_int_equal(d.ru.sigs.named[d.ru.sigs.edge[s.edges]].key, named);
	}
	dwarf_close(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms_agree),
		cmocka_unit_test(test_plan_of_another_unit),
		cmocka_unit_test(test_differences_differ),
		cmocka_unit_test(test_edges_once),
		cmocka_unit_test(test_sig_of_slot),
		cmocka_unit_test(test_sig_slots_move),
		cmocka_unit_test(test_cycle_without_name),
		cmocka_unit_test(test_converter_first),
		cmocka_unit_test(test_edges_nested),
		cmocka_unit_test(test_edge_declaration),
		cmocka_unit_test(test_bit_size_differs),
		cmocka_unit_test(test_enumerator_value_differs),
		cmocka_unit_test(test_parameter_differs),
		cmocka_unit_test(test_parameter_runs),
		cmocka_unit_test(test_after_nested_children),
		cmocka_unit_test(test_fixed_runs),
		cmocka_unit_test(test_fixed_form),
		cmocka_unit_test(test_fixed_known_words),
		cmocka_unit_test(test_signature_stubs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
