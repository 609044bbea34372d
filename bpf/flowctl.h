/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * flowctl: loader and driver of bpf_flow.o (libbpf underneath).  The pieces are
 * a small library (build/obj/bpf/libflowctl.a) so the tests use the same code.
 */
#ifndef FLOWCTL_H
#define FLOWCTL_H

#include <stddef.h>
#include <linux/bpf.h>
#include "flow_config.h"

struct bpf_object;

/* ---- loading (flowctl_load.c) ---- */
struct flow_obj {
	struct bpf_object *obj;
	int prog_fd;		/* entry program (section flow_dissector, named _dissect) */
	int keys_fd;		/* last_dissection (filled only when recording) */
	unsigned int btf_id;	/* kernel id of the object's BTF (BPF_BTF_LOAD) */
};

struct flow_load_opts {
	const char *path;	/* bpf_flow.o */
	struct flow_config cfg;
};

void flow_load_opts_default(struct flow_load_opts *o);
/* 0 or -errno; err gets one line saying what failed. */
int flow_load(struct flow_obj *fo, const struct flow_load_opts *o, char *err, size_t errlen);
void flow_close(struct flow_obj *fo);
/* Pin prog and last_dissection under dir (a bpffs directory). */
int flow_pin(struct flow_obj *fo, const char *dir, char *err, size_t errlen);
/* Default object path: $FLOW_OBJ, else build/bpf/bpf_flow.o */
const char *flow_default_obj(void);

/* ---- test vectors (flowctl_vectors.c) ---- */
enum flow_layer_kind {
	L_END, L_ETH, L_VLAN, L_MPLS, L_IPV4, L_IPV6, L_IPV6_EXT, L_IPV6_FRAG,
	L_GRE, L_TCP, L_UDP, L_PORTS, L_RAW,
};

/* One header; the meaning of a..e depends on kind (see flowctl_vectors.c). */
struct flow_layer {
	enum flow_layer_kind kind;
	unsigned int a, b, c, d, e;
};

#define FLOW_MAX_LAYERS 10
#define FLOW_FRAME_LEN 82	/* the selftests send every frame at 82 bytes */
#define FLOW_FRAME_MAX 256

struct flow_vector {
	const char *name;
	int selftest;		/* one of the 16 kernel selftest vectors */
	__u32 flags;		/* BPF_FLOW_DISSECTOR_F_* given to the program */
	__u32 ret;		/* expected program return code */
	__u32 need;		/* bytes the dissector must see for this result */
	struct bpf_flow_keys keys;	/* expected keys (when ret != CONTINUE) */
	struct flow_layer layers[FLOW_MAX_LAYERS];
};

extern const struct flow_vector flow_vectors[];
extern const size_t flow_vector_count;
const struct flow_vector *flow_vector_find(const char *name);
/* Why the C dissector's skb hash of this vector differs from ours; NULL if it does not. */
const char *flow_vector_hash_differs(const char *name);
/* Writes the frame (zero padded to FLOW_FRAME_LEN); returns its length. */
size_t flow_vector_build(const struct flow_vector *v, unsigned char *buf, size_t cap);

/* ---- BPF_PROG_TEST_RUN (flowctl_run.c) ---- */
struct flow_run {
	__u32 retval;
	__u32 duration;		/* ns per run as the kernel reports */
	struct bpf_flow_keys keys;
};

int flow_test_run(int prog_fd, const void *pkt, size_t len, __u32 flags,
		  __u32 repeat, struct flow_run *out);
/* Compares a run with the vector's expectation; 1 if equal, else 0 and why. */
int flow_run_matches(const struct flow_vector *v, const struct flow_run *r,
		     char *why, size_t whylen);
void flow_keys_print(const struct bpf_flow_keys *k, int json, char *buf, size_t len);

/* ---- network namespaces, attach, tap (flowctl_netns.c) ---- */
/* NAME under /run/netns, or a path if it contains '/'. Returns fd or -errno. */
int flow_netns_open(const char *name);
int flow_attach_link(int prog_fd, int netns_fd);		/* link fd or -errno */
int flow_attach_prog(int prog_fd, int netns_fd);		/* 0 or -errno (PROG_ATTACH) */
int flow_detach_prog(int prog_fd, int netns_fd);		/* 0 or -errno (PROG_DETACH) */
/* Attached program id in that netns (0 if none) or -errno. */
int flow_query(int netns_fd, __u32 *prog_id);
/* Id of the netns link attached there (0 if none). */
int flow_find_link(int netns_fd, __u32 *link_id);
/* Run fn(arg) with the calling thread inside netns_fd, then come back. */
int flow_in_netns(int netns_fd, int (*fn)(void *), void *arg);
/* A tap device with IFF_TAP|IFF_NO_PI|IFF_NAPI|IFF_NAPI_FRAGS, up; fd or -errno. */
int flow_tap_open(const char *ifname);
/* A plain tap (IFF_TAP|IFF_NO_PI), up: a device to send frames out of. */
int flow_tap_open_plain(const char *ifname);

/* ---- inspecting and printing (flowctl_dump.c) ---- */
struct bpf_map_info;
/*
 * The map of program prog_id named name (a name starting with '.' matches as a
 * suffix, e.g. ".rodata"; NULL: the first map with BTF); 0 or -errno.
 */
int flow_prog_map(__u32 prog_id, const char *name, struct bpf_map_info *out);
/* The configuration the attached program prog_id was loaded with; 0 or -errno. */
int flow_prog_config(__u32 prog_id, struct flow_config *cfg);
int flow_pinned_map_id(const char *path, __u32 *map_id);
/*
 * Prints last_dissection: with `btfdump map` (--net if net), or as raw hex if
 * hex.  0, or -errno / -EIO when btfdump failed (it said why on stderr).
 */
int flow_dump_keys(__u32 map_id, int net, int hex);

/* ---- benchmark (flowctl_bench.c) ---- */
struct bench_opts {
	const char *obj;
	__u32 repeat;		/* test_run repetitions per measurement */
	int rounds;		/* alternating rounds; medians are reported */
};
/* Prints markdown rows on stdout, commentary on stderr; 0 or -errno. */
int flow_bench(const struct bench_opts *bo);
/*
 * A tc program that invalidates the skb hash and, with recalc, returns
 * bpf_get_hash_recalc(): run by test_run it makes the kernel dissect the
 * packet (BPF dissector of the caller's netns if attached, else C).
 */
int flow_hash_prog_load(int recalc);
int flow_tc_run(int fd, const void *pkt, size_t len, __u32 repeat, __u32 *ns, __u32 *ret);
/* End to end over veth (flowctl_e2e.c): namespaces set up by bench/bench_flow.sh. */
struct e2e_opts {
	const char *obj, *tx_netns, *rx_netns, *to;
	int cpu;		/* the CPU the RX veth's RPS steers to; we run there */
	unsigned long packets;	/* datagrams per measurement */
	int rounds;
};
int flow_bench_e2e(const struct e2e_opts *eo);
/* A flow dissector program that returns BPF_OK at once (the hook's own cost); fd or -errno. */
int flow_noop_load(void);
/*
 * A flow dissector program that stores keys and returns ret, parsing nothing
 * (the least a dissector producing those keys costs); fd or -errno.
 */
int flow_keys_prog_load(const struct bpf_flow_keys *keys, __u32 ret);

#endif
