// SPDX-License-Identifier: BSD-2-Clause
/*
 * Test types for the C dumper round trip: compiled with clang-16 -g
 * -target bpf, its BTF is dumped as C, and the dump must give every named
 * struct/union the same size, alignment and member offsets as this file.
 * Every type is reached from a global so that it lands in the BTF.
 */
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

struct bits {
	unsigned int a : 3;
	int b : 5;
	unsigned int : 0;
	unsigned int c : 7;
	u64 wide : 40;
	u8 tail : 1;
};

struct bits_gap {
	char c;
	unsigned int x : 4;
	long l;
	unsigned short y : 9;
	unsigned short z : 7;
	int after;
};

struct __attribute__((packed)) pk {
	char c;
	int i;
	long l;
	short s;
};

struct __attribute__((packed)) pk_tail {
	long l;
	char c;
};

struct inner {
	int x;
	short y;
};

struct __attribute__((packed, aligned(4))) pk_aligned {
	char c;
	struct inner in;
	char d;
};

struct aligned_member {
	char c;
	int v __attribute__((aligned(16)));
	char d;
	long e __attribute__((aligned(32)));
};

struct nested_anon {
	int kind;
	union {
		struct {
			u32 lo;
			u32 hi;
		};
		u64 whole;
		struct {
			u8 b0 : 4, b1 : 4;
		} nib;
	};
	struct {
		int a[2][3];
		struct inner *ip;
	} named_inner;
	union {
		int u1;
		char u2[7];
	} u;
};

union un {
	char c;
	int i;
	long l;
	struct inner in;
	char raw[13];
};

typedef int (*cb_t)(void *ctx, int flags);
typedef void (*handler_t)(int);

struct ops {
	int (*open)(const char *name, int flags);
	void (*close)(void);
	long (*vararg)(int n, ...);
	cb_t cbs[4];
	void (*handlers[3])(int sig);
	int (*(*factory)(int))(long);
	char *(*strfn)(const char *const *argv);
	const volatile int *cvp;
	int *const cp;
	int *restrict *rp;
	handler_t (*signal_like)(int, handler_t);
};

enum e8 : unsigned char { E8_A = 1, E8_B = 255 };
enum e16 : short { E16_NEG = -3, E16_POS = 1000 };
enum e32 { E32_A, E32_B = 7, E32_C = 0x7fffffff };
enum e32s { E32S_NEG = -1, E32S_POS = 5 };
enum e64 : unsigned long long { E64_SMALL = 1, E64_BIG = 0xffffffff00000000ull };
enum e64s : long long { E64S_NEG = -5000000000ll, E64S_POS = 5000000000ll };
enum e64w : unsigned long { E64W_A = 1, E64W_B = 2 };

enum { ANON_CONST_A = 10, ANON_CONST_B = 20 };

struct enums {
	enum e8 a;
	enum e16 b;
	enum e32 c;
	enum e64 d;
	enum e8 e;
	enum e64s f;
	enum e64w g;
	enum { INL_X, INL_Y } inl;
	enum e32s h;
};

struct wide {
	char c;
	unsigned __int128 big;
	__int128 sbig;
	short s;
};

struct flex {
	int n;
	long pad;
	char data[];
};

struct zero_len {
	int n;
	int z[0];
};

struct empty {
};

struct arrays {
	char s[5];
	int m[2][3][4];
	struct inner ins[3];
	int *ptrs[2];
	int (*aptr)[8];
	double d;
	float f;
	long double ld;
};

struct self_ref {
	struct self_ref *next;
	struct fwd_only *opaque;
	union fwd_union *uopaque;
	struct self_ref *prev;
};

struct tagged {
	int __attribute__((btf_type_tag("user"))) *uptr;
	int __attribute__((btf_type_tag("rcu"))) __attribute__((btf_type_tag("percpu"))) *tp2;
	int val;
};

/* mutually referencing through pointers: needs forward declarations */
struct ping;
struct pong {
	struct ping *p;
	int v;
};
struct ping {
	struct pong *q;
	struct pong embedded;
};

typedef struct {
	int x, y;
} point_t;

typedef union {
	int i;
	float f;
} num_t;

struct uses_typedefs {
	point_t pt;
	num_t n;
	const point_t *cpt;
	u16 small;
	u8 tiny[3];
};

struct volatile_members {
	volatile int v;
	const char c;
	volatile unsigned long flags[2];
	const struct inner ci;
};

struct last_pad {
	long l;
	char c;
	int : 0;
};

struct bits_mixed {
	char a;
	u64 b : 60;
	u64 c : 4;
	u16 d;
	u8 e : 2;
};

struct bits gv_bits;
struct bits_gap gv_bits_gap;
struct pk gv_pk;
struct pk_tail gv_pk_tail;
struct pk_aligned gv_pk_aligned;
struct aligned_member gv_aligned_member;
struct nested_anon gv_nested_anon;
union un gv_un;
struct ops gv_ops;
struct enums gv_enums;
int gv_anon_const = ANON_CONST_A;
struct wide gv_wide;
struct flex *gv_flex;
struct zero_len gv_zero_len;
struct empty gv_empty;
struct arrays gv_arrays;
struct self_ref gv_self_ref;
struct tagged gv_tagged;
struct ping gv_ping;
struct uses_typedefs gv_uses_typedefs;
struct volatile_members gv_volatile_members;
struct last_pad gv_last_pad;
struct bits_mixed gv_bits_mixed;
