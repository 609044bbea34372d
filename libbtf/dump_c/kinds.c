// SPDX-License-Identifier: BSD-2-Clause
/*
 * The C dumper's per-kind operations, one record a kind with named fields
 * (as the kernel keeps btf_kind_operations): how a declarator continues,
 * where alignment comes from, what ordering visits, the --sort rank, the
 * qualifier keyword, the declarator printer and the top-level emitter.
 */
#include "internal.h"

const struct lbtfi_dc_kind_ops lbtfi_dc_kind_ops[LBTF_NR_KINDS] = {
	[LBTF_KIND_UNKN] = {
		.next = DC_NEXT_BAD,
	},
	[LBTF_KIND_INT] = {
		.next = DC_NEXT_END, .align = DC_AL_SIZE, .sort_rank = 2,
		.decl = lbtfi_dc_decl_base, .top = lbtfi_dc_top_int,
	},
	[LBTF_KIND_FLOAT] = {
		.next = DC_NEXT_END, .align = DC_AL_SIZE, .sort_rank = 2,
		.decl = lbtfi_dc_decl_base,
	},
	[LBTF_KIND_PTR] = {
		.next = DC_NEXT_TYPE, .align = DC_AL_PTR, .children = DC_CH_TYPE,
		.decl = lbtfi_dc_decl_ptr, .top = lbtfi_dc_top_through,
	},
	[LBTF_KIND_ARRAY] = {
		.next = DC_NEXT_ELEM, .align = DC_AL_ELEM, .children = DC_CH_ELEM,
		.decl = lbtfi_dc_decl_array, .top = lbtfi_dc_top_through,
	},
	[LBTF_KIND_STRUCT] = {
		.next = DC_NEXT_END, .align = DC_AL_MEMBERS, .children = DC_CH_MEMBERS,
		.sort_rank = 3, .decl = lbtfi_dc_decl_composite, .top = lbtfi_dc_top_composite,
		.top_leave = lbtfi_dc_top_composite_leave,
	},
	[LBTF_KIND_UNION] = {
		.next = DC_NEXT_END, .align = DC_AL_MEMBERS, .children = DC_CH_MEMBERS,
		.sort_rank = 3, .decl = lbtfi_dc_decl_composite, .top = lbtfi_dc_top_composite,
		.top_leave = lbtfi_dc_top_composite_leave,
	},
	[LBTF_KIND_ENUM] = {
		.next = DC_NEXT_END, .align = DC_AL_SIZE, .sort_rank = 1,
		.decl = lbtfi_dc_decl_enum, .top = lbtfi_dc_top_enum,
	},
	[LBTF_KIND_ENUM64] = {
		.next = DC_NEXT_END, .align = DC_AL_SIZE, .sort_rank = 1,
		.decl = lbtfi_dc_decl_enum, .top = lbtfi_dc_top_enum,
	},
	[LBTF_KIND_FWD] = {
		.next = DC_NEXT_END, /* no alignment: incomplete */
		.decl = lbtfi_dc_decl_fwd, .top = lbtfi_dc_top_fwd,
	},
	[LBTF_KIND_TYPEDEF] = {
		.next = DC_NEXT_END, .align = DC_AL_TYPE, .children = DC_CH_TYPE,
		.decl = lbtfi_dc_decl_typedef, .top = lbtfi_dc_top_typedef,
		.top_leave = lbtfi_dc_top_typedef_leave,
	},
	[LBTF_KIND_VOLATILE] = {
		.next = DC_NEXT_TYPE, .align = DC_AL_TYPE, .children = DC_CH_TYPE,
		.qual = "volatile", .decl = lbtfi_dc_decl_qual, .top = lbtfi_dc_top_through,
	},
	[LBTF_KIND_CONST] = {
		.next = DC_NEXT_TYPE, .align = DC_AL_TYPE, .children = DC_CH_TYPE,
		.qual = "const", .decl = lbtfi_dc_decl_qual, .top = lbtfi_dc_top_through,
	},
	[LBTF_KIND_RESTRICT] = {
		.next = DC_NEXT_TYPE, .align = DC_AL_TYPE, .children = DC_CH_TYPE,
		.qual = "restrict", .decl = lbtfi_dc_decl_qual, .top = lbtfi_dc_top_through,
	},
	[LBTF_KIND_TYPE_TAG] = {
		.next = DC_NEXT_TYPE, .align = DC_AL_TYPE, .children = DC_CH_TYPE,
		.decl = lbtfi_dc_decl_type_tag, .top = lbtfi_dc_top_through,
	},
	[LBTF_KIND_FUNC_PROTO] = {
		.next = DC_NEXT_TYPE, .children = DC_CH_PROTO, .sort_rank = 4,
		.decl = lbtfi_dc_decl_proto, .top = lbtfi_dc_top_through,
	},
	/* not types a declaration can use: no declarator, nothing to print */
	[LBTF_KIND_FUNC] = { .next = DC_NEXT_BAD },
	[LBTF_KIND_VAR] = { .next = DC_NEXT_BAD },
	[LBTF_KIND_DATASEC] = { .next = DC_NEXT_BAD },
	[LBTF_KIND_DECL_TAG] = { .next = DC_NEXT_BAD },
};
