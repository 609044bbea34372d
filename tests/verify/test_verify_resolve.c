// SPDX-License-Identifier: BSD-2-Clause
/* Verifier unit tests: every pass-2 (resolve) message and the order quirks,
 * and the type-tag chain check. */
#include "vcase.h"

#define STRS "\0int\0a\0b\0e\0f\0v\0.data\0T\0tag\0"
enum { N_INT = 1, N_A = 5, N_B = 7, N_E = 9, N_F = 11, N_V = 13, N_DATA = 15, N_T = 21, N_TAG = 23 };
#define INT32 T_INT(N_INT, 1, 0, 32, 4)
#define L_INT "[1] INT int size=4 bits_offset=0 nr_bits=32 encoding=SIGNED\n"

static void test_depth_and_loops(void **state)
{
	uint32_t w[40 * 3 + 8];
	struct vblob b;
	int n = 0;

	/* 32 CONSTs ending in an INT resolve; 33 exceed the depth */
	for (int len = 32; len <= 33; len++) {
		n = 0;
		for (int i = 0; i < len; i++) {
			w[n++] = 0;
			w[n++] = INFO(10, 0, 0);
			w[n++] = i + 2;
		}
		w[n++] = N_INT;
		w[n++] = INFO(1, 0, 0);
		w[n++] = 4;
		w[n++] = 32;
		w[n] = W_END;
		b = vb_make(w, STRS, sizeof(STRS));
		{
			static char buf[1 << 14];
			struct lbtf_verify_opts o = { .sz = sizeof(o), .log_level = 1, .log_size = sizeof(buf), .log_buf = buf };
			int err = lbtf_verify(b.p, b.len, &o, NULL);
			assert_int_equal(err, len == 32 ? 0 : -E2BIG);
			if (len == 33)
				assert_non_null(strstr(buf, "[1] CONST (anon) type_id=2 Exceeded max resolving depth:32\n"));
		}
		free(b.p);
	}
	EXPECT(VB(STRS, INT32, T_STRUCT(N_A, 1, 4), M(N_B, 2, 0)), EEXIST,
	       L_INT "[2] STRUCT a size=4 vlen=1\n\tb type_id=2 bits_offset=0\n"
		     "[2] STRUCT a size=4 vlen=1 Loop detected\n");
	EXPECT(VB(STRS, T_PTR(2), T_CONST(1)), EEXIST,
	       "[1] PTR (anon) type_id=2\n[2] CONST (anon) type_id=1\n[1] PTR (anon) type_id=2 Loop detected\n");
}

static void test_modifier_ptr(void **state)
{
	/* a modifier of a VAR, past the end, or of a FUNC not yet resolved */
	EXPECT(VB(STRS, INT32, T_VAR(N_V, 1, 0), T_CONST(2)), EINVAL,
	       L_INT "[2] VAR v type_id=1 linkage=0\n[3] CONST (anon) type_id=2\n"
		     "[3] CONST (anon) type_id=2 Invalid type_id\n");
	EXPECT(VB(STRS, INT32, T_TYPEDEF(N_T, 5)), EINVAL,
	       L_INT "[2] TYPEDEF T type_id=5\n[2] TYPEDEF T type_id=5 Invalid type_id\n");
	/* PTR -> FUNC: accepted only when the FUNC is resolved first */
	EXPECT(VB(STRS, T_PTR(2), T_FUNC(N_F, 3, 0), T_PROTO(0, 0)), EINVAL,
	       "[1] PTR (anon) type_id=2\n[2] FUNC f type_id=3\n[3] FUNC_PROTO (anon) return=0 args=(void)\n"
	       "[1] PTR (anon) type_id=2 Invalid type_id\n");
	EXPECT(VB(STRS, T_PROTO(0, 0), T_FUNC(N_F, 1, 0), T_PTR(2)), 0,
	       "[1] FUNC_PROTO (anon) return=0 args=(void)\n[2] FUNC f type_id=1\n[3] PTR (anon) type_id=2\n");
	/* the error lands on the current vertex: PTR -> CONST -> FUNC */
	EXPECT(VB(STRS, T_PTR(2), T_CONST(3), T_FUNC(N_F, 4, 0), T_PROTO(0, 0)), EINVAL,
	       "[1] PTR (anon) type_id=2\n[2] CONST (anon) type_id=3\n[3] FUNC f type_id=4\n"
	       "[4] FUNC_PROTO (anon) return=0 args=(void)\n[2] CONST (anon) type_id=3 Invalid type_id\n");
	/* TYPEDEF -> FUNC as a root is accepted */
	EXPECT(VB(STRS, T_TYPEDEF(N_T, 2), T_FUNC(N_F, 3, 0), T_PROTO(0, 0)), 0,
	       "[1] TYPEDEF T type_id=2\n[2] FUNC f type_id=3\n[3] FUNC_PROTO (anon) return=0 args=(void)\n");
	/* VAR needs a sized type */
	EXPECT(VB(STRS, T_FWD(N_A, 0), T_VAR(N_V, 1, 0)), EINVAL,
	       "[1] FWD a struct\n[2] VAR v type_id=1 linkage=0\n[2] VAR v type_id=1 linkage=0 Invalid type_id\n");
}

static void test_array(void **state)
{
	EXPECT(VB(STRS, INT32, T_ARRAY(1, 3, 2), T_FWD(N_A, 0)), EINVAL,
	       L_INT "[2] ARRAY (anon) type_id=1 index_type_id=3 nr_elems=2\n[3] FWD a struct\n"
		     "[2] ARRAY (anon) type_id=1 index_type_id=3 nr_elems=2 Invalid index\n");
	EXPECT(VB(STRS, INT32, T_ARRAY(1, 3, 2), T_INT(N_INT, 0, 0, 24, 4)), EINVAL,
	       L_INT "[2] ARRAY (anon) type_id=1 index_type_id=3 nr_elems=2\n"
		     "[3] INT int size=4 bits_offset=0 nr_bits=24 encoding=(none)\n"
		     "[2] ARRAY (anon) type_id=1 index_type_id=3 nr_elems=2 Invalid index\n");
	EXPECT(VB(STRS, INT32, T_ARRAY(3, 1, 2), T_FWD(N_A, 0)), EINVAL,
	       L_INT "[2] ARRAY (anon) type_id=3 index_type_id=1 nr_elems=2\n[3] FWD a struct\n"
		     "[2] ARRAY (anon) type_id=3 index_type_id=1 nr_elems=2 Invalid elem\n");
	EXPECT(VB(STRS, INT32, T_ARRAY(3, 1, 2), T_INT(N_INT, 0, 0, 3, 1)), EINVAL,
	       L_INT "[2] ARRAY (anon) type_id=3 index_type_id=1 nr_elems=2\n"
		     "[3] INT int size=1 bits_offset=0 nr_bits=3 encoding=(none)\n"
		     "[2] ARRAY (anon) type_id=3 index_type_id=1 nr_elems=2 Invalid array of int\n");
	EXPECT(VB(STRS, INT32, T_ARRAY(1, 1, 0x40000000)), EINVAL,
	       L_INT "[2] ARRAY (anon) type_id=1 index_type_id=1 nr_elems=1073741824\n"
		     "[2] ARRAY (anon) type_id=1 index_type_id=1 nr_elems=1073741824 Array size overflows U32_MAX\n");
}

static void test_members(void **state)
{
	EXPECT(VB(STRS, T_FWD(N_A, 0), T_STRUCT(N_B, 1, 4), M(N_E, 1, 0)), EINVAL,
	       "[1] FWD a struct\n[2] STRUCT b size=4 vlen=1\n\te type_id=1 bits_offset=0\n"
	       "[2] STRUCT b size=4 vlen=1\n\te type_id=1 bits_offset=0 Invalid member\n");
	EXPECT(VB(STRS, T_INT(N_INT, 0, 0, 128, 16), T_STRUCT(N_B, 1, 32), M(N_E, 1, 4)), EINVAL,
	       "[1] INT int size=16 bits_offset=0 nr_bits=128 encoding=(none)\n[2] STRUCT b size=32 vlen=1\n"
	       "\te type_id=1 bits_offset=4\n[2] STRUCT b size=32 vlen=1\n"
	       "\te type_id=1 bits_offset=4 nr_copy_bits exceeds 128\n");
	EXPECT(VB(STRS, INT32, T_STRUCT(N_B, 1, 2), M(N_E, 1, 0)), EINVAL,
	       L_INT "[2] STRUCT b size=2 vlen=1\n\te type_id=1 bits_offset=0\n"
		     "[2] STRUCT b size=2 vlen=1\n\te type_id=1 bits_offset=0 Member exceeds struct_size\n");
	/* a member through a TYPEDEF is shown with the resolved id */
	EXPECT(VB(STRS, INT32, T_TYPEDEF(N_T, 1), T_STRUCT(N_B, 1, 2), M(N_E, 2, 0)), EINVAL,
	       L_INT "[2] TYPEDEF T type_id=1\n[3] STRUCT b size=2 vlen=1\n\te type_id=2 bits_offset=0\n"
		     "[3] STRUCT b size=2 vlen=1\n\te type_id=1 bits_offset=0 Member exceeds struct_size\n");
	EXPECT(VB(STRS, T_PTR(0), T_STRUCT(N_B, 1, 16), M(N_E, 1, 4)), EINVAL,
	       "[1] PTR (anon) type_id=0\n[2] STRUCT b size=16 vlen=1\n\te type_id=1 bits_offset=4\n"
	       "[2] STRUCT b size=16 vlen=1\n\te type_id=1 bits_offset=4 Member is not byte aligned\n");
	EXPECT(VB(STRS, T_FLOAT(N_F, 4), T_STRUCT(N_B, 1, 16), M(N_E, 1, 16)), EINVAL,
	       "[1] FLOAT f size=4\n[2] STRUCT b size=16 vlen=1\n\te type_id=1 bits_offset=16\n"
	       "[2] STRUCT b size=16 vlen=1\n\te type_id=1 bits_offset=16 Member is not properly aligned\n");
	/* a member through a TYPEDEF of void has no size */
	EXPECT(VB(STRS, T_TYPEDEF(N_T, 0), T_STRUCT(N_B, 1, 4), M(N_E, 1, 0)), EINVAL,
	       "[1] TYPEDEF T type_id=0\n[2] STRUCT b size=4 vlen=1\n\te type_id=1 bits_offset=0\n"
	       "[2] STRUCT b size=4 vlen=1\n\te type_id=1 bits_offset=0 Invalid member\n");
	/* an INT with a bit offset, placed at the last bit a huge struct allows */
	EXPECT(VB(STRS, T_INT(N_INT, 0, 1, 7, 1), T_STRUCT(N_B, 1, 0x20000000), M(N_E, 1, 0xffffffffu)), EINVAL,
	       "[1] INT int size=1 bits_offset=1 nr_bits=7 encoding=(none)\n[2] STRUCT b size=536870912 vlen=1\n"
	       "\te type_id=1 bits_offset=4294967295\n[2] STRUCT b size=536870912 vlen=1\n"
	       "\te type_id=1 bits_offset=4294967295 bits_offset exceeds U32_MAX\n");
	/* kind_flag members */
	EXPECT(VB(STRS, T_INT(N_INT, 0, 0, 24, 4), T_STRUCT_K(N_B, 1, 4), M(N_E, 1, 0)), EINVAL,
	       "[1] INT int size=4 bits_offset=0 nr_bits=24 encoding=(none)\n[2] STRUCT b size=4 vlen=1\n"
	       "\te type_id=1 bitfield_size=0 bits_offset=0\n[2] STRUCT b size=4 vlen=1\n"
	       "\te type_id=1 bitfield_size=0 bits_offset=0 Invalid member base type\n");
	EXPECT(VB(STRS, INT32, T_STRUCT_K(N_B, 1, 8), M(N_E, 1, 3)), EINVAL,
	       L_INT "[2] STRUCT b size=8 vlen=1\n\te type_id=1 bitfield_size=0 bits_offset=3\n"
		     "[2] STRUCT b size=8 vlen=1\n\te type_id=1 bitfield_size=0 bits_offset=3 Invalid member offset\n");
	EXPECT(VB(STRS, INT32, T_STRUCT_K(N_B, 1, 8), M(N_E, 1, 33u << 24)), EINVAL,
	       L_INT "[2] STRUCT b size=8 vlen=1\n\te type_id=1 bitfield_size=33 bits_offset=0\n"
		     "[2] STRUCT b size=8 vlen=1\n\te type_id=1 bitfield_size=33 bits_offset=0 "
		     "Invalid member bitfield_size\n");
	EXPECT(VB(STRS, T_PTR(0), T_STRUCT_K(N_B, 1, 8), M(N_E, 1, 1u << 24)), EINVAL,
	       "[1] PTR (anon) type_id=0\n[2] STRUCT b size=8 vlen=1\n\te type_id=1 bitfield_size=1 bits_offset=0\n"
	       "[2] STRUCT b size=8 vlen=1\n\te type_id=1 bitfield_size=1 bits_offset=0 "
	       "Invalid member bitfield_size\n");
	/* an 8-byte ENUM64 counts as 32 bits in a kind_flag struct */
	EXPECT(VB(STRS, N_E, INFO(19, 0, 0), 8, T_STRUCT_K(N_B, 1, 4), M(N_A, 1, 0)), 0,
	       "[1] ENUM64 e size=8 vlen=0\n[2] STRUCT b size=4 vlen=1\n\ta type_id=1 bitfield_size=0 bits_offset=0\n");
}

static void test_func_datasec_tag(void **state)
{
	EXPECT(VB(STRS, INT32, T_FUNC(N_F, 1, 0)), EINVAL,
	       L_INT "[2] FUNC f type_id=1\n[2] FUNC f type_id=1 Invalid type_id\n");
	EXPECT(VB(STRS, INT32, T_PROTO(0, 1), P(0, 1), T_FUNC(N_F, 2, 0)), EINVAL,
	       L_INT "[2] FUNC_PROTO (anon) return=0 args=(1 (anon))\n[3] FUNC f type_id=2\n"
		     "[3] FUNC f type_id=2 Invalid arg#1\n");
	/* a good parameter type is remembered (resolve.c's arg_ok): that of
	 * its neighbour, a FWD, must still be refused */
	EXPECT(VB(STRS, INT32, T_FWD(N_A, 0), T_PROTO(0, 1), P(N_A, 1), T_PROTO(0, 1), P(N_B, 2)), EINVAL,
	       L_INT "[2] FWD a struct\n[3] FUNC_PROTO (anon) return=0 args=(1 a)\n"
		     "[4] FUNC_PROTO (anon) return=0 args=(2 b)\n"
		     "[4] FUNC_PROTO (anon) return=0 args=(2 b) Invalid arg#1\n");
	EXPECT(VB(STRS, INT32, T_FWD(N_A, 0), T_PROTO(1, 0), T_PROTO(2, 0)), EINVAL,
	       L_INT "[2] FWD a struct\n[3] FUNC_PROTO (anon) return=1 args=(void)\n"
		     "[4] FUNC_PROTO (anon) return=2 args=(void)\n"
		     "[4] FUNC_PROTO (anon) return=2 args=(void) Invalid return type\n");
	EXPECT(VB(STRS, T_FWD(N_A, 0), T_PROTO(1, 0)), EINVAL,
	       "[1] FWD a struct\n[2] FUNC_PROTO (anon) return=1 args=(void)\n"
	       "[2] FUNC_PROTO (anon) return=1 args=(void) Invalid return type\n");
	EXPECT(VB(STRS, INT32, T_PROTO(0, 2), P(0, 0), P(0, 1)), EINVAL,
	       L_INT "[2] FUNC_PROTO (anon) return=0 args=(0 (anon), 1 (anon))\n"
		     "[2] FUNC_PROTO (anon) return=0 args=(0 (anon), 1 (anon)) Invalid arg#1\n");
	EXPECT(VB(STRS, INT32, T_PROTO(0, 1), P(N_A, 0)), EINVAL,
	       L_INT "[2] FUNC_PROTO (anon) return=0 args=(vararg)\n"
		     "[2] FUNC_PROTO (anon) return=0 args=(vararg) Invalid arg#1\n");
	EXPECT(VB(STRS, INT32, T_DATASEC(N_DATA, 1, 4), VSI(1, 0, 4)), EINVAL,
	       L_INT "[2] DATASEC .data size=4 vlen=1\n\t type_id=1 offset=0 size=4\n"
		     "[2] DATASEC .data size=4 vlen=1\n\t type_id=1 offset=0 size=4 Not a VAR kind member\n");
	/* the size check runs for a VAR resolved before the DATASEC only */
	EXPECT(VB(STRS, INT32, T_VAR(N_V, 1, 0), T_DATASEC(N_DATA, 1, 4), VSI(2, 0, 1)), EINVAL,
	       L_INT "[2] VAR v type_id=1 linkage=0\n[3] DATASEC .data size=4 vlen=1\n\t type_id=2 offset=0 size=1\n"
		     "[3] DATASEC .data size=4 vlen=1\n\t type_id=2 offset=0 size=1 Invalid size\n");
	EXPECT(VB(STRS, INT32, T_DATASEC(N_DATA, 1, 4), VSI(3, 0, 1), T_VAR(N_V, 1, 0)), 0,
	       L_INT "[2] DATASEC .data size=4 vlen=1\n\t type_id=3 offset=0 size=1\n[3] VAR v type_id=1 linkage=0\n");
	EXPECT(VB(STRS, INT32, T_DECL_TAG(N_TAG, 1, -1)), EINVAL,
	       L_INT "[2] DECL_TAG tag type=1 component_idx=-1\n[2] DECL_TAG tag type=1 component_idx=-1 Invalid type_id\n");
	EXPECT(VB(STRS, INT32, T_STRUCT(N_A, 1, 4), M(N_B, 1, 0), T_DECL_TAG(N_TAG, 2, 1)), EINVAL,
	       L_INT "[2] STRUCT a size=4 vlen=1\n\tb type_id=1 bits_offset=0\n[3] DECL_TAG tag type=2 component_idx=1\n"
		     "[3] DECL_TAG tag type=2 component_idx=1 Invalid component_idx\n");
	EXPECT(VB(STRS, INT32, T_VAR(N_V, 1, 0), T_DECL_TAG(N_TAG, 2, 0)), EINVAL,
	       L_INT "[2] VAR v type_id=1 linkage=0\n[3] DECL_TAG tag type=2 component_idx=0\n"
		     "[3] DECL_TAG tag type=2 component_idx=0 Invalid component_idx\n");
}

static void test_type_tags(void **state)
{
	/* walking a chain from its head, TYPE_TAGs must come first */
	EXPECT(VB(STRS, INT32, T_CONST(1), T_TAG(N_TAG, 2)), 0,
	       L_INT "[2] CONST (anon) type_id=1\n[3] TYPE_TAG tag type_id=2\n");
	EXPECT(VB(STRS, INT32, T_TAG(N_TAG, 1), T_CONST(2)), EINVAL,
	       L_INT "[2] TYPE_TAG tag type_id=1\n[3] CONST (anon) type_id=2\nType tags don't precede modifiers");
	/* a PTR breaks the chain */
	EXPECT(VB(STRS, INT32, T_TAG(N_TAG, 1), T_PTR(2), T_CONST(3)), 0,
	       L_INT "[2] TYPE_TAG tag type_id=1\n[3] PTR (anon) type_id=2\n[4] CONST (anon) type_id=3\n");
}

/* A chain of 40 CONSTs resolved piecewise (three PTRs resolve its tail
 * first, so no DFS gets deeper than 32) passes pass 2; the tag check then
 * walks it whole and stops at 32 steps: ELOOP. */
static void test_chain_limit(void **state)
{
	uint32_t w[3 * 3 + 40 * 3 + 4 + 1];
	int n = 0;
	struct vblob b;
	static char buf[1 << 14];
	struct lbtf_verify_opts o = { .sz = sizeof(o), .log_level = 1, .log_size = sizeof(buf), .log_buf = buf };

	for (int k = 0; k < 3; k++) {
		w[n++] = 0;
		w[n++] = INFO(2, 0, 0);
		w[n++] = 33 - 10 * k;
	}
	for (int k = 1; k <= 40; k++) {
		w[n++] = 0;
		w[n++] = INFO(10, 0, 0);
		w[n++] = k < 40 ? 3 + k + 1 : 44;
	}
	w[n++] = N_INT;
	w[n++] = INFO(1, 0, 0);
	w[n++] = 4;
	w[n++] = 32;
	w[n] = W_END;
	b = vb_make(w, STRS, sizeof(STRS));
	assert_int_equal(lbtf_verify(b.p, b.len, &o, NULL), -ELOOP);
	{
		const char *want = "[44] INT int size=4 bits_offset=0 nr_bits=32 encoding=(none)\n"
				   "Max chain length or cycle detected";
		assert_true(strlen(buf) > strlen(want));
		assert_string_equal(buf + strlen(buf) - strlen(want), want);
	}
	free(b.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_depth_and_loops), cmocka_unit_test(test_modifier_ptr),
		cmocka_unit_test(test_array),           cmocka_unit_test(test_members),
		cmocka_unit_test(test_func_datasec_tag), cmocka_unit_test(test_type_tags),
		cmocka_unit_test(test_chain_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
