// SPDX-License-Identifier: BSD-2-Clause
/*
 * A relocation's access string as a spec, the way libbpf parses it: the raw
 * indices, the turning points (the root as an array, each named member,
 * each array element; anonymous members are walked through but are no
 * turning point) and the bit offset they add up to.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

const struct lbtf_type *relo_skip(const struct lbtf *btf, uint32_t *id)
{
	int r = lbtf_resolve_type(btf, *id);

	if (r < 0)
		return NULL;
	*id = (uint32_t)r;
	return lbtf_type_by_id(btf, *id);
}

const char *relo_str(const struct lbtf *btf, uint32_t off)
{
	const char *s = lbtf_name_by_offset(btf, off);

	return s ? s : "";
}

bool relo_kind_compat(const struct lbtf_type *a, const struct lbtf_type *b)
{
	return lbtf_kind(a) == lbtf_kind(b) || (lbtf_is_enum(a) && lbtf_is_enum(b));
}

/* libbpf's flexible array: a 0-element array that is its struct's last member */
bool relo_is_flex(const struct lbtf *btf, const struct racc *parent, const struct lbtf_array *a)
{
	const struct lbtf_type *t;

	if (!parent->name || a->nelems)
		return false;
	t = lbtf_type_by_id(btf, parent->type_id);
	return t && parent->idx == lbtf_vlen(t) - 1;
}

int relo_parse_spec(const struct lbtf *btf, uint32_t root_id, uint32_t kind, const char *access,
		    struct rspec *spec)
{
	struct lbtf_core_step st[RELO_SPEC_MAX];
	const struct lbtf_type *t;
	int64_t sz;
	int n;

	memset(spec, 0, sizeof(*spec));
	spec->btf = btf;
	spec->root_id = root_id;
	spec->kind = kind;
	if (!access || !*access || *access == ':')
		return -EINVAL;
	if (relo_is_type(kind))
		return strcmp(access, "0") ? -EINVAL : 0;
	/* the walk is ext's (btfdump ext and btfgen's rewrite walk the same
	 * way); libbpf's own rules are added on top of it below */
	n = lbtf_core_access_resolve(btf, root_id, kind, access, st, RELO_SPEC_MAX);
	if (n < 0 || n > RELO_SPEC_MAX)
		return n < 0 ? -EINVAL : -E2BIG;
	for (int i = 0; i < n; i++)
		spec->raw[i] = st[i].idx;
	spec->raw_len = n;
	spec->acc[0] = (struct racc){ .type_id = st[0].type_id, .idx = st[0].idx,
				      .name = relo_is_enumval(kind) ? st[0].name : NULL };
	spec->len = 1;
	if (relo_is_enumval(kind))
		return 0;
	if ((sz = lbtf_resolve_size(btf, st[0].type_id)) < 0)
		return (int)sz;
	spec->bit_off = (uint32_t)(st[0].idx * sz * 8);
	for (int i = 1; i < n; i++) {
		struct racc *acc = &spec->acc[spec->len];
		uint32_t id;

		t = lbtf_type_by_id(btf, st[i].type_id);
		if (st[i].name) { /* a member: a turning point when named */
			spec->bit_off += st[i].bit_off;
			if (*st[i].name) {
				*acc = (struct racc){ .type_id = st[i].type_id, .idx = st[i].idx,
						      .name = st[i].name };
				spec->len++;
			}
			continue;
		}
		/* an array element: only a flexible array takes any index */
		id = lbtf_array(t)->type;
		if (!relo_skip(btf, &id))
			return -EINVAL;
		if (!relo_is_flex(btf, acc - 1, lbtf_array(t)) && st[i].idx >= lbtf_array(t)->nelems)
			return -EINVAL;
		*acc = (struct racc){ .type_id = id, .idx = st[i].idx, .name = NULL };
		spec->len++;
		if ((sz = lbtf_resolve_size(btf, id)) < 0)
			return (int)sz;
		spec->bit_off += (uint32_t)(st[i].idx * sz * 8);
	}
	return 0;
}

void relo_format_raw(const struct rspec *spec, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < spec->raw_len && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%u", i ? ":" : "", spec->raw[i]);
	for (int i = 0; i < spec->len && n < len; i++) {
		const struct racc *a = &spec->acc[i];

		if (i == 0)
			n += (size_t)snprintf(buf + n, len - n, " ");
		if (n >= len)
			break;
		if (a->name)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? "." : "", a->name);
		else if (i > 0 || a->idx > 0)
			n += (size_t)snprintf(buf + n, len - n, "[%u]", a->idx);
	}
	if (n < len && relo_is_field(spec->kind)) {
		if (spec->bit_off % 8)
			snprintf(buf + n, len - n, " @ %u.%u", spec->bit_off / 8, spec->bit_off % 8);
		else
			snprintf(buf + n, len - n, " @ %u", spec->bit_off / 8);
	}
}
