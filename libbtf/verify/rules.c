// SPDX-License-Identifier: BSD-2-Clause
/*
 * The verifier's rule sets: what BPF_BTF_LOAD's header, section and type
 * checks allow, per kernel release. The checks themselves are written once
 * (hdr.c, meta.c); a rule set only says which of them apply and with which
 * limits, so a newer kernel is a new row here, not new branches there.
 */
#include "internal.h"

#define KV(a, b) (((uint32_t)(a) << 16) | ((uint32_t)(b) << 8))

static const struct vrules rule_sets[] = {
	/* the default: Linux 6.15 to 6.18, the 24-byte header, two sections,
	 * 16-bit vlen and 5-bit kind (bits 16-23 and 29-30 of info unused) */
	{ .since = 0, .name = "6.18", .hdr_len = LBTF_HDR_LEN_V1, .layout_sec = false,
	  .info_mask = 0x9f00ffffu },
	/* 626e88c070ee "btf: Support kernel parsing of BTF with layout info":
	 * a 32-byte header, the layout section as a third section */
	{ .since = KV(7, 1), .name = "7.1", .hdr_len = sizeof(struct lbtf_header), .layout_sec = true,
	  .info_mask = 0x9f00ffffu },
	/* f7a6b9eaff3e "bpf: Extend BTF UAPI vlen, kinds to use unused bits":
	 * no unused info bits left (24-bit vlen, 7-bit kind) */
	{ .since = KV(7, 2), .name = "7.2", .hdr_len = sizeof(struct lbtf_header), .layout_sec = true,
	  .info_mask = 0xffffffffu },
};

const struct vrules *lbtfi_vrules(uint32_t kernel_version)
{
	const struct vrules *r = &rule_sets[0];

	for (size_t i = 1; i < sizeof(rule_sets) / sizeof(rule_sets[0]); i++)
		if (kernel_version >= rule_sets[i].since)
			r = &rule_sets[i];
	return r;
}
