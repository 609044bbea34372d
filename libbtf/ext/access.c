// SPDX-License-Identifier: BSD-2-Clause
/* CO-RE access strings ("0:57:3") resolved against BTF, as libbpf reads them. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define MAX_ACCESS 64 /* libbpf's limit on access string components */

static bool is_field_kind(uint32_t kind)
{
	return kind <= LBTF_CORE_FIELD_RSHIFT_U64;
}

static bool is_enumval_kind(uint32_t kind)
{
	return kind == LBTF_CORE_ENUMVAL_EXISTS || kind == LBTF_CORE_ENUMVAL_VALUE;
}

/* "0:1:2" into idx[]; count or -EINVAL */
static int split(const char *s, uint32_t *idx, int max)
{
	int n = 0;

	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		char *end;
		unsigned long v;

		if (*s < '0' || *s > '9' || n == max)
			return -EINVAL;
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || v > UINT32_MAX)
			return -EINVAL;
		idx[n++] = (uint32_t)v;
		if (!*end)
			return n;
		if (*end != ':')
			return -EINVAL;
		s = end + 1;
	}
}

static void put(struct lbtf_core_step *steps, int max, int i, uint32_t type_id, uint32_t idx,
		uint32_t bit_off, const char *name)
{
	if (i >= max)
		return;
	steps[i].type_id = type_id;
	steps[i].idx = idx;
	steps[i].bit_off = bit_off;
	steps[i].name = name;
}

/* Skip typedefs and modifiers; the id or -ENOENT */
static int skip(const struct lbtf *btf, uint32_t id)
{
	return lbtf_resolve_type(btf, id);
}

int lbtf_core_access_resolve(const struct lbtf *btf, uint32_t root_id, uint32_t kind,
			     const char *access, struct lbtf_core_step *steps, int max)
{
	uint32_t idx[MAX_ACCESS];
	const struct lbtf_type *t;
	const char *name;
	int n, id;

	if (!btf || kind >= LBTF_CORE_RELO_KIND_CNT || max < 0 || (max && !steps))
		return lbtfi_err(EINVAL, "lbtf_core_access_resolve: bad arguments");
	n = split(access, idx, MAX_ACCESS);
	if (n < 0)
		return lbtfi_err(EINVAL, "CO-RE access string '%s' is malformed", access ? access : "");
	id = skip(btf, root_id);
	if (id < 0 || !(t = lbtf_type_by_id(btf, (uint32_t)id)))
		return lbtfi_err(ENOENT, "CO-RE root type [%u] does not exist", root_id);
	if (!is_field_kind(kind) && !is_enumval_kind(kind)) {
		if (n != 1 || idx[0])
			return lbtfi_err(EINVAL, "CO-RE type relocation with access '%s' (want \"0\")", access);
		put(steps, max, 0, (uint32_t)id, 0, 0, NULL);
		return 1;
	}
	if (is_enumval_kind(kind)) {
		if (n != 1 || !lbtf_is_enum(t))
			return lbtfi_err(EINVAL, "CO-RE enumerator relocation on [%u] with access '%s'",
					 root_id, access);
		if (idx[0] >= lbtf_vlen(t))
			return lbtfi_err(ENOENT, "CO-RE enumerator %u of [%u] does not exist (%u enumerators)",
					 idx[0], root_id, lbtf_vlen(t));
		name = lbtf_name_by_offset(btf, lbtf_kind(t) == LBTF_KIND_ENUM ?
							lbtf_enums(t)[idx[0]].name_off :
							lbtf_enums64(t)[idx[0]].name_off);
		if (!name)
			return lbtfi_err(EINVAL, "CO-RE enumerator %u of [%u] has a bad name offset",
					 idx[0], root_id);
		put(steps, max, 0, (uint32_t)id, idx[0], 0, name);
		return 1;
	}
	/* field: the first index steps over the root as over an array */
	put(steps, max, 0, (uint32_t)id, idx[0], 0, NULL);
	for (int i = 1; i < n; i++) {
		if (lbtf_is_composite(t)) {
			const struct lbtf_member *m;

			if (idx[i] >= lbtf_vlen(t))
				return lbtfi_err(ENOENT, "CO-RE access '%s': [%u] has no member %u (%u members)",
						 access, (uint32_t)id, idx[i], lbtf_vlen(t));
			m = &lbtf_members(t)[idx[i]];
			name = lbtf_name_by_offset(btf, m->name_off);
			if (!name)
				return lbtfi_err(EINVAL, "CO-RE access '%s': member %u of [%u] has a bad name offset",
						 access, idx[i], (uint32_t)id);
			put(steps, max, i, (uint32_t)id, idx[i], lbtf_member_bit_offset(t, idx[i]), name);
			id = skip(btf, m->type);
		} else if (lbtf_kind(t) == LBTF_KIND_ARRAY) {
			const struct lbtf_array *a = lbtf_array(t);

			/* libbpf allows any index into a flexible (0-size) array */
			if (a->nelems && idx[i] >= a->nelems)
				return lbtfi_err(ENOENT, "CO-RE access '%s': index %u past array [%u] of %u",
						 access, idx[i], (uint32_t)id, a->nelems);
			put(steps, max, i, (uint32_t)id, idx[i], 0, NULL);
			id = skip(btf, a->type);
		} else {
			return lbtfi_err(ENOENT, "CO-RE access '%s': step %d indexes [%u] (%s), not a struct, union or array",
					 access, i, (uint32_t)id, lbtf_kind_name(lbtf_kind(t)));
		}
		if (id < 0 || !(t = lbtf_type_by_id(btf, (uint32_t)id)))
			return lbtfi_err(ENOENT, "CO-RE access '%s': step %d reaches a missing type", access, i);
	}
	return n;
}
