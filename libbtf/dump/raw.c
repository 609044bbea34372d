// SPDX-License-Identifier: BSD-2-Clause
/*
 * Raw text dump, line for line what `bpftool btf dump file F` prints:
 * "[ID] KIND 'NAME'" plus kind-specific fields, then one TAB-indented line
 * per member/value/param/variable. One print operation per kind, in a
 * table indexed by kind. Streams to a FILE with unlocked writes and no
 * printf: a vmlinux dump is ~300,000 lines.
 */
#include "internal.h"
#include "core/fastio.h"
#include "json_writer.h" /* lbtfi_fput_u64/i64 */

#define PUT_LIT LBTFI_PUT_LIT
#define put_str lbtfi_put_str

static inline void put_u32(FILE *f, uint32_t v)
{
	lbtfi_fput_u64(f, v);
}

/* 'name' */
static void put_quoted(FILE *f, const char *s)
{
	putc_unlocked('\'', f);
	put_str(f, s);
	putc_unlocked('\'', f);
}

typedef void (*raw_op)(const struct lbtf *btf, const struct lbtf_type *t, FILE *f);

static void raw_int(const struct lbtf *btf, const struct lbtf_type *t, FILE *f)
{
	PUT_LIT(f, " size=");
	put_u32(f, t->size);
	PUT_LIT(f, " bits_offset=");
	put_u32(f, lbtf_int_offset(t));
	PUT_LIT(f, " nr_bits=");
	put_u32(f, lbtf_int_bits(t));
	PUT_LIT(f, " encoding=");
	put_str(f, lbtfi_int_encoding_str(lbtf_int_encoding(t)));
}

/* PTR, TYPEDEF, VOLATILE, CONST, RESTRICT, TYPE_TAG */
static void raw_ref(const struct lbtf *btf, const struct lbtf_type *t, FILE *f)
{
	PUT_LIT(f, " type_id=");
	put_u32(f, t->type);
}

static void raw_array(const struct lbtf *btf, const struct lbtf_type *t, FILE *f)
{
	const struct lbtf_array *a = lbtf_array(t);

	PUT_LIT(f, " type_id=");
	put_u32(f, a->type);
	PUT_LIT(f, " index_type_id=");
	put_u32(f, a->index_type);
	PUT_LIT(f, " nr_elems=");
	put_u32(f, a->nelems);
}

static void put_size_vlen(const struct lbtf_type *t, FILE *f)
{
	PUT_LIT(f, " size=");
	put_u32(f, t->size);
	PUT_LIT(f, " vlen=");
	put_u32(f, lbtf_vlen(t));
}

/* STRUCT, UNION */
static void raw_members(const struct lbtf *btf, const struct lbtf_type *t, FILE *f)
{
	const struct lbtf_member *m = lbtf_members(t);
	unsigned int vlen = lbtf_vlen(t);

	put_size_vlen(t, f);
	for (unsigned int i = 0; i < vlen; i++) {
		uint32_t bits = lbtf_member_bitfield_size(t, i);

		PUT_LIT(f, "\n\t");
		put_quoted(f, lbtfi_dump_name(btf, m[i].name_off));
		PUT_LIT(f, " type_id=");
		put_u32(f, m[i].type);
		PUT_LIT(f, " bits_offset=");
		put_u32(f, lbtf_member_bit_offset(t, i));
		if (bits) {
			PUT_LIT(f, " bitfield_size=");
			put_u32(f, bits);
		}
	}
}

static void put_enum_head(const struct lbtf_type *t, FILE *f)
{
	PUT_LIT(f, " encoding=");
	put_str(f, lbtfi_signedness_str(t));
	put_size_vlen(t, f);
}

/* ENUM and ENUM64 (whose values carry C's LL/ULL suffixes) */
static void raw_enum(const struct lbtf *btf, const struct lbtf_type *t, FILE *f)
{
	unsigned int vlen = lbtf_vlen(t);
	bool is_signed = lbtf_kflag(t);
	bool is64 = lbtf_kind(t) == LBTF_KIND_ENUM64;

	put_enum_head(t, f);
	for (unsigned int i = 0; i < vlen; i++) {
		uint64_t v;
		uint32_t name_off = lbtfi_enumerator(t, i, &v);

		PUT_LIT(f, "\n\t");
		put_quoted(f, lbtfi_dump_name(btf, name_off));
		PUT_LIT(f, " val=");
		if (is_signed)
			lbtfi_fput_i64(f, (int64_t)v);
		else if (is64)
			lbtfi_fput_u64(f, v);
		else
			put_u32(f, (uint32_t)v);
		if (is64 && is_signed)
			PUT_LIT(f, "LL");
		else if (is64)
			PUT_LIT(f, "ULL");
	}
}

static void raw_fwd(const struct lbtf *btf, const struct lbtf_type *t, FILE *f)
{
	PUT_LIT(f, " fwd_kind=");
	put_str(f, lbtfi_fwd_kind_str(t));
}

static void raw_func(const struct lbtf *btf, const struct lbtf_type *t, FILE *f)
{
	PUT_LIT(f, " type_id=");
	put_u32(f, t->type);
	PUT_LIT(f, " linkage=");
	put_str(f, lbtfi_linkage_str(lbtf_vlen(t)));
}

static void raw_func_proto(const struct lbtf *btf, const struct lbtf_type *t, FILE *f)
{
	const struct lbtf_param *p = lbtf_params(t);
	unsigned int vlen = lbtf_vlen(t);

	PUT_LIT(f, " ret_type_id=");
	put_u32(f, t->type);
	PUT_LIT(f, " vlen=");
	put_u32(f, vlen);
	for (unsigned int i = 0; i < vlen; i++) {
		PUT_LIT(f, "\n\t");
		put_quoted(f, lbtfi_dump_name(btf, p[i].name_off));
		PUT_LIT(f, " type_id=");
		put_u32(f, p[i].type);
	}
}

static void raw_var(const struct lbtf *btf, const struct lbtf_type *t, FILE *f)
{
	PUT_LIT(f, " type_id=");
	put_u32(f, t->type);
	PUT_LIT(f, ", linkage="); /* bpftool prints this comma */
	put_str(f, lbtfi_linkage_str(lbtf_var(t)->linkage));
}

static void raw_datasec(const struct lbtf *btf, const struct lbtf_type *t, FILE *f)
{
	const struct lbtf_var_secinfo *v = lbtf_secinfos(t);
	unsigned int vlen = lbtf_vlen(t);

	put_size_vlen(t, f);
	for (unsigned int i = 0; i < vlen; i++) {
		const struct lbtf_type *vt = lbtf_type_by_id(btf, v[i].type);

		PUT_LIT(f, "\n\ttype_id=");
		put_u32(f, v[i].type);
		PUT_LIT(f, " offset=");
		put_u32(f, v[i].offset);
		PUT_LIT(f, " size=");
		put_u32(f, v[i].size);
		if (vt) { /* what the variable is, when the id is valid */
			PUT_LIT(f, " (");
			put_str(f, lbtf_kind_name(lbtf_kind(vt)));
			putc_unlocked(' ', f);
			put_quoted(f, lbtfi_dump_name(btf, vt->name_off));
			putc_unlocked(')', f);
		}
	}
}

static void raw_float(const struct lbtf *btf, const struct lbtf_type *t, FILE *f)
{
	PUT_LIT(f, " size=");
	put_u32(f, t->size);
}

static void raw_decl_tag(const struct lbtf *btf, const struct lbtf_type *t, FILE *f)
{
	PUT_LIT(f, " type_id=");
	put_u32(f, t->type);
	PUT_LIT(f, " component_idx=");
	lbtfi_fput_i64(f, lbtf_decl_tag(t)->component_idx);
}

static const raw_op raw_ops[LBTF_NR_KINDS] = {
	[LBTF_KIND_INT] = raw_int,
	[LBTF_KIND_PTR] = raw_ref,
	[LBTF_KIND_ARRAY] = raw_array,
	[LBTF_KIND_STRUCT] = raw_members,
	[LBTF_KIND_UNION] = raw_members,
	[LBTF_KIND_ENUM] = raw_enum,
	[LBTF_KIND_FWD] = raw_fwd,
	[LBTF_KIND_TYPEDEF] = raw_ref,
	[LBTF_KIND_VOLATILE] = raw_ref,
	[LBTF_KIND_CONST] = raw_ref,
	[LBTF_KIND_RESTRICT] = raw_ref,
	[LBTF_KIND_FUNC] = raw_func,
	[LBTF_KIND_FUNC_PROTO] = raw_func_proto,
	[LBTF_KIND_VAR] = raw_var,
	[LBTF_KIND_DATASEC] = raw_datasec,
	[LBTF_KIND_FLOAT] = raw_float,
	[LBTF_KIND_DECL_TAG] = raw_decl_tag,
	[LBTF_KIND_TYPE_TAG] = raw_ref,
	[LBTF_KIND_ENUM64] = raw_enum,
};

static void dump_one(const struct lbtf *btf, uint32_t id, const struct lbtf_type *t, FILE *f)
{
	unsigned int kind = lbtf_kind(t);

	putc_unlocked('[', f);
	put_u32(f, id);
	PUT_LIT(f, "] ");
	put_str(f, lbtf_kind_name(kind));
	putc_unlocked(' ', f);
	put_quoted(f, lbtfi_dump_name(btf, t->name_off));
	if (kind <= LBTF_KIND_MAX && raw_ops[kind])
		raw_ops[kind](btf, t, f);
	putc_unlocked('\n', f);
}

static int write_status(FILE *out)
{
	if (ferror(out))
		return lbtfi_err(EIO, "write error while dumping BTF");
	return 0;
}

int lbtf_dump_raw_type(const struct lbtf *btf, uint32_t id, FILE *out)
{
	const struct lbtf_type *t = id ? lbtf_type_by_id(btf, id) : NULL;

	if (!t)
		return lbtfi_err(EINVAL, "type id %u out of range (1..%u)", id,
				 lbtf_type_cnt(btf) - 1);
	flockfile(out);
	dump_one(btf, id, t, out);
	funlockfile(out);
	return write_status(out);
}

int lbtf_dump_raw(const struct lbtf *btf, FILE *out)
{
	uint32_t cnt = lbtf_type_cnt(btf);

	flockfile(out);
	for (uint32_t id = lbtf_start_id(btf); id < cnt; id++)
		dump_one(btf, id, lbtf_type_by_id(btf, id), out);
	funlockfile(out);
	return write_status(out);
}
