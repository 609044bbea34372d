// SPDX-License-Identifier: BSD-2-Clause
/*
 * bpf_flow.o attached on the running kernel, all inside network namespaces this
 * test creates (the process unshares its own first, so the machine's namespace
 * is never touched and everything goes away when the process exits):
 *  - the attach/detach matrix: link vs BPF_PROG_ATTACH exclusivity (EEXIST),
 *    a second link (E2BIG), double attach (EINVAL), detach, query;
 *  - netns deletion: the link survives, auto-detached, netns_ino 0;
 *  - real frames through a tap with IFF_TAP|IFF_NO_PI|IFF_NAPI|IFF_NAPI_FRAGS
 *    (each write is dissected without an skb by eth_get_headlen), keys read back
 *    from last_dissection and checked, with a link and with PROG_ATTACH.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <net/if.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <cmocka.h>
#include <bpf/bpf.h>
#include "flow_test_util.h"

static struct flow_obj fo;
static int home_ns = -1;	/* our private netns */
static __u32 prog_id;

static int setup(void **state)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	if (unshare(CLONE_NEWNET)) {
		perror("unshare(CLONE_NEWNET)");
		return -1;
	}
	home_ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (home_ns < 0 || flow_test_load(&fo, 1, FLOW_DEFAULT_CONTINUE_SADDR))
		return -1;
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fo.prog_fd, &info, &len))
		return -1;
	prog_id = info.id;
	return 0;
}

static int teardown(void **state)
{
	flow_close(&fo);
	return 0;
}

static __u32 attached(int ns)
{
	__u32 id = 1;

	assert_int_equal(flow_query(ns, &id), 0);
	return id;
}

static void test_matrix(void **state)
{
	int link, rc;

	assert_int_equal(attached(home_ns), 0);
	link = flow_attach_link(fo.prog_fd, home_ns);
	assert_true(link >= 0);
	assert_int_equal(attached(home_ns), prog_id);
	assert_int_equal(flow_attach_link(fo.prog_fd, home_ns), -E2BIG);
	assert_int_equal(flow_attach_prog(fo.prog_fd, home_ns), -EEXIST);
	assert_int_equal(flow_detach_prog(fo.prog_fd, home_ns), -EINVAL);
	assert_int_equal(bpf_link_detach(link), 0);
	assert_int_equal(attached(home_ns), 0);
	close(link);

	assert_int_equal(flow_attach_prog(fo.prog_fd, home_ns), 0);
	assert_int_equal(attached(home_ns), prog_id);
	assert_int_equal(flow_attach_link(fo.prog_fd, home_ns), -EEXIST);
	assert_int_equal(flow_attach_prog(fo.prog_fd, home_ns), -EINVAL);
	assert_int_equal(flow_detach_prog(fo.prog_fd, home_ns), 0);
	assert_int_equal(attached(home_ns), 0);
	rc = flow_detach_prog(fo.prog_fd, home_ns);
	assert_int_equal(rc, -ENOENT);

	/* Closing the last link fd detaches too. */
	link = flow_attach_link(fo.prog_fd, home_ns);
	assert_true(link >= 0);
	close(link);
	assert_int_equal(attached(home_ns), 0);
}

static void test_netns_deletion(void **state)
{
	struct bpf_link_info info;
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	struct stat st;
	__u32 len;
	int other, link, i;

	/* A second namespace held only by this fd. */
	assert_int_equal(unshare(CLONE_NEWNET), 0);
	other = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	assert_true(other >= 0);
	assert_int_equal(setns(home_ns, CLONE_NEWNET), 0);
	assert_int_equal(fstat(other, &st), 0);

	link = flow_attach_link(fo.prog_fd, other);
	assert_true(link >= 0);
	memset(&info, 0, sizeof(info));
	len = sizeof(info);
	assert_int_equal(bpf_obj_get_info_by_fd(link, &info, &len), 0);
	assert_int_equal(info.type, BPF_LINK_TYPE_NETNS);
	assert_int_equal(info.prog_id, prog_id);
	assert_int_equal(info.netns.attach_type, BPF_FLOW_DISSECTOR);
	assert_int_equal(info.netns.netns_ino, st.st_ino);

	close(other);	/* the namespace dies (asynchronously) */
	for (i = 0; i < 1000; i++) {	/* up to 20 s: netns cleanup is a workqueue */
		memset(&info, 0, sizeof(info));
		len = sizeof(info);
		assert_int_equal(bpf_obj_get_info_by_fd(link, &info, &len), 0);
		if (!info.netns.netns_ino)
			break;
		nanosleep(&ts, NULL);
	}
	assert_int_equal(info.netns.netns_ino, 0);
	/* A defunct link cannot be updated. */
	assert_int_not_equal(bpf_link_update(link, fo.prog_fd, NULL), 0);
	assert_int_equal(errno, ENOLINK);
	close(link);
}

/* Empties last_dissection */
static void clear_keys(void)
{
	__u32 next;

	while (!bpf_map_get_next_key(fo.keys_fd, NULL, &next))
		bpf_map_delete_elem(fo.keys_fd, &next);
}

/* Builds vector v's frame in f (FLOW_FRAME_MAX bytes) and writes it to the
 * tap; returns its length. */
static size_t tap_write_vector(int tap, const struct flow_vector *v, unsigned char *f)
{
	size_t len = flow_vector_build(v, f, FLOW_FRAME_MAX);

	assert_int_equal(write(tap, f, len), (ssize_t)len);
	return len;
}

/* Writes every vector through a napi-frags tap and checks what was recorded. */
static void tap_vectors(void)
{
	unsigned char f[FLOW_FRAME_MAX];
	struct bpf_flow_keys got;
	struct flow_run want;
	char why[1200];
	size_t i, len, checked = 0, by_hand = 0;
	__u32 key;
	int tap;

	tap = flow_tap_open("flowtap0");
	if (tap < 0)
		fail_msg("tap: %s", strerror(-tap));
	clear_keys();
	for (i = 0; i < flow_vector_count; i++) {
		const struct flow_vector *v = &flow_vectors[i];

		len = tap_write_vector(tap, v, f);
		if (v->ret == BPF_FLOW_DISSECTOR_CONTINUE) {
			key = (__u32)99 << 16 | 9090;
			assert_int_not_equal(bpf_map_lookup_elem(fo.keys_fd, &key, &got), 0);
			continue;
		}
		key = (__u32)v->keys.sport << 16 | v->keys.dport;
		/* Vectors with other flags stop earlier: their ports differ. */
		if (v->flags != BPF_FLOW_DISSECTOR_F_PARSE_1ST_FRAG) {
			assert_int_equal(flow_test_run(fo.prog_fd, f, len,
						       BPF_FLOW_DISSECTOR_F_PARSE_1ST_FRAG, 1,
						       &want), 0);
			key = (__u32)want.keys.sport << 16 | want.keys.dport;
		}
		if (bpf_map_lookup_elem(fo.keys_fd, &key, &got))
			fail_msg("vector %s: no last_dissection entry after the tap write",
				 v->name);
		/* eth_get_headlen always asks for PARSE_1ST_FRAG. */
		assert_int_equal(got.flags, BPF_FLOW_DISSECTOR_F_PARSE_1ST_FRAG);
		if (v->flags == BPF_FLOW_DISSECTOR_F_PARSE_1ST_FRAG) {
			struct flow_run r = { .retval = v->ret, .keys = got };

			/* The return code is not visible here; the keys are. */
			if (!flow_run_matches(v, &r, why, sizeof(why)))
				fail_msg("vector %s through the tap: %s", v->name, why);
			by_hand++;
		} else if (memcmp(&got, &want.keys, sizeof(got))) {
			fail_msg("vector %s through the tap differs from test_run", v->name);
		}
		bpf_map_delete_elem(fo.keys_fd, &key);
		checked++;
	}
	close(tap);
	assert_true(checked >= flow_vector_count - 1);
	assert_true(by_hand >= 5);
}

static void test_tap_link(void **state)
{
	int link = flow_attach_link(fo.prog_fd, home_ns);

	assert_true(link >= 0);
	tap_vectors();
	assert_int_equal(bpf_link_detach(link), 0);
	close(link);
	assert_int_equal(attached(home_ns), 0);
}

static void test_tap_prog_attach(void **state)
{
	assert_int_equal(flow_attach_prog(fo.prog_fd, home_ns), 0);
	tap_vectors();
	assert_int_equal(flow_detach_prog(fo.prog_fd, home_ns), 0);
	assert_int_equal(attached(home_ns), 0);
}

/*
 * tun also probes the transport header of every frame (flags 0, after
 * eth_type_trans, so nhoff 0 and with an skb): for ipv4-frag that dissection
 * stops at the first fragment, no ports, and lands under key 0.
 */
static void test_tap_skb_path(void **state)
{
	unsigned char f[FLOW_FRAME_MAX];
	const struct flow_vector *v = flow_vector_find("ipv4-frag");
	struct bpf_flow_keys got;
	__u32 key = 0;
	int tap, link;

	link = flow_attach_link(fo.prog_fd, home_ns);
	assert_true(link >= 0);
	tap = flow_tap_open("flowtap2");
	assert_true(tap >= 0);
	clear_keys();
	tap_write_vector(tap, v, f);
	assert_int_equal(bpf_map_lookup_elem(fo.keys_fd, &key, &got), 0);
	assert_int_equal(got.flags, 0);
	assert_int_equal(got.nhoff, 0);
	assert_int_equal(got.thoff, 20);
	assert_int_equal(got.is_frag, 1);
	assert_int_equal(got.is_first_frag, 1);
	assert_int_equal(got.ip_proto, 6);
	assert_int_equal(got.sport, 0);
	close(tap);
	close(link);
}

/*
 * The bpf_skb_load_bytes fallback, on real skbs: an AF_PACKET socket with
 * PACKET_VNET_HDR builds an skb with only hdr_len bytes of the frame in its
 * linear part (the rest in page frags) and probes its transport header
 * (flags 0, from the MAC header) before transmitting it: every header past
 * hdr_len must come through bpf_skb_load_bytes, and the keys must be
 * test_run's for the whole frame.
 */
static int send_split(int sk, const unsigned char *f, size_t len, unsigned int hdr_len)
{
	struct virtio_net_hdr vh = { .hdr_len = hdr_len };
	struct iovec iov[2] = { { &vh, sizeof(vh) }, { (void *)(uintptr_t)f, len } /* sendmsg only reads it */ };
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = 2 };

	return sendmsg(sk, &msg, 0) == (ssize_t)(sizeof(vh) + len) ? 0 : -errno;
}

static void test_skb_nonlinear(void **state)
{
	/*
	 * No outer VLAN tags: af_packet moves the network header past them but
	 * leaves skb->protocol at the TPID, which no dissector can follow.
	 */
	static const char *const names[] = { "ipv4", "ipv6", "ip-gre", "ipip-encap",
					     "ipv4-gre-csum-key-seq-ipv6", "gre-teb-vlan-ipv4",
					     "ipv6-in-ipv4", "sctp", "ah-ipv6", "udplite-ipv6" };
	static const unsigned int splits[] = { 14, 15, 20, 33, 40, 52, 60, 75 };
	/* af_packet makes frames under a page linear: send bigger ones */
	static unsigned char f[5000];
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct ifreq ifr = { .ifr_mtu = 9000 };
	struct bpf_flow_keys got;
	struct flow_run want;
	size_t i, k, len, compared = 0;
	__u32 key;
	int tap, sk, link, one = 1;

	link = flow_attach_link(fo.prog_fd, home_ns);
	assert_true(link >= 0);
	tap = flow_tap_open_plain("flowtap4");
	if (tap < 0)
		fail_msg("tap: %s", strerror(-tap));
	sk = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	assert_true(sk >= 0);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "flowtap4");
	assert_int_equal(ioctl(sk, SIOCSIFMTU, &ifr), 0);
	assert_int_equal(setsockopt(sk, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof(one)), 0);
	sll.sll_ifindex = if_nametoindex("flowtap4");
	assert_int_not_equal(sll.sll_ifindex, 0);
	assert_int_equal(bind(sk, (struct sockaddr *)&sll, sizeof(sll)), 0);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct flow_vector *v = flow_vector_find(names[i]);

		assert_non_null(v);
		memset(f, 0, sizeof(f));
		len = flow_vector_build(v, f, FLOW_FRAME_MAX);
		assert_int_equal(flow_test_run(fo.prog_fd, f, len, 0, 1, &want), 0);
		len = sizeof(f);
		key = (__u32)want.keys.sport << 16 | want.keys.dport;
		assert_int_not_equal(key, 0);
		for (k = 0; k < sizeof(splits) / sizeof(splits[0]); k++) {
			if (splits[k] >= len)
				continue;
			clear_keys();
			assert_int_equal(send_split(sk, f, len, splits[k]), 0);
			if (bpf_map_lookup_elem(fo.keys_fd, &key, &got))
				fail_msg("%s split at %u: no entry under its ports", v->name,
					 splits[k]);
			if (memcmp(&got, &want.keys, sizeof(got))) {
				char b1[512], b2[512];

				flow_keys_print(&got, 0, b1, sizeof(b1));
				flow_keys_print(&want.keys, 0, b2, sizeof(b2));
				fail_msg("%s split at %u: keys differ from test_run's\n"
					 "  skb      %s\n  test_run %s", v->name, splits[k], b1, b2);
			}
			compared++;
		}
	}
	assert_true(compared > 50);
	close(sk);
	close(tap);
	close(link);
}

/*
 * Differential check against the kernel's C dissector: the skb flow hash
 * (computed from the dissected keys, flags STOP_AT_FLOW_LABEL) of every
 * vector with bpf_flow attached and without.  They must agree, except where
 * the C dissector hashes what struct bpf_flow_keys cannot carry or where we
 * stop on purpose (flow_vector_hash_differs); those must differ, so that list
 * cannot go stale.
 */
static void test_hash_vs_c(void **state)
{
	unsigned char f[FLOW_FRAME_MAX];
	const char *why;
	__u32 ns, h_c, h_b;
	size_t i, len, bad = 0;
	int recalc, link;

	recalc = flow_hash_prog_load(1);
	assert_true(recalc >= 0);
	for (i = 0; i < flow_vector_count; i++) {
		const struct flow_vector *v = &flow_vectors[i];

		len = flow_vector_build(v, f, sizeof(f));
		assert_int_equal(flow_tc_run(recalc, f, len, 1, &ns, &h_c), 0);
		link = flow_attach_link(fo.prog_fd, home_ns);
		assert_true(link >= 0);
		assert_int_equal(flow_tc_run(recalc, f, len, 1, &ns, &h_b), 0);
		close(link);
		why = flow_vector_hash_differs(v->name);
		printf("%-30s C %#010x BPF %#010x %s%s\n", v->name, h_c, h_b,
		       (h_c == h_b) == !why ? "ok" : "UNEXPECTED", why ? "; differs: " : "");
		if (why)
			printf("    %s\n", why);
		bad += (h_c == h_b) != !why;
	}
	close(recalc);
	assert_int_equal(bad, 0);
}

/* Without a program nothing is recorded: the entries above came from us. */
static void test_tap_detached(void **state)
{
	unsigned char f[FLOW_FRAME_MAX];
	const struct flow_vector *v = flow_vector_find("ipv4-frag");
	__u32 next;
	int tap;

	tap = flow_tap_open("flowtap1");
	assert_true(tap >= 0);
	clear_keys();
	tap_write_vector(tap, v, f);
	assert_int_not_equal(bpf_map_get_next_key(fo.keys_fd, NULL, &next), 0);
	close(tap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix),
		cmocka_unit_test(test_netns_deletion),
		cmocka_unit_test(test_tap_link),
		cmocka_unit_test(test_tap_prog_attach),
		cmocka_unit_test(test_tap_skb_path),
		cmocka_unit_test(test_hash_vs_c),
		cmocka_unit_test(test_skb_nonlinear),
		cmocka_unit_test(test_tap_detached),
	};

	flow_test_need_root();
	return cmocka_run_group_tests(tests, setup, teardown);
}
