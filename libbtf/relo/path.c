// SPDX-License-Identifier: BSD-2-Clause
/*
 * A CO-RE relocation's access string as a member path people read, the one
 * spelling btfdump ext and btfcheck --target-btf share:
 *      struct task_struct::real_parent          (field "0:57")
 *      struct sk_buff::cb[2]                    (an array element)
 *      struct x::u.(anon).y                     (an anonymous member)
 *      struct task_struct[1]::pid               (the root as an array)
 *      enum bpf_map_type::BPF_MAP_TYPE_RINGBUF  (enumerator kinds)
 *      struct task_struct                       (type kinds)
 */
#include <errno.h>
#include <stdio.h>
#include "internal.h"

#define MAX_STEPS 64

static const char *str(const struct lbtf *btf, uint32_t off)
{
	const char *s = lbtf_name_by_offset(btf, off);

	return s ? s : "(invalid)";
}

/* "struct task_struct", "typedef u32", "STRUCT (anon)" into buf */
static const char *type_desc(const struct lbtf *btf, uint32_t id, char *buf, size_t len)
{
	const struct lbtf_type *t = lbtf_type_by_id(btf, id);
	const char *kw;

	if (!t) {
		snprintf(buf, len, "(no type [%u])", id);
		return buf;
	}
	switch (lbtf_kind(t)) {
	case LBTF_KIND_STRUCT: kw = "struct"; break;
	case LBTF_KIND_UNION: kw = "union"; break;
	case LBTF_KIND_ENUM: case LBTF_KIND_ENUM64: kw = "enum"; break;
	case LBTF_KIND_TYPEDEF: kw = "typedef"; break;
	case LBTF_KIND_FWD: kw = lbtf_kflag(t) ? "union" : "struct"; break;
	default: kw = NULL; break;
	}
	if (t->name_off && kw)
		snprintf(buf, len, "%s %s", kw, str(btf, t->name_off));
	else if (t->name_off)
		snprintf(buf, len, "%s", str(btf, t->name_off));
	else
		snprintf(buf, len, "%s%s(anon)", kw ? kw : lbtf_kind_name(lbtf_kind(t)), " ");
	return buf;
}

int lbtf_core_relo_path(const struct lbtf *btf, const struct lbtf_ext_core_relo *r, char *buf,
			size_t len)
{
	struct lbtf_core_step steps[MAX_STEPS];
	const char *access = str(btf, r->access_str_off);
	char root[256];
	size_t n;
	int cnt, i;

	if (!len)
		return -EINVAL;
	type_desc(btf, r->type_id, root, sizeof(root));
	cnt = lbtf_core_access_resolve(btf, r->type_id, r->kind, access, steps, MAX_STEPS);
	if (cnt < 0) {
		snprintf(buf, len, "%s", lbtf_errmsg());
		return cnt;
	}
	if (relo_is_type(r->kind)) {
		snprintf(buf, len, "%s", root);
		return 0;
	}
	if (relo_is_enumval(r->kind)) {
		snprintf(buf, len, "%s::%s", root, steps[0].name ? steps[0].name : "(invalid)");
		return 0;
	}
	n = (size_t)snprintf(buf, len, "%s", root);
	if (steps[0].idx && n < len)
		n += (size_t)snprintf(buf + n, len - n, "[%u]", steps[0].idx);
	for (i = 1; i < cnt && i < MAX_STEPS && n < len; i++) {
		if (!steps[i].name)
			n += (size_t)snprintf(buf + n, len - n, "[%u]", steps[i].idx);
		else
			n += (size_t)snprintf(buf + n, len - n, "%s%s", i == 1 ? "::" : ".",
					      *steps[i].name ? steps[i].name : "(anon)");
	}
	return 0;
}
