// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_flow.c - a BPF flow dissector for today's kernels.
 *
 * The kernel hands us struct __sk_buff (only data, data_end and flow_keys are
 * readable) and a zeroed struct bpf_flow_keys with n_proto, nhoff, thoff = nhoff
 * and the caller's flags filled in.  keys->thoff is our cursor: every header we
 * step over advances it by that header's length, so no input can make us loop;
 * the kernel's tail-call budget bounds the number of layers.
 *
 * One header per program: the entry program parses an outer IPv4/IPv6 header
 * itself (the common case, no tail call) and otherwise dispatches on the
 * ethertype through jmp_table, whose slots hold the programs named
 * flow_dissector_<slot> (the loader fills the table by these names); inner
 * headers, VLAN tags, MPLS and IPv6 extension headers always go through it.
 *
 * Headers are read in place (direct packet access).  Only when a header runs
 * past the linear data do we copy it with bpf_skb_load_bytes, which works only
 * when the kernel passed an skb (not in BPF_PROG_TEST_RUN, not from
 * eth_get_headlen).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>
#include "flow_config.h"

/* Ethertypes and IP protocol numbers we dispatch on (host order). */
#define ETHERTYPE_IP		0x0800
#define ETHERTYPE_IPV6		0x86DD
#define ETHERTYPE_8021Q		0x8100
#define ETHERTYPE_8021AD	0x88A8
#define ETHERTYPE_MPLS_UC	0x8847
#define ETHERTYPE_MPLS_MC	0x8848
#define ETHERTYPE_TEB		0x6558

#define PROTO_HOPOPTS	0
#define PROTO_ICMP	1
#define PROTO_IPIP	4
#define PROTO_TCP	6
#define PROTO_UDP	17
#define PROTO_DCCP	33
#define PROTO_IPV6	41
#define PROTO_ROUTING	43
#define PROTO_FRAGMENT	44
#define PROTO_GRE	47
#define PROTO_ESP	50
#define PROTO_AH	51
#define PROTO_ICMPV6	58
#define PROTO_DSTOPTS	60
#define PROTO_SCTP	132
#define PROTO_UDPLITE	136

/* Slots of jmp_table; the program in slot N is named flow_dissector_N. */
enum flow_slot {
	SLOT_IPV4 = 0,
	SLOT_IPV6 = 1,
	SLOT_IPV6_OPTS = 2,
	SLOT_IPV6_FRAG = 3,
	SLOT_MPLS = 4,
	SLOT_VLAN = 5,
	SLOT_COUNT
};

/* Wire layouts, declared here so the object needs no libc/kernel net headers. */
struct eth_hdr {
	__u8 dst[6];
	__u8 src[6];
	__be16 proto;
};

struct ipv4_hdr {
	__u8 ver_ihl;		/* version in the high nibble, IHL (32-bit words) low */
	__u8 tos;
	__be16 tot_len;
	__be16 id;
	__be16 frag_off;	/* flags (RF, DF, MF) and the 13-bit offset */
	__u8 ttl;
	__u8 protocol;
	__be16 check;
	__be32 saddr;
	__be32 daddr;
};

struct ipv6_hdr {
	__be32 ver_tc_label;	/* version 4, traffic class 8, flow label 20 bits */
	__be16 payload_len;
	__u8 nexthdr;
	__u8 hop_limit;
	__u32 saddr[4];
	__u32 daddr[4];
};

struct ipv6_opt_hdr {		/* Hop-by-Hop, Destination Options, Routing */
	__u8 nexthdr;
	__u8 hdrlen;		/* in 8-byte units, not counting the first 8 */
	__u8 rest[6];
};

struct ipv6_frag_hdr {
	__u8 nexthdr;
	__u8 reserved;
	__be16 frag_off;	/* offset in the high 13 bits, M flag in bit 0 */
	__be32 id;
};

struct gre_base_hdr {
	__be16 flags;
	__be16 protocol;
};

struct vlan_tag {
	__be16 tci;
	__be16 inner_proto;
};

struct ports_hdr {		/* first 4 bytes of TCP, UDP, UDP-Lite, SCTP, DCCP */
	__be16 sport;
	__be16 dport;
};

struct tcp_hdr {
	__be16 sport;
	__be16 dport;
	__be32 seq;
	__be32 ack;
	__u8 doff_res;		/* data offset (32-bit words) in the high nibble */
	__u8 flags;
	__be16 window;
	__be16 check;
	__be16 urg;
};

#define IPV4_MF		0x2000
#define IPV4_OFFSET	0x1FFF
#define IPV6_FRAG_OFFSET 0xFFF8
#define IPV6_FLOW_LABEL	0x000FFFFF
#define GRE_CSUM	0x8000
#define GRE_ROUTING	0x4000
#define GRE_KEY		0x2000
#define GRE_SEQ		0x1000
#define GRE_VERSION	0x0007

/*
 * Configuration, fixed at load time by the loader (see flow_config.h); the
 * verifier sees the values and drops dead branches, so "recording off" (the
 * default) costs nothing.
 */
const volatile struct flow_config flow_config = {
	.continue_saddr = FLOW_DEFAULT_CONTINUE_SADDR,
	.record_every = 0,
};

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, SLOT_COUNT);
	__type(key, __u32);
	__type(value, __u32);
} jmp_table SEC(".maps");

/*
 * Recorded dissections (when flow_config.record_every is set).
 * Key: sport << 16 | dport, both as stored in the keys (network order).
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct bpf_flow_keys);
} last_dissection SEC(".maps");

/* Dissections since the last recorded one, per CPU (record_every > 1). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} record_tick SEC(".maps");

/*
 * Pointer to len bytes at packet offset off: in place when they are inside the
 * linear data, else copied into buf (needs an skb), else NULL (truncated).
 */
static __always_inline void *header_at(struct __sk_buff *skb, __u32 off,
				       __u32 len, void *buf)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	__u64 o = off;
	void *p;

	/*
	 * The verifier only trusts a packet range whose end fits 16 bits.  The
	 * empty asm keeps clang from checking one copy of the offset and adding
	 * another, which would leave the added one unbounded for the verifier.
	 */
	asm volatile("" : "+r"(o));
	if (o > 0xffff - len)
		return NULL;
	p = data + o;
	if (p + len <= data_end)
		return p;
	if (bpf_skb_load_bytes(skb, off, buf, len))
		return NULL;
	return buf;
}

/*
 * One dissection in record_every goes into last_dissection.  A hash update
 * costs about as much as the whole parse, so the counter (a per-CPU array
 * lookup, which the verifier inlines) keeps the rest of the packets cheap.
 */
static __always_inline void record(struct bpf_flow_keys *keys)
{
	struct bpf_flow_keys copy;
	__u32 key = 0, *tick;

	if (flow_config.record_every > 1) {
		tick = bpf_map_lookup_elem(&record_tick, &key);
		if (!tick)
			return;
		if (++*tick < flow_config.record_every)
			return;
		*tick = 0;
	}
	key = ((__u32)keys->sport << 16) | keys->dport;
	__builtin_memcpy(&copy, keys, sizeof(copy));
	bpf_map_update_elem(&last_dissection, &key, &copy, BPF_ANY);
}

/* Every exit except CONTINUE comes through here. */
static __always_inline int finish(struct bpf_flow_keys *keys, int ret)
{
	if (flow_config.record_every)
		record(keys);
	return ret;
}

/*
 * Advance the cursor by len bytes.  Returns 0, or -1 when the result would not
 * fit the 16-bit offset (the packet cannot be that long anyway).
 */
static __always_inline int advance(struct bpf_flow_keys *keys, __u32 len)
{
	__u32 next = (__u32)keys->thoff + len;

	if (next > 0xffff)
		return -1;
	keys->thoff = next;
	return 0;
}

static __always_inline int tail(struct __sk_buff *skb,
				struct bpf_flow_keys *keys, __u32 slot)
{
	/*
	 * A constant slot at every call site lets the JIT emit a direct jump
	 * (patched when the table changes) instead of a retpolined indirect one.
	 */
	bpf_tail_call_static(skb, &jmp_table, slot);
	/* Empty slot or tail-call budget exhausted. */
	return finish(keys, BPF_DROP);
}

/*
 * The network header at the cursor has ethertype proto (network order):
 * record it as the innermost network protocol and dispatch.
 */
static __always_inline int parse_eth_proto(struct __sk_buff *skb,
					   struct bpf_flow_keys *keys,
					   __be16 proto)
{
	keys->n_proto = proto;
	switch (bpf_ntohs(proto)) {
	case ETHERTYPE_IP:
		return tail(skb, keys, SLOT_IPV4);
	case ETHERTYPE_IPV6:
		return tail(skb, keys, SLOT_IPV6);
	case ETHERTYPE_MPLS_UC:
	case ETHERTYPE_MPLS_MC:
		return tail(skb, keys, SLOT_MPLS);
	case ETHERTYPE_8021Q:
	case ETHERTYPE_8021AD:
		return tail(skb, keys, SLOT_VLAN);
	default:
		/* Nothing we can dissect, as the C dissector says too. */
		return finish(keys, BPF_DROP);
	}
}

/* GRE at the cursor (keys->ip_proto already 47). */
static __always_inline int parse_gre(struct __sk_buff *skb,
				     struct bpf_flow_keys *keys)
{
	struct gre_base_hdr gbuf, *gre;
	struct eth_hdr ebuf, *eth;
	__u32 len = sizeof(*gre);
	__u16 flags;
	__be16 proto;

	gre = header_at(skb, keys->thoff, sizeof(*gre), &gbuf);
	if (!gre)
		return finish(keys, BPF_DROP);
	flags = bpf_ntohs(gre->flags);
	/* Version 1 (PPTP) and source-routed GRE are not descended into. */
	if (flags & (GRE_VERSION | GRE_ROUTING))
		return finish(keys, BPF_OK);
	proto = gre->protocol;
	if (flags & GRE_CSUM)
		len += 4;	/* checksum + reserved */
	if (flags & GRE_KEY)
		len += 4;
	if (flags & GRE_SEQ)
		len += 4;
	if (advance(keys, len))
		return finish(keys, BPF_DROP);
	keys->is_encap = 1;
	if (keys->flags & BPF_FLOW_DISSECTOR_F_STOP_AT_ENCAP)
		return finish(keys, BPF_OK);
	if (proto == bpf_htons(ETHERTYPE_TEB)) {
		eth = header_at(skb, keys->thoff, sizeof(*eth), &ebuf);
		if (!eth)
			return finish(keys, BPF_DROP);
		proto = eth->proto;
		if (advance(keys, sizeof(*eth)))
			return finish(keys, BPF_DROP);
	}
	return parse_eth_proto(skb, keys, proto);
}

/* An IP-in-IP style tunnel to an inner ethertype (IPIP, IPv6-in-IP). */
static __always_inline int parse_encap(struct __sk_buff *skb,
				       struct bpf_flow_keys *keys, __u16 inner)
{
	keys->is_encap = 1;
	if (keys->flags & BPF_FLOW_DISSECTOR_F_STOP_AT_ENCAP)
		return finish(keys, BPF_OK);
	return parse_eth_proto(skb, keys, bpf_htons(inner));
}

/*
 * Transport header at the cursor, protocol proto (keys->ip_proto already set).
 * The cursor stays at the start of the transport header.
 */
static __always_inline int parse_ip_proto(struct __sk_buff *skb,
					  struct bpf_flow_keys *keys, __u8 proto)
{
	struct tcp_hdr tbuf, *tcp;
	struct ports_hdr pbuf, *ports;
	__u8 ibuf[8], *icmp;

	switch (proto) {
	case PROTO_ICMP:
	case PROTO_ICMPV6:
		icmp = header_at(skb, keys->thoff, sizeof(ibuf), ibuf);
		return finish(keys, icmp ? BPF_OK : BPF_DROP);
	case PROTO_IPIP:
		return parse_encap(skb, keys, ETHERTYPE_IP);
	case PROTO_IPV6:
		return parse_encap(skb, keys, ETHERTYPE_IPV6);
	case PROTO_GRE:
		return parse_gre(skb, keys);
	case PROTO_TCP:
		tcp = header_at(skb, keys->thoff, sizeof(*tcp), &tbuf);
		if (!tcp || (tcp->doff_res >> 4) < 5)
			return finish(keys, BPF_DROP);
		keys->sport = tcp->sport;
		keys->dport = tcp->dport;
		return finish(keys, BPF_OK);
	case PROTO_UDP:
	case PROTO_UDPLITE:
		/* The full 8-byte header, as for TCP's 20. */
		ports = header_at(skb, keys->thoff, 8, &tbuf);
		if (!ports)
			return finish(keys, BPF_DROP);
		keys->sport = ports->sport;
		keys->dport = ports->dport;
		return finish(keys, BPF_OK);
	case PROTO_SCTP:
	case PROTO_DCCP:
	case PROTO_ESP:
		/*
		 * Only the 4 "port" bytes, as the C dissector reads them (for
		 * ESP the SPI, so IPsec flows hash apart); AH's SPI is at 4.
		 */
		ports = header_at(skb, keys->thoff, sizeof(*ports), &pbuf);
		goto record_ports;
	case PROTO_AH:
		ports = header_at(skb, (__u32)keys->thoff + 4, sizeof(*ports), &pbuf);
record_ports:
		if (!ports)
			return finish(keys, BPF_DROP);
		keys->sport = ports->sport;
		keys->dport = ports->dport;
		return finish(keys, BPF_OK);
	default:
		/* Unknown transport: what we have is the answer (C does the same). */
		return finish(keys, BPF_OK);
	}
}

/* Next header after an IPv6 header or extension header. */
static __always_inline int parse_ipv6_proto(struct __sk_buff *skb,
					    struct bpf_flow_keys *keys,
					    __u8 nexthdr)
{
	keys->ip_proto = nexthdr;
	switch (nexthdr) {
	case PROTO_HOPOPTS:
	case PROTO_DSTOPTS:
	case PROTO_ROUTING:
		return tail(skb, keys, SLOT_IPV6_OPTS);
	case PROTO_FRAGMENT:
		return tail(skb, keys, SLOT_IPV6_FRAG);
	default:
		return parse_ip_proto(skb, keys, nexthdr);
	}
}

/*
 * IPv4 header at the cursor.  At the entry (outer header), a configured source
 * address hands the packet back to the C dissector before anything is written.
 */
static __always_inline int dissect_ipv4(struct __sk_buff *skb,
					struct bpf_flow_keys *keys, int at_entry)
{
	struct ipv4_hdr ibuf, *iph;
	__u16 frag;
	__u8 ihl;

	iph = header_at(skb, keys->thoff, sizeof(*iph), &ibuf);
	if (!iph)
		return finish(keys, BPF_DROP);
	ihl = iph->ver_ihl & 0x0f;
	if (at_entry && flow_config.continue_saddr && ihl == 5 &&
	    iph->saddr == flow_config.continue_saddr)
		return BPF_FLOW_DISSECTOR_CONTINUE;
	/* IHL < 5 would not advance the cursor past the header (CVE-2013-4348). */
	if (ihl < 5)
		return finish(keys, BPF_DROP);
	keys->addr_proto = ETHERTYPE_IP;
	keys->ipv4_src = iph->saddr;
	keys->ipv4_dst = iph->daddr;
	keys->ip_proto = iph->protocol;
	frag = bpf_ntohs(iph->frag_off);
	if (advance(keys, ihl * 4))
		return finish(keys, BPF_DROP);
	if (frag & (IPV4_MF | IPV4_OFFSET)) {
		keys->is_frag = 1;
		if (frag & IPV4_OFFSET)
			return finish(keys, BPF_OK);
		keys->is_first_frag = 1;
		if (!(keys->flags & BPF_FLOW_DISSECTOR_F_PARSE_1ST_FRAG))
			return finish(keys, BPF_OK);
	}
	return parse_ip_proto(skb, keys, keys->ip_proto);
}

/* IPv6 fixed header at the cursor. */
static __always_inline int dissect_ipv6(struct __sk_buff *skb,
					struct bpf_flow_keys *keys)
{
	struct ipv6_hdr ibuf, *ip6h;

	ip6h = header_at(skb, keys->thoff, sizeof(*ip6h), &ibuf);
	if (!ip6h)
		return finish(keys, BPF_DROP);
	keys->addr_proto = ETHERTYPE_IPV6;
	__builtin_memcpy(keys->ipv6_src, ip6h->saddr, sizeof(ip6h->saddr));
	__builtin_memcpy(keys->ipv6_dst, ip6h->daddr, sizeof(ip6h->daddr));
	keys->flow_label = ip6h->ver_tc_label & bpf_htonl(IPV6_FLOW_LABEL);
	keys->ip_proto = ip6h->nexthdr;
	if (advance(keys, sizeof(*ip6h)))
		return finish(keys, BPF_DROP);
	/* Only a non-zero label identifies the flow (the C dissector agrees). */
	if (keys->flow_label &&
	    (keys->flags & BPF_FLOW_DISSECTOR_F_STOP_AT_FLOW_LABEL))
		return finish(keys, BPF_OK);
	return parse_ipv6_proto(skb, keys, ip6h->nexthdr);
}

/*
 * Entry.  The common case, IP right at the network header, is parsed here
 * without a tail call; everything else (VLAN, MPLS, inner headers of
 * tunnels, IPv6 extension headers) goes through jmp_table.
 */
SEC("flow_dissector")
int _dissect(struct __sk_buff *skb)
{
	struct bpf_flow_keys *keys = skb->flow_keys;

	if (keys->n_proto == bpf_htons(ETHERTYPE_IP))
		return dissect_ipv4(skb, keys, 1);
	if (keys->n_proto == bpf_htons(ETHERTYPE_IPV6))
		return dissect_ipv6(skb, keys);
	return parse_eth_proto(skb, keys, keys->n_proto);
}

SEC("flow_dissector")
int flow_dissector_0(struct __sk_buff *skb)	/* IPv4 */
{
	return dissect_ipv4(skb, skb->flow_keys, 0);
}

SEC("flow_dissector")
int flow_dissector_1(struct __sk_buff *skb)	/* IPv6 */
{
	return dissect_ipv6(skb, skb->flow_keys);
}

SEC("flow_dissector")
int flow_dissector_2(struct __sk_buff *skb)	/* IPv6 HBH, DSTOPTS, ROUTING */
{
	struct bpf_flow_keys *keys = skb->flow_keys;
	struct ipv6_opt_hdr obuf, *opt;
	__u8 nexthdr;

	opt = header_at(skb, keys->thoff, sizeof(*opt), &obuf);
	if (!opt)
		return finish(keys, BPF_DROP);
	nexthdr = opt->nexthdr;
	if (advance(keys, ((__u32)opt->hdrlen + 1) * 8))
		return finish(keys, BPF_DROP);
	return parse_ipv6_proto(skb, keys, nexthdr);
}

SEC("flow_dissector")
int flow_dissector_3(struct __sk_buff *skb)	/* IPv6 fragment header */
{
	struct bpf_flow_keys *keys = skb->flow_keys;
	struct ipv6_frag_hdr fbuf, *fh;
	__u8 nexthdr;

	fh = header_at(skb, keys->thoff, sizeof(*fh), &fbuf);
	if (!fh)
		return finish(keys, BPF_DROP);
	nexthdr = fh->nexthdr;
	keys->ip_proto = nexthdr;
	if (advance(keys, sizeof(*fh)))
		return finish(keys, BPF_DROP);
	keys->is_frag = 1;
	if (fh->frag_off & bpf_htons(IPV6_FRAG_OFFSET))
		return finish(keys, BPF_OK);
	keys->is_first_frag = 1;
	if (!(keys->flags & BPF_FLOW_DISSECTOR_F_PARSE_1ST_FRAG))
		return finish(keys, BPF_OK);
	return parse_ipv6_proto(skb, keys, nexthdr);
}

SEC("flow_dissector")
int flow_dissector_4(struct __sk_buff *skb)	/* MPLS */
{
	struct bpf_flow_keys *keys = skb->flow_keys;
	__u8 buf[4], *label;

	/* Like the C dissector: one label stack entry must exist; no descent. */
	label = header_at(skb, keys->thoff, sizeof(buf), buf);
	return finish(keys, label ? BPF_OK : BPF_DROP);
}

SEC("flow_dissector")
int flow_dissector_5(struct __sk_buff *skb)	/* 802.1Q / 802.1AD tag */
{
	struct bpf_flow_keys *keys = skb->flow_keys;
	struct vlan_tag vbuf, *tag;
	int outer = keys->nhoff == keys->thoff;

	/*
	 * One tag per call; a stacked tag (QinQ or more) comes back here through
	 * parse_eth_proto.  Tags of the outer frame move the network header too;
	 * tags inside a tunnel (GRE TEB) only move the cursor.
	 */
	tag = header_at(skb, keys->thoff, sizeof(*tag), &vbuf);
	if (!tag)
		return finish(keys, BPF_DROP);
	if (advance(keys, sizeof(*tag)))
		return finish(keys, BPF_DROP);
	if (outer)
		keys->nhoff = keys->thoff;
	return parse_eth_proto(skb, keys, tag->inner_proto);
}

char _license[] SEC("license") = "GPL";
