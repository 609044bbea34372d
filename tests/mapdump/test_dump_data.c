// SPDX-License-Identifier: BSD-2-Clause
/*
 * Typed data printer on hand-built BTF, no kernel needed: the spelling of
 * every kind in the three styles, bounds checks on short data, hostile BTF
 * (cycles, bad ids), option validation and the map layout helpers.
 * Expected strings follow bpftool 7.1's btf_dumper rules (the live parity
 * test is check_mapdump.sh).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>
#include "libbtf.h"

enum { PLAIN, JSON, VALID, VALID_PLAIN };

static struct lbtf *btf;
static int t_int, t_uchar, t_char, t_chararr, t_s, t_enum, t_i128, t_float, t_be16, t_ptr,
	t_loop, t_bool, t_cchar, t_proto, t_tag, t_e64, t_double, t_badfloat, t_u24, t_nk, t_int3,
	t_anon, t_empty_arr, t_flow;

static void build(void)
{
	struct lbtf_builder *b = lbtf_builder_new(NULL);
	void *data;
	size_t size;
	int u16;

	assert_non_null(b);
	t_int = lbtf_builder_add_int(b, "int", 4, LBTF_INT_SIGNED);
	t_uchar = lbtf_builder_add_int(b, "unsigned char", 1, 0);
	t_char = lbtf_builder_add_int(b, "char", 1, LBTF_INT_SIGNED);
	t_chararr = lbtf_builder_add_array(b, t_int, t_char, 4);
	t_enum = lbtf_builder_add_enum(b, "e", 4, true);
	lbtf_builder_add_enum_value(b, "X", 1);
	lbtf_builder_add_enum_value(b, "Y", -2);
	t_s = lbtf_builder_add_struct(b, "s", 16);
	lbtf_builder_add_field(b, "a", t_int, 0, 0);
	lbtf_builder_add_field(b, "b", t_int, 32, 3);
	lbtf_builder_add_field(b, "c", t_int, 35, 5);
	lbtf_builder_add_field(b, "name", t_chararr, 64, 0);
	lbtf_builder_add_field(b, "e", t_enum, 96, 0);
	t_i128 = lbtf_builder_add_int(b, "__int128", 16, LBTF_INT_SIGNED);
	t_float = lbtf_builder_add_float(b, "float", 4);
	u16 = lbtf_builder_add_int(b, "unsigned short", 2, 0);
	t_be16 = lbtf_builder_add_typedef(b, "__be16", u16);
	t_ptr = lbtf_builder_add_ptr(b, 0);
	t_loop = lbtf_builder_add_struct(b, "loop", 4);
	lbtf_builder_add_field(b, "self", t_loop, 0, 0);
	t_bool = lbtf_builder_add_int(b, "_Bool", 1, LBTF_INT_BOOL);
	t_cchar = lbtf_builder_add_int(b, "cc", 1, LBTF_INT_CHAR);
	t_proto = lbtf_builder_add_func_proto(b, t_int);
	t_tag = lbtf_builder_add_type_tag(b, "user", t_int);
	t_e64 = lbtf_builder_add_enum64(b, "e64", 8, false);
	lbtf_builder_add_enum64_value(b, "BIG", 0xfedcba9876543210ULL);
	t_double = lbtf_builder_add_float(b, "double", 8);
	t_badfloat = lbtf_builder_add_float(b, "odd", 4);
	t_u24 = lbtf_builder_add_int(b, "u24", 4, 0);
	assert_true(t_u24 > 0 && t_badfloat > 0);
	/* u24: 24 value bits of a 4-byte INT (bpftool prints such ints as hex) */
	*(uint32_t *)(lbtf_builder_type_by_id(b, t_u24) + 1) = 24;
	/* a float size the kernel refuses: the printer must still cope */
	lbtf_builder_type_by_id(b, t_badfloat)->size = 6;
	/* old-style bitfield: a 3-bit INT member at bit 3, no kind_flag */
	t_int3 = lbtf_builder_add_int(b, "int3", 1, LBTF_INT_SIGNED);
	*(uint32_t *)(lbtf_builder_type_by_id(b, t_int3) + 1) = LBTF_INT_SIGNED << 24 | 3;
	t_nk = lbtf_builder_add_struct(b, "nk", 1);
	lbtf_builder_add_field(b, "x", t_int3, 3, 0);
	/* anonymous union member */
	int un = lbtf_builder_add_union(b, NULL, 4);
	lbtf_builder_add_field(b, "i", t_int, 0, 0);
	lbtf_builder_add_field(b, "c", t_uchar, 0, 0);
	t_anon = lbtf_builder_add_struct(b, "outer", 8);
	lbtf_builder_add_field(b, NULL, un, 0, 0);
	lbtf_builder_add_field(b, "z", t_int, 32, 0);
	/* zero-size elements, very many: the work budget stops the print */
	int empty = lbtf_builder_add_struct(b, "empty", 0);
	t_empty_arr = lbtf_builder_add_array(b, t_int, empty, 0xffffffffu);
	/* struct bpf_flow_keys, shortened: addresses in an anonymous union */
	int be32 = lbtf_builder_add_typedef(b, "__be32", lbtf_builder_add_int(b, "unsigned int", 4, 0));
	int arr4 = lbtf_builder_add_array(b, t_int, be32, 4);
	int v4 = lbtf_builder_add_struct(b, NULL, 8);
	lbtf_builder_add_field(b, "ipv4_src", be32, 0, 0);
	lbtf_builder_add_field(b, "ipv4_dst", be32, 32, 0);
	int v6 = lbtf_builder_add_struct(b, NULL, 32);
	lbtf_builder_add_field(b, "ipv6_src", arr4, 0, 0);
	lbtf_builder_add_field(b, "ipv6_dst", arr4, 128, 0);
	int addrs = lbtf_builder_add_union(b, NULL, 32);
	lbtf_builder_add_field(b, NULL, v4, 0, 0);
	lbtf_builder_add_field(b, NULL, v6, 0, 0);
	t_flow = lbtf_builder_add_struct(b, "bpf_flow_keys", 36);
	lbtf_builder_add_field(b, "addr_proto", u16, 0, 0);
	lbtf_builder_add_field(b, "sport", t_be16, 16, 0);
	lbtf_builder_add_field(b, NULL, addrs, 32, 0);
	assert_true(t_flow > 0);
	assert_int_equal(lbtf_builder_serialize(b, false, &data, &size), 0);
	btf = lbtf_new(data, size, NULL);
	if (!btf)
		fail_msg("parse: %s", lbtf_errmsg());
	free(data);
	lbtf_builder_free(b);
}

/* Prints one value; returns the output (caller frees) and the call's result. */
static char *show(int style, bool net, int id, const void *data, size_t n, int *ret)
{
	struct lbtf_data_opts o = { .sz = sizeof(o), .net = net };
	struct lbtf_data_printer *p;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	o.json = style == JSON || style == VALID;
	o.valid_json = style == VALID || style == VALID_PLAIN;
	assert_non_null(f);
	p = lbtf_data_printer_new(btf, f, &o);
	assert_non_null(p);
	*ret = lbtf_data_print(p, id, data, n);
	lbtf_data_printer_free(p);
	fclose(f);
	return buf;
}

#define EXPECT(style, net, id, data, n, want_ret, want)                       \
	do {                                                                  \
		int r_;                                                       \
		char *s_ = show(style, net, id, data, n, &r_);                \
		assert_string_equal(s_, want);                                \
		assert_int_equal(r_, want_ret);                               \
		free(s_);                                                     \
	} while (0)

static const unsigned char s_bytes[16] = {
	0xfb, 0xff, 0xff, 0xff,   /* a = -5 */
	0x6d, 0, 0, 0,            /* b = 0b101 (-3), c = 0b01101 (13) */
	'a', 'b', 0, 0,           /* name "ab" */
	0xfe, 0xff, 0xff, 0xff,   /* e = -2 = Y */
};

static void test_struct_styles(void **state)
{
	EXPECT(PLAIN, false, t_s, s_bytes, 16, 0,
	       "{\n    \"a\": -5,\n    \"b\": 0x5,\n    \"c\": 0xd,\n    \"name\": \"ab\",\n"
	       "    \"e\": \"Y\"\n}\n");
	EXPECT(JSON, false, t_s, s_bytes, 16, 0,
	       "{\"a\":-5,\"b\":\"0x5\",\"c\":\"0xd\",\"name\":\"ab\",\"e\":\"Y\"}\n");
	/* valid JSON: bitfields are numbers, signed ones sign-extended */
	EXPECT(VALID, false, t_s, s_bytes, 16, 0,
	       "{\"a\":-5,\"b\":-3,\"c\":13,\"name\":\"ab\",\"e\":\"Y\"}\n");
}

static void test_short_data(void **state)
{
	/* every size below the struct's: an error, and still a closed document */
	for (size_t n = 0; n < 16; n++) {
		int r;
		char *s = show(JSON, false, t_s, s_bytes, n, &r);

		assert_int_equal(r, -EINVAL);
		assert_non_null(strstr(s, "null"));
		assert_int_equal(s[strlen(s) - 2], '}');
		free(s);
	}
	EXPECT(PLAIN, false, t_int, s_bytes, 3, -EINVAL, "(truncated)\n");
	EXPECT(JSON, false, t_i128, s_bytes, 15, -EINVAL, "null\n");
	EXPECT(JSON, false, t_ptr, s_bytes, 7, -EINVAL, "null\n");
	EXPECT(JSON, false, t_float, s_bytes, 3, -EINVAL, "null\n");
	EXPECT(JSON, true, t_be16, s_bytes, 1, -EINVAL, "null\n");
	EXPECT(JSON, false, t_chararr, s_bytes, 0, -EINVAL, "[null]\n");
}

static void test_scalars(void **state)
{
	unsigned char m1[16], z[16] = { 0 };
	const unsigned char be[2] = { 0x12, 0x34 };
	float f = 1.5f;
	double d = -0.1;

	memset(m1, 0xff, sizeof(m1));
	EXPECT(PLAIN, false, t_i128, m1, 16, 0, "0xffffffffffffffffffffffffffffffff\n");
	EXPECT(JSON, false, t_i128, m1, 16, 0, "\"0xffffffffffffffffffffffffffffffff\"\n");
	EXPECT(VALID, false, t_i128, m1, 16, 0, "\"-1\"\n");
	EXPECT(PLAIN, false, t_i128, s_bytes, 16, 0, "0xfffffffe000062610000006dfffffffb\n");
	EXPECT(PLAIN, false, t_float, &f, 4, 0, "1.5\n");
	EXPECT(JSON, false, t_double, &d, 8, 0, "-0.1\n");
	EXPECT(PLAIN, false, t_be16, be, 2, 0, "13330\n");
	EXPECT(PLAIN, true, t_be16, be, 2, 0, "4660\n");
	EXPECT(PLAIN, false, t_ptr, z, 8, 0, "(nil)\n");
	EXPECT(PLAIN, false, t_ptr, s_bytes, 8, 0, "0x6dfffffffb\n");
	EXPECT(JSON, false, t_ptr, s_bytes, 8, 0, "472446402555\n");
	EXPECT(VALID_PLAIN, false, t_ptr, s_bytes, 8, 0, "\"0x6dfffffffb\"\n");
	EXPECT(PLAIN, false, t_bool, "\x02", 1, 0, "true\n");
	EXPECT(PLAIN, false, t_cchar, "A", 1, 0, "\"A\"\n");
	EXPECT(PLAIN, false, t_cchar, "\x01", 1, 0, "0x1\n");
	EXPECT(JSON, false, t_cchar, "\x01", 1, 0, "\"\\u0001\"\n");
	EXPECT(PLAIN, false, t_char, "\xff", 1, 0, "-1\n");
	EXPECT(PLAIN, false, t_uchar, "\xff", 1, 0, "255\n");
	/* a 24-bit INT in 4 bytes: hex in bpftool's styles, a number in valid JSON */
	EXPECT(PLAIN, false, t_u24, "\x01\x02\x03\x04", 4, 0, "0x30201\n");
	EXPECT(VALID, false, t_u24, "\x01\x02\x03\x04", 4, 0, "197121\n");
	/* a float format we do not know prints its bits */
	EXPECT(PLAIN, false, t_badfloat, "\x01\x02\x03\x04\x05\x06", 6, 0, "0x60504030201\n");
}

static void test_enums_and_strings(void **state)
{
	const unsigned char big[8] = { 0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe };
	const unsigned char other[8] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	EXPECT(PLAIN, false, t_enum, "\x07\0\0\0", 4, 0, "7\n");
	EXPECT(PLAIN, false, t_e64, big, 8, 0, "\"BIG\"\n");
	/* bpftool prints unmatched enum64 values signed; valid JSON honours kflag */
	EXPECT(PLAIN, false, t_e64, other, 8, 0, "-1\n");
	EXPECT(VALID, false, t_e64, other, 8, 0, "18446744073709551615\n");
	/* char arrays: a string only with printable bytes up to a NUL */
	EXPECT(PLAIN, false, t_chararr, "abcd", 4, 0, "[97,98,99,100\n]\n");
	EXPECT(PLAIN, false, t_chararr, "a\x01\0\0", 4, 0, "[97,1,0,0\n]\n");
	EXPECT(PLAIN, false, t_chararr, "\0\0\0\0", 4, 0, "\"\"\n");
	EXPECT(VALID, false, t_chararr, "\"\\\0\0", 4, 0, "\"\\\"\\\\\"\n");
}

static void test_hostile(void **state)
{
	int r;
	char *s;

	/* a struct containing itself: refused at a depth limit, no crash */
	s = show(JSON, false, t_loop, s_bytes, 16, &r);
	assert_int_equal(r, -ELOOP);
	free(s);
	EXPECT(PLAIN, false, t_proto, s_bytes, 16, -EINVAL, "(unsupported-kind\n");
	EXPECT(PLAIN, false, t_tag, s_bytes, 4, 0, "-5\n");
	EXPECT(PLAIN, false, 0, s_bytes, 4, 0, "(unknown)\n");
	s = show(PLAIN, false, 100000, s_bytes, 16, &r);
	assert_int_equal(r, -EINVAL);
	free(s);
}

static void test_layouts_and_net(void **state)
{
	unsigned char flow[36] = { 0x00, 0x08, 0x1f, 0x90, 10, 0, 0, 1, 192, 168, 1, 2 };
	int r;
	char *s;

	/* bits 3..5 of 0x28 = 0b101: hex in bpftool's styles, -3 in valid JSON */
	EXPECT(PLAIN, false, t_nk, "\x28", 1, 0, "{\n    \"x\": 0x5\n}\n");
	EXPECT(VALID, false, t_nk, "\x28", 1, 0, "{\"x\":-3}\n");
	/* anonymous members: "" keys like bpftool, lifted into the parent in valid JSON */
	EXPECT(JSON, false, t_anon, "\x01\0\0\0\x02\0\0\0", 8, 0,
	       "{\"\":{\"i\":1,\"c\":1},\"z\":2}\n");
	EXPECT(VALID, false, t_anon, "\x01\0\0\0\x02\0\0\0", 8, 0, "{\"i\":1,\"c\":1,\"z\":2}\n");
	s = show(JSON, false, t_empty_arr, "", 0, &r);
	assert_int_equal(r, -E2BIG);
	free(s);
	/* flow keys with net: IPv4 (addr_proto 0x0800) shows only the IPv4 arm */
	EXPECT(VALID, true, t_flow, flow, 36, 0,
	       "{\"addr_proto\":2048,\"sport\":8080,\"ipv4_src\":\"10.0.0.1\","
	       "\"ipv4_dst\":\"192.168.1.2\"}\n");
	EXPECT(JSON, false, t_flow, flow, 36, 0,
	       "{\"addr_proto\":2048,\"sport\":36895,\"\":{\"\":{\"ipv4_src\":16777226,"
	       "\"ipv4_dst\":33663168},\"\":{\"ipv6_src\":[16777226,33663168,0,0],"
	       "\"ipv6_dst\":[0,0,0,0]}}}\n");
	flow[0] = 0xdd; flow[1] = 0x86; /* IPv6 */
	EXPECT(VALID, true, t_flow, flow, 36, 0,
	       "{\"addr_proto\":34525,\"sport\":8080,\"ipv6_src\":\"a00:1:c0a8:102::\","
	       "\"ipv6_dst\":\"::\"}\n");
	/* short flow keys: the address is refused, not read past the end */
	EXPECT(VALID, true, t_flow, flow, 10, -EINVAL,
	       "{\"addr_proto\":34525,\"sport\":8080,\"ipv6_src\":null}\n");
}

static void test_opts(void **state)
{
	struct { struct lbtf_data_opts o; long extra; } big = { { .sz = sizeof(big) }, 0 };
	struct lbtf_data_opts tiny = { .sz = 1 };
	FILE *f = fopen("/dev/null", "w");
	struct lbtf_data_printer *p;

	assert_null(lbtf_data_printer_new(btf, f, &tiny));
	assert_int_equal(errno, EINVAL);
	p = lbtf_data_printer_new(btf, f, &big.o); /* newer caller, zero tail */
	assert_non_null(p);
	lbtf_data_printer_free(p);
	big.extra = 1;
	assert_null(lbtf_data_printer_new(btf, f, &big.o));
	assert_null(lbtf_data_printer_new(NULL, f, NULL));
	p = lbtf_data_printer_new(btf, f, NULL); /* defaults */
	assert_non_null(p);
	assert_int_equal(lbtf_data_print(p, t_int, NULL, 4), -EINVAL);
	lbtf_data_printer_free(p);
	fclose(f);
}

static char *lookup(const struct lbtf_map_desc *m, const struct lbtf *b, const void *k,
		    const void *v, size_t vlen, bool json, int *ret)
{
	struct lbtf_data_opts o = { .sz = sizeof(o), .json = json };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = lbtf_map_print_lookup(f, m, b, k, v, vlen, &o);
	fclose(f);
	return buf;
}

static void test_map_layouts(void **state)
{
	struct lbtf_map_desc m = { .sz = sizeof(m), .key_size = 4, .value_size = 8 };
	unsigned char k[4] = { 1, 0, 0, 0 }, v[24];
	char *s;
	int r;

	for (int i = 0; i < 24; i++)
		v[i] = i;
	s = lookup(&m, NULL, k, v, 8, false, &r);
	assert_string_equal(s, "key: 01 00 00 00  value: 00 01 02 03 04 05 06 07\n");
	free(s);
	s = lookup(&m, NULL, k, v, 7, false, &r); /* short buffer: refused */
	assert_int_equal(r, -EINVAL);
	free(s);
	m.value_size = 17; /* > 16: names on their own lines */
	s = lookup(&m, NULL, k, v, 17, false, &r);
	assert_string_equal(s, "key:\n01 00 00 00\nvalue:\n00 01 02 03 04 05 06 07  "
			       "08 09 0a 0b 0c 0d 0e 0f\n10\n");
	free(s);
	m.value_size = 4;
	m.nr_cpus = 2; /* per-CPU values at a stride of 8 */
	s = lookup(&m, NULL, k, v, 12, false, &r);
	assert_string_equal(s, "key:\n01 00 00 00\nvalue (CPU 00): 00 01 02 03\n"
			       "value (CPU 01): 08 09 0a 0b\n");
	free(s);
	s = lookup(&m, NULL, k, v, 11, false, &r);
	assert_int_equal(r, -EINVAL);
	free(s);
	s = lookup(&m, NULL, k, NULL, 0, true, &r);
	assert_string_equal(s, "null\n");
	free(s);
	/* typed: key and value through BTF */
	m = (struct lbtf_map_desc){ .sz = sizeof(m), .key_size = 4, .value_size = 16,
				    .btf_id = 1, .btf_key_type_id = t_int, .btf_value_type_id = t_s };
	s = lookup(&m, btf, k, s_bytes, 16, true, &r);
	assert_string_equal(s, "{\"key\":[\"0x01\",\"0x00\",\"0x00\",\"0x00\"],\"value\":[\"0xfb\","
			       "\"0xff\",\"0xff\",\"0xff\",\"0x6d\",\"0x00\",\"0x00\",\"0x00\",\"0x61\","
			       "\"0x62\",\"0x00\",\"0x00\",\"0xfe\",\"0xff\",\"0xff\",\"0xff\"],"
			       "\"formatted\":{\"key\":1,\"value\":{\"a\":-5,\"b\":\"0x5\",\"c\":\"0xd\","
			       "\"name\":\"ab\",\"e\":\"Y\"}}}\n");
	free(s);
}

static void test_map_dump(void **state)
{
	struct lbtf_data_opts o = { .sz = sizeof(o) };
	struct lbtf_map_desc m = { .sz = sizeof(m), .key_size = 4, .value_size = 4, .id = 7,
				   .type_name = "hash", .name = "x" };
	unsigned char k[4] = { 2, 0, 0, 0 }, v[4] = { 9, 9, 9, 9 };
	struct lbtf_map_dump *d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	d = lbtf_map_dump_new(f, 2, false, &o);
	assert_non_null(d);
	for (int map = 0; map < 2; map++) {
		assert_int_equal(lbtf_map_dump_begin(d, &m, NULL), 0);
		for (int e = 0; e < map + 1; e++)
			assert_int_equal(lbtf_map_dump_entry(d, k, v, 4), 0);
		lbtf_map_dump_entry_error(d, k, ENOENT);
		assert_int_equal(lbtf_map_dump_end(d), 0);
	}
	lbtf_map_dump_free(d);
	fclose(f);
	assert_string_equal(buf, "7: hash  name x  flags 0x0\n"
				 "key: 02 00 00 00  value: 09 09 09 09\n"
				 "key: 02 00 00 00  value: <no entry>\n"
				 "Found 1 element\n\n"
				 "7: hash  name x  flags 0x0\n"
				 "key: 02 00 00 00  value: 09 09 09 09\n"
				 "key: 02 00 00 00  value: 09 09 09 09\n"
				 "key: 02 00 00 00  value: <no entry>\n"
				 "Found 2 elements\n");
	free(buf);
	assert_null(lbtf_map_dump_new(stdout, 0, false, &o));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_struct_styles),
		cmocka_unit_test(test_short_data),
		cmocka_unit_test(test_scalars),
		cmocka_unit_test(test_enums_and_strings),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_layouts_and_net),
		cmocka_unit_test(test_opts),
		cmocka_unit_test(test_map_layouts),
		cmocka_unit_test(test_map_dump),
	};
	int r;

	build(); /* the type ids are used before any print */
	r = cmocka_run_group_tests(tests, NULL, NULL);

	lbtf_free(btf);
	return r;
}
