/* SPDX-License-Identifier: BSD-2-Clause */
/* Internal interface of the typed data printer (dump_data*.c). */
#ifndef LIBBTF_DUMP_DATA_H
#define LIBBTF_DUMP_DATA_H

#include "core/internal.h"
#include "dump/json_writer.h"

/* State of one typed print: where it goes and how values are spelled. */
struct lbtfi_dp {
	const struct lbtf *btf;
	struct lbtfi_json *w;
	bool text;      /* bpftool plain-text spelling (else bpftool -j) */
	bool valid;     /* strictly valid JSON */
	bool net;       /* network-order typedefs and flow-key addresses */
	bool flow_keys; /* inside struct bpf_flow_keys (or its anonymous parts) */
	uint16_t addr_proto; /* that struct's addr_proto, 0 if unknown */
	unsigned int depth;
	uint64_t budget; /* values left to print: bounds work on hostile BTF */
};

/*
 * Values one print may write (per map entry), from the bytes it covers:
 * zero-size types and shared subtypes could otherwise make a small input
 * print without end (a fuzzer found 4 KiB printing for seconds). Real
 * values print well under one value per byte; the base leaves room for
 * arrays of empty structs.
 */
#define LBTFI_DP_BUDGET_BASE 4096u
#define LBTFI_DP_BUDGET_PER_BYTE 64u
#define LBTFI_DP_BUDGET_MAX (UINT64_C(1) << 22)
static inline uint64_t lbtfi_dp_budget(size_t bytes)
{
	uint64_t b = LBTFI_DP_BUDGET_BASE + (uint64_t)LBTFI_DP_BUDGET_PER_BYTE * bytes;

	return b < LBTFI_DP_BUDGET_MAX ? b : LBTFI_DP_BUDGET_MAX;
}

/*
 * The bytes still readable from the current position. Every printer checks
 * the bytes it reads against len.
 */
struct lbtfi_bytes {
	const unsigned char *p;
	size_t len;
};

void lbtfi_dp_init(struct lbtfi_dp *dp, const struct lbtf *btf, struct lbtfi_json *w,
		   const struct lbtf_data_opts *o, size_t bytes);
/* Print the value of type id at b; bit (0-7) is the bit offset inside b.p[0]. */
int lbtfi_dp_type(struct lbtfi_dp *dp, uint32_t id, unsigned int bit, struct lbtfi_bytes b);

/* Marker for a value that does not fit in the bytes left; returns -EINVAL. */
int lbtfi_dp_truncated(struct lbtfi_dp *dp, uint32_t id, size_t need, size_t have);
/* A string value: the writer's escaping (bpftool's) or strict JSON escaping. */
void lbtfi_dp_string(struct lbtfi_dp *dp, const char *s);

/* Scalars (scalar.c) */
int lbtfi_dp_int(struct lbtfi_dp *dp, uint32_t id, const struct lbtf_type *t,
		 unsigned int bit, struct lbtfi_bytes b);
/* nr_bits starting bit bits into b.p, as a bitfield member (is_signed: of a
 * signed type, used for valid JSON only) */
int lbtfi_dp_bitfield(struct lbtfi_dp *dp, unsigned int nr_bits, unsigned int bit, bool is_signed,
		      struct lbtfi_bytes b);
int lbtfi_dp_float(struct lbtfi_dp *dp, uint32_t id, const struct lbtf_type *t,
		   unsigned int bit, struct lbtfi_bytes b);
int lbtfi_dp_ptr(struct lbtfi_dp *dp, uint32_t id, const struct lbtf_type *t,
		 unsigned int bit, struct lbtfi_bytes b);

/* Network-order helpers (net.c): 1 printed, 0 not theirs, <0 error. */
int lbtfi_dp_net_typedef(struct lbtfi_dp *dp, const struct lbtf_type *t, struct lbtfi_bytes b);
/* Entering struct bpf_flow_keys t over b: note its address family. */
void lbtfi_dp_net_flow_keys(struct lbtfi_dp *dp, const struct lbtf_type *t, struct lbtfi_bytes b);
/* Member i of t is the address arm of the other family: leave it out. */
bool lbtfi_dp_net_skip_member(struct lbtfi_dp *dp, const struct lbtf_type *t, unsigned int i);
int lbtfi_dp_net_member(struct lbtfi_dp *dp, const char *member, struct lbtfi_bytes b,
			int *err);

#endif
