// SPDX-License-Identifier: BSD-2-Clause
/*
 * Pass 1, check_meta: the linear walk, then the per-kind checks it runs.
 */
#include <stdlib.h>
#include "internal.h"

/*
 * Pass 1 (check_meta): a linear walk that checks each type's fixed fields
 * in the kernel's order and dumps every type that passes to the log.
 */
/* Append to the type table; past the kernel's capacity the type is dropped
 * after a (non-fatal) message, exactly as btf_add_type's ignored error. */
static void add_type(struct venv *env, const struct lbtf_type *t)
{
	if (env->start_id + env->nr_types >= VMAX_TYPE) {
		lbtfi_vlog(env, "Exceeded max num of types");
		return;
	}
	env->kinds[env->nr_types] = vk(t);
	/* the special-field pass runs on base BTF only */
	if (vk_in(vk(t), KB(STRUCT) | KB(TYPE_TAG)) && !env->base)
		lbtfi_vsf_note_type(env, t, env->nr_types);
	env->types[env->nr_types++] = t;
}

/* The common checks, then the kind's own; returns bytes used or -errno. */
static int64_t check_meta(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	uint32_t needed;
	int err;

	if (left < sizeof(*t)) {
		lbtfi_vlog(env, "[%u] meta_left:%u meta_needed:%zu", env->log_id, left, sizeof(*t));
		return -EINVAL;
	}
	left -= sizeof(*t);
	if (t->info & ~env->rules->info_mask) {
		lbtfi_vlog(env, "[%u] Invalid btf_info:%x", env->log_id, t->info);
		return -EINVAL;
	}
	if (vk(t) > LBTF_KIND_MAX || vk(t) == LBTF_KIND_UNKN) {
		lbtfi_vlog(env, "[%u] Invalid kind:%u", env->log_id, vk(t));
		return -EINVAL;
	}
	if (!lbtfi_vname_off_ok(env, t->name_off)) {
		lbtfi_vlog(env, "[%u] Invalid name_offset:%u", env->log_id, t->name_off);
		return -EINVAL;
	}
	/* every kind with trailing data checks it is all there first */
	needed = v_rec_needed(t);
	if (left < needed) {
		vlog_basic(env, t, "meta_left:%u meta_needed:%u", left, needed);
		return -EINVAL;
	}
	err = lbtfi_vops(t)->check_meta(env, t, left);
	if (err)
		return err;
	return sizeof(*t) + needed;
}

int lbtfi_vcheck_all_metas(struct venv *env)
{
	const unsigned char *cur = env->nohdr + env->hdr.type_off;
	const unsigned char *end = cur + env->hdr.type_len;

	/* types, kinds: the arena, types_cap entries (arena.c) */
	if (!env->base) {
		static const struct lbtf_type void_type;
		env->kinds[env->nr_types] = LBTF_KIND_UNKN;
		env->types[env->nr_types++] = &void_type;
	}
	env->phase = PHASE_META;
	env->log_id = env->base ? env->start_id : 1;
	while (cur < end) {
		const struct lbtf_type *t = (const struct lbtf_type *)cur;
		int64_t used = check_meta(env, t, end - cur);

		if (used < 0)
			return (int)used;
		add_type(env, t);
		cur += used;
		env->log_id++;
	}
	return 0;
}

/*
 * Pass 1's per-kind checks (the kernel's check_meta operations), in the
 * kernel's order: each logs its type (and members, enumerators, section
 * entries) when it passes, or the first problem found.
 *
 * Most checks are "a predicate on the type record, and the text the kernel
 * logs when it holds"; they are rows (ROW below) of per-kind lists, each
 * list expanded in order into one function (META_ROWS), so that a row costs
 * an inline test: every type of a vmlinux goes through 2-6 of them. Only
 * what needs more than one record (members, enumerators, section entries)
 * or a formatted message is code.
 */
#define INT_MASK 0x0fffffffu

static bool type_id_ok(uint32_t id) { return id <= VMAX_TYPE; }
static uint32_t bits_roundup_bytes(uint32_t bits) { return (bits >> 3) + !!(bits & 7); }

/* ---- predicates on the record (true: the check fails) ---- */
#define PRED(name, expr) \
	static inline bool name(struct venv *env, const struct lbtf_type *t) { (void)env; return (expr); }

static bool bad_str(struct venv *env, uint32_t off)
{
	const char *v = lbtfi_vstr(env, off);

	return !v || !v[0];
}
static uint32_t int_bits(const struct lbtf_type *t)
{
	return (v_int_data(t) & 0xff) + ((v_int_data(t) >> 16) & 0xff);
}
static bool int_enc_bad(unsigned int enc)
{
	return enc && enc != LBTF_INT_SIGNED && enc != LBTF_INT_CHAR && enc != LBTF_INT_BOOL;
}

PRED(has_vlen, lbtf_vlen(t) != 0)
PRED(has_kflag, lbtf_kflag(t))
PRED(has_name, t->name_off != 0)
PRED(has_size, t->size != 0)
PRED(no_size, t->size == 0)
PRED(has_type, t->type != 0)
PRED(name_not_ident, !t->name_off || !lbtfi_vname_ident(env, t->name_off))
PRED(opt_name_not_ident, t->name_off && !lbtfi_vname_ident(env, t->name_off))
PRED(name_not_section, !t->name_off || !lbtfi_vname_section(env, t->name_off))
PRED(name_empty, bad_str(env, t->name_off))
PRED(type_bad, !type_id_ok(t->type))
PRED(type_missing, !t->type || !type_id_ok(t->type))
PRED(elem_bad, !lbtf_array(t)->type || !type_id_ok(lbtf_array(t)->type))
PRED(index_bad, !lbtf_array(t)->index_type || !type_id_ok(lbtf_array(t)->index_type))
PRED(int_too_wide, int_bits(t) > 128)
PRED(int_over_size, bits_roundup_bytes(int_bits(t)) > t->size)
PRED(int_enc_unsupported, int_enc_bad((v_int_data(t) >> 24) & 0x0f))
PRED(enum_size_bad, t->size > 8 || !t->size || (t->size & (t->size - 1)))
PRED(func_linkage_bad, lbtf_vlen(t) > LBTF_LINKAGE_GLOBAL)
PRED(var_linkage_bad, lbtf_var(t)->linkage != 0 && lbtf_var(t)->linkage != 1)
PRED(float_size_bad, t->size != 2 && t->size != 4 && t->size != 8 && t->size != 12 &&
		     t->size != 16)
PRED(component_bad, lbtf_decl_tag(t)->component_idx < -1)

/* A failed row: the type is logged with msg, err returned (0: -EINVAL) */
static int row_failed(struct venv *env, const struct lbtf_type *t, const char *msg, int err)
{
	vlog_type(env, t, "%s", msg);
	return err ? err : -EINVAL;
}

/* One row: when bad holds (for env and t), the check fails with msg */
#define ROW(bad, msg, err)                                \
	do {                                              \
		if (bad(env, t))                          \
			return row_failed(env, t, msg, err); \
	} while (0);

/* the rows most kinds share */
#define VLEN ROW(has_vlen, "vlen != 0", 0)
#define KFLAG ROW(has_kflag, "Invalid btf_info kind_flag", 0)
#define NONAME ROW(has_name, "Invalid name", 0)
#define IDENT ROW(name_not_ident, "Invalid name", 0)
#define OPT_IDENT ROW(opt_name_not_ident, "Invalid name", 0)
#define TYPE_ID ROW(type_bad, "Invalid type_id", 0)

/* A function running rows in order: all pass, the type is logged as
 * accepted. Each kind checked by its rows alone has one, named in the ops
 * table (ops.c). */
#define ROWS_FN(fn, rows)                                                            \
	int fn(struct venv *env, const struct lbtf_type *t, uint32_t left)           \
	{                                                                            \
		rows                                                                 \
		vlog_type(env, t, NULL);                                             \
		return 0;                                                            \
	}

/* PTR, VOLATILE, CONST, RESTRICT */
ROWS_FN(lbtfi_vmeta_modifier, VLEN KFLAG TYPE_ID NONAME)
ROWS_FN(lbtfi_vmeta_typedef, VLEN KFLAG TYPE_ID IDENT)
/* a type tag may have kind_flag (an attribute tag) */
ROWS_FN(lbtfi_vmeta_type_tag, VLEN TYPE_ID ROW(name_empty, "Invalid name", 0))
ROWS_FN(lbtfi_vmeta_array, NONAME VLEN KFLAG ROW(has_size, "size != 0", 0)
	ROW(elem_bad, "Invalid elem", 0) ROW(index_bad, "Invalid index", 0))
ROWS_FN(lbtfi_vmeta_fwd, VLEN ROW(has_type, "type != 0", 0) IDENT)
ROWS_FN(lbtfi_vmeta_func, IDENT ROW(func_linkage_bad, "Invalid func linkage", 0) KFLAG)
ROWS_FN(lbtfi_vmeta_func_proto, NONAME KFLAG)
ROWS_FN(lbtfi_vmeta_var, VLEN KFLAG IDENT ROW(type_missing, "Invalid type_id", 0)
	ROW(var_linkage_bad, "Linkage not supported", 0))
ROWS_FN(lbtfi_vmeta_float, VLEN KFLAG ROW(float_size_bad, "Invalid type_size", 0))
ROWS_FN(lbtfi_vmeta_decl_tag, ROW(name_empty, "Invalid value", 0) VLEN
	ROW(component_bad, "Invalid component_idx", 0))
/* the rows of the kinds that go on in code */
static ROWS_FN(struct_head, OPT_IDENT)
static ROWS_FN(enum_head, ROW(enum_size_bad, "Unexpected size", 0) OPT_IDENT)
static ROWS_FN(datasec_head, ROW(no_size, "size == 0", 0) KFLAG ROW(name_not_section, "Invalid name", 0))

int lbtfi_vmeta_int(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	VLEN KFLAG
	if (v_int_data(t) & ~INT_MASK) {
		/* the kernel logs this one without the type's details */
		vlog_basic(env, t, "Invalid int_data:%x", v_int_data(t));
		return -EINVAL;
	}
	ROW(int_too_wide, "nr_bits exceeds 128", 0)
	ROW(int_over_size, "nr_bits exceeds type_size", 0)
	ROW(int_enc_unsupported, "Unsupported encoding", -LBTF_ENOTSUPP)
	vlog_type(env, t, NULL);
	return 0;
}

int lbtfi_vmeta_struct(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	bool is_union = vk(t) == LBTF_KIND_UNION;
	const struct lbtf_member *m = lbtf_members(t);
	uint32_t last = 0;
	int err = struct_head(env, t, left);

	for (unsigned int i = 0; !err && i < lbtf_vlen(t); i++, m++) {
		uint32_t off = lbtf_kflag(t) ? m->offset & 0xffffff : m->offset;

		if (!lbtfi_vname_off_ok(env, m->name_off)) {
			lbtfi_vlog_member(env, t, m, "Invalid member name_offset:%u", m->name_off);
			return -EINVAL;
		}
		if (m->name_off && !lbtfi_vname_ident(env, m->name_off)) {
			lbtfi_vlog_member(env, t, m, "Invalid name");
			return -EINVAL;
		}
		if (!m->type || !type_id_ok(m->type)) {
			lbtfi_vlog_member(env, t, m, "Invalid type_id");
			return -EINVAL;
		}
		if ((is_union && off) || last > off) {
			lbtfi_vlog_member(env, t, m, "Invalid member bits_offset");
			return -EINVAL;
		}
		if (bits_roundup_bytes(off) > t->size) {
			lbtfi_vlog_member(env, t, m, "Member bits_offset exceeds its struct size");
			return -EINVAL;
		}
		lbtfi_vlog_member(env, t, m, NULL);
		last = off;
	}
	return err;
}

/* Enumerator i of an ENUM or ENUM64: its name offset, its value both ways */
static uint32_t enumerator(const struct lbtf_type *t, unsigned int i, long long *sval,
			   unsigned long long *uval)
{
	if (vk(t) == LBTF_KIND_ENUM64) {
		const struct lbtf_enum64 *e = lbtf_enums64(t) + i;

		*uval = lbtf_enum64_value(e);
		*sval = (long long)*uval;
		return e->name_off;
	}
	*sval = lbtf_enums(t)[i].val;
	*uval = (uint32_t)lbtf_enums(t)[i].val;
	return lbtf_enums(t)[i].name_off;
}

/* An enumerator's line: "\t%s val=%lld\n" (kind_flag: signed), else
 * "\t%s val=%llu\n" */
static void enumerator_piece(struct venv *env, const struct lbtf_type *t, uint32_t name_off,
			     long long sval, unsigned long long uval)
{
	struct vpb b;

	if (!lbtfi_vpb_open(&env->log, &b))
		return;
	vpb_lit(&b, "\t");
	vpb_str(&b, lbtfi_vname(env, name_off));
	vpb_lit(&b, " val=");
	if (lbtf_kflag(t))
		vpb_d(&b, sval);
	else
		vpb_u(&b, uval);
	vpb_lit(&b, "\n");
	lbtfi_vpb_close(&env->log, &b);
}

/* ENUM and ENUM64 */
int lbtfi_vmeta_enum(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	int err = enum_head(env, t, left);

	for (unsigned int i = 0; !err && i < lbtf_vlen(t); i++) {
		long long sval;
		unsigned long long uval;
		uint32_t name_off = enumerator(t, i, &sval, &uval);

		if (!lbtfi_vname_off_ok(env, name_off)) {
			lbtfi_vlog(env, "\tInvalid name_offset:%u", name_off);
			return -EINVAL;
		}
		if (!name_off || !lbtfi_vname_ident(env, name_off)) {
			vlog_type(env, t, "Invalid name");
			return -EINVAL;
		}
		if (!lbtfi_vlog_dumps(env))
			continue;
		enumerator_piece(env, t, name_off, sval, uval);
	}
	return err;
}

int lbtfi_vmeta_datasec(struct venv *env, const struct lbtf_type *t, uint32_t left)
{
	const struct lbtf_var_secinfo *vsi = lbtf_secinfos(t);
	uint64_t last_end = 0, sum = 0;
	int err = datasec_head(env, t, left);

	for (unsigned int i = 0; !err && i < lbtf_vlen(t); i++, vsi++) {
		if (!vsi->type || !type_id_ok(vsi->type)) {
			lbtfi_vlog_vsi(env, t, vsi, "Invalid type_id");
			return -EINVAL;
		}
		if (vsi->offset < last_end || vsi->offset >= t->size) {
			lbtfi_vlog_vsi(env, t, vsi, "Invalid offset");
			return -EINVAL;
		}
		if (!vsi->size || vsi->size > t->size) {
			lbtfi_vlog_vsi(env, t, vsi, "Invalid size");
			return -EINVAL;
		}
		last_end = (uint32_t)(vsi->offset + vsi->size); /* wraps like the kernel */
		if (last_end > t->size) {
			lbtfi_vlog_vsi(env, t, vsi, "Invalid offset+size");
			return -EINVAL;
		}
		lbtfi_vlog_vsi(env, t, vsi, NULL);
		sum += vsi->size;
	}
	if (!err && sum > t->size) {
		vlog_type(env, t, "Invalid btf_info size");
		return -EINVAL;
	}
	return err;
}
