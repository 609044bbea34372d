// SPDX-License-Identifier: BSD-2-Clause
/*
 * CO-RE relocations of every kind, resolved by btfcheck --target-btf and by
 * libbpf (the oracle) against the targets target_*.c describe: field byte
 * offsets (ALU adds and direct loads, nested members, array elements, a
 * flexible array), sizes, existence, bitfields (byte size, shifts,
 * signedness), type existence, size, matches and ids, enumerator existence
 * and values, a ___flavor struct whose field was renamed, load sizes that
 * change (unsigned: adjusted; signed: poisoned), where libbpf 1.8 and 1.1
 * differ (corners), a subprogram in .text and a program not loaded by
 * default (SEC("?...")).
 */
#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)
#include "relo_types.h"

/* the same struct after a rename, as a program supporting both spells it */
struct rec___v2 {
	int renamed;
};

/* a type no target has */
struct never_there {
	int q;
};
#pragma clang attribute pop

#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

long out[64];

static __noinline long sub_read(struct rec *r)
{
	return BPF_CORE_READ(r, in.w) + bpf_core_field_size(r->arr);
}

SEC("raw_tp")
int fields(void *ctx)
{
	struct rec *r = (void *)bpf_get_current_task();
	int a = 0;

	bpf_core_read(&a, sizeof(a), &r->a);
	out[0] = a;
	out[1] = r->b;
	out[2] = BPF_CORE_READ(r, in.z);
	out[3] = BPF_CORE_READ(r, arr[2]);
	out[4] = bpf_core_field_size(r->name);
	out[5] = bpf_core_field_exists(r->gone);
	out[6] = r->u16f;
	out[7] = r->s16f;
	out[8] = bpf_core_field_offset(r->tail);
	out[9] = BPF_CORE_READ(r, in_ptr, z);
	if (bpf_core_field_exists(((struct rec___v2 *)r)->renamed))
		out[10] = BPF_CORE_READ((struct rec___v2 *)r, renamed);
	out[11] = sub_read(r);
	return 0;
}

SEC("raw_tp")
int bits(void *ctx)
{
	struct rec *r = (void *)bpf_get_current_task();

	out[20] = BPF_CORE_READ_BITFIELD_PROBED(r, x);
	out[21] = BPF_CORE_READ_BITFIELD_PROBED(r, y);
	out[22] = BPF_CORE_READ_BITFIELD_PROBED(r, sbits);
	out[23] = __builtin_preserve_field_info(r->col, BPF_FIELD_SIGNED);
	return 0;
}

SEC("raw_tp")
int types(void *ctx)
{
	out[30] = bpf_core_type_exists(struct never_there);
	out[31] = bpf_core_type_exists(struct rec);
	out[32] = bpf_core_type_size(struct rec);
	out[33] = bpf_core_type_matches(struct inner);
	out[34] = bpf_core_type_id_local(struct rec);
	out[35] = bpf_core_type_id_kernel(struct inner);
	out[36] = bpf_core_enum_value_exists(enum color, BLUE);
	out[37] = bpf_core_enum_value(enum color, GREEN);
	out[38] = bpf_core_type_matches(enum color);
	return 0;
}

/* where libbpf 1.8 and 1.1 differ: a load of an array field's first element
 * relocated as the field (access 0:N: 1.8 checks the element's size, 1.1
 * the whole array's); the other corner is bits' signedness of r->col on
 * the target "signed" */
SEC("raw_tp/corners")
int corners(void *ctx)
{
	struct rec *r = (void *)bpf_get_current_task();

	out[51] = *r->arr;
	return 0;
}

SEC("?raw_tp")
int not_loaded(void *ctx)
{
	struct rec *r = (void *)bpf_get_current_task();

	out[40] = BPF_CORE_READ(r, b);
	return 0;
}

char _license[] SEC("license") = "GPL";
