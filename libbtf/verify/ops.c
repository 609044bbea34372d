// SPDX-License-Identifier: BSD-2-Clause
/*
 * The verifier's per-kind operations (the kernel's btf_kind_operations):
 * the table, then the log_details operation of each kind.
 */
#include <pthread.h>
#include "internal.h"

/*
 * The verifier's per-kind operations, one row per kind, like the kernel's
 * btf_kind_operations. Layout facts (record sizes) come from the shared
 * kind table (lbtf_kind_desc); this table holds only behaviour.
 */
#define MODIFIER_OPS(meta)                                                             \
	{ .check_meta = lbtfi_vmeta_##meta, .resolve = lbtfi_vresolve_modifier,             \
	  .check_member = lbtfi_vmember_modifier,                                           \
	  .check_kflag_member = lbtfi_vmember_modifier_kflag, .log_details = lbtfi_vdetails_ref }
/* kinds that can never be a member's type */
#define NO_MEMBER                                                                      \
	.check_member = lbtfi_vmember_unsupported,                                          \
	.check_kflag_member = lbtfi_vmember_unsupported_kflag

/* A NULL resolve: the kind needs no pass-2 step (it is resolved in pass 1). */
const struct vkind_ops lbtfi_vops_table[LBTF_NR_KINDS + 13] = {
	/* void: only ever a sink, never dumped; unknown kinds (a base BTF's)
	 * act as void */
	[LBTF_KIND_UNKN] = { NO_MEMBER },
	[LBTF_NR_KINDS ... LBTF_NR_KINDS + 12] = { NO_MEMBER },
	[LBTF_KIND_INT] = { .check_meta = lbtfi_vmeta_int,
			    .check_member = lbtfi_vmember_int,
			    .check_kflag_member = lbtfi_vmember_int_kflag,
			    .log_details = lbtfi_vdetails_int },
	[LBTF_KIND_PTR] = { .check_meta = lbtfi_vmeta_modifier, .resolve = lbtfi_vresolve_ptr,
			    .check_member = lbtfi_vmember_ptr,
			    .check_kflag_member = lbtfi_vmember_generic_kflag,
			    .log_details = lbtfi_vdetails_ref },
	[LBTF_KIND_ARRAY] = { .check_meta = lbtfi_vmeta_array, .resolve = lbtfi_vresolve_array,
			      .check_member = lbtfi_vmember_array,
			      .check_kflag_member = lbtfi_vmember_generic_kflag,
			      .log_details = lbtfi_vdetails_array },
	[LBTF_KIND_STRUCT] = { .check_meta = lbtfi_vmeta_struct, .resolve = lbtfi_vresolve_struct,
			       .check_member = lbtfi_vmember_struct,
			       .check_kflag_member = lbtfi_vmember_generic_kflag,
			       .log_details = lbtfi_vdetails_sized },
	[LBTF_KIND_UNION] = { .check_meta = lbtfi_vmeta_struct, .resolve = lbtfi_vresolve_struct,
			      .check_member = lbtfi_vmember_struct,
			      .check_kflag_member = lbtfi_vmember_generic_kflag,
			      .log_details = lbtfi_vdetails_sized },
	[LBTF_KIND_ENUM] = { .check_meta = lbtfi_vmeta_enum,
			     .check_member = lbtfi_vmember_enum,
			     .check_kflag_member = lbtfi_vmember_enum_kflag,
			     .log_details = lbtfi_vdetails_sized },
	[LBTF_KIND_FWD] = { .check_meta = lbtfi_vmeta_fwd, NO_MEMBER,
			    .log_details = lbtfi_vdetails_fwd },
	[LBTF_KIND_TYPEDEF] = MODIFIER_OPS(typedef),
	[LBTF_KIND_VOLATILE] = MODIFIER_OPS(modifier),
	[LBTF_KIND_CONST] = MODIFIER_OPS(modifier),
	[LBTF_KIND_RESTRICT] = MODIFIER_OPS(modifier),
	[LBTF_KIND_FUNC] = { .check_meta = lbtfi_vmeta_func, .resolve = lbtfi_vresolve_func,
			     NO_MEMBER, .log_details = lbtfi_vdetails_ref },
	[LBTF_KIND_FUNC_PROTO] = { .check_meta = lbtfi_vmeta_func_proto, NO_MEMBER,
				   .log_details = lbtfi_vdetails_func_proto },
	[LBTF_KIND_VAR] = { .check_meta = lbtfi_vmeta_var, .resolve = lbtfi_vresolve_var,
			    NO_MEMBER, .log_details = lbtfi_vdetails_var },
	[LBTF_KIND_DATASEC] = { .check_meta = lbtfi_vmeta_datasec,
				.resolve = lbtfi_vresolve_datasec, NO_MEMBER,
				.log_details = lbtfi_vdetails_sized },
	[LBTF_KIND_FLOAT] = { .check_meta = lbtfi_vmeta_float,
			      .check_member = lbtfi_vmember_float,
			      .check_kflag_member = lbtfi_vmember_generic_kflag,
			      .log_details = lbtfi_vdetails_float },
	[LBTF_KIND_DECL_TAG] = { .check_meta = lbtfi_vmeta_decl_tag,
				 .resolve = lbtfi_vresolve_decl_tag, NO_MEMBER,
				 .log_details = lbtfi_vdetails_decl_tag },
	[LBTF_KIND_TYPE_TAG] = MODIFIER_OPS(type_tag),
	[LBTF_KIND_ENUM64] = { .check_meta = lbtfi_vmeta_enum,
			       .check_member = lbtfi_vmember_enum,
			       .check_kflag_member = lbtfi_vmember_enum_kflag,
			       .log_details = lbtfi_vdetails_sized },
};

/* Indexed by any 5-bit kind; filled from lbtf_kind_desc() on first use. */
bool lbtfi_vhas_size[LBTF_NR_KINDS + 13];
uint32_t lbtfi_vsize_kinds;
struct vrec lbtfi_vrec[LBTF_NR_KINDS + 13];

static void init_has_size(void)
{
	for (unsigned int k = 0; k <= LBTF_KIND_MAX; k++) {
		const struct lbtf_kind_desc *d = lbtf_kind_desc(k);

		lbtfi_vhas_size[k] = d->size_field;
		lbtfi_vsize_kinds |= (uint32_t)lbtfi_vhas_size[k] << k;
		lbtfi_vrec[k].extra = d->extra_size;
		lbtfi_vrec[k].elem = d->vlen_elem_size;
	}
}

void lbtfi_vops_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, init_has_size);
}

/* Per-kind details of a type line ("size=4 vlen=2", "type_id=3", ...). */
static const char *int_encoding_str(unsigned int enc)
{
	switch (enc) {
	case 0: return "(none)";
	case LBTF_INT_SIGNED: return "SIGNED";
	case LBTF_INT_CHAR: return "CHAR";
	case LBTF_INT_BOOL: return "BOOL";
	default: return "UNKN";
	}
}

void lbtfi_vdetails_int(struct venv *env, const struct lbtf_type *t)
{
	uint32_t d = v_int_data(t);

	lbtfi_vlog(env, "size=%u bits_offset=%u nr_bits=%u encoding=%s", t->size, (d >> 16) & 0xff,
		   d & 0xff, int_encoding_str((d >> 24) & 0x0f));
}

void lbtfi_vdetails_ref(struct venv *env, const struct lbtf_type *t)
{
	struct vpb b; /* "type_id=%u" */

	if (lbtfi_vpb_open(&env->log, &b)) {
		vpb_lit(&b, "type_id=");
		vpb_u(&b, t->type);
		lbtfi_vpb_close(&env->log, &b);
	}
}

void lbtfi_vdetails_fwd(struct venv *env, const struct lbtf_type *t)
{
	lbtfi_vlog(env, "%s", lbtf_kflag(t) ? "union" : "struct");
}

void lbtfi_vdetails_array(struct venv *env, const struct lbtf_type *t)
{
	const struct lbtf_array *a = lbtf_array(t);

	struct vpb b; /* "type_id=%u index_type_id=%u nr_elems=%u" */

	if (lbtfi_vpb_open(&env->log, &b)) {
		vpb_lit(&b, "type_id=");
		vpb_u(&b, a->type);
		vpb_lit(&b, " index_type_id=");
		vpb_u(&b, a->index_type);
		vpb_lit(&b, " nr_elems=");
		vpb_u(&b, a->nelems);
		lbtfi_vpb_close(&env->log, &b);
	}
}

/* STRUCT, UNION, ENUM, ENUM64, DATASEC */
void lbtfi_vdetails_sized(struct venv *env, const struct lbtf_type *t)
{
	struct vpb b; /* "size=%u vlen=%u" */

	if (lbtfi_vpb_open(&env->log, &b)) {
		vpb_lit(&b, "size=");
		vpb_u(&b, t->size);
		vpb_lit(&b, " vlen=");
		vpb_u(&b, lbtf_vlen(t));
		lbtfi_vpb_close(&env->log, &b);
	}
}

/* One parameter of a proto's line, its own piece: "%u %s", after the
 * first ", %u %s" */
static void param_piece(struct venv *env, const struct lbtf_param *p, bool comma)
{
	struct vpb b;

	if (!lbtfi_vpb_open(&env->log, &b))
		return;
	if (comma)
		vpb_lit(&b, ", ");
	vpb_u(&b, p->type);
	vpb_lit(&b, " ");
	vpb_str(&b, lbtfi_vname(env, p->name_off));
	lbtfi_vpb_close(&env->log, &b);
}

void lbtfi_vdetails_func_proto(struct venv *env, const struct lbtf_type *t)
{
	const struct lbtf_param *p = lbtf_params(t);
	unsigned int n = lbtf_vlen(t);

	lbtfi_vlog(env, "return=%u args=(", t->type);
	if (!n) {
		lbtfi_vlog(env, "void");
	} else if (n == 1 && !p[0].type) {
		lbtfi_vlog(env, "vararg");
	} else {
		param_piece(env, &p[0], false);
		for (unsigned int i = 1; i + 1 < n; i++)
			param_piece(env, &p[i], true);
		if (n > 1) {
			if (p[n - 1].type)
				param_piece(env, &p[n - 1], true);
			else
				lbtfi_vlog(env, ", vararg");
		}
	}
	lbtfi_vlog(env, ")");
}

void lbtfi_vdetails_var(struct venv *env, const struct lbtf_type *t)
{
	lbtfi_vlog(env, "type_id=%u linkage=%u", t->type, lbtf_var(t)->linkage);
}

void lbtfi_vdetails_float(struct venv *env, const struct lbtf_type *t)
{
	lbtfi_vlog(env, "size=%u", t->size);
}

void lbtfi_vdetails_decl_tag(struct venv *env, const struct lbtf_type *t)
{
	lbtfi_vlog(env, "type=%u component_idx=%d", t->type, lbtf_decl_tag(t)->component_idx);
}
