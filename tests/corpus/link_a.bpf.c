// SPDX-License-Identifier: BSD-2-Clause
/*
 * Corpus: the first half of a program linked with `bpftool gen object`
 * (link_a + link_b). Plain externs, resolved by the static linker: a global
 * function, a variable and a map defined in link_b.bpf.c.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int shared_sum(int a, int b);
extern __u64 shared_total;
extern struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} shared_hits SEC(".maps");

int a_result;

SEC("xdp")
int link_entry(struct xdp_md *ctx)
{
	__u32 key = 1;
	__u64 *hits = bpf_map_lookup_elem(&shared_hits, &key);

	if (hits)
		(*hits)++;
	a_result = shared_sum(20, 22);
	shared_total += a_result;
	return XDP_PASS;
}

char _license[] SEC("license") = "GPL";
