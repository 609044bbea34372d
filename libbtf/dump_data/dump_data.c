// SPDX-License-Identifier: BSD-2-Clause
/*
 * Typed data printer: walks a BTF type over a byte buffer and writes the
 * value through the JSON writer, spelled the way bpftool 7.1's map dump does
 * (see libbtf_data.h for the styles). One printer per kind, in a table.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define DP_MAX_DEPTH 64 /* nesting of composites/arrays/modifiers */

typedef int (*dp_kind_fn)(struct lbtfi_dp *dp, uint32_t id, const struct lbtf_type *t,
			  unsigned int bit, struct lbtfi_bytes b);

void lbtfi_dp_init(struct lbtfi_dp *dp, const struct lbtf *btf, struct lbtfi_json *w,
		   const struct lbtf_data_opts *o, size_t bytes)
{
	memset(dp, 0, sizeof(*dp));
	dp->btf = btf;
	dp->w = w;
	dp->text = !o->json;
	dp->valid = o->valid_json;
	dp->net = o->net;
	dp->budget = lbtfi_dp_budget(bytes);
}

int lbtfi_dp_truncated(struct lbtfi_dp *dp, uint32_t id, size_t need, size_t have)
{
	if (dp->text && !dp->valid)
		lbtfi_json_printf(dp->w, "(truncated)");
	else
		lbtfi_json_null(dp->w);
	return lbtfi_err(EINVAL, "type [%u] needs %zu bytes of data, %zu left", id, need, have);
}

void lbtfi_dp_string(struct lbtfi_dp *dp, const char *s)
{
	if (dp->valid)
		lbtfi_json_string_strict(dp->w, s);
	else
		lbtfi_json_string(dp->w, s);
}

static const char *name_of(const struct lbtfi_dp *dp, uint32_t name_off)
{
	const char *s = lbtf_name_by_offset(dp->btf, name_off);

	return s ? s : "";
}

/* bpftool's marker for kinds it cannot print; it lacks the closing paren. */
static int dp_unsupported(struct lbtfi_dp *dp, uint32_t id, const struct lbtf_type *t,
			  unsigned int bit, struct lbtfi_bytes b)
{
	lbtfi_json_printf(dp->w, "(unsupported-kind");
	return lbtfi_err(EINVAL, "type [%u]: kind %s has no value", id,
			 lbtf_kind_name(lbtf_kind(t)));
}

static int dp_void(struct lbtfi_dp *dp, uint32_t id, const struct lbtf_type *t,
		   unsigned int bit, struct lbtfi_bytes b)
{
	lbtfi_json_printf(dp->w, "(unknown)");
	return 0;
}

static int dp_fwd(struct lbtfi_dp *dp, uint32_t id, const struct lbtf_type *t,
		  unsigned int bit, struct lbtfi_bytes b)
{
	lbtfi_json_printf(dp->w, "(fwd-kind-invalid)");
	return lbtfi_err(EINVAL, "type [%u] is a forward declaration", id);
}

/*
 * Typedefs and modifiers are looked through (VAR too, as libbpf's
 * btf__resolve_type does). With net, a typedef named like a network-order
 * integer prints in host order.
 */
static int dp_modifier(struct lbtfi_dp *dp, uint32_t id, const struct lbtf_type *t,
		       unsigned int bit, struct lbtfi_bytes b)
{
	for (int n = 0; n < DP_MAX_DEPTH; n++) {
		unsigned int k = lbtf_kind(t);

		if (k == LBTF_KIND_TYPEDEF && dp->net) {
			int r = lbtfi_dp_net_typedef(dp, t, b);

			if (r)
				return r < 0 ? r : 0;
		}
		if (!lbtf_is_mod(t) && k != LBTF_KIND_TYPEDEF && k != LBTF_KIND_VAR)
			return lbtfi_dp_type(dp, id, bit, b);
		id = t->type;
		t = lbtf_type_by_id(dp->btf, id);
		if (!t)
			return lbtfi_err(EINVAL, "type id %u out of range", id);
	}
	return lbtfi_err(ELOOP, "type [%u]: modifier chain too long", id);
}

static int dp_enum(struct lbtfi_dp *dp, uint32_t id, const struct lbtf_type *t,
		   unsigned int bit, struct lbtfi_bytes b)
{
	const struct lbtf_enum *e = lbtf_enums(t);
	int64_t v;

	/* bpftool reads the value sign-extended from the enum's size */
	switch (t->size) {
	case 1: case 2: case 4: case 8:
		break;
	default:
		return lbtfi_err(EINVAL, "enum [%u] has size %u", id, t->size);
	}
	if (b.len < t->size)
		return lbtfi_dp_truncated(dp, id, t->size, b.len);
	if (t->size == 1) {
		int8_t x; memcpy(&x, b.p, 1); v = x;
	} else if (t->size == 2) {
		int16_t x; memcpy(&x, b.p, 2); v = x;
	} else if (t->size == 4) {
		int32_t x; memcpy(&x, b.p, 4); v = x;
	} else {
		memcpy(&v, b.p, 8);
	}
	for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
		if (v == e[i].val) {
			lbtfi_dp_string(dp, name_of(dp, e[i].name_off));
			return 0;
		}
	}
	/* valid JSON honours the enum's signedness (kflag), bpftool does not */
	if (dp->valid && !lbtf_kflag(t) && t->size < 8)
		lbtfi_json_int(dp->w, v & ((UINT64_C(1) << (t->size * 8)) - 1));
	else if (dp->valid && !lbtf_kflag(t))
		lbtfi_json_uint(dp->w, (uint64_t)v);
	else
		lbtfi_json_int(dp->w, v);
	return 0;
}

static int dp_enum64(struct lbtfi_dp *dp, uint32_t id, const struct lbtf_type *t,
		     unsigned int bit, struct lbtfi_bytes b)
{
	const struct lbtf_enum64 *e = lbtf_enums64(t);
	uint64_t v = 0;
	size_t n = t->size < 8 ? t->size : 8;

	if (b.len < n)
		return lbtfi_dp_truncated(dp, id, n, b.len);
	memcpy(&v, b.p, n);
	for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
		if (v == lbtf_enum64_value(&e[i])) {
			lbtfi_dp_string(dp, name_of(dp, e[i].name_off));
			return 0;
		}
	}
	if (dp->valid && !lbtf_kflag(t))
		lbtfi_json_uint(dp->w, v);
	else
		lbtfi_json_int(dp->w, (int64_t)v);
	return 0;
}

/* The element of arr through modifiers (not typedefs), as bpftool checks it. */
static bool is_char_elem(const struct lbtfi_dp *dp, uint32_t elem)
{
	const struct lbtf_type *t = lbtf_type_by_id(dp->btf, elem);

	for (int n = 0; t && lbtf_is_mod(t) && n < DP_MAX_DEPTH; n++)
		t = lbtf_type_by_id(dp->btf, t->type);
	if (!t || lbtf_kind(t) != LBTF_KIND_INT || t->size != 1)
		return false;
	return lbtf_int_encoding(t) == LBTF_INT_CHAR ||
	       !strcmp(lbtf_type_name(dp->btf, t) ?: "", "char");
}

/* A char array holding printable ASCII up to a NUL prints as a string. */
static bool is_string(const struct lbtfi_dp *dp, const struct lbtf_array *a, struct lbtfi_bytes b)
{
	if (!a->nelems || !is_char_elem(dp, a->type))
		return false;
	for (size_t i = 0; i < a->nelems && i < b.len; i++) {
		if (!b.p[i])
			return true;
		if (b.p[i] < 0x20 || b.p[i] >= 0x7f)
			return false;
	}
	return false;
}

static int dp_array(struct lbtfi_dp *dp, uint32_t id, const struct lbtf_type *t,
		    unsigned int bit, struct lbtfi_bytes b)
{
	const struct lbtf_array *a = lbtf_array(t);
	int64_t esz;
	int ret = 0;

	if (is_string(dp, a, b)) {
		lbtfi_dp_string(dp, (const char *)b.p);
		return 0;
	}
	esz = lbtf_resolve_size(dp->btf, a->type);
	if (esz < 0)
		return (int)esz;
	lbtfi_json_start_array(dp->w);
	for (uint32_t i = 0; i < a->nelems; i++) {
		uint64_t off = (uint64_t)i * esz;

		if (off > b.len) {
			ret = lbtfi_dp_truncated(dp, a->type, esz, 0);
			break;
		}
		ret = lbtfi_dp_type(dp, a->type, 0,
				    (struct lbtfi_bytes){ b.p + off, b.len - off });
		if (ret)
			break;
	}
	lbtfi_json_end_array(dp->w);
	return ret;
}

/* Signedness of a bitfield member's type, for valid-JSON sign extension. */
static bool member_is_signed(const struct lbtfi_dp *dp, uint32_t type)
{
	int id = lbtf_resolve_type(dp->btf, type);
	const struct lbtf_type *t = id < 0 ? NULL : lbtf_type_by_id(dp->btf, id);

	if (!t)
		return false;
	if (lbtf_kind(t) == LBTF_KIND_INT)
		return lbtf_int_encoding(t) & LBTF_INT_SIGNED;
	return lbtf_is_enum(t) && lbtf_kflag(t);
}

static int dp_members(struct lbtfi_dp *dp, const struct lbtf_type *t, struct lbtfi_bytes b);

/* An anonymous struct/union member, whose members valid JSON lifts into
 * the parent object (bpftool writes them under duplicate "" keys). */
static const struct lbtf_type *anon_composite(const struct lbtfi_dp *dp, const struct lbtf_member *m,
					      const char *name)
{
	int id;
	const struct lbtf_type *t;

	if (*name || !dp->valid)
		return NULL;
	id = lbtf_resolve_type(dp->btf, m->type);
	t = id < 0 ? NULL : lbtf_type_by_id(dp->btf, id);
	return t && lbtf_is_composite(t) ? t : NULL;
}

static int dp_member(struct lbtfi_dp *dp, const struct lbtf_type *t, unsigned int i,
		     struct lbtfi_bytes b)
{
	const struct lbtf_member *m = &lbtf_members(t)[i];
	uint32_t off = lbtf_member_bit_offset(t, i);
	uint32_t bits = lbtf_member_bitfield_size(t, i);
	const char *name = name_of(dp, m->name_off);
	const struct lbtf_type *anon = bits ? NULL : anon_composite(dp, m, name);
	struct lbtfi_bytes mb;
	int ret;

	if (!anon)
		lbtfi_json_name(dp->w, name);
	if (off / 8 > b.len)
		return lbtfi_dp_truncated(dp, m->type, off / 8, b.len);
	mb = (struct lbtfi_bytes){ b.p + off / 8, b.len - off / 8 };
	if (anon) {
		if (dp->depth >= DP_MAX_DEPTH)
			return lbtfi_err(ELOOP, "type [%u] nested too deeply", m->type);
		dp->depth++;
		ret = dp_members(dp, anon, mb);
		dp->depth--;
		return ret;
	}
	if (bits)
		return lbtfi_dp_bitfield(dp, bits, off % 8, member_is_signed(dp, m->type), mb);
	if (dp->net && dp->flow_keys && lbtfi_dp_net_member(dp, name, mb, &ret))
		return ret;
	return lbtfi_dp_type(dp, m->type, off % 8, mb);
}

static int dp_composite(struct lbtfi_dp *dp, uint32_t id, const struct lbtf_type *t,
			unsigned int bit, struct lbtfi_bytes b)
{
	const char *name = lbtf_type_name(dp->btf, t);
	bool saved = dp->flow_keys;
	int ret = 0;

	/* anonymous parts of struct bpf_flow_keys keep its address rules */
	if (name && *name) {
		dp->flow_keys = !strcmp(name, "bpf_flow_keys");
		if (dp->flow_keys && dp->net)
			lbtfi_dp_net_flow_keys(dp, t, b);
	}
	lbtfi_json_start_object(dp->w);
	ret = dp_members(dp, t, b);
	lbtfi_json_end_object(dp->w);
	dp->flow_keys = saved;
	return ret;
}

static int dp_members(struct lbtfi_dp *dp, const struct lbtf_type *t, struct lbtfi_bytes b)
{
	int ret = 0;

	for (unsigned int i = 0; i < lbtf_vlen(t) && !ret; i++) {
		/* with net, only the address family the flow keys hold */
		if (dp->net && dp->flow_keys && lbtfi_dp_net_skip_member(dp, t, i))
			continue;
		ret = dp_member(dp, t, i, b);
	}
	return ret;
}

static int dp_var(struct lbtfi_dp *dp, uint32_t id, const struct lbtf_type *t,
		  unsigned int bit, struct lbtfi_bytes b)
{
	int ret;

	lbtfi_json_start_object(dp->w);
	lbtfi_json_name(dp->w, name_of(dp, t->name_off));
	ret = lbtfi_dp_type(dp, t->type, bit, b);
	lbtfi_json_end_object(dp->w);
	return ret;
}

static int dp_datasec(struct lbtfi_dp *dp, uint32_t id, const struct lbtf_type *t,
		      unsigned int bit, struct lbtfi_bytes b)
{
	const struct lbtf_var_secinfo *v = lbtf_secinfos(t);
	int ret = 0;

	lbtfi_json_start_object(dp->w);
	lbtfi_json_name(dp->w, name_of(dp, t->name_off));
	lbtfi_json_start_array(dp->w);
	for (unsigned int i = 0; i < lbtf_vlen(t) && !ret; i++) {
		if (v[i].offset > b.len) {
			ret = lbtfi_dp_truncated(dp, v[i].type, v[i].offset, b.len);
			break;
		}
		ret = lbtfi_dp_type(dp, v[i].type, 0,
				    (struct lbtfi_bytes){ b.p + v[i].offset, b.len - v[i].offset });
	}
	lbtfi_json_end_array(dp->w);
	lbtfi_json_end_object(dp->w);
	return ret;
}

static const dp_kind_fn kind_printers[LBTF_NR_KINDS] = {
	[LBTF_KIND_UNKN] = dp_void,
	[LBTF_KIND_INT] = lbtfi_dp_int,
	[LBTF_KIND_PTR] = lbtfi_dp_ptr,
	[LBTF_KIND_ARRAY] = dp_array,
	[LBTF_KIND_STRUCT] = dp_composite,
	[LBTF_KIND_UNION] = dp_composite,
	[LBTF_KIND_ENUM] = dp_enum,
	[LBTF_KIND_FWD] = dp_fwd,
	[LBTF_KIND_TYPEDEF] = dp_modifier,
	[LBTF_KIND_VOLATILE] = dp_modifier,
	[LBTF_KIND_CONST] = dp_modifier,
	[LBTF_KIND_RESTRICT] = dp_modifier,
	[LBTF_KIND_FUNC] = dp_unsupported,
	[LBTF_KIND_FUNC_PROTO] = dp_unsupported,
	[LBTF_KIND_VAR] = dp_var,
	[LBTF_KIND_DATASEC] = dp_datasec,
	[LBTF_KIND_FLOAT] = lbtfi_dp_float,     /* bpftool: unsupported */
	[LBTF_KIND_DECL_TAG] = dp_unsupported,
	[LBTF_KIND_TYPE_TAG] = dp_modifier,     /* bpftool: unsupported */
	[LBTF_KIND_ENUM64] = dp_enum64,
};

int lbtfi_dp_type(struct lbtfi_dp *dp, uint32_t id, unsigned int bit, struct lbtfi_bytes b)
{
	const struct lbtf_type *t = lbtf_type_by_id(dp->btf, id);
	unsigned int k;
	int ret;

	if (!t)
		return lbtfi_err(EINVAL, "type id %u out of range", id);
	k = lbtf_kind(t);
	if (k >= LBTF_NR_KINDS || !kind_printers[k])
		return dp_unsupported(dp, id, t, bit, b);
	if (dp->depth >= DP_MAX_DEPTH)
		return lbtfi_err(ELOOP, "type [%u] nested too deeply", id);
	if (!dp->budget)
		return lbtfi_err(E2BIG, "type [%u]: value has too many parts for its size", id);
	dp->budget--;
	dp->depth++;
	ret = kind_printers[k](dp, id, t, bit, b);
	dp->depth--;
	return ret;
}

/* ---- the standalone printer ---------------------------------------------- */

struct lbtf_data_printer {
	const struct lbtf *btf;
	struct lbtfi_json w;
	struct lbtf_data_opts opts;
};

struct lbtf_data_printer *lbtf_data_printer_new(const struct lbtf *btf, FILE *out,
						const struct lbtf_data_opts *opts)
{
	struct lbtf_data_printer *p;
	struct lbtf_data_opts o;
	int err;

	if (!btf || !out)
		return lbtfi_err_ptr(EINVAL, "lbtf_data_printer_new: btf and out are required");
	err = LBTFI_OPTS_COPY(&o, opts, lbtf_data_opts);
	if (err) {
		errno = -err;
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return lbtfi_err_ptr(ENOMEM, "out of memory");
	p->btf = btf;
	p->opts = o;
	/* bpftool's plain BTF dump uses a pretty writer */
	lbtfi_json_init(&p->w, out, o.json ? o.pretty : true);
	return p;
}

int lbtf_data_print(struct lbtf_data_printer *p, uint32_t type_id, const void *data, size_t size)
{
	struct lbtfi_dp dp;
	int ret;

	if (!p || (!data && size))
		return lbtfi_err(EINVAL, "lbtf_data_print: bad arguments");
	lbtfi_dp_init(&dp, p->btf, &p->w, &p->opts, size);
	p->w.depth = 0;
	p->w.sep = 0;
	ret = lbtfi_dp_type(&dp, type_id, 0, (struct lbtfi_bytes){ data, size });
	lbtfi_json_finish(&p->w);
	return ret;
}

void lbtf_data_printer_free(struct lbtf_data_printer *p)
{
	free(p);
}
