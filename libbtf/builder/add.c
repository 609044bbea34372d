// SPDX-License-Identifier: BSD-2-Clause
/*
 * lbtf_builder_add_*: one call per BTF kind, each validating its arguments the way
 * libbpf's btf__add_* do, returning the new id or a negative errno.
 * Composite kinds grow by appending elements to the last added type.
 */
#include <limits.h>
#include <string.h>
#include "internal.h"

#define MAX_TYPE_ID 0x7fffffffu
#define MAX_VLEN_16 0xffffu /* the 2024 format; LBTF_MAX_VLEN with a layout */

static bool empty(const char *s)
{
	return !s || !*s;
}

static int check_id(uint32_t id, const char *what)
{
	if (id > MAX_TYPE_ID)
		return lbtfi_err(EINVAL, "%s type id %u out of range", what, id);
	return 0;
}

/*
 * Add a record: header (name at name_off, info, size/type) plus extra
 * zeroed words. Returns the id; *extra points at the words after the header.
 */
static int add_rec_at(struct lbtf_builder *b, uint32_t name_off, uint32_t info, uint32_t size_type,
		      size_t extra_words, uint32_t **extra)
{
	uint32_t *w = lbtfi_builder_reserve(b, 3 + extra_words);

	if (!w)
		return -errno;
	w[0] = name_off;
	w[1] = info;
	w[2] = size_type;
	if (extra)
		*extra = w + 3;
	return (int)(b->start_id + b->nr_types - 1);
}

/* The same, the name given as a string */
static int add_rec(struct lbtf_builder *b, const char *name, uint32_t info, uint32_t size_type,
		   size_t extra_words, uint32_t **extra)
{
	int name_off = lbtf_builder_add_str(b, name);

	if (name_off < 0)
		return name_off;
	return add_rec_at(b, (uint32_t)name_off, info, size_type, extra_words, extra);
}

/* A record with one word after the header (INT encoding, VAR linkage,
 * DECL_TAG component index), its name at name_off */
static int add_rec_word_at(struct lbtf_builder *b, uint32_t name_off, uint32_t info,
			   uint32_t size_type, uint32_t word)
{
	uint32_t *extra = NULL;
	int id = add_rec_at(b, name_off, info, size_type, 1, &extra);

	if (id > 0)
		*extra = word;
	return id;
}

static int add_rec_word(struct lbtf_builder *b, const char *name, uint32_t info,
			uint32_t size_type, uint32_t word)
{
	int name_off = lbtf_builder_add_str(b, name);

	if (name_off < 0)
		return name_off;
	return add_rec_word_at(b, (uint32_t)name_off, info, size_type, word);
}

static bool pow2_upto(uint32_t v, uint32_t max)
{
	return v && !(v & (v - 1)) && v <= max;
}

int lbtf_builder_add_int(struct lbtf_builder *b, const char *name, uint32_t byte_sz,
			 uint32_t encoding)
{
	if (empty(name))
		return lbtfi_err(EINVAL, "INT needs a name");
	if (!pow2_upto(byte_sz, 16))
		return lbtfi_err(EINVAL, "INT '%s': size %u is not 1, 2, 4, 8 or 16", name, byte_sz);
	if (encoding & ~(LBTF_INT_SIGNED | LBTF_INT_CHAR | LBTF_INT_BOOL))
		return lbtfi_err(EINVAL, "INT '%s': bad encoding 0x%x", name, encoding);
	return add_rec_word(b, name, lbtf_info(LBTF_KIND_INT, 0, 0), byte_sz,
			    (encoding << 24) | (byte_sz * 8));
}

int lbtf_builder_add_float(struct lbtf_builder *b, const char *name, uint32_t byte_sz)
{
	if (empty(name))
		return lbtfi_err(EINVAL, "FLOAT needs a name");
	if (byte_sz != 2 && byte_sz != 4 && byte_sz != 8 && byte_sz != 12 && byte_sz != 16)
		return lbtfi_err(EINVAL, "FLOAT '%s': size %u is not 2, 4, 8, 12 or 16", name, byte_sz);
	return add_rec(b, name, lbtf_info(LBTF_KIND_FLOAT, 0, 0), byte_sz, 0, NULL);
}

static int add_ref(struct lbtf_builder *b, unsigned int kind, const char *name, uint32_t ref)
{
	int err = check_id(ref, lbtf_kind_name(kind));

	if (err)
		return err;
	return add_rec(b, name, lbtf_info(kind, 0, 0), ref, 0, NULL);
}

int lbtf_builder_add_ptr(struct lbtf_builder *b, uint32_t ref)
{
	return add_ref(b, LBTF_KIND_PTR, NULL, ref);
}

int lbtf_builder_add_volatile(struct lbtf_builder *b, uint32_t ref)
{
	return add_ref(b, LBTF_KIND_VOLATILE, NULL, ref);
}

int lbtf_builder_add_const(struct lbtf_builder *b, uint32_t ref)
{
	return add_ref(b, LBTF_KIND_CONST, NULL, ref);
}

int lbtf_builder_add_restrict(struct lbtf_builder *b, uint32_t ref)
{
	return add_ref(b, LBTF_KIND_RESTRICT, NULL, ref);
}

int lbtf_builder_add_typedef(struct lbtf_builder *b, const char *name, uint32_t ref)
{
	if (empty(name))
		return lbtfi_err(EINVAL, "TYPEDEF needs a name");
	return add_ref(b, LBTF_KIND_TYPEDEF, name, ref);
}

int lbtf_builder_add_type_tag(struct lbtf_builder *b, const char *value, uint32_t ref)
{
	if (empty(value))
		return lbtfi_err(EINVAL, "TYPE_TAG needs a value");
	return add_ref(b, LBTF_KIND_TYPE_TAG, value, ref);
}

int lbtfi_builder_add_type_attr(struct lbtf_builder *b, const char *value, uint32_t ref)
{
	int err;

	if (empty(value))
		return lbtfi_err(EINVAL, "TYPE_TAG needs a value");
	if ((err = check_id(ref, "TYPE_TAG")))
		return err;
	return add_rec(b, value, lbtf_info(LBTF_KIND_TYPE_TAG, 0, 1), ref, 0, NULL);
}

int lbtf_builder_add_array(struct lbtf_builder *b, uint32_t index_type, uint32_t elem_type,
			   uint32_t nelems)
{
	uint32_t *extra = NULL;
	int id;

	if ((id = check_id(index_type, "ARRAY index")) || (id = check_id(elem_type, "ARRAY element")))
		return id;
	id = add_rec(b, NULL, lbtf_info(LBTF_KIND_ARRAY, 0, 0), 0, 3, &extra);
	if (id > 0) {
		extra[0] = elem_type;
		extra[1] = index_type;
		extra[2] = nelems;
	}
	return id;
}

int lbtf_builder_add_struct(struct lbtf_builder *b, const char *name, uint32_t byte_sz)
{
	return add_rec(b, name, lbtf_info(LBTF_KIND_STRUCT, 0, 0), byte_sz, 0, NULL);
}

int lbtf_builder_add_union(struct lbtf_builder *b, const char *name, uint32_t byte_sz)
{
	return add_rec(b, name, lbtf_info(LBTF_KIND_UNION, 0, 0), byte_sz, 0, NULL);
}

#define FAR_BITS (1u << 24) /* offsets from here on do not fit the bitfield encoding */

/* The last type if it is of kind k1 or k2; else NULL with the error set */
static struct lbtf_type *last_kind_of(struct lbtf_builder *b, unsigned int k1, unsigned int k2,
				      const char *what)
{
	struct lbtf_type *t;

	if (!b->nr_types) {
		lbtfi_err(EINVAL, "%s: no type to append to", what);
		return NULL;
	}
	t = lbtfi_btype(b, b->start_id + b->nr_types - 1);
	if (lbtf_kind(t) != k1 && lbtf_kind(t) != k2) {
		lbtfi_err(EINVAL, "%s: last type is %s", what, lbtf_kind_name(lbtf_kind(t)));
		return NULL;
	}
	return t;
}

static bool full(const struct lbtf_builder *b, const struct lbtf_type *t)
{
	return lbtf_vlen(t) >= (b->layout_sec ? LBTF_MAX_VLEN : MAX_VLEN_16);
}

static int full_err(const struct lbtf_builder *b, const char *what)
{
	if (b->layout_sec)
		return lbtfi_err(E2BIG, "%s: type already has %u elements, the 24-bit vlen's most",
				 what, LBTF_MAX_VLEN);
	return lbtfi_err(E2BIG, "%s: type already has %u elements; more need the 24-bit "
			 "vlen of the layout format (lbtf_builder_set_layout)", what, MAX_VLEN_16);
}

/*
 * The last type, if it is of kind k1 or k2 and can take one more element;
 * else NULL with the error set.
 */
static struct lbtf_type *last_of(struct lbtf_builder *b, unsigned int k1, unsigned int k2,
				 const char *what)
{
	struct lbtf_type *t = last_kind_of(b, k1, k2, what);

	if (t && full(b, t)) {
		full_err(b, what);
		return NULL;
	}
	return t;
}

/*
 * Append one element of n words to the last type (which must be at the end
 * of the word array); returns the element's words or NULL.
 */
static uint32_t *take_elem(struct lbtf_builder *b, size_t n)
{
	uint32_t *w = b->words + b->nwords;
	struct lbtf_type *t;

	b->nwords += n;
	t = lbtfi_btype(b, b->start_id + b->nr_types - 1);
	t->info = lbtf_info(lbtf_kind(t), lbtf_vlen(t) + 1, lbtf_kflag(t));
	return w;
}

static uint32_t *append_elem(struct lbtf_builder *b, size_t n)
{
	if (lbtfi_builder_grow_words(b, n))
		return NULL;
	return take_elem(b, n);
}

static int last_id(const struct lbtf_builder *b)
{
	return (int)(b->start_id + b->nr_types - 1);
}

/*
 * Append an element to the last type: its name first when named (the name
 * string is interned before the words grow), then the n words of vals.
 * Returns the last type's id.
 */
static int push_elem(struct lbtf_builder *b, bool named, const char *name, const uint32_t *vals,
		     size_t n)
{
	int name_off = 0;
	uint32_t *w;

	if (named && (name_off = lbtf_builder_add_str(b, name)) < 0)
		return name_off;
	w = append_elem(b, n + named);
	if (!w)
		return -errno;
	if (named)
		*w++ = (uint32_t)name_off;
	memcpy(w, vals, n * sizeof(*w));
	return last_id(b);
}

/*
 * The rules for one member of a struct or union, or one parameter of a
 * FUNC_PROTO, kept once for lbtf_builder_add_field, lbtf_builder_add_func_param
 * and lbtfi_builder_add_elems (which appends n at once): each element is
 * checked against the type as the elements before it left it (its count,
 * the kind flag a bitfield turns on, members already too far for the
 * bitfield encoding), so n at once fail where n calls would.
 */
enum elem_fault {
	ELEM_OK,
	ELEM_FULL,		/* the vlen is at its most */
	ELEM_BAD_ID,		/* type id above 2^31 - 1 */
	ELEM_VOID_PARAM,	/* a named parameter of type void */
	ELEM_WIDE_BITFIELD,	/* bitfield size above 255 */
	ELEM_FAR_BITFIELD,	/* offset past 2^24 in the bitfield encoding */
	ELEM_UNION_OFFSET,	/* a union member not at offset 0 */
	ELEM_EARLIER_FAR,	/* a bitfield when an earlier member is past 2^24 */
};

/* The first member of t at a bit offset the bitfield encoding cannot hold, or NULL */
static const struct lbtf_member *first_far(const struct lbtf_type *t)
{
	for (unsigned int i = 0; i < lbtf_vlen(t); i++)
		if (lbtf_members(t)[i].offset >= FAR_BITS)
			return &lbtf_members(t)[i];
	return NULL;
}

/* Whether m can be appended to t (the last type, a member's or a parameter's owner) */
static inline enum elem_fault elem_fault(const struct lbtf_builder *b, const struct lbtf_type *t,
					 bool fields, const struct lbtfi_builder_elem *m)
{
	bool bitfield = m->bit_size > 0;

	if (full(b, t))
		return ELEM_FULL;
	if (m->type > MAX_TYPE_ID)
		return ELEM_BAD_ID;
	if (!fields)
		return !m->type && !empty(m->name) ? ELEM_VOID_PARAM : ELEM_OK;
	if (m->bit_size > 255)
		return ELEM_WIDE_BITFIELD;
	if ((bitfield || lbtf_kflag(t)) && m->bit_offset >= FAR_BITS)
		return ELEM_FAR_BITFIELD;
	if (lbtf_kind(t) == LBTF_KIND_UNION && m->bit_offset)
		return ELEM_UNION_OFFSET;
	/* the earlier members switch to the kflag encoding: they must fit
	 * (looked for once per type: after it the kind flag is on) */
	if (bitfield && !lbtf_kflag(t) && first_far(t))
		return ELEM_EARLIER_FAR;
	return ELEM_OK;
}

/* The error of fault f (not ELEM_OK) at element m of t */
static int elem_err(const struct lbtf_builder *b, const struct lbtf_type *t, bool fields,
		    enum elem_fault f, const struct lbtfi_builder_elem *m)
{
	const char *what = fields ? "field" : "parameter", *name = m->name ? m->name : "";

	switch (f) {
	case ELEM_FULL:
		return full_err(b, what);
	case ELEM_BAD_ID:
		return check_id(m->type, what);
	case ELEM_VOID_PARAM:
		return lbtfi_err(EINVAL, "parameter '%s' has type void", name);
	case ELEM_WIDE_BITFIELD:
		return lbtfi_err(EINVAL, "field '%s': bitfield size %u > 255", name, m->bit_size);
	case ELEM_FAR_BITFIELD:
		return lbtfi_err(EINVAL, "field '%s': bit offset %u too large for a struct with bitfields",
				 name, m->bit_offset);
	case ELEM_UNION_OFFSET:
		return lbtfi_err(EINVAL, "field '%s': union members must be at offset 0 (got %u)",
				 name, m->bit_offset);
	case ELEM_EARLIER_FAR:
		return lbtfi_err(EINVAL, "field '%s': earlier member at bit %u does not fit the bitfield encoding",
				 name, first_far(t)->offset);
	case ELEM_OK:
		break;
	}
	return lbtfi_err(EINVAL, "%s '%s': no fault to report", what, name);
}

/* The i-th of elements stride bytes apart, from first */
static inline const struct lbtfi_builder_elem *nth(const struct lbtfi_builder_elem *first, size_t stride,
						   uint32_t i)
{
	return (const void *)((const char *)first + i * stride);
}

/*
 * n members (fields) or parameters appended to the last type: the words
 * made room for once, then each element checked (elem_fault), its name
 * interned and its words written in place. At the first element that
 * fails, the ones before it are in and its error is returned.
 */
static int add_elems(struct lbtf_builder *b, bool fields, const struct lbtfi_builder_elem *e,
		     uint32_t n, size_t stride)
{
	struct lbtf_type *t = fields ? last_kind_of(b, LBTF_KIND_STRUCT, LBTF_KIND_UNION, "field")
				     : last_kind_of(b, LBTF_KIND_FUNC_PROTO, LBTF_KIND_FUNC_PROTO, "parameter");
	size_t words = fields ? 3 : 2;
	uint32_t i;
	int err;

	if (!t)
		return -errno;
	if (n && (err = lbtfi_builder_grow_words(b, n * words)))
		return err;
	t = lbtfi_btype(b, (uint32_t)last_id(b)); /* (the words may have moved; names do not move them) */
	for (i = 0; i < n; i++) {
		const struct lbtfi_builder_elem *m = nth(e, stride, i);
		enum elem_fault f = elem_fault(b, t, fields, m);
		int name_off;
		uint32_t *w;

		if (f != ELEM_OK)
			return elem_err(b, t, fields, f, m);
		if ((name_off = lbtf_builder_add_str(b, m->name)) < 0) /* (another buffer) */
			return name_off;
		w = take_elem(b, words);
		w[0] = (uint32_t)name_off;
		w[1] = m->type;
		if (!fields)
			continue;
		w[2] = m->bit_size ? (m->bit_size << 24) | m->bit_offset : m->bit_offset;
		if (m->bit_size)
			t->info |= 1u << 31;
	}
	return last_id(b);
}

int lbtf_builder_add_field(struct lbtf_builder *b, const char *name, uint32_t type,
			   uint32_t bit_offset, uint32_t bit_size)
{
	const struct lbtfi_builder_elem m = { name, type, bit_offset, bit_size };

	return add_elems(b, true, &m, 1, sizeof(m));
}

int lbtf_builder_add_func_param(struct lbtf_builder *b, const char *name, uint32_t type)
{
	const struct lbtfi_builder_elem m = { name, type, 0, 0 };

	return add_elems(b, false, &m, 1, sizeof(m));
}

int lbtfi_builder_add_elems(struct lbtf_builder *b, const struct lbtfi_builder_elem *e, uint32_t n,
			    size_t stride)
{
	bool params = b->nr_types && lbtf_kind(lbtfi_btype(b, (uint32_t)last_id(b))) == LBTF_KIND_FUNC_PROTO;

	return add_elems(b, !params, e, n, stride);
}

static int add_enum_kind(struct lbtf_builder *b, unsigned int kind, const char *name,
			 uint32_t byte_sz, bool is_signed)
{
	if (!pow2_upto(byte_sz, 8))
		return lbtfi_err(EINVAL, "%s '%s': size %u is not 1, 2, 4 or 8", lbtf_kind_name(kind),
				 name ? name : "", byte_sz);
	return add_rec(b, name, lbtf_info(kind, 0, is_signed), byte_sz, 0, NULL);
}

int lbtf_builder_add_enum(struct lbtf_builder *b, const char *name, uint32_t byte_sz,
			  bool is_signed)
{
	return add_enum_kind(b, LBTF_KIND_ENUM, name, byte_sz, is_signed);
}

int lbtf_builder_add_enum64(struct lbtf_builder *b, const char *name, uint32_t byte_sz,
			    bool is_signed)
{
	return add_enum_kind(b, LBTF_KIND_ENUM64, name, byte_sz, is_signed);
}

int lbtf_builder_add_enum_value(struct lbtf_builder *b, const char *name, int64_t value)
{
	struct lbtf_type *t = last_of(b, LBTF_KIND_ENUM, LBTF_KIND_ENUM, "enum value");
	uint32_t v = (uint32_t)value;
	int id;

	if (!t)
		return -errno;
	if (empty(name))
		return lbtfi_err(EINVAL, "enum value needs a name");
	if (value < INT32_MIN || value > UINT32_MAX)
		return lbtfi_err(E2BIG, "enum value '%s' = %lld does not fit 32 bits (use ENUM64)",
				 name, (long long)value);
	id = push_elem(b, true, name, &v, 1);
	if (id > 0 && value < 0) /* a negative value makes the enum signed */
		lbtfi_btype(b, (uint32_t)id)->info |= 1u << 31;
	return id;
}

int lbtf_builder_add_enum64_value(struct lbtf_builder *b, const char *name, uint64_t value)
{
	struct lbtf_type *t = last_of(b, LBTF_KIND_ENUM64, LBTF_KIND_ENUM64, "enum64 value");
	uint32_t vals[2] = { (uint32_t)value, (uint32_t)(value >> 32) };

	if (!t)
		return -errno;
	if (empty(name))
		return lbtfi_err(EINVAL, "enum64 value needs a name");
	return push_elem(b, true, name, vals, 2);
}

int lbtf_builder_add_fwd(struct lbtf_builder *b, const char *name, enum lbtf_fwd_kind fwd_kind)
{
	if (empty(name))
		return lbtfi_err(EINVAL, "FWD needs a name");
	switch (fwd_kind) {
	case LBTF_FWD_STRUCT:
	case LBTF_FWD_UNION:
		return add_rec(b, name, lbtf_info(LBTF_KIND_FWD, 0, fwd_kind == LBTF_FWD_UNION), 0, 0, NULL);
	case LBTF_FWD_ENUM:
		/* an enum forward declaration is an ENUM without values */
		return add_rec(b, name, lbtf_info(LBTF_KIND_ENUM, 0, 0), 4, 0, NULL);
	}
	return lbtfi_err(EINVAL, "FWD '%s': bad forward kind %d", name, (int)fwd_kind);
}

static bool linkage_ok(int linkage)
{
	return linkage == LBTF_LINKAGE_STATIC || linkage == LBTF_LINKAGE_GLOBAL ||
	       linkage == LBTF_LINKAGE_EXTERN;
}

int lbtf_builder_add_func(struct lbtf_builder *b, const char *name, int linkage, uint32_t proto)
{
	int err;

	if (empty(name))
		return lbtfi_err(EINVAL, "FUNC needs a name");
	if (!linkage_ok(linkage))
		return lbtfi_err(EINVAL, "FUNC '%s': bad linkage %d", name, linkage);
	if ((err = check_id(proto, "FUNC prototype")))
		return err;
	return add_rec(b, name, lbtf_info(LBTF_KIND_FUNC, (unsigned int)linkage, 0), proto, 0, NULL);
}

int lbtf_builder_add_func_proto(struct lbtf_builder *b, uint32_t ret_type)
{
	return add_ref(b, LBTF_KIND_FUNC_PROTO, NULL, ret_type);
}

int lbtf_builder_add_var(struct lbtf_builder *b, const char *name, int linkage, uint32_t type)
{
	int id;

	if (empty(name))
		return lbtfi_err(EINVAL, "VAR needs a name");
	if (!linkage_ok(linkage))
		return lbtfi_err(EINVAL, "VAR '%s': bad linkage %d", name, linkage);
	if ((id = check_id(type, "VAR")))
		return id;
	return add_rec_word(b, name, lbtf_info(LBTF_KIND_VAR, 0, 0), type, (uint32_t)linkage);
}

int lbtf_builder_add_datasec(struct lbtf_builder *b, const char *name, uint32_t byte_sz)
{
	if (empty(name))
		return lbtfi_err(EINVAL, "DATASEC needs a name");
	return add_rec(b, name, lbtf_info(LBTF_KIND_DATASEC, 0, 0), byte_sz, 0, NULL);
}

int lbtf_builder_add_datasec_var_info(struct lbtf_builder *b, uint32_t var, uint32_t offset,
				      uint32_t byte_sz)
{
	struct lbtf_type *t = last_of(b, LBTF_KIND_DATASEC, LBTF_KIND_DATASEC, "datasec variable");
	uint32_t vals[3] = { var, offset, byte_sz };
	int err;

	if (!t)
		return -errno;
	if ((err = check_id(var, "datasec variable")))
		return err;
	if (!var)
		return lbtfi_err(EINVAL, "datasec variable: type id 0");
	return push_elem(b, false, NULL, vals, 3);
}

static int decl_tag_check(const char *value, uint32_t ref, int component_idx)
{
	int err;

	if (empty(value))
		return lbtfi_err(EINVAL, "DECL_TAG needs a value");
	if (component_idx < -1)
		return lbtfi_err(EINVAL, "DECL_TAG '%s': bad component index %d", value, component_idx);
	if ((err = check_id(ref, "DECL_TAG")))
		return err;
	if (!ref)
		return lbtfi_err(EINVAL, "DECL_TAG '%s': tagged type id 0", value);
	return 0;
}

int lbtf_builder_add_decl_tag(struct lbtf_builder *b, const char *value, uint32_t ref,
			      int component_idx)
{
	int err = decl_tag_check(value, ref, component_idx);

	if (err)
		return err;
	return add_rec_word(b, value, lbtf_info(LBTF_KIND_DECL_TAG, 0, 0), ref,
			    (uint32_t)component_idx);
}

/* Whether b's own strings hold s whole at offset off */
static bool own_string_at(const struct lbtf_builder *b, uint32_t off, const char *s)
{
	size_t o;

	if (off < b->start_str_off || off - b->start_str_off >= b->strs.len)
		return false;
	o = off - b->start_str_off;
	return (!o || !b->strs.data[o - 1]) && !strcmp(b->strs.data + o, s);
}

int lbtfi_builder_add_decl_tag_memo(struct lbtf_builder *b, const char *value, uint32_t *off,
				    uint32_t ref, int component_idx)
{
	int err = decl_tag_check(value, ref, component_idx), name_off;

	if (err)
		return err;
	/* (a base's strings come first in lbtf_builder_add_str: not memoised) */
	if (b->base || !own_string_at(b, *off, value)) {
		if ((name_off = lbtf_builder_add_str(b, value)) < 0)
			return name_off;
		*off = (uint32_t)name_off;
	}
	return add_rec_word_at(b, *off, lbtf_info(LBTF_KIND_DECL_TAG, 0, 0), ref, (uint32_t)component_idx);
}
