// SPDX-License-Identifier: BSD-2-Clause
/*
 * JSON dump, byte for byte what `bpftool -j|-p btf dump file F` prints:
 * {"types":[{"id":…,"kind":…,"name":…, kind fields…},…]}. One print
 * operation per kind in a table indexed by kind; the layout (commas,
 * newlines, indentation) is the JSON writer's.
 */
#include "internal.h"
#include "json_writer.h"

/* Fields with literal keys (quoted at compile time) */
#define UINT_FIELD LBTFI_JSON_UINT_FIELD
#define INT_FIELD LBTFI_JSON_INT_FIELD
#define STRING_FIELD LBTFI_JSON_STRING_FIELD

typedef void (*json_op)(const struct lbtf *btf, const struct lbtf_type *t, struct lbtfi_json *w);

static void json_int(const struct lbtf *btf, const struct lbtf_type *t, struct lbtfi_json *w)
{
	UINT_FIELD(w, "size", t->size);
	UINT_FIELD(w, "bits_offset", lbtf_int_offset(t));
	UINT_FIELD(w, "nr_bits", lbtf_int_bits(t));
	STRING_FIELD(w, "encoding", lbtfi_int_encoding_str(lbtf_int_encoding(t)));
}

/* PTR, TYPEDEF, VOLATILE, CONST, RESTRICT, TYPE_TAG */
static void json_ref(const struct lbtf *btf, const struct lbtf_type *t, struct lbtfi_json *w)
{
	UINT_FIELD(w, "type_id", t->type);
}

static void json_array(const struct lbtf *btf, const struct lbtf_type *t, struct lbtfi_json *w)
{
	const struct lbtf_array *a = lbtf_array(t);

	UINT_FIELD(w, "type_id", a->type);
	UINT_FIELD(w, "index_type_id", a->index_type);
	UINT_FIELD(w, "nr_elems", a->nelems);
}

/* "size", "vlen", then the array of elements named key, opened */
#define OPEN_ELEMS(t, w, key)                               \
	(UINT_FIELD(w, "size", (t)->size),                  \
	 UINT_FIELD(w, "vlen", lbtf_vlen(t)),               \
	 LBTFI_JSON_NAME(w, key), lbtfi_json_start_array(w))

/* STRUCT, UNION */
static void json_members(const struct lbtf *btf, const struct lbtf_type *t, struct lbtfi_json *w)
{
	const struct lbtf_member *m = lbtf_members(t);
	unsigned int vlen = lbtf_vlen(t);

	OPEN_ELEMS(t, w, "members");
	for (unsigned int i = 0; i < vlen; i++) {
		uint32_t bits = lbtf_member_bitfield_size(t, i);

		lbtfi_json_start_object(w);
		STRING_FIELD(w, "name", lbtfi_dump_name(btf, m[i].name_off));
		UINT_FIELD(w, "type_id", m[i].type);
		UINT_FIELD(w, "bits_offset", lbtf_member_bit_offset(t, i));
		if (bits)
			UINT_FIELD(w, "bitfield_size", bits);
		lbtfi_json_end_object(w);
	}
	lbtfi_json_end_array(w);
}

/* ENUM and ENUM64 */
static void json_enum(const struct lbtf *btf, const struct lbtf_type *t, struct lbtfi_json *w)
{
	unsigned int vlen = lbtf_vlen(t);
	bool is_signed = lbtf_kflag(t);

	STRING_FIELD(w, "encoding", lbtfi_signedness_str(t));
	OPEN_ELEMS(t, w, "values");
	for (unsigned int i = 0; i < vlen; i++) {
		uint64_t v;
		uint32_t name_off = lbtfi_enumerator(t, i, &v);

		lbtfi_json_start_object(w);
		STRING_FIELD(w, "name", lbtfi_dump_name(btf, name_off));
		/*
		 * An ENUM's value is widened from signed 32 bits to 64 as bpftool
		 * does before printing it unsigned, so an unsigned 0xffffffff
		 * comes out as 18446744073709551615; we print the same.
		 */
		if (is_signed)
			INT_FIELD(w, "val", (int64_t)v);
		else
			UINT_FIELD(w, "val", v);
		lbtfi_json_end_object(w);
	}
	lbtfi_json_end_array(w);
}

static void json_fwd(const struct lbtf *btf, const struct lbtf_type *t, struct lbtfi_json *w)
{
	STRING_FIELD(w, "fwd_kind", lbtfi_fwd_kind_str(t));
}

static void json_func(const struct lbtf *btf, const struct lbtf_type *t, struct lbtfi_json *w)
{
	UINT_FIELD(w, "type_id", t->type);
	STRING_FIELD(w, "linkage", lbtfi_linkage_str(lbtf_vlen(t)));
}

static void json_func_proto(const struct lbtf *btf, const struct lbtf_type *t, struct lbtfi_json *w)
{
	const struct lbtf_param *p = lbtf_params(t);
	unsigned int vlen = lbtf_vlen(t);

	UINT_FIELD(w, "ret_type_id", t->type);
	UINT_FIELD(w, "vlen", vlen);
	LBTFI_JSON_NAME(w, "params");
	lbtfi_json_start_array(w);
	for (unsigned int i = 0; i < vlen; i++) {
		lbtfi_json_start_object(w);
		STRING_FIELD(w, "name", lbtfi_dump_name(btf, p[i].name_off));
		UINT_FIELD(w, "type_id", p[i].type);
		lbtfi_json_end_object(w);
	}
	lbtfi_json_end_array(w);
}

static void json_var(const struct lbtf *btf, const struct lbtf_type *t, struct lbtfi_json *w)
{
	UINT_FIELD(w, "type_id", t->type);
	STRING_FIELD(w, "linkage", lbtfi_linkage_str(lbtf_var(t)->linkage));
}

static void json_datasec(const struct lbtf *btf, const struct lbtf_type *t, struct lbtfi_json *w)
{
	const struct lbtf_var_secinfo *v = lbtf_secinfos(t);
	unsigned int vlen = lbtf_vlen(t);

	OPEN_ELEMS(t, w, "vars");
	for (unsigned int i = 0; i < vlen; i++) {
		lbtfi_json_start_object(w);
		UINT_FIELD(w, "type_id", v[i].type);
		UINT_FIELD(w, "offset", v[i].offset);
		UINT_FIELD(w, "size", v[i].size);
		lbtfi_json_end_object(w);
	}
	lbtfi_json_end_array(w);
}

static void json_float(const struct lbtf *btf, const struct lbtf_type *t, struct lbtfi_json *w)
{
	UINT_FIELD(w, "size", t->size);
}

static void json_decl_tag(const struct lbtf *btf, const struct lbtf_type *t, struct lbtfi_json *w)
{
	UINT_FIELD(w, "type_id", t->type);
	INT_FIELD(w, "component_idx", lbtf_decl_tag(t)->component_idx);
}

static const json_op json_ops[LBTF_NR_KINDS] = {
	[LBTF_KIND_INT] = json_int,
	[LBTF_KIND_PTR] = json_ref,
	[LBTF_KIND_ARRAY] = json_array,
	[LBTF_KIND_STRUCT] = json_members,
	[LBTF_KIND_UNION] = json_members,
	[LBTF_KIND_ENUM] = json_enum,
	[LBTF_KIND_FWD] = json_fwd,
	[LBTF_KIND_TYPEDEF] = json_ref,
	[LBTF_KIND_VOLATILE] = json_ref,
	[LBTF_KIND_CONST] = json_ref,
	[LBTF_KIND_RESTRICT] = json_ref,
	[LBTF_KIND_FUNC] = json_func,
	[LBTF_KIND_FUNC_PROTO] = json_func_proto,
	[LBTF_KIND_VAR] = json_var,
	[LBTF_KIND_DATASEC] = json_datasec,
	[LBTF_KIND_FLOAT] = json_float,
	[LBTF_KIND_DECL_TAG] = json_decl_tag,
	[LBTF_KIND_TYPE_TAG] = json_ref,
	[LBTF_KIND_ENUM64] = json_enum,
};

/* Kind names as JSON strings, quoted once per dump: every type has one */
struct quoted_kinds {
	char text[LBTF_NR_KINDS + 1][24];
	uint8_t len[LBTF_NR_KINDS + 1]; /* the last entry: unknown kinds */
};

static void quote_kinds(struct quoted_kinds *q)
{
	for (unsigned int k = 0; k <= LBTF_NR_KINDS; k++)
		q->len[k] = snprintf(q->text[k], sizeof(q->text[k]), "\"%s\"", lbtf_kind_name(k));
}

static void dump_one(const struct lbtf *btf, uint32_t id, const struct lbtf_type *t,
		     struct lbtfi_json *w, const struct quoted_kinds *q)
{
	unsigned int kind = lbtf_kind(t);
	unsigned int k = kind <= LBTF_KIND_MAX ? kind : LBTF_NR_KINDS;

	lbtfi_json_start_object(w);
	UINT_FIELD(w, "id", id);
	LBTFI_JSON_NAME(w, "kind");
	lbtfi_json_raw(w, q->text[k], q->len[k]);
	STRING_FIELD(w, "name", lbtfi_dump_name(btf, t->name_off));
	if (kind <= LBTF_KIND_MAX && json_ops[kind])
		json_ops[kind](btf, t, w);
	lbtfi_json_end_object(w);
}

int lbtf_dump_json(const struct lbtf *btf, FILE *out, bool pretty)
{
	uint32_t cnt = lbtf_type_cnt(btf);
	struct quoted_kinds q;
	struct lbtfi_json w;

	quote_kinds(&q);
	flockfile(out);
	lbtfi_json_init(&w, out, pretty);
	lbtfi_json_start_object(&w);
	LBTFI_JSON_NAME(&w, "types");
	lbtfi_json_start_array(&w);
	for (uint32_t id = lbtf_start_id(btf); id < cnt; id++)
		dump_one(btf, id, lbtf_type_by_id(btf, id), &w, &q);
	lbtfi_json_end_array(&w);
	lbtfi_json_end_object(&w);
	lbtfi_json_finish(&w);
	funlockfile(out);
	if (ferror(out))
		return lbtfi_err(EIO, "write error while dumping BTF as JSON");
	return 0;
}
