// SPDX-License-Identifier: BSD-2-Clause
/* Per-kind details of a type line ("size=4 vlen=2", "type_id=3", ...). */
#include "internal.h"

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
	lbtfi_vlog(env, "type_id=%u", t->type);
}

void lbtfi_vdetails_fwd(struct venv *env, const struct lbtf_type *t)
{
	lbtfi_vlog(env, "%s", lbtf_kflag(t) ? "union" : "struct");
}

void lbtfi_vdetails_array(struct venv *env, const struct lbtf_type *t)
{
	const struct lbtf_array *a = lbtf_array(t);

	lbtfi_vlog(env, "type_id=%u index_type_id=%u nr_elems=%u", a->type, a->index_type, a->nelems);
}

/* STRUCT, UNION, ENUM, ENUM64, DATASEC */
void lbtfi_vdetails_sized(struct venv *env, const struct lbtf_type *t)
{
	lbtfi_vlog(env, "size=%u vlen=%u", t->size, lbtf_vlen(t));
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
		lbtfi_vlog(env, "%u %s", p[0].type, lbtfi_vname(env, p[0].name_off));
		for (unsigned int i = 1; i + 1 < n; i++)
			lbtfi_vlog(env, ", %u %s", p[i].type, lbtfi_vname(env, p[i].name_off));
		if (n > 1) {
			if (p[n - 1].type)
				lbtfi_vlog(env, ", %u %s", p[n - 1].type,
					   lbtfi_vname(env, p[n - 1].name_off));
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
