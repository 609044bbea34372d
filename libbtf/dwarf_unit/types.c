// SPDX-License-Identifier: BSD-2-Clause
/*
 * DWARF type DIEs -> BTF types, one unit at a time, into the unit's builder.
 *
 * Types are converted on first use and memoized by DIE. A DIE is marked "in
 * progress" while its references are resolved; a reference that reaches a
 * DIE in progress (a cycle, always through a struct/union in C) gets a 0
 * placeholder and a fixup that is patched once the unit is done. Composite
 * records (struct, enum, func proto) are added only after all their member
 * types exist, because the builder appends members to the last type.
 *
 * One converter per DWARF tag, in a table indexed by tag (lbtfi_dw_std_tags[]);
 * structs, unions and enums are in aggr.c.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "util/tls.h"

#define MAX_DEPTH 20000

int lbtfi_dw_fixup_add(struct lbtfi_dw_unit *u, uint32_t id, uint32_t word, uint64_t key)
{
	int err = lbtfi_dw_grow(&u->fix, &u->capfix, u->nfix, sizeof(*u->fix), 64);

	if (err)
		return err;
	u->fix[u->nfix++] = (struct lbtfi_dw_fixup){ id, word, key };
	return 0;
}

int lbtfi_dw_fixups_apply(struct lbtfi_dw_unit *u)
{
	uint32_t i;

	for (i = 0; i < u->nfix; i++) {
		const struct lbtfi_dw_die_slot *d = lbtfi_dw_dies_get(&u->ru.map, u->fix[i].key);
		struct lbtf_type *t = lbtf_builder_type_by_id(u->b, u->fix[i].id);

		if (!d || d->id == LBTFI_DW_NONE || d->id == LBTFI_DW_ID_IN_PROGRESS || !t)
			return lbtfi_err(EINVAL, "DWARF type cycle without a struct at DIE 0x%llx",
					 (unsigned long long)(u->fix[i].key & ~(LBTFI_DW_KEY_ALT | LBTFI_DW_KEY_TYPES)));
		((uint32_t *)t)[u->fix[i].word] = d->id;
	}
	u->nfix = 0;
	return 0;
}

/* References ---------------------------------------------------------------- */

/* The DIE a DW_AT_type names, through tags BTF has no record for (C11
 * _Atomic is layout-transparent). false: no type (void). */

bool lbtfi_dw_type_target(struct lbtfi_dw_unit *u, const struct lbtfi_dw_attr *type, struct lbtfi_dw_die *out)
{
	struct lbtfi_dw_attrs da;
	int guard = 64;

	if (!type || !lbtfi_dr_ref(u->rd, type, out))
		return false;
	lbtfi_dw_follow_signature(u->rd, out);
	while (lbtfi_dr_tag(out) == DW_TAG_atomic_type && guard--) {
		lbtfi_dw_attrs_read(u, out, &da);
		if (!lbtfi_dw_type_target(u, lbtfi_dw_attrs_get(&da, DA_TYPE), out))
			return false;
	}
	return true;
}

static int64_t convert(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, uint64_t key);

/*
 * Resolve a DW_AT_type attribute. The target is looked up by its key
 * first, without decoding it: most targets are already converted.
 */
int64_t lbtfi_dw_ref_attr(struct lbtfi_dw_unit *u, const struct lbtfi_dw_attr *a, uint64_t *pending_key)
{
	uint64_t key, direct = 0;
	const struct lbtfi_dw_die_slot *d = NULL;
	struct lbtfi_dw_die t;

	*pending_key = 0;
	if (!a)
		return 0;
	if (lbtfi_dr_ref_key(a, &direct) && (d = lbtfi_dw_dies_get(&u->ru.map, direct)) && d->id < LBTFI_DW_NONE)
		return d->id;
	if (!lbtfi_dw_type_target(u, a, &t))
		return 0;
	key = lbtfi_dr_key(&t);
	/* looked up already unless _Atomic or a signature led elsewhere */
	if (key != direct)
		d = lbtfi_dw_dies_get(&u->ru.map, key);
	if (d && d->id != LBTFI_DW_NONE) {
		if (d->id != LBTFI_DW_ID_IN_PROGRESS)
			return d->id;
		*pending_key = key;
		return 0;
	}
	return convert(u, &t, key);
}

int64_t lbtfi_dw_ref_of(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, uint64_t *pending_key)
{
	struct lbtfi_dw_attrs da;

	lbtfi_dw_attrs_read(u, die, &da);
	return lbtfi_dw_ref_attr(u, lbtfi_dw_attrs_get(&da, DA_TYPE), pending_key);
}

/* Add a single-reference record with a possibly pending target */
static int64_t with_fixup(struct lbtfi_dw_unit *u, int64_t id, uint32_t word, uint64_t pend)
{
	if (id < 0 || !pend)
		return id;
	return lbtfi_dw_fixup_add(u, id, word, pend) ?: id;
}

/* Base types ---------------------------------------------------------------- */

/* An INT the unit adds once, on first use (*slot caches its id) */
static int64_t unit_int(struct lbtfi_dw_unit *u, uint32_t *slot, const char *name, uint32_t size,
			uint32_t flags)
{
	if (!*slot) {
		int id = lbtf_builder_add_int(u->b, name, size, flags);

		if (id < 0)
			return id;
		*slot = id;
	}
	return *slot;
}

static int64_t byte_type(struct lbtfi_dw_unit *u)
{
	return unit_int(u, &u->byte_id, "unsigned char", 1, 0);
}

static int64_t array_index_type(struct lbtfi_dw_unit *u)
{
	const struct lbtfi_dw_array_style *s = &u->g->arrays;

	return unit_int(u, &u->array_index_id, s->index_name, s->index_size, s->index_flags);
}

/* An opaque blob of sz bytes (for base types BTF cannot describe) */
static int64_t bytes_blob(struct lbtfi_dw_unit *u, uint64_t sz)
{
	int64_t elem = byte_type(u), idx = array_index_type(u);

	if (elem < 0 || idx < 0)
		return elem < 0 ? elem : idx;
	return lbtf_builder_add_array(u->b, idx, elem, sz > UINT32_MAX ? 0 : (uint32_t)sz);
}

static uint32_t pow2_at_least(uint64_t v)
{
	uint32_t p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

static int64_t conv_base(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die)
{
	uint64_t enc = 0, bits = 0;
	struct lbtfi_dw_attrs da;
	uint32_t flags = 0;
	const char *name;
	int sz;

	lbtfi_dw_attrs_read(u, die, &da);
	name = lbtfi_dw_attrs_name(&da);
	sz = lbtfi_dw_attrs_bytesize(&da);
	if (!name)
		name = "";
	lbtfi_dw_attrs_udata(&da, DA_ENCODING, &enc);
	if (sz <= 0)
		return 0; /* a size-less base type can only stand for void */
	if (enc == DW_ATE_float && (u->g->features & LBTF_DWARF_FEAT_FLOAT) &&
	    (sz == 2 || sz == 4 || sz == 8 || sz == 12 || sz == 16))
		return lbtf_builder_add_float(u->b, name, sz);
	if (enc == DW_ATE_complex_float) {
		/* layout-correct stand-in: two floats of half the size */
		int64_t part, idx = array_index_type(u);

		lbtfi_dw_warn(u, LBTFI_DW_WARN_COMPLEX_FLOAT);
		if (idx < 0)
			return idx;
		if ((u->g->features & LBTF_DWARF_FEAT_FLOAT) && (sz / 2 == 4 || sz / 2 == 8 || sz / 2 == 16))
			part = lbtf_builder_add_float(u->b, sz / 2 == 4 ? "float" :
						      sz / 2 == 8 ? "double" : "long double", sz / 2);
		else
			return bytes_blob(u, sz);
		if (part < 0)
			return part;
		return lbtf_builder_add_array(u->b, idx, part, 2);
	}
	if (enc == DW_ATE_signed || enc == DW_ATE_signed_char || enc == DW_ATE_signed_fixed)
		flags = LBTF_INT_SIGNED;
	else if (enc == DW_ATE_boolean)
		flags = LBTF_INT_BOOL;
	if (sz > 16) {
		lbtfi_dw_warn(u, LBTFI_DW_WARN_ODD_INT);
		return bytes_blob(u, sz);
	}
	if (lbtfi_dw_attrs_udata(&da, DA_BIT_SIZE, &bits) && bits && bits <= (uint64_t)sz * 8 &&
	    bits != (uint64_t)sz * 8) {
		/* _BitInt(N) and friends: keep the value bits, round the storage */
	} else {
		bits = (uint64_t)sz * 8;
	}
	if (pow2_at_least(sz) != (uint32_t)sz) {
		lbtfi_dw_warn(u, LBTFI_DW_WARN_ODD_INT);
		sz = pow2_at_least(sz);
	}
	if (bits != (uint64_t)sz * 8) {
		/* The builder takes whole-byte INTs; narrow INT records are written
		 * here by patching the bits field of the record just added. */
		int id = lbtf_builder_add_int(u->b, name, sz, flags);
		struct lbtf_type *t;

		if (id < 0)
			return id;
		t = lbtf_builder_type_by_id(u->b, id);
		if (t)
			*(uint32_t *)(t + 1) = (*(uint32_t *)(t + 1) & ~0xffu) | (uint32_t)bits;
		return id;
	}
	return lbtf_builder_add_int(u->b, name, sz, flags);
}

/* Pointers, modifiers, typedefs ------------------------------------------- */

bool lbtfi_dw_is_annotation(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *c, const char *which,
		      const char **value)
{
	struct lbtfi_dw_attrs da;
	const struct lbtfi_dw_attr *a;
	const char *n;

	if (lbtfi_dr_tag(c) != DW_TAG_LLVM_annotation)
		return false;
	lbtfi_dr_attrs(u->rd, c, &da, false);
	n = lbtfi_dw_attrs_name(&da);
	if (!n || strcmp(n, which) || !(a = lbtfi_dw_attrs_get(&da, DA_CONST_VALUE)))
		return false;
	*value = lbtfi_dr_string(a);
	return *value && **value;
}

static int64_t conv_pointer(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die)
{
	uint64_t pend;
	int64_t cur = lbtfi_dw_ref_of(u, die, &pend);
	struct lbtfi_dw_die c;

	if (cur < 0)
		return cur;
	if (lbtfi_dr_tag(die) != DW_TAG_pointer_type)
		lbtfi_dw_warn(u, LBTFI_DW_WARN_CXX_REFERENCE); /* C++ references: pointers in the ABI */
	/* btf_type_tag annotations: PTR -> last tag -> ... -> first tag -> pointee */
	if ((u->g->features & LBTF_DWARF_FEAT_TYPE_TAG) && lbtfi_dw_may_have_annotations(u, die) &&
	    lbtfi_dr_child(die, &c)) {
		do {
			const char *v;

			if (!lbtfi_dw_is_annotation(u, &c, "btf_type_tag", &v))
				continue;
			cur = with_fixup(u, lbtf_builder_add_type_tag(u->b, v, cur), W_TYPE, pend);
			if (cur < 0)
				return cur;
			pend = 0;
		} while (lbtfi_dr_sibling(&c));
	}
	return with_fixup(u, lbtf_builder_add_ptr(u->b, cur), W_TYPE, pend);
}

static int64_t conv_modifier(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die)
{
	uint64_t pend;
	int64_t ref = lbtfi_dw_ref_of(u, die, &pend), id;

	if (ref < 0)
		return ref;
	switch (lbtfi_dr_tag(die)) {
	case DW_TAG_const_type:
		id = lbtf_builder_add_const(u->b, ref);
		break;
	case DW_TAG_volatile_type:
		id = lbtf_builder_add_volatile(u->b, ref);
		break;
	default:
		id = lbtf_builder_add_restrict(u->b, ref);
		break;
	}
	return with_fixup(u, id, W_TYPE, pend);
}

static int64_t conv_typedef(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die)
{
	struct lbtfi_dw_attrs da;
	uint64_t pend;
	int64_t ref, id;
	const char *name;

	lbtfi_dw_attrs_read(u, die, &da);
	ref = lbtfi_dw_ref_attr(u, lbtfi_dw_attrs_get(&da, DA_TYPE), &pend);
	name = lbtfi_dw_c_ident(u, lbtfi_dw_attrs_name(&da));

	if (ref < 0)
		return ref;
	if (!name)
		return ref; /* nameless typedef: transparent */
	id = with_fixup(u, lbtf_builder_add_typedef(u->b, name, ref), W_TYPE, pend);
	if (id >= 0) {
		int err = lbtfi_dw_add_decl_tags(u, die, id, -1);

		if (err)
			return err;
	}
	return id;
}

/* Arrays -------------------------------------------------------------------- */

uint32_t lbtfi_dw_subrange_count(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *r)
{
	const struct lbtfi_dw_attr *a;
	int64_t lo = 0, hi;
	uint64_t cnt;
	struct lbtfi_dw_attrs da;

	lbtfi_dw_attrs_read(u, r, &da);
	if ((a = lbtfi_dw_attrs_get(&da, DA_COUNT)))
		return lbtfi_dr_udata(a, &cnt) && cnt <= UINT32_MAX ? (uint32_t)cnt : 0;
	if (!(a = lbtfi_dw_attrs_get(&da, DA_UPPER_BOUND)) || !lbtfi_dr_sdata(a, &hi))
		return 0; /* flexible or variable length */
	if ((a = lbtfi_dw_attrs_get(&da, DA_LOWER_BOUND)) && !lbtfi_dr_sdata(a, &lo))
		lo = 0;
	if (hi < lo || hi - lo >= (int64_t)UINT32_MAX)
		return 0; /* old compilers wrote upper bound -1 for flexible arrays */
	return (uint32_t)(hi - lo + 1);
}

static int64_t conv_array(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die)
{
	uint64_t pend;
	int64_t cur = lbtfi_dw_ref_of(u, die, &pend), idx;
	uint32_t dims_small[8], *dims = dims_small, n = 0, cap = 8;
	struct lbtfi_dw_die c;

	if (cur < 0)
		return cur;
	if (!cur && !pend) {
		/* no element type (DW_AT_type lost): an array of void is no type */
		lbtfi_dw_warn(u, LBTFI_DW_WARN_ARRAY_VOID);
		return 0;
	}
	idx = array_index_type(u);
	if (idx < 0)
		return idx;
	if (lbtfi_dr_child(die, &c)) {
		do {
			int tag = lbtfi_dr_tag(&c);

			if (tag != DW_TAG_subrange_type && tag != DW_TAG_enumeration_type)
				continue;
			if (n == cap) {
				uint32_t *p = malloc(cap * 2 * sizeof(*p));

				if (!p) {
					if (dims != dims_small)
						free(dims);
					return lbtfi_err(ENOMEM, "out of memory");
				}
				memcpy(p, dims, n * sizeof(*p));
				if (dims != dims_small)
					free(dims);
				dims = p;
				cap *= 2;
			}
			dims[n++] = tag == DW_TAG_subrange_type ? lbtfi_dw_subrange_count(u, &c) : 0;
		} while (lbtfi_dr_sibling(&c));
	}
	if (!n)
		dims[n++] = 0;
	if (u->g->arrays.flatten) {
		/* int m[2][3]: ARRAY(6) of int; the product wraps at 32 bits as
		 * pahole's does */
		for (uint32_t i = 1; i < n; i++)
			dims[0] *= dims[i];
		n = 1;
	}
	/* int m[2][3]: ARRAY(2) of ARRAY(3) of int, innermost added first */
	while (n--) {
		cur = with_fixup(u, lbtf_builder_add_array(u->b, idx, cur, dims[n]), W_ARRAY_ELEM, pend);
		if (cur < 0)
			break;
		pend = 0;
	}
	if (dims != dims_small)
		free(dims);
	return cur;
}

/* Function prototypes ----------------------------------------------------- */

/* (bp first: the parameters go to the builder in one call) */
struct param {
	struct lbtfi_builder_elem bp;
	struct lbtfi_dw_die die;
	struct lbtfi_dw_attr type_attr;
	bool has_type;
	uint64_t pend;
};

/*
 * FUNC_PROTO from a subroutine type or subprogram DIE. With need_names, 0 is
 * returned without adding anything when a parameter has no name (the kernel
 * rejects a FUNC whose prototype has one).
 */
int64_t lbtfi_dw_func_proto(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, bool need_names,
		      struct lbtfi_dw_die **pdies, uint32_t *npdies)
{
	struct param *ps = NULL;
	uint32_t n = 0, cap = 0, i;
	bool varargs = false;
	uint64_t rpend;
	int64_t ret, id = 0, err = 0;
	struct lbtfi_dw_attrs da;
	struct lbtfi_dw_die c;

	ps = lbtfi_dw_scratch_take(u, &cap, sizeof(*ps));
	if (lbtfi_dr_child(die, &c)) {
		do {
			int tag = lbtfi_dr_tag(&c);

			if (tag == DW_TAG_unspecified_parameters) {
				varargs = true;
				continue;
			}
			if (tag != DW_TAG_formal_parameter)
				continue;
			if ((err = lbtfi_dw_grow(&ps, &cap, n, sizeof(*ps), 8)))
				goto out;
			lbtfi_dw_attrs_read(u, &c, &da);
			ps[n].die = c;
			ps[n].bp = (struct lbtfi_builder_elem){ lbtfi_dw_attrs_name(&da), 0, 0, 0 };
			ps[n].has_type = da.have >> DA_TYPE & 1;
			ps[n].type_attr = da.a[DA_TYPE];
			if (need_names && (!ps[n].bp.name || !*ps[n].bp.name)) {
				lbtfi_dw_warn(u, LBTFI_DW_WARN_UNNAMED_PARAM);
				err = 0;
				id = 0;
				goto out_id;
			}
			n++;
		} while (lbtfi_dr_sibling(&c));
	}
	for (i = 0; i < n; i++) {
		int64_t type;

		ps[i].pend = 0;
		type = lbtfi_dw_ref_attr(u, ps[i].has_type ? &ps[i].type_attr : NULL, &ps[i].pend);
		if (type < 0) {
			err = type;
			goto out;
		}
		ps[i].bp.type = (uint32_t)type; /* (an id: below 2^31) */
	}
	ret = lbtfi_dw_ref_of(u, die, &rpend);
	if (ret < 0) {
		err = ret;
		goto out;
	}
	id = with_fixup(u, lbtf_builder_add_func_proto(u->b, ret), W_TYPE, rpend);
	if (id < 0) {
		err = id;
		goto out;
	}
	if ((err = lbtfi_builder_add_elems(u->b, n ? &ps[0].bp : NULL, n, sizeof(*ps))) < 0)
		goto out;
	for (i = 0; i < n; i++)
		if (ps[i].pend && (err = lbtfi_dw_fixup_add(u, id, W_PARAM(i), ps[i].pend)))
			goto out;
	if (varargs && (err = lbtf_builder_add_func_param(u->b, NULL, 0)) < 0)
		goto out;
	err = 0;
	if (pdies && n) {
		*pdies = malloc(n * sizeof(**pdies));
		if (!*pdies) {
			err = lbtfi_err(ENOMEM, "out of memory");
			goto out;
		}
		for (i = 0; i < n; i++)
			(*pdies)[i] = ps[i].die;
		*npdies = n;
	}
out_id:
	lbtfi_dw_scratch_give(u, ps, cap, sizeof(*ps));
	return id;
out:
	lbtfi_dw_scratch_give(u, ps, cap, sizeof(*ps));
	return err;
}

static int64_t conv_subroutine(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die)
{
	return lbtfi_dw_func_proto(u, die, false, NULL, NULL);
}

/* Tags BTF has no kind for ------------------------------------------------ */

static int64_t conv_void(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die)
{
	return 0; /* e.g. DW_TAG_unspecified_type (the void of asm functions) */
}

static int64_t conv_unsupported(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die)
{
	unsigned int tag = lbtfi_dr_tag(die);

	if (tag == DW_TAG_ptr_to_member_type)
		lbtfi_dw_warn(u, LBTFI_DW_WARN_PTR_TO_MEMBER);
	else
		lbtfi_dw_warn_tag(u, tag);
	return 0;
}

/* The tag table ------------------------------------------------------------ */

const struct lbtfi_dw_tag_desc lbtfi_dw_std_tags[LBTFI_DW_NR_STD_TAGS] = {
	[DW_TAG_base_type] = { "base_type", conv_base },
	[DW_TAG_pointer_type] = { "pointer_type", conv_pointer },
	[DW_TAG_reference_type] = { "reference_type", conv_pointer },
	[DW_TAG_rvalue_reference_type] = { "rvalue_reference_type", conv_pointer },
	[DW_TAG_const_type] = { "const_type", conv_modifier },
	[DW_TAG_volatile_type] = { "volatile_type", conv_modifier },
	[DW_TAG_restrict_type] = { "restrict_type", conv_modifier },
	[DW_TAG_typedef] = { "typedef", conv_typedef },
	[DW_TAG_array_type] = { "array_type", conv_array },
	[DW_TAG_structure_type] = { "structure_type", lbtfi_dw_conv_struct },
	[DW_TAG_class_type] = { "class_type", lbtfi_dw_conv_struct },
	[DW_TAG_union_type] = { "union_type", lbtfi_dw_conv_struct },
	[DW_TAG_enumeration_type] = { "enumeration_type", lbtfi_dw_conv_enum },
	[DW_TAG_subroutine_type] = { "subroutine_type", conv_subroutine },
	[DW_TAG_unspecified_type] = { "unspecified_type", conv_void },
	[DW_TAG_ptr_to_member_type] = { "ptr_to_member_type", conv_unsupported },
	[DW_TAG_string_type] = { "string_type", conv_unsupported },
	[DW_TAG_set_type] = { "set_type", conv_unsupported },
	[DW_TAG_subrange_type] = { "subrange_type", conv_unsupported },
	[DW_TAG_file_type] = { "file_type", conv_unsupported },
	[DW_TAG_interface_type] = { "interface_type", conv_unsupported },
	[DW_TAG_packed_type] = { "packed_type", conv_unsupported },
	[DW_TAG_shared_type] = { "shared_type", conv_unsupported },
	[DW_TAG_coarray_type] = { "coarray_type", conv_unsupported },
	[DW_TAG_dynamic_type] = { "dynamic_type", conv_unsupported },
	[DW_TAG_immutable_type] = { "immutable_type", conv_unsupported },
	[DW_TAG_generic_subrange] = { "generic_subrange", conv_unsupported },
	[DW_TAG_namespace] = { "namespace", NULL },
	[DW_TAG_variant_part] = { "variant_part", NULL },
	[DW_TAG_template_type_parameter] = { "template_type_parameter", NULL },
	[DW_TAG_template_value_parameter] = { "template_value_parameter", NULL },
	[DW_TAG_inheritance] = { "inheritance", NULL },
};

static const struct lbtfi_dw_tag_desc *tag_desc(unsigned int tag)
{
	return tag < LBTFI_DW_NR_STD_TAGS ? &lbtfi_dw_std_tags[tag] : NULL;
}

const char *lbtfi_dw_tag_name(unsigned int tag)
{
	const struct lbtfi_dw_tag_desc *d = tag_desc(tag);

	return d && d->name ? d->name : "vendor tag";
}

/* Conversions under way in this thread, one inside another */
static LBTFI_TLS int depth;

/*
 * Convert die, whose slot in the DIE table is number sn, which has no id
 * and is no type the reuse found. The slot is named by its number, not a
 * pointer: the conversion adds slots, which may move them all; a number
 * stays (the table is cleared only between units), so the id is set
 * without another lookup.
 */
static __attribute__((noinline)) int64_t convert_new(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die,
						     uint32_t sn, const struct lbtfi_dw_tag_desc *d)
{
	int64_t id;
	int err;

	u->ru.map.slots[sn].id = LBTFI_DW_ID_IN_PROGRESS;
	depth++;
	id = d->conv(u, die);
	depth--;
	if (id < 0)
		return id;
	u->ru.map.slots[sn].id = (uint32_t)id;
	if ((err = lbtfi_dw_reuse_note(lbtfi_dw_ru(u), die, sn, (uint32_t)id)))
		return err;
	return id;
}

/*
 * The id of die, whose slot is number sn and has none yet. Inline in its
 * two callers: most type DIEs a unit meets are reused, and a reused type
 * is given its id here in one step, without the frame of a conversion
 * (the search converts nothing: it needs no "in progress" mark, and takes
 * a reference to the DIE itself as one to the type it would be given).
 */
static inline int64_t convert_slot(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, uint32_t sn)
{
	unsigned int tag = lbtfi_dr_tag(die);
	const struct lbtfi_dw_tag_desc *d = tag_desc(tag);
	int64_t id;

	if (!d || !d->conv) {
		lbtfi_dw_warn_tag(u, tag);
		u->ru.map.slots[sn].id = 0;
		return 0;
	}
	if (depth >= MAX_DEPTH)
		return lbtfi_err(ELOOP, "DWARF type nesting deeper than %d at DIE 0x%llx", MAX_DEPTH,
				 (unsigned long long)die->off);
	id = lbtfi_dw_reuse_find(lbtfi_dw_ru(u), die, sn);
	if (!id)
		return convert_new(u, die, sn, d);
	if (id > 0)
		u->ru.map.slots[sn].id = (uint32_t)id;
	return id;
}

static int64_t convert(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die, uint64_t key)
{
	struct lbtfi_dw_die_slot *d = lbtfi_dw_dies_add(&u->ru.map, key);

	if (!d)
		return -ENOMEM;
	return convert_slot(u, die, (uint32_t)(d - u->ru.map.slots));
}

int64_t lbtfi_dw_type_id(struct lbtfi_dw_unit *u, struct lbtfi_dw_die *die)
{
	struct lbtfi_dw_die t;
	struct lbtfi_dw_die_slot *d;

	/* (die converted in place unless a signature leads elsewhere: the
	 * caller's walk goes on from die, which a conversion only tells
	 * where its attributes end) */
	if (lbtfi_dw_names_signature(die)) {
		t = *die;
		lbtfi_dw_follow_named_signature(u->rd, &t);
		die = &t;
	}
	/* (made when missing: convert_slot's, found by this one lookup) */
	if (!(d = lbtfi_dw_dies_add(&u->ru.map, lbtfi_dr_key(die))))
		return -ENOMEM;
	if (d->id != LBTFI_DW_NONE)
		return d->id == LBTFI_DW_ID_IN_PROGRESS ? 0 : d->id;
	return convert_slot(u, die, (uint32_t)(d - u->ru.map.slots));
}
