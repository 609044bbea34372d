// SPDX-License-Identifier: BSD-2-Clause
/* Verifier unit tests: header, sections, strings and every pass-1 message. */
#include "vcase.h"

#define STRS "\0int\0a\0b\0e\0f\0v\0.data\0T\0tag\0" "1a"
enum { N_INT = 1, N_A = 5, N_B = 7, N_E = 9, N_F = 11, N_V = 13, N_DATA = 15, N_T = 21,
       N_TAG = 23, N_1A = 27 };
#define INT32 T_INT(N_INT, 1, 0, 32, 4)
#define L_INT "[1] INT int size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n"

static struct vblob raw(const void *p, size_t n)
{
	struct vblob b = { malloc(n ? n : 1), n };
	memcpy(b.p, p, n);
	return b;
}

static struct vblob with_hdr(uint32_t field, uint32_t val)
{
	struct vblob b = VB(STRS, INT32);
	memcpy(b.p + field * 4, &val, 4);
	return b;
}

#define HDR_DUMP(tl, so, sl, tot)                                                        \
	"magic: 0xeb9f\nversion: 1\nflags: 0x0\nhdr_len: 24\ntype_off: 0\ntype_len: " tl   \
	"\nstr_off: " so "\nstr_len: " sl "\nbtf_total_size: " tot "\n"

static void test_header(void **state)
{
	static const unsigned char four[4] = { 0x9f, 0xeb, 1, 0 };
	struct vblob b;

	EXPECT_WHOLE(raw(four, 4), EINVAL, "hdr_len not found");
	b = VB(STRS, INT32);
	b.len = 20;
	EXPECT_WHOLE(b, EINVAL, "btf_header not found");
	b = VB(STRS, INT32);
	memcpy(b.p + 4, &(uint32_t){ 28 }, 4);
	EXPECT_WHOLE(b, E2BIG, "Unsupported btf_header");
	b = VB(STRS, INT32);
	b.p[0] = 0xeb;
	b.p[1] = 0x9f;
	EXPECT_WHOLE(b, EINVAL,
		     "magic: 0x9feb\nversion: 1\nflags: 0x0\nhdr_len: 24\ntype_off: 0\ntype_len: 16\n"
		     "str_off: 16\nstr_len: 30\nbtf_total_size: 70\nInvalid magic");
	b = VB(STRS, INT32);
	b.p[2] = 2;
	EXPECT(b, LBTF_ENOTSUPP, "Unsupported version");
	b = VB(STRS, INT32);
	b.p[3] = 1;
	EXPECT(b, LBTF_ENOTSUPP, "Unsupported flags");
	/* a header alone */
	b = VB(STRS, INT32);
	memset(b.p + 8, 0, 16);
	b.len = 24;
	EXPECT(b, EINVAL, "No data");
}

/* hdr_len other than 24: a longer header with a zero tail (even unaligned)
 * is fine; a shorter one leaves the kernel's copy zero-padded. */
static void test_hdr_len(void **state)
{
	struct vblob b = VB(STRS, INT32), c;

	for (uint32_t extra = 1; extra <= 8; extra += 7) {
		c.len = b.len + extra;
		c.p = calloc(1, c.len);
		memcpy(c.p, b.p, 24);
		memcpy(c.p + 24 + extra, b.p + 24, b.len - 24);
		memcpy(c.p + 4, &(uint32_t){ 24 + extra }, 4);
		EXPECT(c, 0, L_INT);
	}
	c.len = b.len;
	c.p = malloc(c.len);
	memcpy(c.p, b.p, b.len);
	memcpy(c.p + 4, &(uint32_t){ 16 }, 4);
	EXPECT_WHOLE(c, EINVAL,
		     "magic: 0xeb9f\nversion: 1\nflags: 0x0\nhdr_len: 16\ntype_off: 0\ntype_len: 16\n"
		     "str_off: 0\nstr_len: 0\nbtf_total_size: 70\nUnsupported section found");
	free(b.p);
}

static void test_sections(void **state)
{
	EXPECT(with_hdr(4, 100), EINVAL, "Invalid section offset");      /* str_off past the end */
	EXPECT(with_hdr(2, 100), EINVAL, "Unsupported section found");   /* sorted after strings: gap */
	EXPECT(with_hdr(4, 12), EINVAL, "Section overlap found");        /* strings inside types */
	EXPECT(with_hdr(3, 12), EINVAL, "Unsupported section found");    /* gap before strings */
	EXPECT(with_hdr(3, 20), EINVAL, "Section overlap found");
	EXPECT(with_hdr(5, 40), EINVAL, "Total section length too long");
	EXPECT(with_hdr(5, 20), EINVAL, "Unsupported section found");    /* trailing bytes */
	/* the sort uses wrapping signed differences: 0x80000010 sorts first */
	EXPECT(with_hdr(2, 0x80000010), EINVAL, "Invalid section offset");
	EXPECT(with_hdr(2, 0x10000010), EINVAL, "Unsupported section found");
}

static void test_strings(void **state)
{
	struct vblob b;

	/* strings first, then types: the string section is not at the end */
	b = VB(STRS, INT32);
	{
		unsigned char *p = malloc(b.len);
		memcpy(p, b.p, 24);
		memcpy(p + 24, b.p + 24 + 16, 30);
		memcpy(p + 24 + 30, b.p + 24, 16);
		memcpy(p + 8, (uint32_t[]){ 30, 16, 0, 30 }, 16);
		free(b.p);
		b.p = p;
	}
	EXPECT(b, EINVAL, "String section is not at the end");
	b = VB("\0int", INT32);
	b.p[b.len - 1] = 'x';
	EXPECT(b, EINVAL, "Invalid string section");
	b = VB("a\0int", INT32);
	EXPECT(b, EINVAL, "Invalid string section");
	/* zero-length strings */
	b = VB(STRS, INT32);
	memcpy(b.p + 20, &(uint32_t){ 0 }, 4);
	b.len -= 30;
	EXPECT(b, EINVAL, "Invalid string section");
	/* only strings, laid out first: type_off unaligned, or no types */
	b = VB("\0ab", INT32);
	memcpy(b.p + 8, (uint32_t[]){ 4, 0, 0, 4 }, 16);
	memcpy(b.p + 24, "\0ab", 4);
	b.len = 28;
	EXPECT(b, EINVAL, "No type found");
	b = VB("\0abcd", INT32);
	memcpy(b.p + 8, (uint32_t[]){ 6, 0, 0, 6 }, 16);
	memcpy(b.p + 24, "\0abcd", 6);
	b.len = 30;
	EXPECT(b, EINVAL, "Unaligned type_off");
}

static void test_common(void **state)
{
	struct vblob b = VB(STRS, INT32, 0);

	EXPECT(b, EINVAL, L_INT "[2] meta_left:4 meta_needed:12");
	EXPECT(VB(STRS, 0, 0x01010000, 4, 0), EINVAL, "[1] Invalid btf_info:1010000");
	EXPECT(VB(STRS, 0, INFO(20, 0, 0), 4), EINVAL, "[1] Invalid kind:20");
	EXPECT(VB(STRS, 0, INFO(0, 0, 0), 4), EINVAL, "[1] Invalid kind:0");
	EXPECT(VB(STRS, 99, INFO(1, 0, 0), 4, 32), EINVAL, "[1] Invalid name_offset:99");
}

static void test_int(void **state)
{
	EXPECT(VB(STRS, N_INT, INFO(1, 0, 0), 4), EINVAL, "[1] INT int meta_left:0 meta_needed:4\n");
	EXPECT(VB(STRS, N_INT, INFO(1, 0, 1), 4, 32), EINVAL,
	       "[1] INT int size=4 bits_offset=0 nr_bits=32 encoding=(none) vlen != 0\n");
	EXPECT(VB(STRS, N_INT, INFO(1, 1, 0), 4, 32), EINVAL,
	       "[1] INT int size=4 bits_offset=0 nr_bits=32 encoding=(none) Invalid btf_info kind_flag\n");
	EXPECT(VB(STRS, N_INT, INFO(1, 0, 0), 4, 0x10000020), EINVAL,
	       "[1] INT int Invalid int_data:10000020\n");
	EXPECT(VB(STRS, T_INT(N_INT, 0, 8, 128, 16)), EINVAL,
	       "[1] INT int size=16 bits_offset=8 nr_bits=128 encoding=(none) nr_bits exceeds 128\n");
	EXPECT(VB(STRS, T_INT(N_INT, 0, 0, 33, 4)), EINVAL,
	       "[1] INT int size=4 bits_offset=0 nr_bits=33 encoding=(none) nr_bits exceeds type_size\n");
	EXPECT(VB(STRS, T_INT(N_INT, 3, 0, 32, 4)), LBTF_ENOTSUPP,
	       "[1] INT int size=4 bits_offset=0 nr_bits=32 encoding=UNKN Unsupported encoding\n");
	/* unchecked: INT names, bits 8-15 of int_data, size 0 with 0 bits */
	EXPECT(VB(STRS, T_INT(N_1A, 4, 0, 8, 1), N_INT, INFO(1, 0, 0), 0, 0x1100), 0,
	       "[1] INT 1a size=1 bits_offset=0 nr_bits=8 encoding=BOOL\n"
	       "[2] INT int size=0 bits_offset=0 nr_bits=0 encoding=(none)\n");
}

static void test_ref(void **state)
{
	EXPECT(VB(STRS, INT32, 0, INFO(2, 0, 1), 1), EINVAL, L_INT "[2] PTR (anon) type_id=1 vlen != 0\n");
	EXPECT(VB(STRS, INT32, 0, INFO(10, 1, 0), 1), EINVAL,
	       L_INT "[2] CONST (anon) type_id=1 Invalid btf_info kind_flag\n");
	EXPECT(VB(STRS, INT32, T_PTR(0x100000)), EINVAL, L_INT "[2] PTR (anon) type_id=1048576 Invalid type_id\n");
	EXPECT(VB(STRS, INT32, T_REF(9, N_A, 1)), EINVAL, L_INT "[2] VOLATILE a type_id=1 Invalid name\n");
	EXPECT(VB(STRS, INT32, T_TYPEDEF(0, 1)), EINVAL, L_INT "[2] TYPEDEF (anon) type_id=1 Invalid name\n");
	EXPECT(VB(STRS, INT32, T_TYPEDEF(N_1A, 1)), EINVAL, L_INT "[2] TYPEDEF 1a type_id=1 Invalid name\n");
	EXPECT(VB(STRS, INT32, T_TAG(0, 1)), EINVAL, L_INT "[2] TYPE_TAG (anon) type_id=1 Invalid name\n");
	/* TYPE_TAG may carry kind_flag, and any non-empty value */
	EXPECT(VB(STRS, INT32, N_1A, INFO(18, 1, 0), 1, T_PTR(2)), 0,
	       L_INT "[2] TYPE_TAG 1a type_id=1\n[3] PTR (anon) type_id=2\n");
}

static void test_array(void **state)
{
	EXPECT(VB(STRS, INT32, 0, INFO(3, 0, 0), 0, 1, 1), EINVAL,
	       L_INT "[2] ARRAY (anon) meta_left:8 meta_needed:12\n");
	EXPECT(VB(STRS, INT32, N_A, INFO(3, 0, 0), 0, 1, 1, 2), EINVAL,
	       L_INT "[2] ARRAY a type_id=1 index_type_id=1 nr_elems=2 Invalid name\n");
	EXPECT(VB(STRS, INT32, 0, INFO(3, 0, 1), 0, 1, 1, 2), EINVAL,
	       L_INT "[2] ARRAY (anon) type_id=1 index_type_id=1 nr_elems=2 vlen != 0\n");
	EXPECT(VB(STRS, INT32, 0, INFO(3, 1, 0), 0, 1, 1, 2), EINVAL,
	       L_INT "[2] ARRAY (anon) type_id=1 index_type_id=1 nr_elems=2 Invalid btf_info kind_flag\n");
	EXPECT(VB(STRS, INT32, 0, INFO(3, 0, 0), 8, 1, 1, 2), EINVAL,
	       L_INT "[2] ARRAY (anon) type_id=1 index_type_id=1 nr_elems=2 size != 0\n");
	EXPECT(VB(STRS, INT32, T_ARRAY(0, 1, 2)), EINVAL,
	       L_INT "[2] ARRAY (anon) type_id=0 index_type_id=1 nr_elems=2 Invalid elem\n");
	EXPECT(VB(STRS, INT32, T_ARRAY(1, 0x100000, 2)), EINVAL,
	       L_INT "[2] ARRAY (anon) type_id=1 index_type_id=1048576 nr_elems=2 Invalid index\n");
}

static void test_struct(void **state)
{
	EXPECT(VB(STRS, INT32, T_STRUCT(N_1A, 0, 4)), EINVAL, L_INT "[2] STRUCT 1a size=4 vlen=0 Invalid name\n");
	EXPECT(VB(STRS, INT32, T_STRUCT(N_A, 1, 4)), EINVAL, L_INT "[2] STRUCT a meta_left:0 meta_needed:12\n");
	EXPECT(VB(STRS, INT32, T_STRUCT(N_A, 1, 4), M(100, 1, 0)), EINVAL,
	       L_INT "[2] STRUCT a size=4 vlen=1\n\t(invalid-name-offset) type_id=1 bits_offset=0 "
		     "Invalid member name_offset:100\n");
	EXPECT(VB(STRS, INT32, T_STRUCT(N_A, 1, 4), M(N_1A, 1, 0)), EINVAL,
	       L_INT "[2] STRUCT a size=4 vlen=1\n\t1a type_id=1 bits_offset=0 Invalid name\n");
	EXPECT(VB(STRS, INT32, T_STRUCT(N_A, 1, 4), M(N_B, 0, 0)), EINVAL,
	       L_INT "[2] STRUCT a size=4 vlen=1\n\tb type_id=0 bits_offset=0 Invalid type_id\n");
	EXPECT(VB(STRS, INT32, T_UNION(N_A, 1, 4), M(N_B, 1, 8)), EINVAL,
	       L_INT "[2] UNION a size=4 vlen=1\n\tb type_id=1 bits_offset=8 Invalid member bits_offset\n");
	EXPECT(VB(STRS, INT32, T_STRUCT(N_A, 2, 8), M(N_B, 1, 32), M(N_E, 1, 0)), EINVAL,
	       L_INT "[2] STRUCT a size=8 vlen=2\n\tb type_id=1 bits_offset=32\n"
		     "\te type_id=1 bits_offset=0 Invalid member bits_offset\n");
	EXPECT(VB(STRS, INT32, T_STRUCT(N_A, 1, 4), M(N_B, 1, 33)), EINVAL,
	       L_INT "[2] STRUCT a size=4 vlen=1\n\tb type_id=1 bits_offset=33 "
		     "Member bits_offset exceeds its struct size\n");
	/* kind_flag: bitfield size in the top byte */
	EXPECT(VB(STRS, INT32, T_STRUCT_K(N_A, 2, 4), M(N_B, 1, 3u << 24), M(N_E, 1, (5u << 24) | 3)), 0,
	       L_INT "[2] STRUCT a size=4 vlen=2\n\tb type_id=1 bitfield_size=3 bits_offset=0\n"
		     "\te type_id=1 bitfield_size=5 bits_offset=3\n");
}

static void test_enum(void **state)
{
	EXPECT(VB(STRS, T_ENUM(N_E, 0, 3)), EINVAL, "[1] ENUM e size=3 vlen=0 Unexpected size\n");
	EXPECT(VB(STRS, T_ENUM(N_E, 0, 16)), EINVAL, "[1] ENUM e size=16 vlen=0 Unexpected size\n");
	EXPECT(VB(STRS, T_ENUM(N_1A, 0, 4)), EINVAL, "[1] ENUM 1a size=4 vlen=0 Invalid name\n");
	EXPECT(VB(STRS, T_ENUM(N_E, 2, 4), E(N_A, 0)), EINVAL, "[1] ENUM e meta_left:8 meta_needed:16\n");
	EXPECT(VB(STRS, T_ENUM(N_E, 1, 4), E(200, 0)), EINVAL, "[1] ENUM e size=4 vlen=1\n\tInvalid name_offset:200");
	EXPECT(VB(STRS, T_ENUM(N_E, 1, 4), E(0, 0)), EINVAL,
	       "[1] ENUM e size=4 vlen=1\n[1] ENUM e size=4 vlen=1 Invalid name\n");
	/* signedness from kind_flag */
	EXPECT(VB(STRS, T_ENUM(N_E, 1, 4), E(N_A, -1), N_F, INFO(6, 1, 1), 4, E(N_B, -1)), 0,
	       "[1] ENUM e size=4 vlen=1\n\ta val=4294967295\n[2] ENUM f size=4 vlen=1\n\tb val=-1\n");
	EXPECT(VB(STRS, N_E, INFO(19, 0, 1), 8, N_A, 1, 2, N_F, INFO(19, 1, 1), 8, N_B, -1u, -1u), 0,
	       "[1] ENUM64 e size=8 vlen=1\n\ta val=8589934593\n[2] ENUM64 f size=8 vlen=1\n\tb val=-1\n");
}

static void test_fwd_func(void **state)
{
	EXPECT(VB(STRS, N_A, INFO(7, 0, 1), 0), EINVAL, "[1] FWD a struct vlen != 0\n");
	EXPECT(VB(STRS, N_A, INFO(7, 1, 0), 1), EINVAL, "[1] FWD a union type != 0\n");
	EXPECT(VB(STRS, T_FWD(0, 0)), EINVAL, "[1] FWD (anon) struct Invalid name\n");
	EXPECT(VB(STRS, T_FUNC(N_1A, 0, 0)), EINVAL, "[1] FUNC 1a type_id=0 Invalid name\n");
	EXPECT(VB(STRS, T_FUNC(N_F, 0, 2)), EINVAL, "[1] FUNC f type_id=0 Invalid func linkage\n");
	EXPECT(VB(STRS, N_F, INFO(12, 1, 0), 0), EINVAL, "[1] FUNC f type_id=0 Invalid btf_info kind_flag\n");
	/* both: the kernel's order, linkage first */
	EXPECT(VB(STRS, N_F, INFO(12, 1, 2), 0), EINVAL, "[1] FUNC f type_id=0 Invalid func linkage\n");
	EXPECT(VB(STRS, N_F, INFO(13, 0, 0), 0), EINVAL, "[1] FUNC_PROTO f return=0 args=(void) Invalid name\n");
	EXPECT(VB(STRS, 0, INFO(13, 1, 0), 0), EINVAL,
	       "[1] FUNC_PROTO (anon) return=0 args=(void) Invalid btf_info kind_flag\n");
	EXPECT(VB(STRS, T_PROTO(0, 1)), EINVAL, "[1] FUNC_PROTO (anon) meta_left:0 meta_needed:8\n");
	/* parameter names are only checked in pass 2 */
	EXPECT(VB(STRS, INT32, T_PROTO(1, 3), P(N_A, 1), P(0, 1), P(0, 0), T_PROTO(0, 1), P(0, 0),
		  T_PROTO(0, 1), P(300, 1)), EINVAL,
	       L_INT "[2] FUNC_PROTO (anon) return=1 args=(1 a, 1 (anon), vararg)\n"
		     "[3] FUNC_PROTO (anon) return=0 args=(vararg)\n"
		     "[4] FUNC_PROTO (anon) return=0 args=(1 (invalid-name-offset))\n"
		     "[4] FUNC_PROTO (anon) return=0 args=(1 (invalid-name-offset)) Invalid arg#1\n");
}

static void test_var_datasec(void **state)
{
	EXPECT(VB(STRS, INT32, N_V, INFO(14, 0, 1), 1, 0), EINVAL, L_INT "[2] VAR v type_id=1 linkage=0 vlen != 0\n");
	EXPECT(VB(STRS, INT32, N_V, INFO(14, 1, 0), 1, 0), EINVAL,
	       L_INT "[2] VAR v type_id=1 linkage=0 Invalid btf_info kind_flag\n");
	EXPECT(VB(STRS, INT32, T_VAR(N_1A, 1, 0)), EINVAL, L_INT "[2] VAR 1a type_id=1 linkage=0 Invalid name\n");
	EXPECT(VB(STRS, INT32, T_VAR(N_V, 0, 0)), EINVAL, L_INT "[2] VAR v type_id=0 linkage=0 Invalid type_id\n");
	EXPECT(VB(STRS, INT32, T_VAR(N_V, 1, 2)), EINVAL,
	       L_INT "[2] VAR v type_id=1 linkage=2 Linkage not supported\n");
	EXPECT(VB(STRS, INT32, N_V, INFO(14, 0, 0), 1), EINVAL, L_INT "[2] VAR v meta_left:0 meta_needed:4\n");

	EXPECT(VB(STRS, T_DATASEC(N_DATA, 0, 0)), EINVAL, "[1] DATASEC .data size=0 vlen=0 size == 0\n");
	EXPECT(VB(STRS, N_DATA, INFO(15, 1, 0), 4), EINVAL,
	       "[1] DATASEC .data size=4 vlen=0 Invalid btf_info kind_flag\n");
	EXPECT(VB(STRS, T_DATASEC(0, 0, 4)), EINVAL, "[1] DATASEC (anon) size=4 vlen=0 Invalid name\n");
	EXPECT(VB("\0a\x7f", T_DATASEC(1, 0, 4)), EINVAL, "[1] DATASEC a\x7f size=4 vlen=0 Invalid name\n");
	EXPECT(VB(STRS, T_DATASEC(N_DATA, 1, 4), VSI(0, 0, 4)), EINVAL,
	       "[1] DATASEC .data size=4 vlen=1\n\t type_id=0 offset=0 size=4 Invalid type_id\n");
	EXPECT(VB(STRS, T_DATASEC(N_DATA, 1, 4), VSI(2, 4, 4)), EINVAL,
	       "[1] DATASEC .data size=4 vlen=1\n\t type_id=2 offset=4 size=4 Invalid offset\n");
	EXPECT(VB(STRS, T_DATASEC(N_DATA, 1, 4), VSI(2, 0, 0)), EINVAL,
	       "[1] DATASEC .data size=4 vlen=1\n\t type_id=2 offset=0 size=0 Invalid size\n");
	EXPECT(VB(STRS, T_DATASEC(N_DATA, 1, 4), VSI(2, 2, 4)), EINVAL,
	       "[1] DATASEC .data size=4 vlen=1\n\t type_id=2 offset=2 size=4 Invalid offset+size\n");
	EXPECT(VB(STRS, T_DATASEC(N_DATA, 2, 4), VSI(2, 0, 4), VSI(2, 2, 4)), EINVAL,
	       "[1] DATASEC .data size=4 vlen=2\n\t type_id=2 offset=0 size=4\n"
	       "\t type_id=2 offset=2 size=4 Invalid offset\n");
	/* offset + size wraps at 32 bits; the sum is then too big */
	EXPECT(VB(STRS, T_DATASEC(N_DATA, 2, -1u), VSI(2, 0xfffffff0u, 0x20), VSI(2, 0x20, -1u)), EINVAL,
	       "[1] DATASEC .data size=4294967295 vlen=2\n\t type_id=2 offset=4294967280 size=32\n"
	       "\t type_id=2 offset=32 size=4294967295\n"
	       "[1] DATASEC .data size=4294967295 vlen=2 Invalid btf_info size\n");
}

static void test_float_tag(void **state)
{
	EXPECT(VB(STRS, N_F, INFO(16, 0, 1), 4), EINVAL, "[1] FLOAT f size=4 vlen != 0\n");
	EXPECT(VB(STRS, N_F, INFO(16, 1, 0), 4), EINVAL, "[1] FLOAT f size=4 Invalid btf_info kind_flag\n");
	EXPECT(VB(STRS, T_FLOAT(N_F, 6)), EINVAL, "[1] FLOAT f size=6 Invalid type_size\n");
	EXPECT(VB(STRS, INT32, T_DECL_TAG(0, 1, -1)), EINVAL,
	       L_INT "[2] DECL_TAG (anon) type=1 component_idx=-1 Invalid value\n");
	EXPECT(VB(STRS, INT32, N_TAG, INFO(17, 0, 1), 1, -1u), EINVAL,
	       L_INT "[2] DECL_TAG tag type=1 component_idx=-1 vlen != 0\n");
	EXPECT(VB(STRS, INT32, T_DECL_TAG(N_TAG, 1, -2)), EINVAL,
	       L_INT "[2] DECL_TAG tag type=1 component_idx=-2 Invalid component_idx\n");
	EXPECT(VB(STRS, INT32, N_TAG, INFO(17, 0, 0), 1), EINVAL,
	       L_INT "[2] DECL_TAG tag meta_left:0 meta_needed:4\n");
}

static void test_names(void **state)
{
	/* Latin-1 letters are identifier characters to the kernel; 0xd7 is not */
	EXPECT(VB("\0\xc0z", T_TYPEDEF(1, 0)), 0, "[1] TYPEDEF \xc0z type_id=0\n");
	EXPECT(VB("\0\xd7z", T_TYPEDEF(1, 0)), EINVAL, "[1] TYPEDEF \xd7z type_id=0 Invalid name\n");
	EXPECT(VB("\0.a.b", T_TYPEDEF(1, 0)), 0, "[1] TYPEDEF .a.b type_id=0\n");
	/* DATASEC names: any printable bytes */
	EXPECT(VB("\0?. x", T_DATASEC(1, 0, 4)), 0, "[1] DATASEC ?. x size=4 vlen=0\n");
}

static void test_name_length(void **state)
{
	char s[1 + 514];
	uint32_t w[] = { T_TYPEDEF(1, 0), W_END };
	struct vblob b;

	for (int len = 511; len <= 513; len++) {
		memset(s, 0, sizeof(s));
		memset(s + 1, 'n', len);
		b = vb_make(w, s, len + 2);
		{
			static char buf[4096];
			struct lbtf_verify_opts o = { .sz = sizeof(o), .log_level = 1, .log_size = sizeof(buf), .log_buf = buf };
			int err = lbtf_verify(b.p, b.len, &o, NULL);
			assert_int_equal(err, len <= 512 ? 0 : -EINVAL);
		}
		free(b.p);
	}
}

/*
 * Names checked where libbtf judges all strings at once (16 bytes a step,
 * libbtf/verify/env.c): each name at every offset within a step, with more
 * strings after it so that it is not in the section's last bytes, through
 * a TYPEDEF (whose name must be an identifier).
 */
static void test_names_in_bulk(void **state)
{
	static const struct { const char *name; int len; bool ok; } cases[] = {
		{ "_9", 2, true }, { ".x", 2, true }, { "9abc", 4, false }, { "", 0, false },
		{ "ab-cd", 5, false }, { "abc ", 4, false }, { "aaaaaaaaaaaaaaa-", 16, false },
		{ "aaaaaaaaaaaaaaaa\x7f", 17, false }, { "\xc0z", 2, true }, { "a\xd7", 2, false },
		{ "a\xff", 2, true }, { "A_z.0", 5, true },
	};
	char s[1100];
	uint32_t w[] = { T_TYPEDEF(1, 0), W_END };
	struct vblob b;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]) + 3; c++) {
		for (int align = 0; align <= 16; align++) {
			/* "\0", a string of align bytes, the name, 40 bytes more */
			size_t n = 1, name_off;
			int len;
			bool ok;

			memset(s, 0, sizeof(s));
			if (align) {
				memset(s + n, 'x', align);
				n += align + 1;
			}
			name_off = n;
			if (c < sizeof(cases) / sizeof(cases[0])) {
				len = cases[c].len;
				memcpy(s + n, cases[c].name, len);
				ok = cases[c].ok;
			} else { /* 511 and 512 bytes are fine, 513 too long */
				len = 511 + (int)(c - sizeof(cases) / sizeof(cases[0]));
				memset(s + n, 'n', len);
				ok = len <= 512;
			}
			n += len + 1;
			memset(s + n, 'p', 40);
			n += 41;
			w[0] = name_off;
			b = vb_make(w, s, n);
			assert_int_equal(lbtf_verify(b.p, b.len, NULL, NULL), ok ? 0 : -EINVAL);
			free(b.p);
		}
	}
	/* a name that starts inside a string: "ab" of "zzab", "9b" of "zz9b" */
	memcpy(s, "\0zzab\0zz9b\0ppppppppppppppppppppppppppppppppppppppp", 51);
	w[0] = 3;
	b = vb_make(w, s, 51);
	assert_int_equal(lbtf_verify(b.p, b.len, NULL, NULL), 0);
	free(b.p);
	w[0] = 8;
	b = vb_make(w, s, 51);
	assert_int_equal(lbtf_verify(b.p, b.len, NULL, NULL), -EINVAL);
	free(b.p);
}

/*
 * The same names where the whole string section is judged at once, 64
 * bytes a step (a section of 64 KiB and more, no longer than the types:
 * libbtf/verify/env.c): the name at every offset of a step and across the
 * next, after a string that is a name or not (a block with or without a
 * bad byte before it), and followed by 64 KiB of names so that it is not
 * in the section's last bytes. The TYPEDEF naming it comes first, then
 * enough TYPEDEFs named "p" to make the types as long as the strings.
 */
static void test_names_scanned(void **state)
{
	static const struct { const char *name; int len; bool ok; } cases[] = {
		{ "_9", 2, true }, { ".x", 2, true }, { "9abc", 4, false }, { "", 0, false },
		{ "ab-cd", 5, false }, { "abc ", 4, false }, { "aaaaaaaaaaaaaaa-", 16, false },
		{ "aaaaaaaaaaaaaaaa\x7f", 17, false }, { "\xc0z", 2, true }, { "a\xd7", 2, false },
		{ "a\xff", 2, true }, { "A_z.0", 5, true }, { "x", 1, true }, { "-", 1, false },
		{ "a\x80" "b", 3, false }, { "0", 1, false },
	};
	enum { NCASES = sizeof(cases) / sizeof(cases[0]), SCAN_LEN = 68 << 10 };
	size_t nt = SCAN_LEN / 12 + 2, nw = nt * 3 + 1;
	uint32_t *w = malloc(nw * sizeof(*w));
	char *s = malloc(SCAN_LEN);
	struct vblob b;

	assert_non_null(w);
	assert_non_null(s);
	for (size_t i = 0; i < nt; i++) {
		uint32_t t[] = { T_TYPEDEF(1, 0) };

		memcpy(w + 3 * i, t, sizeof(t));
	}
	w[nw - 1] = W_END;
	for (size_t c = 0; c < NCASES + 3; c++) {
		for (int before = 0; before < 2; before++) {
			for (int align = 0; align <= 72; align++) {
				/* "\0p\0", a string of align bytes ("x" or "-" first
				 * then "x"), the name, names of 40 bytes to the end */
				size_t n = 3, name_off;
				int len;
				bool ok;

				memset(s, 0, SCAN_LEN);
				s[1] = 'p';
				if (align) {
					memset(s + n, 'x', align);
					s[n] = before ? '-' : 'x';
					n += align + 1;
				}
				name_off = n;
				if (c < NCASES) {
					len = cases[c].len;
					memcpy(s + n, cases[c].name, len);
					ok = cases[c].ok;
				} else { /* 511 and 512 bytes are fine, 513 too long */
					len = 511 + (int)(c - NCASES);
					memset(s + n, 'n', len);
					ok = len <= 512;
				}
				for (n += len + 1; n + 41 <= SCAN_LEN; n += 41)
					memset(s + n, 'p', 40);
				w[0] = name_off;
				b = vb_make(w, s, SCAN_LEN);
				assert_int_equal(lbtf_verify(b.p, b.len, NULL, NULL), ok ? 0 : -EINVAL);
				free(b.p);
			}
		}
	}
	free(s);
	free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),  cmocka_unit_test(test_hdr_len),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_strings), cmocka_unit_test(test_common),
		cmocka_unit_test(test_int),     cmocka_unit_test(test_ref),
		cmocka_unit_test(test_array),   cmocka_unit_test(test_struct),
		cmocka_unit_test(test_enum),    cmocka_unit_test(test_fwd_func),
		cmocka_unit_test(test_var_datasec), cmocka_unit_test(test_float_tag),
		cmocka_unit_test(test_names),   cmocka_unit_test(test_name_length),
		cmocka_unit_test(test_names_in_bulk), cmocka_unit_test(test_names_scanned),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
