// SPDX-License-Identifier: BSD-2-Clause
/*
 * bpf_flow.o through BPF_PROG_TEST_RUN on the running kernel: the 16 selftest
 * vectors and ours (bpf/flowctl_vectors.c) with their expected 56-byte keys and
 * return codes, every truncation of every vector, recording (every dissection,
 * one in N, nothing by default), the CONTINUE configuration, and random frames
 * (termination, thoff in bounds).
 */
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "flow_test_util.h"

static struct flow_obj fo;

static int setup(void **state)
{
	return flow_test_load(&fo, 1, FLOW_DEFAULT_CONTINUE_SADDR);
}

static int teardown(void **state)
{
	flow_close(&fo);
	return 0;
}

static void run(int prog_fd, const struct flow_vector *v, const unsigned char *f,
		size_t len, struct flow_run *r)
{
	int rc = flow_test_run(prog_fd, f, len, v->flags, 1, r);

	if (rc)
		fail_msg("%s: test_run failed: %s", v->name, strerror(-rc));
}

static void test_vectors(void **state)
{
	unsigned char f[FLOW_FRAME_MAX];
	struct flow_run r;
	char why[1200];
	size_t i, len, selftests = 0;

	for (i = 0; i < flow_vector_count; i++) {
		const struct flow_vector *v = &flow_vectors[i];

		len = flow_vector_build(v, f, sizeof(f));
		assert_true(len >= v->need);
		run(fo.prog_fd, v, f, len, &r);
		if (!flow_run_matches(v, &r, why, sizeof(why)))
			fail_msg("vector %s: %s", v->name, why);
		selftests += v->selftest;
	}
	assert_int_equal(selftests, 16);
}

/*
 * Cut every vector at every length from 14 (the minimum test_run takes) up to
 * what it needs: any missing byte of a header we read must give DROP (never a
 * wrong OK); from `need` bytes on, the result is the full frame's.
 */
static void test_truncated(void **state)
{
	unsigned char f[FLOW_FRAME_MAX];
	struct flow_run r;
	char why[1200];
	size_t i, cut;

	for (i = 0; i < flow_vector_count; i++) {
		const struct flow_vector *v = &flow_vectors[i];

		flow_vector_build(v, f, sizeof(f));
		for (cut = 14; cut < v->need; cut++) {
			run(fo.prog_fd, v, f, cut, &r);
			if (r.retval != BPF_DROP)
				fail_msg("vector %s cut at %zu: return %u, expected DROP",
					 v->name, cut, r.retval);
			if (r.keys.thoff > cut || r.keys.nhoff > cut)
				fail_msg("vector %s cut at %zu: offsets %u/%u past the end",
					 v->name, cut, r.keys.nhoff, r.keys.thoff);
		}
		run(fo.prog_fd, v, f, v->need, &r);
		if (!flow_run_matches(v, &r, why, sizeof(why)))
			fail_msg("vector %s with exactly %u bytes: %s", v->name, v->need, why);
	}
}

/* record_every 1: every non-CONTINUE dissection lands in last_dissection under sport<<16|dport. */
static void test_record_map(void **state)
{
	unsigned char f[FLOW_FRAME_MAX];
	struct bpf_flow_keys got;
	struct flow_run r;
	size_t i, len;
	__u32 key;

	for (i = 0; i < flow_vector_count; i++) {
		const struct flow_vector *v = &flow_vectors[i];

		len = flow_vector_build(v, f, sizeof(f));
		run(fo.prog_fd, v, f, len, &r);
		key = (__u32)v->keys.sport << 16 | v->keys.dport;
		if (v->ret == BPF_FLOW_DISSECTOR_CONTINUE) {
			/* 99/9090 are used by no other vector: nothing was recorded. */
			key = (__u32)99 << 16 | 9090;
			assert_int_not_equal(bpf_map_lookup_elem(fo.keys_fd, &key, &got), 0);
			continue;
		}
		assert_int_equal(bpf_map_lookup_elem(fo.keys_fd, &key, &got), 0);
		if (memcmp(&got, &r.keys, sizeof(got)))
			fail_msg("vector %s: last_dissection differs from data_out", v->name);
	}
	/* The selftests' 80/8080 on this little-endian host: 0x00501F90. */
	key = 0x00501F90;
	assert_int_equal(bpf_map_lookup_elem(fo.keys_fd, &key, &got), 0);
}

/* Recording off: same keys, nothing recorded.  CONTINUE address 0: never continue. */
static void test_config(void **state)
{
	unsigned char f[FLOW_FRAME_MAX];
	struct flow_obj quiet;
	struct flow_run r;
	char why[1200];
	__u32 next;
	size_t i, len;

	assert_int_equal(flow_test_load(&quiet, 0, 0), 0);
	for (i = 0; i < flow_vector_count; i++) {
		const struct flow_vector *v = &flow_vectors[i];

		len = flow_vector_build(v, f, sizeof(f));
		run(quiet.prog_fd, v, f, len, &r);
		if (v->ret == BPF_FLOW_DISSECTOR_CONTINUE) {
			/* Now dissected by us: the IPIP packet's inner ports. */
			assert_int_equal(r.retval, BPF_OK);
			assert_int_equal(r.keys.is_encap, 1);
			assert_int_equal(r.keys.sport, 99);
			assert_int_equal(r.keys.dport, 9090);
			continue;
		}
		if (!flow_run_matches(v, &r, why, sizeof(why)))
			fail_msg("vector %s without recording: %s", v->name, why);
	}
	assert_int_not_equal(bpf_map_get_next_key(quiet.keys_fd, NULL, &next), 0);
	flow_close(&quiet);
}

/*
 * Random frames built from plausible headers: the program must always finish
 * with OK or DROP and never move the offsets past the frame.
 */
static void test_random_frames(void **state)
{
	static const __u16 types[] = { 0x0800, 0x86DD, 0x8100, 0x88A8, 0x8847, 0x6558 };
	static const __u8 protos[] = { 0, 4, 6, 17, 41, 43, 44, 47, 60, 132, 136 };
	unsigned char f[FLOW_FRAME_MAX];
	struct flow_run r;
	unsigned int seed = 12345;
	size_t n, i, len;
	int rc;

	for (n = 0; n < 3000; n++) {
		len = 14 + rand_r(&seed) % (sizeof(f) - 14);
		for (i = 0; i < len; i++) {
			unsigned int x = rand_r(&seed);

			/* Sprinkle ethertypes and protocol numbers so we go deep. */
			if (x % 3)
				f[i] = x >> 8;
			else if (x & 4)
				f[i] = protos[(x >> 8) % sizeof(protos)];
			else
				f[i] = types[(x >> 8) % 6] >> 8 * (i & 1);
		}
		f[12] = types[n % 6] >> 8;
		f[13] = types[n % 6] & 0xff;
		rc = flow_test_run(fo.prog_fd, f, len, n % 8 & 7, 1, &r);
		assert_int_equal(rc, 0);
		if (r.retval != BPF_OK && r.retval != BPF_DROP &&
		    r.retval != BPF_FLOW_DISSECTOR_CONTINUE)
			fail_msg("frame %zu: return %u", n, r.retval);
		if (r.keys.thoff > len || r.keys.nhoff > r.keys.thoff)
			fail_msg("frame %zu: nhoff %u thoff %u len %zu", n, r.keys.nhoff,
				 r.keys.thoff, len);
	}
}

/*
 * Deep stacks end in bounded time and where the C dissector gives up: it
 * steps over at most 15 headers after the network header
 * (MAX_FLOW_DISSECT_HDRS), each VLAN tag and each IPv6 Hop-by-Hop header
 * counting one; so do we, and DROP a packet that needs more.
 */
static size_t deep_frame(unsigned char *f, int vlan, int n)
{
	size_t off = 0;
	int i;

	memset(f, 0, 512);
	f[12] = vlan ? 0x81 : 0x86;
	f[13] = vlan ? 0x00 : 0xdd;
	off = 14;
	for (i = 0; vlan && i < n; i++, off += 4) {
		f[off + 2] = i + 1 < n ? 0x81 : 0x08;	/* inner type: 8100 ... 0800 */
		f[off + 3] = 0x00;
	}
	if (vlan) {
		f[off] = 0x45;
		f[off + 9] = 6;
		off += 20;
	} else {
		f[off + 6] = 0;			/* IPv6 next header: Hop-by-Hop */
		off += 40;
		for (i = 0; i < n; i++, off += 8)
			f[off] = i + 1 < n ? 0 : 6;
	}
	f[off + 12] = 5 << 4;			/* TCP doff 5 */
	return off + 20;
}

#define MAX_HDRS 15	/* the kernel's MAX_FLOW_DISSECT_HDRS */

static void test_deep_stacks(void **state)
{
	unsigned char f[512];
	struct flow_run r;
	size_t len;
	int n;

	for (n = 1; n <= 40; n++) {
		len = deep_frame(f, 1, n);
		assert_int_equal(flow_test_run(fo.prog_fd, f, len, 0, 1, &r), 0);
		/* n tags, then IPv4/TCP */
		if (r.retval != (n <= MAX_HDRS ? BPF_OK : BPF_DROP))
			fail_msg("%d VLAN tags: return %u", n, r.retval);
		if (r.retval == BPF_OK) {
			assert_int_equal(r.keys.nhoff, 14 + 4 * n);
			assert_int_equal(r.keys.thoff, 14 + 4 * n + 20);
			assert_int_equal(r.keys.dport, 0);
			assert_int_equal(r.keys.ip_proto, 6);
		}
		assert_true(r.keys.thoff <= len);
		len = deep_frame(f, 0, n);
		assert_int_equal(flow_test_run(fo.prog_fd, f, len, 0, 1, &r), 0);
		/* IPv6, n Hop-by-Hop headers, TCP */
		if (r.retval != (n <= MAX_HDRS ? BPF_OK : BPF_DROP))
			fail_msg("IPv6 with %d Hop-by-Hop headers: return %u", n, r.retval);
		if (r.retval == BPF_OK) {
			assert_int_equal(r.keys.thoff, 14 + 40 + 8 * n);
			assert_int_equal(r.keys.ip_proto, 6);
		}
		assert_true(r.keys.thoff <= len);
	}
}

/*
 * One program, no jump table: the object holds the entry program alone, so
 * there is no PROG_ARRAY that the kernel could flush under an attached
 * dissector (what the kernel selftests' tail-call layout risks).
 */
static void test_one_program(void **state)
{
	struct bpf_program *p;
	struct bpf_map *m;
	int progs = 0;

	bpf_object__for_each_program(p, fo.obj) {
		assert_string_equal(bpf_program__name(p), "_dissect");
		progs++;
	}
	assert_int_equal(progs, 1);
	bpf_object__for_each_map(m, fo.obj)
		assert_int_not_equal(bpf_map__type(m), BPF_MAP_TYPE_PROG_ARRAY);
}

/*
 * record_every 4: the per-CPU counter lets one dissection in 4 through.  The
 * thread stays on one CPU, so one counter sees every run; the first recorded
 * dissection is the 4th.  And the loader's default records nothing.
 */
static void test_record_sampled(void **state)
{
	const struct flow_vector *v = flow_vector_find("ipv4");
	unsigned char f[FLOW_FRAME_MAX];
	struct flow_obj s;
	struct flow_load_opts o;
	struct flow_run r;
	struct bpf_flow_keys got;
	char err[512];
	cpu_set_t one, saved;
	__u32 key = (__u32)v->keys.sport << 16 | v->keys.dport, next;
	size_t len = flow_vector_build(v, f, sizeof(f));
	int i;

	assert_int_equal(sched_getaffinity(0, sizeof(saved), &saved), 0);
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0);
	assert_int_equal(flow_test_load(&s, 4, FLOW_DEFAULT_CONTINUE_SADDR), 0);
	for (i = 1; i <= 3; i++) {
		run(s.prog_fd, v, f, len, &r);
		if (!bpf_map_lookup_elem(s.keys_fd, &key, &got))
			fail_msg("record_every 4: dissection %d was recorded", i);
	}
	run(s.prog_fd, v, f, len, &r);
	assert_int_equal(bpf_map_lookup_elem(s.keys_fd, &key, &got), 0);
	assert_memory_equal(&got, &r.keys, sizeof(got));
	assert_int_equal(bpf_map_delete_elem(s.keys_fd, &key), 0);
	/* 4 more in one test_run: recorded once more */
	assert_int_equal(flow_test_run(s.prog_fd, f, len, v->flags, 4, &r), 0);
	assert_int_equal(bpf_map_lookup_elem(s.keys_fd, &key, &got), 0);
	flow_close(&s);

	flow_load_opts_default(&o);
	assert_int_equal(o.cfg.record_every, 0);
	assert_int_equal(flow_load(&s, &o, err, sizeof(err)), 0);
	assert_int_equal(flow_test_run(s.prog_fd, f, len, v->flags, 100, &r), 0);
	assert_int_not_equal(bpf_map_get_next_key(s.keys_fd, NULL, &next), 0);
	flow_close(&s);
	assert_int_equal(sched_setaffinity(0, sizeof(saved), &saved), 0);
}

/*
 * The maps were created with BTF key/value type ids from the object's BTF,
 * which the kernel accepted (BPF_BTF_LOAD): read them back from the kernel.
 */
static void test_btf_maps(void **state)
{
	struct bpf_map_info info;
	const struct btf_type *t;
	struct btf *btf;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	assert_int_equal(bpf_obj_get_info_by_fd(fo.keys_fd, &info, &len), 0);
	assert_int_not_equal(info.btf_id, 0);
	assert_int_equal(info.btf_id, fo.btf_id);
	assert_int_not_equal(info.btf_value_type_id, 0);
	btf = btf__load_from_kernel_by_id(info.btf_id);
	assert_non_null(btf);
	t = btf__type_by_id(btf, info.btf_value_type_id);
	assert_non_null(t);
	assert_true(btf_is_struct(t));
	assert_string_equal(btf__name_by_offset(btf, t->name_off), "bpf_flow_keys");
	assert_int_equal(t->size, 56);
	assert_int_equal(btf_vlen(t), 13);
	t = btf__type_by_id(btf, info.btf_key_type_id);
	assert_non_null(t);
	assert_int_equal(btf__resolve_size(btf, info.btf_key_type_id), 4);
	btf__free(btf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_vectors),
		cmocka_unit_test(test_btf_maps),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_record_map),
		cmocka_unit_test(test_record_sampled),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_random_frames),
		cmocka_unit_test(test_one_program),
		cmocka_unit_test(test_deep_stacks),
	};

	flow_test_need_root();
	return cmocka_run_group_tests(tests, setup, teardown);
}
