// SPDX-License-Identifier: BSD-2-Clause
/*
 * Corpus: a tc classifier with typed BTF-defined maps (hash, array, per-CPU
 * array, LRU hash, an array of maps whose inner map is set statically with
 * `.values`), global data in .data, .bss and .rodata, a static and a global
 * subprogram (the global one is verified on its own, from its BTF).
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

struct flow_key {
	__u32 saddr;
	__u32 daddr;
	__u8 proto;
	__u8 pad[3];
};

struct flow_stats {
	__u64 packets;
	__u64 bytes;
	union {
		__u32 last_len;
		__u8 last_len_bytes[4];
	};
};

enum counter_slot { SLOT_IPV4, SLOT_OTHER, SLOT_MAX };

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, struct flow_key);
	__type(value, struct flow_stats);
} flows SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SLOT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} counters SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct flow_stats);
} percpu_totals SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16);
	__type(key, __u16);
	__type(value, __u32);
} ports SEC(".maps");

struct inner_array {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u32);
} inner SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 2);
	__type(key, __u32);
	__array(values, struct inner_array);
} outer SEC(".maps") = {
	.values = { [0] = &inner },
};

/* .data, .bss and .rodata */
__u32 seen_ipv4 = 0x1000;
__u64 total_bytes;
const volatile __u32 mark_value = 7;
static volatile const char greeting[] = "corpus";

static __always_inline int parse_ipv4(void *data, void *end, struct flow_key *k)
{
	struct ethhdr *eth = data;
	struct iphdr *ip = data + sizeof(*eth);

	if ((void *)(ip + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return -1;
	k->saddr = ip->saddr;
	k->daddr = ip->daddr;
	k->proto = ip->protocol;
	return ip->ihl * 4;
}

static __noinline __u64 bump(__u32 slot)
{
	__u64 *c = bpf_map_lookup_elem(&counters, &slot);

	if (!c)
		return 0;
	return __sync_fetch_and_add(c, 1) + 1;
}

/* global: verified as its own function with its BTF prototype */
__noinline int account(struct __sk_buff *skb, struct flow_key *k)
{
	struct flow_stats init = {}, *st;
	__u32 zero = 0, *slot;
	void *in;

	if (!skb || !k)
		return 0;
	st = bpf_map_lookup_elem(&flows, k);
	if (!st) {
		bpf_map_update_elem(&flows, k, &init, BPF_ANY);
		st = bpf_map_lookup_elem(&flows, k);
		if (!st)
			return 0;
	}
	st->packets++;
	st->bytes += skb->len;
	st->last_len = skb->len;
	st = bpf_map_lookup_elem(&percpu_totals, &zero);
	if (st) {
		st->packets++;
		st->bytes += skb->len;
	}
	in = bpf_map_lookup_elem(&outer, &zero);
	if (in) {
		slot = bpf_map_lookup_elem(in, &zero);
		if (slot)
			*slot += greeting[0];
	}
	return 1;
}

SEC("tc")
int classify(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;
	struct flow_key k = {};
	__u16 port = 53;
	__u32 one = 1;
	int hl = parse_ipv4(data, end, &k);

	if (hl < 0) {
		bump(SLOT_OTHER);
		return TC_ACT_OK;
	}
	bump(SLOT_IPV4);
	seen_ipv4++;
	total_bytes += skb->len;
	account(skb, &k);
	bpf_map_update_elem(&ports, &port, &one, BPF_ANY);
	skb->mark = mark_value;
	return TC_ACT_OK;
}

char _license[] SEC("license") = "GPL";
