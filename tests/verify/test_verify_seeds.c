// SPDX-License-Identifier: BSD-2-Clause
/*
 * The raw_tests of the 2018 BTF test patch (seeds/009), translated to the
 * released format (header with type_off/type_len/str_off/str_len, names
 * filled in order from the string section), each with the verdict and
 * last log line that today's kernel (6.18) gives. Several verdicts differ
 * from 2018: a named PTR, for one, is now rejected.
 */
#include "vcase.h"

#define NT 0xfffffffeu /* a name, taken in order from the string section */
#define MAXW 128

struct seed_case {
	const char *descr;
	uint32_t w[MAXW];
	const char *strs;
	size_t slen;
	int type_off_delta, str_off_delta, str_len_delta;
	int err;
	const char *last; /* last log line (without its newline) */
};

#define S(s) .strs = s, .slen = sizeof(s)

static const struct seed_case cases[] = {
	{ "struct test #1",
	  { T_INT(0, 1, 0, 32, 4), T_INT(0, 0, 0, 64, 8), T_INT(0, 1, 0, 8, 1), T_ARRAY(1, 1, 8),
	    T_STRUCT(NT, 6, 180), M(NT, 1, 0), M(NT, 2, 32), M(NT, 3, 96), M(NT, 4, 128),
	    M(NT, 6, 384), M(NT, 7, 1408), T_ARRAY(4, 1, 4), T_ENUM(NT, 2, 4), E(NT, 0), E(NT, 1),
	    W_END },
	  S("\0A\0m\0n\0o\0p\0q\0r\0E\0E0\0E1"), 0, 0, 0, 0, "\tE1 val=1" },
	{ "struct test #2",
	  { T_INT(0, 1, 0, 32, 4), T_ARRAY(4, 1, 4), T_STRUCT(NT, 3, 68), M(NT, 1, 0), M(NT, 2, 32),
	    M(NT, 8, 288), T_STRUCT(NT, 2, 8), M(NT, 1, 0), M(NT, 1, 32), T_CONST(1),
	    T_TYPEDEF(NT, 4), T_CONST(6), T_ARRAY(7, 1, 4), W_END },
	  S("\0A\0m\0n\0o\0B\0m\0n\0Struct_B"), 0, 0, 0, 0,
	  "[8] ARRAY (anon) type_id=7 index_type_id=1 nr_elems=4" },
	{ "size check test #1",
	  { T_INT(0, 1, 0, 32, 4), T_STRUCT(NT, 2, 7), M(NT, 1, 0), M(NT, 1, 32), W_END },
	  S("\0A\0m\0n"), 0, 0, 0, EINVAL, "\tn type_id=1 bits_offset=32 Member exceeds struct_size" },
	{ "size check test #2",
	  { T_INT(0, 1, 0, 32, 4), T_ARRAY(1, 1, 2), T_STRUCT(NT, 2, 11), M(NT, 1, 0), M(NT, 2, 32),
	    W_END },
	  S("\0A\0m\0n"), 0, 0, 0, EINVAL, "\tn type_id=2 bits_offset=32 Member exceeds struct_size" },
	{ "size check test #3",
	  { T_INT(0, 1, 0, 32, 4), T_PTR(0), T_STRUCT(NT, 2, 11), M(NT, 1, 0), M(NT, 2, 32), W_END },
	  S("\0A\0m\0n"), 0, 0, 0, EINVAL, "\tn type_id=2 bits_offset=32 Member exceeds struct_size" },
	{ "size check test #4",
	  { T_INT(0, 1, 0, 32, 4), T_ENUM(NT, 2, 4), E(NT, 0), E(NT, 1), T_STRUCT(NT, 2, 7),
	    M(NT, 1, 0), M(NT, 2, 32), W_END },
	  S("\0E\0E0\0E1\0A\0m\0n"), 0, 0, 0, EINVAL,
	  "\tn type_id=2 bits_offset=32 Member exceeds struct_size" },
	{ "void test #1", /* the "typedef" was a named PTR: rejected today */
	  { T_INT(0, 1, 0, 32, 4), T_CONST(0), T_PTR(2), T_REF(2, NT, 3), T_STRUCT(NT, 1, 8),
	    M(NT, 3, 0), W_END },
	  S("\0const_void_ptr\0A\0m"), 0, 0, 0, EINVAL,
	  "[4] PTR const_void_ptr type_id=3 Invalid name" },
	{ "void test #2",
	  { T_INT(0, 1, 0, 32, 4), T_CONST(0), T_STRUCT(NT, 1, 8), M(NT, 2, 0), W_END },
	  S("\0A\0m"), 0, 0, 0, EINVAL, "\tm type_id=2 bits_offset=0 Invalid member" },
	{ "void test #3",
	  { T_INT(0, 1, 0, 32, 4), T_CONST(0), T_PTR(2), T_REF(2, NT, 3), T_ARRAY(3, 1, 4), W_END },
	  S("\0const_void_ptr"), 0, 0, 0, EINVAL, "[4] PTR const_void_ptr type_id=3 Invalid name" },
	{ "void test #4",
	  { T_INT(0, 1, 0, 32, 4), T_CONST(0), T_ARRAY(2, 1, 4), W_END },
	  S("\0A\0m"), 0, 0, 0, EINVAL, "[3] ARRAY (anon) type_id=2 index_type_id=1 nr_elems=4 Invalid elem" },
	{ "loop test #1",
	  { T_INT(0, 1, 0, 32, 4), T_ARRAY(3, 1, 8), T_ARRAY(2, 1, 8), W_END },
	  S(""), 0, 0, 0, EEXIST, "[2] ARRAY (anon) type_id=3 index_type_id=1 nr_elems=8 Loop detected" },
	{ "loop test #2",
	  { T_INT(0, 1, 0, 32, 4), T_TYPEDEF(NT, 4), T_ARRAY(2, 1, 8), T_ARRAY(3, 1, 8), W_END },
	  S("\0int_array\0"), 0, 0, 0, EEXIST, "[2] TYPEDEF int_array type_id=4 Loop detected" },
	{ "loop test #3",
	  { T_INT(0, 1, 0, 32, 4), T_ARRAY(3, 1, 8), T_ARRAY(2, 1, 8), W_END },
	  S(""), 0, 0, 0, EEXIST, "[2] ARRAY (anon) type_id=3 index_type_id=1 nr_elems=8 Loop detected" },
	{ "loop test #4",
	  { T_INT(0, 1, 0, 32, 4), T_ARRAY(3, 1, 8), T_TYPEDEF(NT, 4), T_ARRAY(2, 1, 8), W_END },
	  S("\0int_array\0"), 0, 0, 0, EEXIST, "[2] ARRAY (anon) type_id=3 index_type_id=1 nr_elems=8 Loop detected" },
	{ "loop test #5",
	  { T_INT(0, 1, 0, 32, 4), T_STRUCT(NT, 2, 8), M(NT, 1, 0), M(NT, 3, 32), T_TYPEDEF(NT, 4),
	    T_STRUCT(NT, 2, 8), M(NT, 1, 0), M(NT, 2, 32), W_END },
	  S("\0A\0x\0y\0Struct_B\0B\0x\0y"), 0, 0, 0, EEXIST, "[2] STRUCT A size=8 vlen=2 Loop detected" },
	{ "loop test #6",
	  { T_INT(0, 1, 0, 32, 4), T_ARRAY(3, 1, 4), T_STRUCT(NT, 2, 8), M(NT, 1, 0), M(NT, 2, 32),
	    W_END },
	  S("\0A\0x\0y"), 0, 0, 0, EEXIST, "[2] ARRAY (anon) type_id=3 index_type_id=1 nr_elems=4 Loop detected" },
	{ "loop test #7",
	  { T_INT(0, 1, 0, 32, 4), T_STRUCT(NT, 1, 8), M(NT, 3, 0), T_CONST(4), T_PTR(3), W_END },
	  S("\0A\0m"), 0, 0, 0, EEXIST, "[4] PTR (anon) type_id=3 Loop detected" },
	{ "loop test #8",
	  { T_INT(0, 1, 0, 32, 4), T_STRUCT(NT, 1, 8), M(NT, 4, 0), T_STRUCT(NT, 1, 8), M(NT, 6, 0),
	    T_CONST(5), T_PTR(6), T_CONST(7), T_PTR(4), W_END },
	  S("\0A\0m\0B\0n"), 0, 0, 0, EEXIST, "[5] PTR (anon) type_id=6 Loop detected" },
	{ "type_off == str_off",
	  { T_INT(NT, 1, 0, 32, 4), W_END }, S("\0int"), 16 + 5, 0, 0, EINVAL, "Unsupported section found" },
	{ "Unaligned type_off",
	  { T_INT(NT, 1, 0, 32, 4), W_END }, S("\0int"), 1, 0, 0, EINVAL, "Unsupported section found" },
	{ "str_off beyonds btf size",
	  { T_INT(NT, 1, 0, 32, 4), W_END }, S("\0int"), 0, 6, 0, EINVAL, "Invalid section offset" },
	{ "str_len beyonds btf size",
	  { T_INT(NT, 1, 0, 32, 4), W_END }, S("\0int"), 0, 0, 1, EINVAL, "Total section length too long" },
	{ "String section does not end with null",
	  { T_INT(NT, 1, 0, 32, 4), W_END }, S("\0int"), 0, 0, -1, EINVAL, "Unsupported section found" },
	{ "Empty string section",
	  { T_INT(NT, 1, 0, 32, 4), W_END }, S("\0int"), 0, 0, -5, EINVAL, "Unsupported section found" },
	{ "BTF pretty print test #1",
	  { T_INT(NT, 0, 0, 8, 1), T_INT(NT, 0, 0, 16, 2), T_INT(NT, 0, 0, 32, 4),
	    T_INT(NT, 1, 0, 32, 4), T_INT(NT, 0, 0, 64, 8), T_INT(0, 0, 0, 2, 2),
	    T_INT(0, 0, 0, 28, 4), T_ARRAY(9, 3, 8), T_TYPEDEF(NT, 1), T_TYPEDEF(NT, 2),
	    T_TYPEDEF(NT, 3), T_TYPEDEF(NT, 4), T_TYPEDEF(NT, 5), T_UNION(0, 2, 8), M(NT, 13, 0),
	    M(NT, 8, 0), T_ENUM(0, 4, 4), E(NT, 0), E(NT, 1), E(NT, 2), E(NT, 3),
	    T_STRUCT(NT, 8, 28), M(NT, 11, 0), M(NT, 10, 32), M(NT, 12, 64), M(NT, 6, 96),
	    M(NT, 7, 98), M(NT, 6, 126), M(0, 14, 128), M(NT, 15, 192), W_END },
	  S("\0unsigned char\0unsigned short\0unsigned int\0int\0unsigned long long\0uint8_t\0"
	    "uint16_t\0uint32_t\0int32_t\0uint64_t\0ui64\0ui8a\0ENUM_ZERO\0ENUM_ONE\0ENUM_TWO\0"
	    "ENUM_THREE\0pprint_mapv\0ui32\0ui16\0si32\0unused_bits2a\0bits28\0unused_bits2b\0aenum"),
	  0, 0, 0, 0, "\taenum type_id=15 bits_offset=192" },
};

/* Build the blob as the seed's btf_raw_create() did, on the new header. */
static struct vblob seed_blob(const struct seed_case *c)
{
	uint32_t w[MAXW];
	const char *next = c->strs, *end = c->strs + c->slen;
	struct lbtf_header *h;
	struct vblob b;
	int n;

	for (n = 0; c->w[n] != W_END; n++) {
		w[n] = c->w[n];
		if (w[n] == NT) {
			next = next < end - 1 ? next + 1 : NULL;
			assert_non_null(next);
			w[n] = next - c->strs;
			next += strlen(next);
		}
	}
	w[n] = W_END;
	b = vb_make(w, c->strs, c->slen);
	h = (struct lbtf_header *)b.p;
	h->type_off += c->type_off_delta;
	h->str_off += c->str_off_delta;
	h->str_len += c->str_len_delta;
	return b;
}

static void test_seed_raw_tests(void **state)
{
	static char buf[1 << 16];
	int failed = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct seed_case *c = &cases[i];
		struct vblob b = seed_blob(c);
		struct lbtf_verify_opts o = { .sz = sizeof(o), .log_level = 1, .log_size = sizeof(buf), .log_buf = buf };
		int err = lbtf_verify(b.p, b.len, &o, NULL);
		size_t n = strlen(buf);
		const char *last;

		if (n && buf[n - 1] == '\n')
			buf[--n] = '\0';
		last = strrchr(buf, '\n');
		last = last ? last + 1 : buf;
		if (err != -c->err || strcmp(last, c->last)) {
			print_error("%s: expected %s [%s], got %s [%s]\n", c->descr, lbtf_errno_name(c->err),
				    c->last, lbtf_errno_name(err), last);
			failed++;
		}
		if (getenv("VERIFY_SEEDS_DUMP")) {
			char path[256];
			FILE *f;
			snprintf(path, sizeof(path), "%s/%02zu.btf", getenv("VERIFY_SEEDS_DUMP"), i);
			if ((f = fopen(path, "w"))) {
				fwrite(b.p, 1, b.len, f);
				fclose(f);
			}
		}
		free(b.p);
	}
	assert_int_equal(failed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = { cmocka_unit_test(test_seed_raw_tests) };
	return cmocka_run_group_tests(tests, NULL, NULL);
}
