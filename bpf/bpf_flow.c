// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_flow.c - a BPF flow dissector for today's kernels.
 *
 * The kernel hands us struct __sk_buff (only data, data_end and flow_keys are
 * readable) and a zeroed struct bpf_flow_keys with n_proto, nhoff, thoff = nhoff
 * and the caller's flags filled in.  thoff is our cursor: every header we step
 * over advances it by that header's length, so no input can make us loop.
 *
 * One program, no tail calls: the network header and its transport header
 * are dissected in one stretch; each further header the C dissector would
 * count (a VLAN tag, an IPv6 extension header, a tunnel) takes one more round
 * of a bounded loop, at most FLOW_MAX_HDRS, C's own limit.  A tail call per
 * layer, as the kernel selftests' program makes, cost more (measured with
 * bench/bench_flow.sh; see bpf/README.md), and its jump table is a
 * PROG_ARRAY, which the kernel flushes when its last user reference goes.
 *
 * Headers are read in place (direct packet access).  A packet with a header
 * past the linear data is dissected again by a slow pass that copies such
 * headers with bpf_skb_load_bytes, which works only when the kernel passed an
 * skb (not in BPF_PROG_TEST_RUN, not from eth_get_headlen).
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

/*
 * Headers we step over after the first, counted as the C dissector counts
 * them (MAX_FLOW_DISSECT_HDRS): each VLAN tag, IPv6 extension or fragment
 * header and tunnel (IPIP, IPv6-in-IP, GRE) is one.  A packet that needs
 * more is dropped, as C gives up on it.
 */
#define FLOW_MAX_HDRS	15

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
 * One dissection.  The fast pass (slow == 0) reads headers only in place and
 * makes no helper call, so clang keeps everything in registers; a header that
 * is not in the linear data ends it with NONLINEAR, and the packet is
 * dissected again from the start by the slow pass, which copies such headers
 * with bpf_skb_load_bytes (there is an skb) or drops the packet (truncated).
 */
struct flow_ctx {
	struct __sk_buff *skb;
	struct bpf_flow_keys *keys;
	void *data, *data_end;
	int slow;
	__u32 off;		/* the cursor, keys->thoff as it goes */
	/*
	 * What is at the cursor when a step returns AGAIN: a header of an
	 * ethertype (network order), or NEXT_IPV6 | an IPv6 next header.
	 */
	__u32 next;
};

static __always_inline struct flow_ctx flow_ctx_of(struct __sk_buff *skb, int slow)
{
	struct flow_ctx c = {
		.skb = skb,
		.keys = skb->flow_keys,
		.data = (void *)(long)skb->data,
		.data_end = (void *)(long)skb->data_end,
		.slow = slow,
	};

	return c;
}

/* Results besides BPF_OK, BPF_DROP and BPF_FLOW_DISSECTOR_CONTINUE. */
#define AGAIN		(-1)	/* another header: go round, see flow_ctx.next */
#define NONLINEAR	(-2)	/* fast pass only: a header past the linear data */

/* A header we need is not there: see struct flow_ctx. */
static __always_inline int missing(struct flow_ctx *c)
{
	return c->slow ? BPF_DROP : NONLINEAR;
}

/*
 * Pointer to len bytes at packet offset off: in place when they are inside the
 * linear data; else, in the slow pass, copied into buf; else NULL.
 */
static __always_inline void *header_at(struct flow_ctx *c, __u32 off,
				       __u32 len, void *buf)
{
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
	p = c->data + o;
	/* Nor may it compute p again after the check below, unchecked. */
	asm volatile("" : "+r"(p));
	if (p + len <= c->data_end)
		return p;
	if (!c->slow || bpf_skb_load_bytes(c->skb, off, buf, len))
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

/*
 * Advance the cursor by len bytes.  Returns 0, or -1 when the result would not
 * fit the 16-bit offset (the packet cannot be that long anyway).
 */
static __always_inline int advance(struct flow_ctx *c, __u32 len)
{
	__u32 next = c->off + len;

	if (next > 0xffff)
		return -1;
	c->off = next;
	return 0;
}

#define NEXT_IPV6	0x10000

/*
 * Addresses and ports go into the keys in wide stores, so that the kernel's
 * copies of them (memcpy of the 16-byte IPv6 addresses, done in 8-byte moves)
 * do not load across two narrower stores, which the CPU cannot forward from.
 * The gain was within the noise on our shared test machine; the stores are
 * no more instructions than before.  The verifier allows these unaligned
 * packet loads where the CPU handles them (x86, arm64).
 */
static __always_inline void copy_u64(const struct flow_ctx *c, void *dst, const void *src)
{
	if (c->slow) {
		/* src may be a copy on the stack, where 8-byte access must be aligned */
		((__u32 *)dst)[0] = ((const __u32 *)src)[0];
		((__u32 *)dst)[1] = ((const __u32 *)src)[1];
	} else {
		*(__u64 *)dst = *(const __u64 *)src;
	}
}

/* sport and dport: the first 4 bytes of the transport header, as one. */
static __always_inline void copy_ports(struct bpf_flow_keys *keys, const void *l4)
{
	*(__u32 *)&keys->sport = *(const __u32 *)l4;
}

/* The next header is of ethertype proto (network order). */
static __always_inline int again_eth(struct flow_ctx *c, __be16 proto)
{
	c->next = proto;
	return AGAIN;
}

/* The next header is what the IPv6 next header nexthdr names. */
static __always_inline int again_ipv6(struct flow_ctx *c, __u8 nexthdr)
{
	c->next = NEXT_IPV6 | nexthdr;
	return AGAIN;
}

/* GRE at the cursor (keys->ip_proto already 47). */
static __always_inline int parse_gre(struct flow_ctx *c)
{
	struct bpf_flow_keys *keys = c->keys;
	struct gre_base_hdr gbuf, *gre;
	struct eth_hdr ebuf, *eth;
	__u32 len = sizeof(*gre);
	__u16 flags;
	__be16 proto;

	gre = header_at(c, c->off, sizeof(*gre), &gbuf);
	if (!gre)
		return missing(c);
	flags = bpf_ntohs(gre->flags);
	/* Version 1 (PPTP) and source-routed GRE are not descended into. */
	if (flags & (GRE_VERSION | GRE_ROUTING))
		return BPF_OK;
	proto = gre->protocol;
	if (flags & GRE_CSUM)
		len += 4;	/* checksum + reserved */
	if (flags & GRE_KEY)
		len += 4;
	if (flags & GRE_SEQ)
		len += 4;
	if (advance(c, len))
		return BPF_DROP;
	keys->is_encap = 1;
	if (keys->flags & BPF_FLOW_DISSECTOR_F_STOP_AT_ENCAP)
		return BPF_OK;
	if (proto == bpf_htons(ETHERTYPE_TEB)) {
		eth = header_at(c, c->off, sizeof(*eth), &ebuf);
		if (!eth)
			return missing(c);
		proto = eth->proto;
		if (advance(c, sizeof(*eth)))
			return BPF_DROP;
	}
	return again_eth(c, proto);
}

/* An IP-in-IP style tunnel to an inner ethertype (IPIP, IPv6-in-IP). */
static __always_inline int parse_encap(struct flow_ctx *c, __u16 inner)
{
	c->keys->is_encap = 1;
	if (c->keys->flags & BPF_FLOW_DISSECTOR_F_STOP_AT_ENCAP)
		return BPF_OK;
	return again_eth(c, bpf_htons(inner));
}

/*
 * Transport header at the cursor, protocol proto (keys->ip_proto already set).
 * The cursor stays at the start of the transport header.
 */
static __always_inline int parse_ip_proto(struct flow_ctx *c, __u8 proto)
{
	struct bpf_flow_keys *keys = c->keys;
	struct tcp_hdr tbuf, *tcp;
	struct ports_hdr *ports;
	__u8 ibuf[8], *icmp;
	__u32 at = c->off;

	switch (proto) {
	case PROTO_TCP:
		tcp = header_at(c, at, sizeof(*tcp), &tbuf);
		if (!tcp)
			return missing(c);
		if ((tcp->doff_res >> 4) < 5)
			return BPF_DROP;
		copy_ports(keys, tcp);
		return BPF_OK;
	case PROTO_UDP:
	case PROTO_UDPLITE:
		/* The full 8-byte header, as for TCP's 20. */
		ports = header_at(c, at, 8, &tbuf);
		goto record_ports;
	case PROTO_ICMP:
	case PROTO_ICMPV6:
		icmp = header_at(c, at, sizeof(ibuf), ibuf);
		return icmp ? BPF_OK : missing(c);
	case PROTO_IPIP:
		return parse_encap(c, ETHERTYPE_IP);
	case PROTO_IPV6:
		return parse_encap(c, ETHERTYPE_IPV6);
	case PROTO_GRE:
		return parse_gre(c);
	case PROTO_AH:
		at += 4;	/* its SPI is at 4 */
		/* fall through */
	case PROTO_SCTP:
	case PROTO_DCCP:
	case PROTO_ESP:
		/*
		 * Only the 4 "port" bytes, as the C dissector reads them (for
		 * ESP and AH the SPI, so IPsec flows hash apart).
		 */
		ports = header_at(c, at, sizeof(*ports), &tbuf);
record_ports:
		if (!ports)
			return missing(c);
		copy_ports(keys, ports);
		return BPF_OK;
	default:
		/* Unknown transport: what we have is the answer (C does the same). */
		return BPF_OK;
	}
}

/*
 * The IPv6 next header nexthdr at the cursor: an extension or fragment header
 * is stepped over and the loop goes round, anything else is the transport.
 */
static __always_inline int parse_ipv6_proto(struct flow_ctx *c, __u8 nexthdr)
{
	struct bpf_flow_keys *keys = c->keys;
	struct ipv6_frag_hdr buf, *fh;
	struct ipv6_opt_hdr *opt;

	keys->ip_proto = nexthdr;
	switch (nexthdr) {
	case PROTO_HOPOPTS:
	case PROTO_DSTOPTS:
	case PROTO_ROUTING:
		opt = header_at(c, c->off, sizeof(*opt), &buf);
		if (!opt)
			return missing(c);
		nexthdr = opt->nexthdr;
		if (advance(c, ((__u32)opt->hdrlen + 1) * 8))
			return BPF_DROP;
		return again_ipv6(c, nexthdr);
	case PROTO_FRAGMENT:
		fh = header_at(c, c->off, sizeof(*fh), &buf);
		if (!fh)
			return missing(c);
		nexthdr = fh->nexthdr;
		keys->ip_proto = nexthdr;
		if (advance(c, sizeof(*fh)))
			return BPF_DROP;
		keys->is_frag = 1;
		if (fh->frag_off & bpf_htons(IPV6_FRAG_OFFSET))
			return BPF_OK;
		keys->is_first_frag = 1;
		if (!(keys->flags & BPF_FLOW_DISSECTOR_F_PARSE_1ST_FRAG))
			return BPF_OK;
		return again_ipv6(c, nexthdr);
	default:
		return parse_ip_proto(c, nexthdr);
	}
}

/*
 * IPv4 header at the cursor.  The outer header of a packet that is IPv4 from
 * the start may come from the configured source address: then the packet goes
 * back to the C dissector before anything is written.
 */
static __always_inline int dissect_ipv4(struct flow_ctx *c, int outer)
{
	struct bpf_flow_keys *keys = c->keys;
	struct ipv4_hdr ibuf, *iph;
	__u16 frag;
	__u8 ihl;

	iph = header_at(c, c->off, sizeof(*iph), &ibuf);
	if (!iph)
		return missing(c);
	ihl = iph->ver_ihl & 0x0f;
	if (outer && flow_config.continue_saddr && ihl == 5 &&
	    iph->saddr == flow_config.continue_saddr)
		return BPF_FLOW_DISSECTOR_CONTINUE;
	/* IHL < 5 would not advance the cursor past the header (CVE-2013-4348). */
	if (ihl < 5)
		return BPF_DROP;
	keys->addr_proto = ETHERTYPE_IP;
	copy_u64(c, &keys->ipv4_src, &iph->saddr);
	keys->ip_proto = iph->protocol;
	frag = bpf_ntohs(iph->frag_off);
	if (advance(c, ihl * 4))
		return BPF_DROP;
	if (frag & (IPV4_MF | IPV4_OFFSET)) {
		keys->is_frag = 1;
		if (frag & IPV4_OFFSET)
			return BPF_OK;
		keys->is_first_frag = 1;
		if (!(keys->flags & BPF_FLOW_DISSECTOR_F_PARSE_1ST_FRAG))
			return BPF_OK;
	}
	return parse_ip_proto(c, iph->protocol);
}

/* IPv6 fixed header at the cursor. */
static __always_inline int dissect_ipv6(struct flow_ctx *c)
{
	struct bpf_flow_keys *keys = c->keys;
	struct ipv6_hdr ibuf, *ip6h;

	ip6h = header_at(c, c->off, sizeof(*ip6h), &ibuf);
	if (!ip6h)
		return missing(c);
	keys->addr_proto = ETHERTYPE_IPV6;
	copy_u64(c, &keys->ipv6_src[0], &ip6h->saddr[0]);
	copy_u64(c, &keys->ipv6_src[2], &ip6h->saddr[2]);
	copy_u64(c, &keys->ipv6_dst[0], &ip6h->daddr[0]);
	copy_u64(c, &keys->ipv6_dst[2], &ip6h->daddr[2]);
	keys->flow_label = ip6h->ver_tc_label & bpf_htonl(IPV6_FLOW_LABEL);
	if (advance(c, sizeof(*ip6h)))
		return BPF_DROP;
	/* Only a non-zero label identifies the flow (the C dissector agrees). */
	if (keys->flow_label &&
	    (keys->flags & BPF_FLOW_DISSECTOR_F_STOP_AT_FLOW_LABEL)) {
		keys->ip_proto = ip6h->nexthdr;
		return BPF_OK;
	}
	return parse_ipv6_proto(c, ip6h->nexthdr);
}

/*
 * A header of ethertype c->next at the cursor; outer: the packet's own
 * network header (the CONTINUE check applies).
 */
static __always_inline int dissect_eth(struct flow_ctx *c, int outer)
{
	__be16 proto = c->next;
	struct vlan_tag buf, *tag;
	int outer_tag;

	c->keys->n_proto = proto;
	/* Most likely first. */
	if (proto == bpf_htons(ETHERTYPE_IP))
		return dissect_ipv4(c, outer);
	if (proto == bpf_htons(ETHERTYPE_IPV6))
		return dissect_ipv6(c);
	if (proto == bpf_htons(ETHERTYPE_8021Q) || proto == bpf_htons(ETHERTYPE_8021AD)) {
		/*
		 * Tags of the outer frame move the network header too; tags
		 * inside a tunnel (GRE TEB) only move the cursor.
		 */
		outer_tag = c->keys->nhoff == c->off;
		tag = header_at(c, c->off, sizeof(*tag), &buf);
		if (!tag)
			return missing(c);
		if (advance(c, sizeof(*tag)))
			return BPF_DROP;
		if (outer_tag)
			c->keys->nhoff = c->off;
		return again_eth(c, tag->inner_proto);
	}
	if (proto == bpf_htons(ETHERTYPE_MPLS_UC) || proto == bpf_htons(ETHERTYPE_MPLS_MC)) {
		/* Like the C dissector: one label stack entry must exist; no descent. */
		tag = header_at(c, c->off, sizeof(*tag), &buf);
		return tag ? BPF_OK : missing(c);
	}
	/* Nothing we can dissect, as the C dissector says too. */
	return BPF_DROP;
}

/*
 * The whole packet: the network header, then one round of the loop per
 * further header (see FLOW_MAX_HDRS).  IPv4 and IPv6 go on to their
 * transport header in the same round.
 */
static __always_inline int dissect(struct flow_ctx *c)
{
	struct bpf_flow_keys *keys = c->keys;
	int ret, n;

	c->off = keys->thoff;
	c->next = keys->n_proto;
	ret = dissect_eth(c, 1);
	for (n = 0; ret == AGAIN && n < FLOW_MAX_HDRS; n++) {
		/*
		 * Each round starts from the cursor as read back from the keys:
		 * the verifier then sees one range for it, whatever the path
		 * so far, and its states at the loop head prune.
		 */
		keys->thoff = c->off;
		c->off = *(volatile __u16 *)&keys->thoff;
		if (c->next & NEXT_IPV6)
			ret = parse_ipv6_proto(c, c->next);
		else
			ret = dissect_eth(c, 0);
	}
	keys->thoff = c->off;
	return ret == AGAIN ? BPF_DROP : ret;
}

/*
 * The slow pass, a BPF-to-BPF call taken only for packets whose headers run
 * past the linear data: the keys as the kernel gave them (n_proto, nhoff,
 * thoff = nhoff, flags) and start again.
 */
static __noinline int dissect_slow(struct __sk_buff *skb, __u32 n_proto, __u32 nhoff)
{
	struct flow_ctx c = flow_ctx_of(skb, 1);
	struct bpf_flow_keys *keys = c.keys;
	__u32 flags = keys->flags;

	__builtin_memset(keys, 0, sizeof(*keys));
	keys->n_proto = n_proto;
	keys->nhoff = nhoff;
	keys->thoff = nhoff;
	keys->flags = flags;
	return dissect(&c);
}

SEC("flow_dissector")
int _dissect(struct __sk_buff *skb)
{
	struct flow_ctx c = flow_ctx_of(skb, 0);
	struct bpf_flow_keys *keys = c.keys;
	__u32 n_proto = keys->n_proto, nhoff = keys->nhoff;
	int ret;

	ret = dissect(&c);
	if (ret == NONLINEAR)
		ret = dissect_slow(skb, n_proto, nhoff);
	if (ret == BPF_FLOW_DISSECTOR_CONTINUE)
		return ret;
	if (flow_config.record_every)
		record(keys);
	return ret;
}

char _license[] SEC("license") = "GPL";
