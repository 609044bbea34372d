// SPDX-License-Identifier: BSD-2-Clause
/*
 * The verifier's view of its input: type ids to records and resolved sizes,
 * then the string section and the kernel's name rules.
 */
#include <string.h>
#include "internal.h"

/*
 * Type access for the verifier: ids to records (base BTF included), the
 * resolved ids and sizes of pass 2, and the kernel's btf_type_id_size().
 */
const struct lbtf_type *lbtfi_vtype(const struct venv *env, uint32_t id)
{
	if (id < env->start_id)
		return lbtf_type_by_id(env->base, id);
	id -= env->start_id;
	return id < env->nr_types ? env->types[id] : NULL;
}

/* Base ids count as resolved: their target is found by skipping modifiers
 * and VARs (only --strict split verification gets here). */
static uint32_t base_resolved_id(const struct venv *env, uint32_t id)
{
	for (int i = 0; i < 64; i++) {
		const struct lbtf_type *t = lbtf_type_by_id(env->base, id);

		if (!t) /* the base is not verified: a dangling id ends as void */
			return 0;
		if (!(v_is_modifier(t) || vk(t) == LBTF_KIND_VAR))
			return id;
		id = t->type;
	}
	return 0;
}

uint32_t lbtfi_vresolved_id(const struct venv *env, uint32_t id)
{
	if (id < env->start_id)
		return base_resolved_id(env, id);
	return env->res_id[id - env->start_id];
}

uint32_t lbtfi_vresolved_size(const struct venv *env, uint32_t id)
{
	if (id < env->start_id) {
		int64_t s = lbtf_resolve_size(env->base, id);
		return s < 0 ? 0 : (uint32_t)s;
	}
	return env->res_size[id - env->start_id];
}

bool lbtfi_vis_resolved(const struct venv *env, uint32_t id)
{
	if (id < env->start_id)
		return true;
	return env->visit[id - env->start_id] == RESOLVED;
}

bool lbtfi_vint_regular(const struct lbtf_type *t)
{
	uint32_t d = v_int_data(t);
	uint8_t bits = d & 0xff;
	uint8_t bytes = (bits >> 3) + !!(bits & 7);

	if ((bits & 7) || ((d >> 16) & 0xff))
		return false;
	return bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16;
}

/* Size of one step: own size, array's resolved size, pointer size */
static bool direct_size(const struct venv *env, const struct lbtf_type *t, uint32_t id,
			uint32_t *size)
{
	if (v_has_size(t))
		*size = t->size;
	else if (vk(t) == LBTF_KIND_ARRAY)
		*size = lbtfi_vresolved_size(env, id);
	else if (vk(t) == LBTF_KIND_PTR)
		*size = VPTR_SIZE;
	else
		return false;
	return true;
}

/* The kernel's btf_type_id_size(): NULL when the type has no size. Kinds
 * come from the dense kind array; records are loaded only for a size. */
const struct lbtf_type *lbtfi_vid_size(const struct venv *env, uint32_t *id, uint32_t *ret_size)
{
	uint32_t sid = *id, size = 0;
	unsigned int k = vkind_id(env, sid);
	const struct lbtf_type *t;

	if (k == VK_NULL || vk_in(k, M_NOSIZE))
		return NULL;
	if (vk_in(k, M_MODIFIER | KB(VAR))) {
		sid = lbtfi_vresolved_id(env, sid);
		k = vkind_id(env, sid);
		if (k == VK_NULL || vk_in(k, M_NOSIZE))
			return NULL;
	}
	t = lbtfi_vtype(env, sid);
	if (!direct_size(env, t, sid, &size))
		return NULL;
	*id = sid;
	if (ret_size)
		*ret_size = size;
	return t;
}

/*
 * Strings and name rules of the verifier. Names are judged with the
 * kernel's own ctype (lib/ctype.c is Latin-1, not ASCII): 0xC0-0xFF are
 * letters except 0xD7 and 0xF7, and 0xA0-0xFF are printable.
 */
enum { C_ALPHA = 1, C_DIGIT = 2, C_PRINT = 4, C_IDENT = 8 /* '_' and '.' */ };

/* Character classes of the kernel's lib/ctype.c (Latin-1) */
static const unsigned char ctype[256] = {
	[0x20 ... 0x2d] = C_PRINT,
	['.'] = C_IDENT | C_PRINT,
	['/'] = C_PRINT,
	['0' ... '9'] = C_DIGIT | C_PRINT,
	[':' ... '@'] = C_PRINT,
	['A' ... 'Z'] = C_ALPHA | C_PRINT,
	['[' ... '^'] = C_PRINT,
	['_'] = C_IDENT | C_PRINT,
	['`'] = C_PRINT,
	['a' ... 'z'] = C_ALPHA | C_PRINT,
	['{' ... '~'] = C_PRINT,
	[0xa0 ... 0xbf] = C_PRINT,
	[0xc0 ... 0xd6] = C_ALPHA | C_PRINT,
	[0xd7] = C_PRINT,
	[0xd8 ... 0xf6] = C_ALPHA | C_PRINT,
	[0xf7] = C_PRINT,
	[0xf8 ... 0xff] = C_ALPHA | C_PRINT,
};

static bool ident_char_ok(unsigned char c, bool first)
{
	return ctype[c] & (first ? C_ALPHA | C_IDENT : C_ALPHA | C_DIGIT | C_IDENT);
}

static bool k_isprint(unsigned char c) { return ctype[c] & C_PRINT; }

bool lbtfi_vname_off_ok(const struct venv *env, uint32_t off)
{
	if (off > VMAX_NAME_OFFSET)
		return false;
	if (off < env->start_str_off)
		return true; /* inside the base's strings */
	return off - env->start_str_off < env->hdr.str_len;
}

const char *lbtfi_vstr(const struct venv *env, uint32_t off)
{
	if (off < env->start_str_off)
		return lbtf_name_by_offset(env->base, off);
	off -= env->start_str_off;
	return off < env->hdr.str_len ? env->strs + off : NULL;
}

const char *lbtfi_vname(const struct venv *env, uint32_t off)
{
	const char *s;

	if (!off)
		return "(anon)";
	s = lbtfi_vstr(env, off);
	return s ? s : "(invalid-name-offset)";
}

bool lbtfi_vname_ident(const struct venv *env, uint32_t off)
{
	const unsigned char *s = (const unsigned char *)lbtfi_vstr(env, off);
	const unsigned char *limit;
	uint32_t own = off - env->start_str_off;
	bool cacheable = env->ident_ok && off >= env->start_str_off;

	/* names repeat a lot (member names, types): remember the good ones */
	if (cacheable && (env->ident_ok[own / 64] >> (own % 64) & 1))
		return true;
	if (!s || !ident_char_ok(*s, true))
		return false;
	limit = s + VKSYM_NAME_LEN;
	for (s++; *s && s < limit; s++)
		if (!ident_char_ok(*s, false))
			return false;
	if (*s)
		return false;
	if (cacheable)
		env->ident_ok[own / 64] |= 1ull << (own % 64);
	return true;
}

bool lbtfi_vname_section(const struct venv *env, uint32_t off)
{
	const unsigned char *s = (const unsigned char *)lbtfi_vstr(env, off);
	const unsigned char *limit;

	if (!s || !*s)
		return false;
	limit = s + VKSYM_NAME_LEN;
	for (; *s && s < limit; s++)
		if (!k_isprint(*s))
			return false;
	return !*s;
}
