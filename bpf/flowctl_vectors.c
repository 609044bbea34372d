// SPDX-License-Identifier: BSD-2-Clause
/*
 * Test vectors for the dissector, as field lists: the frame is built from its
 * layers, the expectation is written out by hand.  The first 16 are the kernel
 * selftest vectors (tools/testing/selftests/bpf/prog_tests/flow_dissector.c,
 * newest): version-0 IP headers, all-zero addresses, ports written as raw host
 * integers 80/8080, every frame 82 bytes.  The rest are ours.
 *
 * Layer fields (host order unless said):
 *   L_ETH       a ethertype
 *   L_VLAN      a TCI, b inner ethertype
 *   L_MPLS      a label, b bottom-of-stack bit
 *   L_IPV4      a protocol, b saddr, c daddr, d frag_off field, e IHL (0 = 5)
 *   L_IPV6      a next header, b flow label, c low word of saddr, d low word of daddr
 *   L_IPV6_EXT  a next header, b hdrlen (8-byte units beyond the first 8)
 *   L_IPV6_FRAG a next header, b frag_off field (offset << 3 | M)
 *   L_GRE       a flags, b protocol; 4 bytes more for each of C, K, S
 *   L_TCP       a/b ports as raw 16-bit values, c data offset (0 = 5)
 *   L_UDP       a/b raw ports (8-byte header)
 *   L_PORTS     a/b raw ports at byte d of the header, c header length
 *               (SCTP, DCCP, ESP's SPI at 0, AH's SPI at 4)
 *   L_RAW       a bytes of 0x5a (payload or a header we only skip)
 */
#include <string.h>
#include <linux/bpf.h>
#include "flowctl.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the selftest vectors encode ports as little-endian host integers"
#endif
#define BE16(x) ((__u16)__builtin_bswap16(x))
#define BE32(x) ((__u32)__builtin_bswap32(x))

#define PARSE_1ST_FRAG BPF_FLOW_DISSECTOR_F_PARSE_1ST_FRAG
#define STOP_AT_FLOW_LABEL BPF_FLOW_DISSECTOR_F_STOP_AT_FLOW_LABEL
#define STOP_AT_ENCAP BPF_FLOW_DISSECTOR_F_STOP_AT_ENCAP
#define CONTINUE BPF_FLOW_DISSECTOR_CONTINUE

#define ETH(t)			{ L_ETH, t }
#define VLAN(tci, t)		{ L_VLAN, tci, t }
#define MPLS(l, bos)		{ L_MPLS, l, bos }
#define IP4(p, s, d, frag, ihl)	{ L_IPV4, p, s, d, frag, ihl }
#define IP6(nh, lbl, s, d)	{ L_IPV6, nh, lbl, s, d }
#define IP6EXT(nh, len)		{ L_IPV6_EXT, nh, len }
#define IP6FRAG(nh, off)	{ L_IPV6_FRAG, nh, off }
#define GRE(fl, p)		{ L_GRE, fl, p }
#define TCP(s, d, doff)		{ L_TCP, s, d, doff }
#define UDP(s, d)		{ L_UDP, s, d }
#define PORTS(s, d, len)	{ L_PORTS, s, d, len, 0 }
#define AH(s, d)		{ L_PORTS, s, d, 12, 4 }
#define RAW(n)			{ L_RAW, n }

#define V4 0x0800
#define V6 0x86DD
#define V6ADDR(x) { 0, 0, 0, BE32(x) }

const struct flow_vector flow_vectors[] = {
	/* ---- the 16 kernel selftest vectors ---- */
	{ "ipv4", 1, 0, BPF_OK, 54,
	  { .nhoff = 14, .thoff = 34, .addr_proto = V4, .ip_proto = 6, .n_proto = BE16(V4),
	    .sport = 80, .dport = 8080 },
	  { ETH(V4), IP4(6, 0, 0, 0, 0), TCP(80, 8080, 0) } },
	{ "ipv6", 1, 0, BPF_OK, 74,
	  { .nhoff = 14, .thoff = 54, .addr_proto = V6, .ip_proto = 6, .n_proto = BE16(V6),
	    .sport = 80, .dport = 8080 },
	  { ETH(V6), IP6(6, 0, 0, 0), TCP(80, 8080, 0) } },
	{ "802.1q-ipv4", 1, 0, BPF_OK, 58,
	  { .nhoff = 18, .thoff = 38, .addr_proto = V4, .ip_proto = 6, .n_proto = BE16(V4),
	    .sport = 80, .dport = 8080 },
	  { ETH(0x8100), VLAN(0, V4), IP4(6, 0, 0, 0, 0), TCP(80, 8080, 0) } },
	{ "802.1ad-ipv6", 1, 0, BPF_OK, 82,
	  { .nhoff = 22, .thoff = 62, .addr_proto = V6, .ip_proto = 6, .n_proto = BE16(V6),
	    .sport = 80, .dport = 8080 },
	  { ETH(0x88A8), VLAN(0, 0x8100), VLAN(0, V6), IP6(6, 0, 0, 0), TCP(80, 8080, 0) } },
	{ "ipv4-frag", 1, PARSE_1ST_FRAG, BPF_OK, 54,
	  { .nhoff = 14, .thoff = 34, .addr_proto = V4, .is_frag = 1, .is_first_frag = 1,
	    .ip_proto = 6, .n_proto = BE16(V4), .sport = 80, .dport = 8080,
	    .flags = PARSE_1ST_FRAG },
	  { ETH(V4), IP4(6, 0, 0, 0x2000, 0), TCP(80, 8080, 0) } },
	{ "ipv4-no-frag", 1, 0, BPF_OK, 34,
	  { .nhoff = 14, .thoff = 34, .addr_proto = V4, .is_frag = 1, .is_first_frag = 1,
	    .ip_proto = 6, .n_proto = BE16(V4) },
	  { ETH(V4), IP4(6, 0, 0, 0x2000, 0), TCP(80, 8080, 0) } },
	{ "ipv6-frag", 1, PARSE_1ST_FRAG, BPF_OK, 82,
	  { .nhoff = 14, .thoff = 62, .addr_proto = V6, .is_frag = 1, .is_first_frag = 1,
	    .ip_proto = 6, .n_proto = BE16(V6), .sport = 80, .dport = 8080,
	    .flags = PARSE_1ST_FRAG },
	  { ETH(V6), IP6(44, 0, 0, 0), IP6FRAG(6, 0), TCP(80, 8080, 0) } },
	{ "ipv6-no-frag", 1, 0, BPF_OK, 62,
	  { .nhoff = 14, .thoff = 62, .addr_proto = V6, .is_frag = 1, .is_first_frag = 1,
	    .ip_proto = 6, .n_proto = BE16(V6) },
	  { ETH(V6), IP6(44, 0, 0, 0), IP6FRAG(6, 0), TCP(80, 8080, 0) } },
	{ "ipv6-flow-label", 1, 0, BPF_OK, 74,
	  { .nhoff = 14, .thoff = 54, .addr_proto = V6, .ip_proto = 6, .n_proto = BE16(V6),
	    .sport = 80, .dport = 8080, .flow_label = BE32(0xbeeef) },
	  { ETH(V6), IP6(6, 0xbeeef, 0, 0), TCP(80, 8080, 0) } },
	{ "ipv6-no-flow-label", 1, STOP_AT_FLOW_LABEL, BPF_OK, 54,
	  { .nhoff = 14, .thoff = 54, .addr_proto = V6, .ip_proto = 6, .n_proto = BE16(V6),
	    .flow_label = BE32(0xbeeef), .flags = STOP_AT_FLOW_LABEL },
	  { ETH(V6), IP6(6, 0xbeeef, 0, 0), TCP(80, 8080, 0) } },
	{ "ipv6-empty-flow-label", 1, STOP_AT_FLOW_LABEL, BPF_OK, 74,
	  { .nhoff = 14, .thoff = 54, .addr_proto = V6, .ip_proto = 6, .n_proto = BE16(V6),
	    .sport = 80, .dport = 8080, .flags = STOP_AT_FLOW_LABEL },
	  { ETH(V6), IP6(6, 0, 0, 0), TCP(80, 8080, 0) } },
	{ "ipip-encap", 1, 0, BPF_OK, 74,
	  { .nhoff = 14, .thoff = 54, .addr_proto = V4, .is_encap = 1, .ip_proto = 6,
	    .n_proto = BE16(V4), .sport = 80, .dport = 8080 },
	  { ETH(V4), IP4(4, 0, 0, 0, 0), IP4(6, 0, 0, 0, 0), TCP(80, 8080, 0) } },
	{ "ipip-no-encap", 1, STOP_AT_ENCAP, BPF_OK, 34,
	  { .nhoff = 14, .thoff = 34, .addr_proto = V4, .is_encap = 1, .ip_proto = 4,
	    .n_proto = BE16(V4), .flags = STOP_AT_ENCAP },
	  { ETH(V4), IP4(4, 0, 0, 0, 0), IP4(6, 0, 0, 0, 0), TCP(80, 8080, 0) } },
	{ "ipip-encap-dissector-continue", 1, 0, CONTINUE, 34, { 0 },
	  { ETH(V4), IP4(4, 0x7f00007f, 0, 0, 0), IP4(6, 0, 0, 0, 0), TCP(99, 9090, 0) } },
	{ "ip-gre", 1, 0, BPF_OK, 78,
	  { .nhoff = 14, .thoff = 58, .addr_proto = V4, .is_encap = 1, .ip_proto = 6,
	    .n_proto = BE16(V4), .sport = 80, .dport = 8080 },
	  { ETH(V4), IP4(47, 0, 0, 0, 0), GRE(0, V4), IP4(6, 0, 0, 0, 0), TCP(80, 8080, 0) } },
	{ "ip-gre-no-encap", 1, STOP_AT_ENCAP, BPF_OK, 38,
	  { .nhoff = 14, .thoff = 38, .addr_proto = V4, .is_encap = 1, .ip_proto = 47,
	    .n_proto = BE16(V4), .flags = STOP_AT_ENCAP },
	  { ETH(V4), IP4(47, 0, 0, 0, 0), IP4(6, 0, 0, 0, 0), TCP(80, 8080, 0) } },

	/* ---- ours ---- */
	{ "qinq-ipv6-ext-hdrs", 0, PARSE_1ST_FRAG, BPF_OK, 110,
	  { .nhoff = 22, .thoff = 102, .addr_proto = V6, .is_frag = 1, .is_first_frag = 1,
	    .ip_proto = 17, .n_proto = BE16(V6), .sport = BE16(5353), .dport = BE16(53),
	    .ipv6_src = V6ADDR(1), .ipv6_dst = V6ADDR(2), .flags = PARSE_1ST_FRAG,
	    .flow_label = BE32(0x12345) },
	  { ETH(0x88A8), VLAN(100, 0x8100), VLAN(200, V6), IP6(0, 0x12345, 1, 2),
	    IP6EXT(43, 0), IP6EXT(60, 1), IP6EXT(44, 0), IP6FRAG(17, 0),
	    UDP(BE16(5353), BE16(53)) } },
	{ "ipv4-gre-csum-key-seq-ipv6", 0, 0, BPF_OK, 110,
	  { .nhoff = 14, .thoff = 90, .addr_proto = V6, .is_encap = 1, .ip_proto = 6,
	    .n_proto = BE16(V6), .sport = BE16(443), .dport = BE16(40000),
	    .ipv6_src = V6ADDR(3), .ipv6_dst = V6ADDR(4) },
	  { ETH(V4), IP4(47, 0x0a000001, 0x0a000002, 0, 0), GRE(0xB000, V6), IP6(6, 0, 3, 4),
	    TCP(BE16(443), BE16(40000), 0) } },
	{ "gre-teb-vlan-ipv4", 0, 0, BPF_OK, 88,
	  { .nhoff = 14, .thoff = 80, .addr_proto = V4, .is_encap = 1, .ip_proto = 17,
	    .n_proto = BE16(V4), .sport = BE16(4789), .dport = BE16(4790),
	    .ipv4_src = BE32(0xc0a80001), .ipv4_dst = BE32(0xc0a80002) },
	  { ETH(V4), IP4(47, 0x0a000001, 0x0a000002, 0, 0), GRE(0x2000, 0x6558), ETH(0x8100),
	    VLAN(5, V4), IP4(17, 0xc0a80001, 0xc0a80002, 0, 0), UDP(BE16(4789), BE16(4790)) } },
	{ "mpls", 0, 0, BPF_OK, 18,
	  { .nhoff = 14, .thoff = 14, .n_proto = BE16(0x8847) },
	  { ETH(0x8847), MPLS(16, 1), IP4(6, 1, 2, 0, 0), TCP(1, 2, 0) } },
	{ "ipv4-ihl-4", 0, 0, BPF_DROP, 34,
	  { .nhoff = 14, .thoff = 14, .n_proto = BE16(V4) },
	  { ETH(V4), IP4(6, 1, 2, 0, 4), TCP(1, 2, 0) } },
	{ "tcp-doff-4", 0, 0, BPF_DROP, 54,
	  { .nhoff = 14, .thoff = 34, .addr_proto = V4, .ip_proto = 6, .n_proto = BE16(V4),
	    .ipv4_src = BE32(1), .ipv4_dst = BE32(2) },
	  { ETH(V4), IP4(6, 1, 2, 0, 0), TCP(BE16(1), BE16(2), 4) } },
	{ "ipv6-in-ipv4", 0, 0, BPF_OK, 82,
	  { .nhoff = 14, .thoff = 74, .addr_proto = V6, .is_encap = 1, .ip_proto = 17,
	    .n_proto = BE16(V6), .sport = BE16(1000), .dport = BE16(2000),
	    .ipv6_src = V6ADDR(5), .ipv6_dst = V6ADDR(6), .flow_label = BE32(0xabcde) },
	  { ETH(V4), IP4(41, 0x0a000001, 0x0a000002, 0, 0), IP6(17, 0xabcde, 5, 6),
	    UDP(BE16(1000), BE16(2000)) } },
	{ "ipv6-in-ipv4-stop-at-encap", 0, STOP_AT_ENCAP, BPF_OK, 34,
	  { .nhoff = 14, .thoff = 34, .addr_proto = V4, .is_encap = 1, .ip_proto = 41,
	    .n_proto = BE16(V4), .ipv4_src = BE32(0x0a000001), .ipv4_dst = BE32(0x0a000002),
	    .flags = STOP_AT_ENCAP },
	  { ETH(V4), IP4(41, 0x0a000001, 0x0a000002, 0, 0), IP6(17, 0xabcde, 5, 6),
	    UDP(BE16(1000), BE16(2000)) } },
	{ "sctp", 0, 0, BPF_OK, 38,
	  { .nhoff = 14, .thoff = 34, .addr_proto = V4, .ip_proto = 132, .n_proto = BE16(V4),
	    .sport = BE16(3868), .dport = BE16(2905), .ipv4_src = BE32(7), .ipv4_dst = BE32(8) },
	  { ETH(V4), IP4(132, 7, 8, 0, 0), PORTS(BE16(3868), BE16(2905), 12) } },
	{ "dccp-ipv6", 0, 0, BPF_OK, 58,
	  { .nhoff = 14, .thoff = 54, .addr_proto = V6, .ip_proto = 33, .n_proto = BE16(V6),
	    .sport = BE16(5004), .dport = BE16(5005), .ipv6_src = V6ADDR(9),
	    .ipv6_dst = V6ADDR(10) },
	  { ETH(V6), IP6(33, 0, 9, 10), PORTS(BE16(5004), BE16(5005), 16) } },
	{ "esp", 0, 0, BPF_OK, 38,
	  { .nhoff = 14, .thoff = 34, .addr_proto = V4, .ip_proto = 50, .n_proto = BE16(V4),
	    .sport = BE16(0x1234), .dport = BE16(0x5678), .ipv4_src = BE32(7),
	    .ipv4_dst = BE32(8) },
	  { ETH(V4), IP4(50, 7, 8, 0, 0), PORTS(BE16(0x1234), BE16(0x5678), 8), RAW(16) } },
	{ "ah-ipv6", 0, 0, BPF_OK, 62,
	  { .nhoff = 14, .thoff = 54, .addr_proto = V6, .ip_proto = 51, .n_proto = BE16(V6),
	    .sport = BE16(0xabcd), .dport = BE16(0xef01), .ipv6_src = V6ADDR(1),
	    .ipv6_dst = V6ADDR(2) },
	  { ETH(V6), IP6(51, 0, 1, 2), AH(BE16(0xabcd), BE16(0xef01)), RAW(8) } },
	{ "icmp", 0, 0, BPF_OK, 42,
	  { .nhoff = 14, .thoff = 34, .addr_proto = V4, .ip_proto = 1, .n_proto = BE16(V4),
	    .ipv4_src = BE32(7), .ipv4_dst = BE32(8) },
	  { ETH(V4), IP4(1, 7, 8, 0, 0), RAW(8) } },
	{ "unknown-l4", 0, 0, BPF_OK, 34,
	  { .nhoff = 14, .thoff = 34, .addr_proto = V4, .ip_proto = 253, .n_proto = BE16(V4),
	    .ipv4_src = BE32(7), .ipv4_dst = BE32(8) },
	  { ETH(V4), IP4(253, 7, 8, 0, 0), RAW(16) } },
	{ "gre-version-1", 0, 0, BPF_OK, 38,
	  { .nhoff = 14, .thoff = 34, .addr_proto = V4, .ip_proto = 47, .n_proto = BE16(V4),
	    .ipv4_src = BE32(7), .ipv4_dst = BE32(8) },
	  { ETH(V4), IP4(47, 7, 8, 0, 0), GRE(0x0001, 0x880B), RAW(16) } },
	{ "ipv4-later-frag", 0, PARSE_1ST_FRAG, BPF_OK, 34,
	  { .nhoff = 14, .thoff = 34, .addr_proto = V4, .is_frag = 1, .ip_proto = 17,
	    .n_proto = BE16(V4), .ipv4_src = BE32(7), .ipv4_dst = BE32(8),
	    .flags = PARSE_1ST_FRAG },
	  { ETH(V4), IP4(17, 7, 8, 100, 0), UDP(BE16(1), BE16(2)) } },
	{ "ipv6-later-frag", 0, PARSE_1ST_FRAG, BPF_OK, 62,
	  { .nhoff = 14, .thoff = 62, .addr_proto = V6, .is_frag = 1, .ip_proto = 6,
	    .n_proto = BE16(V6), .ipv6_src = V6ADDR(1), .ipv6_dst = V6ADDR(2),
	    .flags = PARSE_1ST_FRAG },
	  { ETH(V6), IP6(44, 0, 1, 2), IP6FRAG(6, 8), TCP(BE16(1), BE16(2), 0) } },
	{ "802.1ad-ipv4", 0, 0, BPF_OK, 58,
	  { .nhoff = 18, .thoff = 38, .addr_proto = V4, .ip_proto = 6, .n_proto = BE16(V4),
	    .sport = BE16(22), .dport = BE16(2222), .ipv4_src = BE32(7), .ipv4_dst = BE32(8) },
	  { ETH(0x88A8), VLAN(7, V4), IP4(6, 7, 8, 0, 0), TCP(BE16(22), BE16(2222), 0) } },
	{ "udplite-ipv6", 0, 0, BPF_OK, 62,
	  { .nhoff = 14, .thoff = 54, .addr_proto = V6, .ip_proto = 136, .n_proto = BE16(V6),
	    .sport = BE16(7000), .dport = BE16(7001), .ipv6_src = V6ADDR(1),
	    .ipv6_dst = V6ADDR(2) },
	  { ETH(V6), IP6(136, 0, 1, 2), UDP(BE16(7000), BE16(7001)) } },
	{ "unknown-ethertype", 0, 0, BPF_DROP, 14,
	  { .nhoff = 14, .thoff = 14, .n_proto = BE16(0x0806) },
	  { ETH(0x0806), RAW(28) } },
};

const size_t flow_vector_count = sizeof(flow_vectors) / sizeof(flow_vectors[0]);

const struct flow_vector *flow_vector_find(const char *name)
{
	size_t i;

	for (i = 0; i < flow_vector_count; i++)
		if (!strcmp(flow_vectors[i].name, name))
			return &flow_vectors[i];
	return NULL;
}

/*
 * Where the kernel's C dissector hashes a packet differently from us, and
 * why.  The BPF interface forces most of it: struct bpf_flow_keys has no field
 * for a VLAN id or a GRE key id, which C mixes into the hash.
 */
static const struct { const char *vector, *why; } hash_differs[] = {
	{ "802.1q-ipv4", "C hashes the VLAN id; struct bpf_flow_keys has no VLAN field" },
	{ "802.1ad-ipv6", "C hashes the VLAN ids; struct bpf_flow_keys has no VLAN field" },
	{ "802.1ad-ipv4", "C hashes the VLAN id; struct bpf_flow_keys has no VLAN field" },
	{ "qinq-ipv6-ext-hdrs", "C hashes the VLAN ids; struct bpf_flow_keys has no VLAN field" },
	{ "gre-teb-vlan-ipv4", "C hashes the VLAN id and the GRE key id; no fields for them" },
	{ "ipv4-gre-csum-key-seq-ipv6", "C hashes the GRE key id; no field for it" },
	{ "gre-version-1", "C descends into PPTP (GRE v1); we stop at version != 0" },
	{ "tcp-doff-4", "C records the ports of a TCP header with doff < 5; we DROP it" },
};

const char *flow_vector_hash_differs(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(hash_differs) / sizeof(hash_differs[0]); i++)
		if (!strcmp(hash_differs[i].vector, name))
			return hash_differs[i].why;
	return NULL;
}

/* Bytes each layer occupies. */
static size_t layer_len(const struct flow_layer *l)
{
	switch (l->kind) {
	case L_ETH: return 14;
	case L_VLAN: case L_MPLS: return 4;
	case L_IPV4: return 4 * (l->e ? l->e : 5) < 20 ? 20 : 4 * (l->e ? l->e : 5);
	case L_IPV6: return 40;
	case L_IPV6_EXT: return (l->b + 1) * 8;
	case L_IPV6_FRAG: return 8;
	case L_GRE: return 4 + 4 * !!(l->a & 0x8000) + 4 * !!(l->a & 0x2000) +
			   4 * !!(l->a & 0x1000);
	case L_TCP: return 20;
	case L_UDP: return 8;
	case L_PORTS: return l->c;
	case L_RAW: return l->a;
	default: return 0;
	}
}

static void put16(unsigned char *p, unsigned int v) { p[0] = v >> 8; p[1] = v; }
static void put32(unsigned char *p, unsigned int v) { put16(p, v >> 16); put16(p + 2, v); }
/* A raw 16-bit value stored as this host stores it (the selftests' ports). */
static void raw16(unsigned char *p, unsigned int v) { __u16 x = v; memcpy(p, &x, 2); }

static void put_layer(const struct flow_layer *l, unsigned char *p, size_t len)
{
	memset(p, 0, len);
	switch (l->kind) {
	case L_ETH:
		put16(p + 12, l->a);
		break;
	case L_VLAN:
		put16(p, l->a);
		put16(p + 2, l->b);
		break;
	case L_MPLS:
		put32(p, l->a << 12 | (l->b ? 1u << 8 : 0) | 64);
		break;
	case L_IPV4:
		p[0] = l->e ? l->e : 5;		/* version 0, as the selftests */
		put16(p + 2, 123);
		put16(p + 6, l->d);
		p[9] = l->a;
		put32(p + 12, l->b);
		put32(p + 16, l->c);
		break;
	case L_IPV6:
		put32(p, l->b & 0xfffff);	/* version 0, as the selftests */
		put16(p + 4, 123);
		p[6] = l->a;
		put32(p + 20, l->c);
		put32(p + 36, l->d);
		break;
	case L_IPV6_EXT:
		p[0] = l->a;
		p[1] = l->b;
		break;
	case L_IPV6_FRAG:
		p[0] = l->a;
		put16(p + 2, l->b);
		break;
	case L_GRE:
		put16(p, l->a);
		put16(p + 2, l->b);
		memset(p + 4, 0xab, len - 4);
		break;
	case L_TCP:
		raw16(p, l->a);
		raw16(p + 2, l->b);
		p[12] = (l->c ? l->c : 5) << 4;
		break;
	case L_UDP:
		raw16(p, l->a);
		raw16(p + 2, l->b);
		break;
	case L_PORTS:
		raw16(p + l->d, l->a);
		raw16(p + l->d + 2, l->b);
		break;
	case L_RAW:
		memset(p, 0x5a, len);
		break;
	default:
		break;
	}
}

size_t flow_vector_build(const struct flow_vector *v, unsigned char *buf, size_t cap)
{
	size_t off = 0, n, i;

	for (i = 0; i < FLOW_MAX_LAYERS && v->layers[i].kind != L_END; i++) {
		n = layer_len(&v->layers[i]);
		if (off + n > cap)
			return 0;
		put_layer(&v->layers[i], buf + off, n);
		off += n;
	}
	if (off < FLOW_FRAME_LEN && cap >= FLOW_FRAME_LEN) {
		memset(buf + off, 0, FLOW_FRAME_LEN - off);
		off = FLOW_FRAME_LEN;
	}
	return off;
}
