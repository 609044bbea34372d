// SPDX-License-Identifier: BSD-2-Clause
/*
 * Every BTF kind and flag the dumpers print, for the golden tests
 * (compiled with clang-16 -g -O2 -target bpf). Not a program to load.
 */
#define SEC(s) __attribute__((section(s), used))
#define TAG(s) __attribute__((btf_decl_tag(s)))
#define TTAG(s) __attribute__((btf_type_tag(s)))

typedef unsigned long long u64;
typedef int (*vararg_fn)(const char *fmt, ...);   /* FUNC_PROTO with varargs */

enum color { RED, GREEN = 5, BLUE = 0xffffffffu };     /* ENUM unsigned, top value */
enum sign { NEG = -3, ZERO = 0, POS = 7 };             /* ENUM signed */
enum big { B_SMALL = 1, B_HUGE = 0xfedcba9876543210ULL };  /* ENUM64 unsigned */
enum sbig { S_NEG = -0x100000000LL, S_POS = 0x7fffffffffffLL }; /* ENUM64 signed */
enum __attribute__((packed)) tiny { T_A, T_B };        /* 1-byte ENUM */

struct fwd_only;                                       /* FWD struct */
union fwd_union;                                       /* FWD union */

struct TAG("struct_tag") bits {
	unsigned int a : 3;
	int b : 5;
	unsigned long long c : 40 TAG("member_tag");
	_Bool flag : 1;
	char ch;
	unsigned __int128 wide;
	float f;
	double d;
	long double ld;
	volatile int vol;
	const char *const cstr;
	int TTAG("user") *tagged;
	int TTAG("a") TTAG("b") *two_tags;
	struct fwd_only *fo;
	union fwd_union *fu;
	vararg_fn printer;
	int (*arr_of_fns[2])(int, void *);
	struct {                                          /* anonymous struct */
		int x, y;
		union {                                   /* anonymous union */
			unsigned short s;
			signed char sc[2];
		};
	};
	union {
		enum color col;
		enum sign sg;
	} named_union;
	enum big bg;
	enum sbig sbg;
	enum tiny tn;
	int matrix[3][4];
	char flex[];                                      /* flexible array */
};

struct flex_only {
	u64 n;
	struct bits items[];
};

/* DATASEC / VAR: .data, .bss, .rodata, .maps, .kconfig (extern) */
int global_counter = 1;
static volatile int static_counter;
const volatile u64 ro_limit = 42;
struct bits bss_bits;
struct flex_only *flex_ptr;
extern int LINUX_KERNEL_VERSION __attribute__((section(".kconfig"), weak));

struct {
	int (*type)[2];
	int (*max_entries)[16];
	enum color *key;
	struct bits *value;
} bits_map SEC(".maps");

extern int bpf_kfunc_example(int x, struct bits *b) __attribute__((section(".ksyms"), weak));

static __attribute__((noinline)) int helper(struct bits *restrict b TAG("param_tag"), int n)
{
	return b->a + n + static_counter;
}

__attribute__((noinline)) TAG("func_tag") TAG("it's \"quoted\"") int global_fn(int x)
{
	return x * 2 + global_counter;
}

SEC("tc") int prog(void *ctx)
{
	int r = helper(&bss_bits, (int)ro_limit) + global_fn(LINUX_KERNEL_VERSION);

	if (bpf_kfunc_example)
		r += bpf_kfunc_example(r, &bss_bits);
	return r + (flex_ptr ? (int)flex_ptr->n : 0) + bss_bits.printer != 0;
}

char _license[] SEC("license") = "GPL";
