/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Types of the maps the map-dump tests create: compiled into maps.bpf.o
 * (whose BTF types the maps) and into the fixture (which fills them), so
 * both agree on the layout.
 */
#ifndef MAPDUMP_MAPS_H
#define MAPDUMP_MAPS_H

#ifdef __BPF__
#define TAG_USER __attribute__((btf_type_tag("user")))
#else
#define TAG_USER
#endif

typedef unsigned short __be16;
typedef unsigned int __be32;

enum color { RED, GREEN = 5, BLUE = -1 };
enum big64 { B_ZERO = 0, B_HUGE = 0xfedcba9876543210ULL };
enum __attribute__((packed)) tiny { T_ONE = 1, T_BIG = 200 };

struct inner {
	short s;
	unsigned char u8;
};

union un {
	unsigned int ui;
	unsigned char uc[4];
};

/* Every integer size and sign, bitfields, strings, pointers, nesting. */
struct val {
	signed char i8;
	unsigned char u8;
	short i16;
	unsigned short u16;
	int i32;
	unsigned int u32;
	long long i64;
	unsigned long long u64;
	char name[8];
	unsigned char raw[4];
	char empty[4];
	char nostr[3];
	int bf1 : 3;
	int bf2 : 5;
	unsigned int bf3 : 12;
	long long bf4 : 40;
	unsigned long long bf5 : 33;
	_Bool b;
	char ch;
	enum color c;
	enum big64 e64;
	enum tiny e8;
	void *p;
	void *np;
	int *ip;
	struct inner in;
	union un u;
	struct {
		int ax;
		int ay;
	};
	union {
		int ua;
		short ub;
	};
	__int128 s128;
	unsigned __int128 u128;
	const volatile int cv;
	__be16 port;
	__be32 addr;
	int arr[3];
	struct inner inarr[2];
	int (*fp)(int);
	int TAG_USER *tagp;
};

struct key2 {
	unsigned short a;
	unsigned char b;
	unsigned char c[1];
};

struct small {
	int x;
	char tag[4];
};

struct fval {
	float f;
	double d;
	float neg;
	double big;
};

struct esc {
	char s[8];
	char q[4];
};

#ifdef __BPF__
/* struct bpf_flow_keys as the UAPI lays it out */
struct bpf_flow_keys {
	unsigned short nhoff;
	unsigned short thoff;
	unsigned short addr_proto;
	unsigned char is_frag;
	unsigned char is_first_frag;
	unsigned char is_encap;
	unsigned char ip_proto;
	__be16 n_proto;
	__be16 sport;
	__be16 dport;
	union {
		struct {
			__be32 ipv4_src;
			__be32 ipv4_dst;
		};
		struct {
			unsigned int ipv6_src[4];
			unsigned int ipv6_dst[4];
		};
	};
	unsigned int flags;
	__be32 flow_label;
};
#endif

#endif
