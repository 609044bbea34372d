// SPDX-License-Identifier: BSD-2-Clause
/*
 * The converter's options and reports: the texts of its warnings (each
 * given once per conversion) and the names of its features (btfgen
 * --features).
 */
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* Warnings ------------------------------------------------------------------ */

static const char *const warning_texts[LBTFI_DW_WARN_NR] = {
	[LBTFI_DW_WARN_CXX_REFERENCE] = "C++ reference types encoded as pointers",
	[LBTFI_DW_WARN_PTR_TO_MEMBER] = "C++ pointer-to-member types skipped (no BTF kind)",
	[LBTFI_DW_WARN_INHERITANCE] = "C++ base classes skipped (no BTF kind)",
	[LBTFI_DW_WARN_TEMPLATE] = "C++ template parameters skipped (no BTF kind)",
	[LBTFI_DW_WARN_VARIANT_PART] = "Rust enum variant parts skipped (no BTF kind)",
	[LBTFI_DW_WARN_NAMESPACE] = "C++ namespaces skipped (no BTF kind)",
	[LBTFI_DW_WARN_OTHER_TAG] = NULL, /* reported per tag */
	[LBTFI_DW_WARN_ODD_INT] = "base types of unusual size rounded up (or stored as byte arrays)",
	[LBTFI_DW_WARN_COMPLEX_FLOAT] = "complex floats encoded as arrays of two FLOATs",
	[LBTFI_DW_WARN_BITFIELD_RANGE] = "bitfields wider than 255 bits encoded as plain members",
	[LBTFI_DW_WARN_UNNAMED_PARAM] = "functions with unnamed parameters have no FUNC (kernel rule)",
	[LBTFI_DW_WARN_LANG_CXX] = "C++ compile units skipped (BTF describes C)",
	[LBTFI_DW_WARN_LANG_RUST] = "Rust compile units skipped (BTF describes C)",
	[LBTFI_DW_WARN_LANG_OTHER] = "compile units in languages other than C skipped",
	[LBTFI_DW_WARN_BAD_NAME] = "type names that are not C identifiers dropped (kernel rule)",
	[LBTFI_DW_WARN_MEMBER_RANGE] = "members BTF cannot place dropped (past the end of their struct, or bit-fields over more than 128 bits of storage)",
	[LBTFI_DW_WARN_VAR_FUNC] = "variables of function type dropped (a VAR needs a sized type)",
	[LBTFI_DW_WARN_ARRAY_VOID] = "array types without an element type taken as void (members and variables of them dropped)",
};

const char *lbtfi_dw_warning_text(enum lbtfi_dw_warning w)
{
	return w < LBTFI_DW_WARN_NR ? warning_texts[w] : NULL;
}

void lbtfi_dw_report_warnings(const struct lbtf_dwarf_opts *o, uint64_t warned,
			    const uint32_t *tags, uint32_t ntags)
{
	char msg[160];
	uint32_t i;

	if (!o || !o->warn)
		return;
	for (i = 0; i < LBTFI_DW_WARN_NR; i++)
		if ((warned >> i) & 1 && warning_texts[i])
			o->warn(o->ctx, warning_texts[i]);
	for (i = 0; i < ntags; i++) {
		snprintf(msg, sizeof(msg), "DWARF tag 0x%x (DW_TAG_%s) skipped (no BTF kind)",
			 tags[i], lbtfi_dw_tag_name(tags[i]));
		o->warn(o->ctx, msg);
	}
}

void lbtfi_dw_merge_tags(uint32_t *all, uint32_t *n, uint32_t cap, const uint32_t *tags)
{
	uint32_t i, j;

	for (i = 0; i < 8 && tags[i]; i++) {
		for (j = 0; j < *n && all[j] != tags[i]; j++)
			;
		if (j == *n && *n < cap)
			all[(*n)++] = tags[i];
	}
}

/* Features ------------------------------------------------------------------ */

static const struct {
	const char *name;
	uint32_t bits;
} feature_names[] = {
	{ "float", LBTF_DWARF_FEAT_FLOAT },       { "enum64", LBTF_DWARF_FEAT_ENUM64 },
	{ "type_tag", LBTF_DWARF_FEAT_TYPE_TAG }, { "decl_tag", LBTF_DWARF_FEAT_DECL_TAG },
	{ "func", LBTF_DWARF_FEAT_FUNC },         { "var", LBTF_DWARF_FEAT_VAR },
	{ "percpu_var", LBTF_DWARF_FEAT_PERCPU_VAR }, { "dedup", LBTF_DWARF_FEAT_DEDUP },
	{ "reuse", LBTF_DWARF_FEAT_REUSE },       { "default", LBTF_DWARF_FEAT_DEFAULT },
	{ "all", LBTF_DWARF_FEAT_ALL },
	{ "none", 0 },
	{ "optimized_func", LBTF_DWARF_FEAT_OPTIMIZED_FUNC },
	{ "consistent_func", LBTF_DWARF_FEAT_CONSISTENT_FUNC },
	{ "decl_tag_kfuncs", LBTF_DWARF_FEAT_DECL_TAG_KFUNCS },
	{ "attributes", LBTF_DWARF_FEAT_ATTRIBUTES },
	{ "abi_func", LBTF_DWARF_FEAT_ABI_FUNC },
	{ "true_signature", LBTF_DWARF_FEAT_TRUE_SIGNATURE },
};

int lbtf_dwarf_parse_features(const char *list, uint32_t *feat)
{
	const char *p = list;

	if (!list || !feat)
		return lbtfi_err(EINVAL, "no feature list");
	/* "-name" first: a change to the defaults, not to an empty set */
	if (!(*feat & LBTF_DWARF_FEAT_LIST) && *p == '-')
		*feat = LBTF_DWARF_FEAT_DEFAULT | LBTF_DWARF_FEAT_INPUT_VARS;
	*feat |= LBTF_DWARF_FEAT_LIST;
	while (*p) {
		size_t len = strcspn(p, ",");
		bool neg = *p == '-';
		const char *name = p + (neg || *p == '+');
		size_t nlen = len - (name - p), i;

		for (i = 0; i < sizeof(feature_names) / sizeof(feature_names[0]); i++)
			if (strlen(feature_names[i].name) == nlen &&
			    !strncmp(feature_names[i].name, name, nlen))
				break;
		if (i == sizeof(feature_names) / sizeof(feature_names[0]))
			return lbtfi_err(EINVAL, "unknown feature '%.*s' (known: float, enum64, "
					 "type_tag, decl_tag, func, var, percpu_var, dedup, reuse, default, all, none, "
					 "optimized_func, consistent_func, decl_tag_kfuncs, attributes, "
					 "abi_func, true_signature)",
					 (int)nlen, name);
		if (neg) {
			*feat &= ~feature_names[i].bits;
		} else if (!strcmp(feature_names[i].name, "none")) {
			*feat = LBTF_DWARF_FEAT_LIST;
		} else {
			/* naming var or all asks for every variable, even in a kernel image */
			if (feature_names[i].bits & LBTF_DWARF_FEAT_VAR)
				*feat &= ~LBTF_DWARF_FEAT_INPUT_VARS;
			*feat |= feature_names[i].bits;
			if (!strcmp(feature_names[i].name, "default"))
				*feat |= LBTF_DWARF_FEAT_INPUT_VARS;
		}
		p += len;
		if (*p == ',')
			p++;
	}
	return 0;
}
