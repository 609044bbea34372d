/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Words shared by the raw and JSON dumpers, spelled as bpftool prints them.
 * Internal to libbtf.
 */
#ifndef LIBBTF_DUMP_COMMON_H
#define LIBBTF_DUMP_COMMON_H

#include "core/internal.h"

/* A name as bpftool shows it: "(anon)" for offset 0, "(invalid)" when the
 * offset is outside the string section(s). */
static inline const char *lbtfi_dump_name(const struct lbtf *btf, uint32_t off)
{
	const char *s;

	if (!off)
		return "(anon)";
	s = lbtf_name_by_offset(btf, off);
	return s ? s : "(invalid)";
}

/* INT encoding bits (one at most is expected) */
static inline const char *lbtfi_int_encoding_str(uint32_t enc)
{
	static const char *const names[] = {
		[0] = "(none)",
		[LBTF_INT_SIGNED] = "SIGNED",
		[LBTF_INT_CHAR] = "CHAR",
		[LBTF_INT_BOOL] = "BOOL",
	};

	return enc < sizeof(names) / sizeof(names[0]) && names[enc] ? names[enc] : "UNKN";
}

/* FUNC linkage (kept in vlen) and VAR linkage share the same three words */
static inline const char *lbtfi_linkage_str(uint32_t linkage)
{
	static const char *const names[] = {
		[LBTF_LINKAGE_STATIC] = "static",
		[LBTF_LINKAGE_GLOBAL] = "global",
		[LBTF_LINKAGE_EXTERN] = "extern",
	};

	return linkage < sizeof(names) / sizeof(names[0]) ? names[linkage] : "(unknown)";
}

static inline const char *lbtfi_signedness_str(const struct lbtf_type *t)
{
	return lbtf_kflag(t) ? "SIGNED" : "UNSIGNED";
}

/* Enumerator i of an ENUM or ENUM64: returns its name offset and sets *val
 * to its 64 value bits (an ENUM's signed 32-bit value sign-extended, the
 * way bpftool widens it). */
static inline uint32_t lbtfi_enumerator(const struct lbtf_type *t, unsigned int i, uint64_t *val)
{
	if (lbtf_kind(t) == LBTF_KIND_ENUM64) {
		*val = lbtf_enum64_value(&lbtf_enums64(t)[i]);
		return lbtf_enums64(t)[i].name_off;
	}
	*val = (uint64_t)(int64_t)lbtf_enums(t)[i].val;
	return lbtf_enums(t)[i].name_off;
}

static inline const char *lbtfi_fwd_kind_str(const struct lbtf_type *t)
{
	return lbtf_kflag(t) ? "union" : "struct";
}

#endif
