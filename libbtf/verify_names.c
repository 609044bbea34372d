// SPDX-License-Identifier: BSD-2-Clause
/*
 * Strings and name rules of the verifier. Names are judged with the
 * kernel's own ctype (lib/ctype.c is Latin-1, not ASCII): 0xC0-0xFF are
 * letters except 0xD7 and 0xF7, and 0xA0-0xFF are printable.
 */
#include <string.h>
#include "verify_internal.h"

static bool k_isupper(unsigned char c) { return (c >= 'A' && c <= 'Z') || (c >= 0xc0 && c <= 0xde && c != 0xd7); }
static bool k_islower(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 0xdf && c != 0xf7); }
static bool k_isalpha(unsigned char c) { return k_isupper(c) || k_islower(c); }
static bool k_isdigit(unsigned char c) { return c >= '0' && c <= '9'; }
static bool k_isprint(unsigned char c) { return (c >= 0x20 && c <= 0x7e) || c >= 0xa0; }

static bool ident_char_ok(unsigned char c, bool first)
{
	if (c == '_' || c == '.')
		return true;
	return first ? k_isalpha(c) : (k_isalpha(c) || k_isdigit(c));
}

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

	if (!s || !ident_char_ok(*s, true))
		return false;
	limit = s + VKSYM_NAME_LEN;
	for (s++; *s && s < limit; s++)
		if (!ident_char_ok(*s, false))
			return false;
	return !*s;
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
