// SPDX-License-Identifier: BSD-2-Clause
/*
 * Strings and name rules of the verifier. Names are judged with the
 * kernel's own ctype (lib/ctype.c is Latin-1, not ASCII): 0xC0-0xFF are
 * letters except 0xD7 and 0xF7, and 0xA0-0xFF are printable.
 */
#include <string.h>
#include "internal.h"

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
