// SPDX-License-Identifier: BSD-2-Clause
/*
 * btfgen parity input: every C construct BTF can describe, reachable from
 * maps, globals and functions so that clang-16 puts them in its own BTF.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define __tag1 __attribute__((btf_type_tag("tag1")))
#define __tag2 __attribute__((btf_type_tag("tag2")))
#define __dtag(x) __attribute__((btf_decl_tag(x)))

typedef unsigned long long u64;
typedef signed char s8;
typedef u64 u64_alias __dtag("typedef_tag");

enum small_signed { SS_NEG = -3, SS_ZERO = 0, SS_POS = 7 };
enum small_unsigned { SU_A = 1, SU_MAX = 0xffffffffu };
enum wide { W_SMALL = 1, W_BIG = 0x1234567890ULL };
enum wide_signed { WS_NEG = -0x100000000LL, WS_ONE = 1 };
enum __attribute__((packed)) packed_enum { PE_A = 1, PE_B = 200 };

struct fwd_only;
union fwd_union;

struct bits {
	unsigned int a : 1, b : 3;
	int c : 5;
	unsigned long long wide : 40;
	enum small_unsigned e : 8;
	u64 tail;
};

struct nested {
	int kind;
	union {
		int i;
		char bytes[4];
		struct {
			short lo, hi;
		};
	};
	struct {
		unsigned char x, y;
	} pair;
};

typedef int (*callback_t)(int, const char *, ...);
typedef void (*plain_fn)(void);

struct everything {
	char c;
	_Bool flag;
	signed char sc;
	unsigned char uc;
	short s;
	unsigned short us;
	int i;
	unsigned int ui;
	long l;
	unsigned long ul;
	long long ll;
	u64 u;
	s8 small;
	float f;
	double d;
	const int ci;
	volatile int vi;
	const volatile unsigned int cvi;
	int *restrict rp;
	const char *str;
	int __tag1 *tagged;
	int __tag1 __tag2 *tagged2;
	int grid[2][3];
	char cube[2][2][2];
	struct bits bits;
	struct nested nested;
	struct fwd_only *opaque;
	union fwd_union *opaque_union;
	struct everything *self;
	callback_t cb;
	plain_fn pf;
	enum small_signed es;
	enum small_unsigned eu;
	enum wide ew;
	enum wide_signed ews;
	enum packed_enum pe;
	u64_alias alias;
	int tagged_member __dtag("member_tag");
	int flex[];
} __dtag("struct_tag");

struct map_key {
	__u32 ifindex;
	__u16 proto;
	__u8 pad[2];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, struct map_key);
	__type(value, struct bits);
} hash_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct nested);
} array_map SEC(".maps");

struct everything big_global;
int counter = 1;
static volatile int static_counter = 2;
const volatile int config_knob = 3;
int zeroed[4];
__u64 tagged_var __dtag("var_tag") = 5;
char _license[] SEC("license") = "GPL";

static __attribute__((noinline)) int helper(int x __dtag("param_tag"), struct everything *e)
{
	return x + (e ? e->i : 0) + static_counter;
}

__attribute__((noinline)) int global_helper(int a, __u64 b) __dtag("func_tag");
__attribute__((noinline)) int global_helper(int a, __u64 b)
{
	return a + (int)b + config_knob;
}

SEC("xdp")
int prog(struct xdp_md *ctx)
{
	struct map_key k = { .ifindex = ctx->ingress_ifindex };
	struct bits *b = bpf_map_lookup_elem(&hash_map, &k);
	__u32 zero = 0;
	struct nested *n = bpf_map_lookup_elem(&array_map, &zero);

	counter++;
	zeroed[1] = helper(1, 0) + global_helper(2, 3);
	if (b)
		big_global.bits.tail = b->tail;
	if (n)
		tagged_var += n->kind;
	return XDP_PASS;
}
