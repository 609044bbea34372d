// SPDX-License-Identifier: BSD-2-Clause
/*
 * Creates and fills the maps the map-dump tests print, pinned under a
 * directory of a bpffs the test mounted:
 *   map_fixture OBJ PINDIR TAG
 *   map_fixture --big N OBJ PINDIR     (benchmark maps of N entries)
 * OBJ is maps.bpf.o (BTF-typed maps and global data); the fixture adds maps
 * without BTF (bpftool's hex layouts), maps typed by BTF it builds itself
 * (FLOAT and TYPE_TAG members) and pairs of maps sharing the name
 * mdd<TAG> / mdb<TAG> for `name` handles. Exits 0 when everything is pinned.
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "maps.h"

static const char *pindir;

#define FAIL(...) do { fprintf(stderr, "map_fixture: " __VA_ARGS__); fputc('\n', stderr); exit(1); } while (0)

static void pin_fd(int fd, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", pindir, name);
	if (bpf_obj_pin(fd, path))
		FAIL("pin %s: %s", path, strerror(errno));
}

static void update(int fd, const void *key, const void *value)
{
	if (bpf_map_update_elem(fd, key, value, BPF_ANY))
		FAIL("update map fd %d: %s", fd, strerror(errno));
}

static void fill_val(struct val *v, int seed)
{
	memset(v, 0, sizeof(*v));
	v->i8 = -100 - seed;
	v->u8 = 200 + seed;
	v->i16 = -30000;
	v->u16 = 60000;
	v->i32 = -2000000000;
	v->u32 = 4000000000u;
	v->i64 = -9000000000000000000LL;
	v->u64 = 18000000000000000000ULL;
	strcpy(v->name, seed ? "world" : "hello");
	memcpy(v->raw, "\x01\x02\x03\xff", 4);
	memcpy(v->nostr, "abc", 3);
	v->bf1 = -3;
	v->bf2 = 13;
	v->bf3 = 0xabc;
	v->bf4 = -5;
	v->bf5 = 0x1ffffffffULL;
	v->b = 1;
	v->ch = 'Z';
	v->c = seed ? BLUE : GREEN;
	v->e64 = seed ? B_HUGE : (enum big64)7;
	v->e8 = seed ? T_BIG : (enum tiny)3;
	v->p = (void *)0x1234;
	v->ip = (int *)(unsigned long)0xffff888012345678ULL;
	v->in.s = -2;
	v->in.u8 = 250;
	v->u.ui = 0x41424344;
	v->ax = 11;
	v->ay = -12;
	v->ua = 0x10002;
	v->s128 = -((__int128)5 << 64) - 1;
	v->u128 = ((unsigned __int128)1 << 64) | 5;
	memcpy((char *)v + offsetof(struct val, cv), &(int){ 77 }, sizeof(int)); /* a const member */
	v->port = htobe16(8080);
	v->addr = htobe32(0x0a000001);
	v->arr[0] = 1; v->arr[1] = -1; v->arr[2] = 3;
	v->inarr[1].s = 5;
	v->fp = (int (*)(int))0xdead;
}

static void fill_btf_maps(struct bpf_object *obj)
{
	int ncpu = libbpf_num_possible_cpus();
	struct bpf_map *m;

	bpf_object__for_each_map(m, obj) {
		const char *n = bpf_map__name(m);
		int fd = bpf_map__fd(m);
		char pin[64];

		if (!strcmp(n, "md_hash")) {
			struct val v;
			for (unsigned int k = 0; k < 3; k++) {
				fill_val(&v, k);
				if (k == 2)
					memset(&v, 0, sizeof(v));
				update(fd, &k, &v);
			}
		} else if (!strcmp(n, "md_array")) {
			struct val v;
			unsigned int k = 0;
			fill_val(&v, 1);
			update(fd, &k, &v);
		} else if (!strcmp(n, "md_pc_hash")) {
			struct small vals[ncpu];
			for (unsigned int k = 0; k < 2; k++) {
				struct key2 key = { .a = 0x1234 + k, .b = 7, .c = { k } };
				for (int c = 0; c < ncpu; c++) {
					vals[c].x = c * 100 + k;
					memcpy(vals[c].tag, "c0\0", 4);
					vals[c].tag[1] += c % 10;
				}
				update(fd, &key, vals);
			}
		} else if (!strcmp(n, "md_pc_array")) {
			long long vals[ncpu];
			for (unsigned int k = 0; k < 2; k++) {
				for (int c = 0; c < ncpu; c++)
					vals[c] = -1000LL * (c + 1) - k;
				update(fd, &k, vals);
			}
		} else if (!strcmp(n, "md_lru_pc")) {
			struct { int v, pad; } vals[ncpu]; /* per-CPU stride: 8 bytes */
			for (unsigned int k = 7; k < 9; k++) {
				for (int c = 0; c < ncpu; c++)
					vals[c].v = c ? BLUE : (int)k;
				update(fd, &k, vals);
			}
		} else if (!strcmp(n, "md_lru")) {
			unsigned long long keys[] = { 1, 2, 3 };
			int vals[] = { GREEN, BLUE, 42 };
			for (int i = 0; i < 3; i++)
				update(fd, &keys[i], &vals[i]);
		} else if (!strcmp(n, "md_flow")) {
			struct bpf_flow_keys f4 = {
				.nhoff = 14, .thoff = 34, .addr_proto = 0x0800, .ip_proto = 6,
				.n_proto = htobe16(0x0800), .sport = htobe16(12345), .dport = htobe16(80),
				.ipv4_src = htobe32(0xc0a80001), .ipv4_dst = htobe32(0x7f00007f),
			};
			struct bpf_flow_keys f6 = {
				.nhoff = 14, .thoff = 54, .addr_proto = 0x86dd, .ip_proto = 17,
				.n_proto = htobe16(0x86dd), .sport = htobe16(53), .dport = htobe16(5353),
				.flow_label = htobe32(0xbeef), .is_frag = 1, .is_first_frag = 1,
			};
			f6.ipv6_src[0] = htobe32(0x20010db8);
			f6.ipv6_src[3] = htobe32(1);
			f6.ipv6_dst[0] = htobe32(0xfe800000);
			f6.ipv6_dst[3] = htobe32(0x2);
			unsigned int k4 = 12345u << 16 | 80, k6 = 53u << 16 | 5353;
			update(fd, &k4, &f4);
			update(fd, &k6, &f6);
		} else if (!strcmp(n, "md_float")) {
			struct fval a = { 1.5f, -2.25, -0.1f, 1e300 }, b = { 0, 3.141592653589793, 1e-8f, -0.0 };
			unsigned int k = 0;
			update(fd, &k, &a);
			k = 1;
			update(fd, &k, &b);
		} else if (!strcmp(n, "md_random") || !strcmp(n, "md_random_pc")) {
			/* random values: odd bools, unnamed enum values, non-ASCII
			 * chars, backslashes and quotes in strings, bitfield bits */
			unsigned int vsz = bpf_map__value_size(m), copies = strstr(n, "_pc") ? ncpu : 1;
			unsigned char buf[((vsz + 7) & ~7u) * copies];
			for (unsigned int k = 0; k < 16; k++) {
				for (size_t i = 0; i < sizeof(buf); i++) {
					buf[i] = rand() >> 7;
					/* a few strings: a NUL early in every 4th value */
					if (k % 4 == 0 && i % 8 == 3)
						buf[i] = 0;
				}
				update(fd, &k, buf);
			}
		} else if (!strcmp(n, "md_esc")) {
			struct esc e = { "a\\b'c", "\"x" };
			unsigned int k = 1;
			update(fd, &k, &e);
		}
		/* pin under a file-name-safe version of the map name */
		snprintf(pin, sizeof(pin), "%s", n);
		for (char *c = pin; *c; c++)
			if (*c == '.')
				*c = '_';
		pin_fd(fd, pin);
	}
}

static int create(enum bpf_map_type type, const char *name, unsigned int ks, unsigned int vs,
		  unsigned int max, const struct bpf_map_create_opts *o)
{
	int fd = bpf_map_create(type, name, ks, vs, max, o);

	if (fd < 0)
		FAIL("create map %s: %s", name, strerror(errno));
	return fd;
}

/* n entries: key bytes e, 0x10*e+i... (e alone for arrays), value 0xa0+e+i. */
static void fill_bytes(int fd, unsigned int ks, unsigned int vs, int n, int ncopies)
{
	unsigned char key[64], value[4096];
	struct bpf_map_info info = {};
	__u32 len = sizeof(info);
	bool array;

	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		FAIL("map info: %s", strerror(errno));
	array = info.type == BPF_MAP_TYPE_ARRAY || info.type == BPF_MAP_TYPE_PERCPU_ARRAY;
	for (int e = 0; e < n; e++) {
		for (unsigned int i = 0; i < ks; i++)
			key[i] = !i ? e : array ? 0 : 0x10 * e + (int)i;
		for (unsigned int i = 0; i < ((vs + 7) & ~7u) * ncopies; i++)
			value[i] = 0xa0 + e + i;
		update(fd, key, value);
	}
}

static void hex_maps(const char *tag)
{
	int ncpu = libbpf_num_possible_cpus();
	char name[16];
	int fd;

	fd = create(BPF_MAP_TYPE_HASH, "nb_4_8", 4, 8, 8, NULL);
	fill_bytes(fd, 4, 8, 3, 1);
	pin_fd(fd, "nb_4_8");
	fd = create(BPF_MAP_TYPE_HASH, "nb_12_16", 12, 16, 8, NULL);
	fill_bytes(fd, 12, 16, 2, 1);
	pin_fd(fd, "nb_12_16");
	fd = create(BPF_MAP_TYPE_HASH, "nb_20_40", 20, 40, 8, NULL);
	fill_bytes(fd, 20, 40, 2, 1);
	pin_fd(fd, "nb_20_40");
	fd = create(BPF_MAP_TYPE_ARRAY, "nb_arr_one", 4, 4, 1, NULL);
	pin_fd(fd, "nb_arr_one");
	fd = create(BPF_MAP_TYPE_HASH, "nb_empty", 4, 4, 4, NULL);
	pin_fd(fd, "nb_empty");
	fd = create(BPF_MAP_TYPE_PERCPU_ARRAY, "nb_pc_20", 4, 20, 2, NULL);
	fill_bytes(fd, 4, 20, 2, ncpu);
	pin_fd(fd, "nb_pc_20");
	fd = create(BPF_MAP_TYPE_PERCPU_HASH, "nb_pc_4", 4, 4, 4, NULL);
	fill_bytes(fd, 4, 4, 2, ncpu);
	pin_fd(fd, "nb_pc_4");
	/* kinds bpftool treats specially: no keys (queue), empty slots not
	 * printed (prog array, array of maps), a map id as value */
	fd = create(BPF_MAP_TYPE_QUEUE, "nb_queue", 0, 4, 4, NULL);
	update(fd, NULL, &(int){ 5 });
	pin_fd(fd, "nb_queue");
	fd = create(BPF_MAP_TYPE_PROG_ARRAY, "nb_progs", 4, 4, 4, NULL);
	pin_fd(fd, "nb_progs");
	int inner = create(BPF_MAP_TYPE_ARRAY, "nb_inner", 4, 4, 1, NULL);
	LIBBPF_OPTS(bpf_map_create_opts, o, .inner_map_fd = inner);
	fd = create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "nb_outer", 4, 4, 3, &o);
	update(fd, &(int){ 1 }, &inner);
	pin_fd(fd, "nb_outer");
	/* two maps of one name: a multi-map dump with headers */
	snprintf(name, sizeof(name), "mdd%s", tag);
	for (int i = 0; i < 2; i++) {
		char pin[32];

		fd = create(BPF_MAP_TYPE_HASH, name, 4, 4, 4, NULL);
		fill_bytes(fd, 4, 4, i + 1, 1);
		snprintf(pin, sizeof(pin), "dup_hex_%d", i);
		pin_fd(fd, pin);
	}
}

/* BTF built here: FLOAT and TYPE_TAG members bpftool cannot print. */
static void handmade_btf_maps(const char *tag)
{
	struct btf *btf = btf__new_empty();
	int i32, f32, tg, st, small;
	char name[16];

	if (!btf)
		FAIL("btf__new_empty: %s", strerror(errno));
	i32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	f32 = btf__add_float(btf, "float", 4);
	tg = btf__add_type_tag(btf, "user", i32);
	st = btf__add_struct(btf, "tagged", 12);
	btf__add_field(btf, "a", i32, 0, 0);
	btf__add_field(btf, "t", tg, 32, 0);
	btf__add_field(btf, "f", f32, 64, 0);
	small = btf__add_struct(btf, "pair", 8);
	btf__add_field(btf, "lo", i32, 0, 0);
	btf__add_field(btf, "hi", i32, 32, 0);
	if (small < 0 || btf__load_into_kernel(btf))
		FAIL("loading handmade BTF: %s", strerror(errno));

	LIBBPF_OPTS(bpf_map_create_opts, o, .btf_fd = btf__fd(btf), .btf_key_type_id = i32,
		    .btf_value_type_id = st);
	int fd = create(BPF_MAP_TYPE_HASH, "md_tagged", 4, 12, 4, &o);
	struct { int a, t; float f; } v = { -1, 99, 0.5f };
	int k = 3;
	update(fd, &k, &v);
	pin_fd(fd, "md_tagged");

	/*
	 * An untyped and a typed map of one name: plain text is hex for both,
	 * JSON has "formatted" for the typed one. The untyped map comes first:
	 * bpftool 7.1 reuses one bpf_map_info for all maps and this kernel
	 * leaves the BTF ids of a map without BTF unwritten, so in the other
	 * order bpftool would print the untyped map with the other's BTF.
	 */
	snprintf(name, sizeof(name), "mdm%s", tag);
	o.btf_value_type_id = small;
	fd = create(BPF_MAP_TYPE_HASH, name, 4, 8, 4, NULL);
	update(fd, &k, &(struct { int lo, hi; }){ 3, 4 });
	pin_fd(fd, "dup_mixed_0");
	fd = create(BPF_MAP_TYPE_HASH, name, 4, 8, 4, &o);
	update(fd, &k, &(struct { int lo, hi; }){ 1, 2 });
	pin_fd(fd, "dup_mixed_1");

	snprintf(name, sizeof(name), "mdb%s", tag);
	for (int i = 0; i < 2; i++) {
		char pin[32];
		struct { int lo, hi; } p = { i, -i };

		fd = create(BPF_MAP_TYPE_HASH, name, 4, 8, 4, &o);
		update(fd, &i, &p);
		snprintf(pin, sizeof(pin), "dup_btf_%d", i);
		pin_fd(fd, pin);
	}
	btf__free(btf);
}

/* For benchmarks: a hash of n struct val typed by the object's BTF, and a
 * hash of n entries without BTF, pinned as big_btf and big_hex. */
static void big_maps(struct bpf_object *obj, unsigned int n)
{
	struct btf *btf = bpf_object__btf(obj);
	int u32 = btf__find_by_name(btf, "u32"), val = btf__find_by_name_kind(btf, "val", BTF_KIND_STRUCT);
	LIBBPF_OPTS(bpf_map_create_opts, o, .btf_fd = btf__fd(btf), .btf_key_type_id = u32,
		    .btf_value_type_id = val);
	int typed = create(BPF_MAP_TYPE_HASH, "big_btf", 4, sizeof(struct val), n, &o);
	int hex = create(BPF_MAP_TYPE_HASH, "big_hex", 4, sizeof(struct val), n, NULL);
	struct val v;

	if (u32 < 0 || val < 0)
		FAIL("types u32/val not in %s", "the object's BTF");
	for (unsigned int k = 0; k < n; k++) {
		fill_val(&v, k & 1);
		v.i32 = k;
		update(typed, &k, &v);
		update(hex, &k, &v);
	}
	pin_fd(typed, "big_btf");
	pin_fd(hex, "big_hex");
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;

	if (argc == 5 && !strcmp(argv[1], "--big")) {
		pindir = argv[4];
		libbpf_set_print(NULL);
		obj = bpf_object__open_file(argv[3], NULL);
		if (!obj || bpf_object__load(obj))
			FAIL("load %s: %s", argv[3], strerror(errno));
		big_maps(obj, strtoul(argv[2], NULL, 0));
		bpf_object__close(obj);
		return 0;
	}
	if (argc != 4)
		FAIL("usage: map_fixture OBJ PINDIR TAG | --big N OBJ PINDIR");
	pindir = argv[2];
	srand(strtoul(argv[3], NULL, 36)); /* random map contents vary with the tag */
	libbpf_set_print(NULL);
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj)
		FAIL("open %s: %s", argv[1], strerror(errno));
	if (bpf_object__load(obj))
		FAIL("load %s: %s", argv[1], strerror(errno));
	fill_btf_maps(obj);
	hex_maps(argv[3]);
	handmade_btf_maps(argv[3]);
	bpf_object__close(obj); /* the pins keep the maps */
	return 0;
}
