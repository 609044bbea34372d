// SPDX-License-Identifier: BSD-2-Clause
/*
 * A relocation's access string as a spec, the way libbpf parses it: the raw
 * indices, the turning points (the root as an array, each named member,
 * each array element; anonymous members are walked through but are no
 * turning point) and the bit offset they add up to.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

/* "0:1:2" into spec->raw as libbpf's sscanf("%d") loop reads it */
static int split(const char *s, struct rspec *spec)
{
	if (!*s || *s == ':')
		return -EINVAL;
	while (*s) {
		char *end;
		long v;

		if (*s == ':')
			s++;
		errno = 0;
		v = strtol(s, &end, 10);
		if (end == s || errno || v < 0 || v > INT32_MAX)
			return -EINVAL;
		if (spec->raw_len == RELO_SPEC_MAX)
			return -E2BIG;
		spec->raw[spec->raw_len++] = (uint32_t)v;
		s = end;
	}
	return spec->raw_len ? 0 : -EINVAL;
}

int relo_parse_spec(const struct lbtf *btf, uint32_t root_id, uint32_t kind, const char *access,
		    struct rspec *spec)
{
	const struct lbtf_type *t;
	struct racc *acc;
	uint32_t id = root_id;
	int64_t sz;
	int err;

	memset(spec, 0, sizeof(*spec));
	spec->btf = btf;
	spec->root_id = root_id;
	spec->kind = kind;
	if (!access || !*access || *access == ':')
		return -EINVAL;
	if (relo_is_type(kind))
		return strcmp(access, "0") ? -EINVAL : 0;
	if ((err = split(access, spec)))
		return err;
	if (!(t = relo_skip(btf, &id)))
		return -EINVAL;
	acc = &spec->acc[0];
	acc->type_id = id;
	acc->idx = spec->raw[0];
	spec->len = 1;
	if (relo_is_enumval(kind)) {
		if (!lbtf_is_enum(t) || spec->raw_len > 1 || acc->idx >= lbtf_vlen(t))
			return -EINVAL;
		acc->name = relo_str(btf, lbtf_kind(t) == LBTF_KIND_ENUM ?
					  lbtf_enums(t)[acc->idx].name_off :
					  lbtf_enums64(t)[acc->idx].name_off);
		return 0;
	}
	if (!relo_is_field(kind))
		return -EINVAL;
	if ((sz = lbtf_resolve_size(btf, id)) < 0)
		return (int)sz;
	spec->bit_off = (uint32_t)(acc->idx * sz * 8);
	for (int i = 1; i < spec->raw_len; i++) {
		uint32_t idx = spec->raw[i];

		if (!(t = relo_skip(btf, &id)))
			return -EINVAL;
		acc = &spec->acc[spec->len];
		if (lbtf_is_composite(t)) {
			const struct lbtf_member *m;

			if (idx >= lbtf_vlen(t))
				return -EINVAL;
			spec->bit_off += lbtf_member_bit_offset(t, idx);
			m = &lbtf_members(t)[idx];
			if (m->name_off) {
				const char *name = relo_str(btf, m->name_off);

				if (!*name)
					return -EINVAL;
				acc->type_id = id;
				acc->idx = idx;
				acc->name = name;
				spec->len++;
			}
			id = m->type;
		} else if (lbtf_kind(t) == LBTF_KIND_ARRAY) {
			const struct lbtf_array *a = lbtf_array(t);

			id = a->type;
			if (!relo_skip(btf, &id))
				return -EINVAL;
			if (!relo_is_flex(btf, acc - 1, a) && idx >= a->nelems)
				return -EINVAL;
			acc->type_id = id;
			acc->idx = idx;
			acc->name = NULL;
			spec->len++;
			if ((sz = lbtf_resolve_size(btf, id)) < 0)
				return (int)sz;
			spec->bit_off += (uint32_t)(idx * sz * 8);
		} else {
			return -EINVAL;
		}
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
