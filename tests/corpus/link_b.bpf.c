// SPDX-License-Identifier: BSD-2-Clause
/*
 * Corpus: the second half of the linked program (see link_a.bpf.c): defines
 * what link_a uses, and has a program of its own.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

__u64 shared_total = 100;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} shared_hits SEC(".maps");

__noinline int shared_sum(int a, int b)
{
	return a + b;
}

SEC("xdp")
int link_other(struct xdp_md *ctx)
{
	__u32 key = 0;
	__u64 *hits = bpf_map_lookup_elem(&shared_hits, &key);

	if (hits)
		(*hits) += shared_sum(1, 2);
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
