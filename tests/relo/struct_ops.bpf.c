// SPDX-License-Identifier: BSD-2-Clause
/*
 * struct_ops programs whose CO-RE relocations libbpf 1.8 applies or skips:
 * libbpf loads a struct_ops program only when a struct_ops map it would
 * create uses it, and maps of SEC("?.struct_ops") are not created by
 * default, so cc_unused's relocations are skipped (1.1 applies them).
 */
#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)
#include "relo_types.h"
#pragma clang attribute pop

#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct sock;

/* the kernel's members, by name (libbpf matches them by name) */
struct tcp_congestion_ops {
	__u32 (*ssthresh)(struct sock *sk);
	void (*cong_avoid)(struct sock *sk, __u32 ack, __u32 acked);
	__u32 (*undo_cwnd)(struct sock *sk);
	char name[16];
};

long out[4];

static __u32 read_rec(void)
{
	struct rec *r = (void *)bpf_get_current_task();

	return r->u16f + bpf_core_field_exists(r->gone);
}

SEC("struct_ops/cc_used")
__u32 cc_used(struct sock *sk)
{
	return read_rec() + 1;
}

SEC("struct_ops/cc_unused")
__u32 cc_unused(struct sock *sk)
{
	return read_rec() + 2;
}

SEC("struct_ops/cc_avoid")
void cc_avoid(struct sock *sk, __u32 ack, __u32 acked)
{
	out[0] = ack;
}

/* (a program serves one member of one struct) */
SEC("struct_ops/cc_undo")
__u32 cc_undo(struct sock *sk)
{
	return 3;
}

SEC(".struct_ops")
struct tcp_congestion_ops relo_used = {
	.ssthresh = (void *)cc_used,
	.cong_avoid = (void *)cc_avoid,
	.undo_cwnd = (void *)cc_undo,
	.name = "relo_used",
};

SEC("?.struct_ops")
struct tcp_congestion_ops relo_unused = {
	.ssthresh = (void *)cc_unused,
	.cong_avoid = (void *)cc_avoid,
	.undo_cwnd = (void *)cc_undo,
	.name = "relo_unused",
};

char _license[] SEC("license") = "GPL";
