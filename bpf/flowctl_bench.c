// SPDX-License-Identifier: BSD-2-Clause
/*
 * flowctl bench: our BPF dissector vs the kernel's C dissector, same packets,
 * same kernel path, one run, alternating.
 *
 * The path: a tc (SCHED_CLS) program run by BPF_PROG_TEST_RUN with `repeat`
 * that invalidates the skb hash and asks for it again
 * (bpf_set_hash_invalid + bpf_get_hash_recalc), so every repetition runs
 * __skb_flow_dissect on the test skb, whose device is the loopback of our own
 * namespace: with bpf_flow attached there it is our program, else the C code.
 * A second tc program only invalidates the hash (the harness floor); the
 * dissection cost is the difference.  Configurations, in rotating order per
 * vector and round: C, bpf_flow as attached by default (recording off), with
 * --record (1 in 64), with --record=1, a no-op BPF dissector, the zero-parse
 * floor (per vector a program that only stores the keys bpf_flow gives it),
 * C again (control).  Separately: test_run of the program alone (recording off,
 * recording every dissection, the no-op: its own cost over the hook's), vs every
 * dissection (a warm in-kernel loop, the second row's kind).
 *
 * Runs in a private netns (unshare) that disappears with the process.
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "flowctl.h"
#include "flowctl_stats.h"

#define MIX_MAX 16
/* Repetitions of the run-count check (stats on, so kept out of the timing). */
#define VERIFY_REPEAT 1000

/* r6 = ctx; set_hash_invalid(ctx); return recalc ? get_hash_recalc(ctx) : 0 */
int flow_hash_prog_load(int recalc)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_6, .src_reg = BPF_REG_1 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_set_hash_invalid },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_1, .src_reg = BPF_REG_6 },
		recalc ? (struct bpf_insn){ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_get_hash_recalc }
		       : (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, recalc ? "hash_recalc" : "hash_floor",
			       "GPL", insns, sizeof(insns) / sizeof(insns[0]), NULL);

	return fd < 0 ? -errno : fd;
}

/* A flow dissector that returns BPF_OK at once: the hook's own cost. */
int flow_noop_load(void)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = BPF_OK },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = BPF_FLOW_DISSECTOR);
	int fd = bpf_prog_load(BPF_PROG_TYPE_FLOW_DISSECTOR, "flow_noop", "GPL", insns, 2, &o);

	return fd < 0 ? -errno : fd;
}

/*
 * A flow dissector that parses nothing: it stores the keys given (as bpf_flow
 * leaves them for one packet) and returns ret.  Timed on that packet, it is
 * the least any BPF dissector can cost there: the hook, the kernel's copy of
 * the keys and the hashing of them, with no parsing.  The keys go in as
 * 8-byte words, those a dissector of the packet writes: the first three
 * (offsets, protocols, ports, IPv4 addresses), the rest of the IPv6
 * addresses for IPv6, the flow label's word if it is set; words the kernel
 * already holds (zeros, its own n_proto/nhoff/flags) are written too.
 */
int flow_keys_prog_load(const struct bpf_flow_keys *keys, __u32 ret)
{
	struct bpf_insn insns[2 + 7 * 3 + 2];
	__u64 w[7];
	int n = 0, i, fd;
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = BPF_FLOW_DISSECTOR);

	memcpy(w, keys, sizeof(w));
	/* r2 = skb->flow_keys */
	insns[n++] = (struct bpf_insn){ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_2,
					.src_reg = BPF_REG_1,
					.off = offsetof(struct __sk_buff, flow_keys) };
	for (i = 0; i < 7; i++) {
		if (i >= 3 && i < 6 && keys->addr_proto != 0x86DD)
			continue;
		if (i == 6 && !keys->flow_label)
			continue;
		/* r3 = w[i] (ld_imm64, two slots); *(u64 *)(r2 + 8 * i) = r3 */
		insns[n++] = (struct bpf_insn){ .code = BPF_LD | BPF_DW | BPF_IMM,
						.dst_reg = BPF_REG_3, .imm = (__u32)w[i] };
		insns[n++] = (struct bpf_insn){ .imm = (__u32)(w[i] >> 32) };
		insns[n++] = (struct bpf_insn){ .code = BPF_STX | BPF_MEM | BPF_DW,
						.dst_reg = BPF_REG_2, .src_reg = BPF_REG_3,
						.off = 8 * i };
	}
	insns[n++] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,
					.dst_reg = BPF_REG_0, .imm = ret };
	insns[n++] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };
	fd = bpf_prog_load(BPF_PROG_TYPE_FLOW_DISSECTOR, "flow_keys_only", "GPL", insns, n, &o);
	return fd < 0 ? -errno : fd;
}

/* One tc test_run: average ns per repetition and the program's return value. */
int flow_tc_run(int fd, const void *pkt, size_t len, __u32 repeat, __u32 *ns, __u32 *ret)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = len, .repeat = repeat);

	if (bpf_prog_test_run_opts(fd, &o))
		return -errno;
	*ns = o.duration;
	*ret = o.retval;
	return 0;
}

static __u64 run_cnt(int prog_fd)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return 0;
	return info.run_cnt;
}

struct mix {
	unsigned char frame[MIX_MAX][FLOW_FRAME_MAX];
	size_t len[MIX_MAX];
	const struct flow_vector *v[MIX_MAX];
	int n;
};

static void build_mix(struct mix *m)
{
	size_t i;

	m->n = 0;
	for (i = 0; i < flow_vector_count && m->n < MIX_MAX; i++) {
		if (!flow_vectors[i].selftest)
			continue;
		m->v[m->n] = &flow_vectors[i];
		m->len[m->n] = flow_vector_build(&flow_vectors[i], m->frame[m->n], FLOW_FRAME_MAX);
		m->n++;
	}
}

/*
 * Checks on the live kernel that the harness does what we claim: with bpf_flow
 * attached every repetition runs it (run_cnt, via BPF_ENABLE_STATS), and the
 * C dissector's hash depends on the packet (so it really dissected).  Hashes
 * that differ from C's are listed with the reason (flow_vector_hash_differs);
 * an unexplained difference fails the bench.
 */
static int verify(struct mix *m, int recalc, int floor_fd, int prog_fd, int ns,
		  int *hash_equal, char *differ, size_t differ_len)
{
	__u32 ns_c = 0, ns_b = 0, h_c[MIX_MAX], h_b[MIX_MAX], hf = 0;
	__u64 before, after;
	int stats, link, i, distinct = 0, rc;
	const char *why;
	size_t used = 0;

	stats = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats < 0)
		return -errno;
	*hash_equal = 0;
	differ[0] = 0;
	for (i = 0; i < m->n; i++) {
		rc = flow_tc_run(recalc, m->frame[i], m->len[i], 1, &ns_c, &h_c[i]);
		if (rc)
			goto out;
		link = flow_attach_link(prog_fd, ns);
		if (link < 0) {
			rc = link;
			goto out;
		}
		before = run_cnt(prog_fd);
		rc = flow_tc_run(recalc, m->frame[i], m->len[i], VERIFY_REPEAT, &ns_b, &h_b[i]);
		after = run_cnt(prog_fd);
		close(link);
		if (rc)
			goto out;
		if (after - before != VERIFY_REPEAT) {
			fprintf(stderr, "verify: %s: bpf_flow ran %llu times for %u repetitions\n",
				m->v[i]->name, (unsigned long long)(after - before), VERIFY_REPEAT);
			rc = -EPROTO;
			goto out;
		}
		*hash_equal += h_c[i] == h_b[i];
		why = flow_vector_hash_differs(m->v[i]->name);
		if (h_c[i] != h_b[i]) {
			fprintf(stderr, "note: %s: skb hash differs, C %#x vs BPF %#x: %s\n",
				m->v[i]->name, h_c[i], h_b[i], why ? why : "UNEXPECTED");
			if (!why) {
				rc = -EPROTO;
				goto out;
			}
			used += snprintf(differ + used, used < differ_len ? differ_len - used : 0,
					 "%s%s (%s)", used ? "; " : "", m->v[i]->name, why);
		}
		distinct += i && h_c[i] != h_c[i - 1];
	}
	/* The floor program returns 0; the C hashes must vary with the packet. */
	rc = flow_tc_run(floor_fd, m->frame[0], m->len[0], 1, &ns_c, &hf);
	if (!rc && (hf != 0 || distinct < m->n / 2)) {
		fprintf(stderr, "verify: the C dissector's hashes do not follow the packets\n");
		rc = -EPROTO;
	}
out:
	close(stats);
	return rc;
}

/* The flags __skb_get_hash gives the dissector. */
#define SKB_HASH_FLAGS BPF_FLOW_DISSECTOR_F_STOP_AT_FLOW_LABEL

/* The skb hash of the mix's vector i with prog_fd attached (-1: C). */
static int skb_hash(struct mix *m, int i, int recalc, int prog_fd, int ns, __u32 *hash)
{
	int link = -1, rc;
	__u32 ns_per;

	if (prog_fd >= 0) {
		link = flow_attach_link(prog_fd, ns);
		if (link < 0)
			return link;
	}
	rc = flow_tc_run(recalc, m->frame[i], m->len[i], 1, &ns_per, hash);
	if (link >= 0)
		close(link);
	return rc;
}

/*
 * Per vector, the keys-only program (flow_keys_prog_load) with the keys and
 * result bpf_flow gives for it with the skb-hash path's flags.  Its skb hash
 * must be bpf_flow's: else the kernel would not do the same work after it.
 */
static int keys_only_load(struct mix *m, int recalc, int prog_fd, int ns, int *keys_fd)
{
	struct flow_run fr;
	__u32 h_ours = 0, h_keys = 0;
	int i, rc;

	for (i = 0; i < m->n; i++) {
		rc = flow_test_run(prog_fd, m->frame[i], m->len[i], SKB_HASH_FLAGS, 1, &fr);
		if (rc)
			return rc;
		keys_fd[i] = flow_keys_prog_load(&fr.keys, fr.retval);
		if (keys_fd[i] < 0)
			return keys_fd[i];
		rc = skb_hash(m, i, recalc, prog_fd, ns, &h_ours);
		if (!rc)
			rc = skb_hash(m, i, recalc, keys_fd[i], ns, &h_keys);
		if (rc)
			return rc;
		if (h_ours != h_keys) {
			fprintf(stderr, "verify: %s: the keys-only program's skb hash %#x is not "
				"bpf_flow's %#x\n", m->v[i]->name, h_keys, h_ours);
			return -EPROTO;
		}
	}
	return 0;
}

/*
 * The configurations of the skb-hash rows; prog fd -1 = nothing attached (C).
 * CFG_KEYS: per vector, the program that only stores bpf_flow's keys.
 */
enum bench_cfg { CFG_C, CFG_DEFAULT, CFG_RECORD, CFG_RECORD_ALL, CFG_NOOP, CFG_KEYS, CFG_C2, NCFG };

struct bench_run {
	int fd[NCFG];
	int keys_fd[MIX_MAX];
	double *net[NCFG];	/* ns per packet per round, harness floor subtracted */
	double *tot[NCFG];	/* ns per packet per round, harness included */
	/* the program's own test_run: bpf_flow recording off, every dissection, the no-op */
	double *alone[3];
	/* own run time on the skb-hash path: bpf_flow default, --record, keys-only; scratch */
	double *own[4];
	double floor_sum;
};

static int prog_stats(int fd, __u64 *run_ns, __u64 *runs)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	*run_ns = info.run_time_ns;
	*runs = info.run_cnt;
	return 0;
}

/*
 * One round of the programs' own run time on the skb-hash path, with the
 * kernel's run-time statistics on (BPF_ENABLE_STATS: two clock reads around
 * every run, the same for each program, hence a separate pass): bpf_flow as
 * attached by default, with --record, and the keys-only program of each
 * vector; their difference is the parse (and the recording) alone, with
 * less noise than the hash path's totals.
 */
static int own_round(const struct bench_opts *bo, struct mix *m, int recalc, int ns,
		     const int prog[2], struct bench_run *br, int round)
{
	__u64 ns0 = 0, runs0 = 0, ns1 = 0, runs1 = 0;
	__u32 t, r;
	int i, k, c, fd, link, rc;

	for (i = 0; i < m->n; i++) {
		for (k = 0; k < 3; k++) {
			c = (k + round + i) % 3;
			fd = c < 2 ? prog[c] : br->keys_fd[i];
			link = flow_attach_link(fd, ns);
			if (link < 0)
				return link;
			rc = prog_stats(fd, &ns0, &runs0);
			if (!rc)
				rc = flow_tc_run(recalc, m->frame[i], m->len[i], bo->repeat, &t, &r);
			if (!rc)
				rc = prog_stats(fd, &ns1, &runs1);
			close(link);
			if (rc)
				return rc;
			if (runs1 - runs0 != bo->repeat)
				return -EPROTO;
			br->own[c][round] += (double)(ns1 - ns0) / (runs1 - runs0) / m->n;
		}
	}
	return 0;
}

/* One round: every vector through every configuration, order rotating. */
static int bench_round(const struct bench_opts *bo, struct mix *m, int recalc, int floor_fd,
		       int ns, const int alone[3], struct bench_run *br, int round)
{
	struct flow_run fr;
	__u32 t = 0, r = 0;
	double fl, per[NCFG];
	int i, k, c, fd, link, rc, detail = getenv("FLOWCTL_BENCH_DETAIL") != NULL;

	for (i = 0; i < m->n; i++) {
		rc = flow_tc_run(floor_fd, m->frame[i], m->len[i], bo->repeat, &t, &r);
		if (rc)
			return rc;
		fl = t;
		br->floor_sum += fl;
		for (k = 0; k < NCFG; k++) {
			c = (k + round + i) % NCFG;
			link = -1;
			fd = c == CFG_KEYS ? br->keys_fd[i] : br->fd[c];
			if (fd >= 0) {
				link = flow_attach_link(fd, ns);
				if (link < 0)
					return link;
			}
			rc = flow_tc_run(recalc, m->frame[i], m->len[i], bo->repeat, &t, &r);
			if (link >= 0)
				close(link);
			if (rc)
				return rc;
			br->net[c][round] += (t - fl) / m->n;
			br->tot[c][round] += (double)t / m->n;
			per[c] = t - fl;
		}
		if (detail)
			fprintf(stderr, "  %-30s C %5.1f default %5.1f --record %5.1f no-op %5.1f "
				"keys-only %5.1f", m->v[i]->name, per[CFG_C], per[CFG_DEFAULT],
				per[CFG_RECORD], per[CFG_NOOP], per[CFG_KEYS]);
		for (k = 0; k < 3; k++) {
			c = (k + round) % 3;
			rc = flow_test_run(alone[c], m->frame[i], m->len[i], m->v[i]->flags,
					   bo->repeat, &fr);
			if (rc)
				return rc;
			br->alone[c][round] += (double)fr.duration / m->n;
			if (detail)
				fprintf(stderr, " alone%s %u", c == 1 ? "(record=1)" : c == 2 ?
					"(no-op)" : "", fr.duration);
		}
		if (detail)
			fprintf(stderr, "\n");
	}
	fprintf(stderr, "round %d: ns/pkt net of the %.1f ns floor: C %.1f, default %.1f, "
		"--record %.1f, --record=1 %.1f, no-op %.1f, keys-only %.1f, C again %.1f; "
		"alone %.1f / %.1f / %.1f\n",
		round, br->floor_sum / ((round + 1) * m->n), br->net[CFG_C][round],
		br->net[CFG_DEFAULT][round], br->net[CFG_RECORD][round],
		br->net[CFG_RECORD_ALL][round], br->net[CFG_NOOP][round], br->net[CFG_KEYS][round],
		br->net[CFG_C2][round],
		br->alone[0][round], br->alone[1][round], br->alone[2][round]);
	return 0;
}

static void row(const char *what, const double *ours, const double *peer, int n,
		const char *unit, const char *notes)
{
	printf("| %s | %.1f %s | %.1f %s | %.2fx | %s |\n", what, flow_median(ours, n), unit,
	       flow_median(peer, n), unit, flow_median_ratio(ours, peer, n), notes);
}

int flow_bench(const struct bench_opts *bo)
{
	static const __u32 record_every[] = { 0, FLOW_DEFAULT_RECORD_EVERY, 1 };
	struct flow_load_opts lo;
	struct flow_obj objs[3];
	int alone[3], own[2], stats;
	struct bench_run br;
	struct mix m;
	char err[512], differ[2048], notes[3072];
	double *mem;
	int recalc, floor_fd, ns, round, i, rc, equal = 0, n = bo->rounds;

	if (unshare(CLONE_NEWNET))
		return -errno;
	ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (ns < 0)
		return -errno;
	flow_load_opts_default(&lo);
	if (bo->obj)
		lo.path = bo->obj;
	for (i = 0; i < 3; i++) {
		lo.cfg.record_every = record_every[i];
		if (flow_load(&objs[i], &lo, err, sizeof(err))) {
			fprintf(stderr, "bench: %s\n", err);
			return -EINVAL;
		}
	}
	recalc = flow_hash_prog_load(1);
	floor_fd = flow_hash_prog_load(0);
	memset(&br, 0, sizeof(br));
	br.fd[CFG_C] = br.fd[CFG_C2] = -1;
	br.fd[CFG_DEFAULT] = objs[0].prog_fd;
	br.fd[CFG_RECORD] = objs[1].prog_fd;
	br.fd[CFG_RECORD_ALL] = objs[2].prog_fd;
	br.fd[CFG_NOOP] = flow_noop_load();
	if (recalc < 0 || floor_fd < 0 || br.fd[CFG_NOOP] < 0)
		return recalc < 0 ? recalc : floor_fd < 0 ? floor_fd : br.fd[CFG_NOOP];
	build_mix(&m);
	rc = verify(&m, recalc, floor_fd, objs[0].prog_fd, ns, &equal, differ, sizeof(differ));
	if (rc)
		return rc;
	fprintf(stderr, "verified: every repetition ran bpf_flow (run_cnt); C hashes follow the "
		"packets; BPF and C hashes equal for %d/%d vectors\n", equal, m.n);
	rc = keys_only_load(&m, recalc, objs[0].prog_fd, ns, br.keys_fd);
	if (rc)
		return rc;
	fprintf(stderr, "verified: each keys-only program hashes its vector as bpf_flow does\n");

	own[0] = objs[0].prog_fd;
	own[1] = objs[1].prog_fd;
	alone[0] = objs[0].prog_fd;
	alone[1] = objs[2].prog_fd;
	alone[2] = br.fd[CFG_NOOP];
	mem = calloc((2 * NCFG + 8) * n, sizeof(double));
	if (!mem)
		return -ENOMEM;
	for (i = 0; i < NCFG; i++) {
		br.net[i] = mem + i * n;
		br.tot[i] = mem + (NCFG + i) * n;
	}
	for (i = 0; i < 3; i++)
		br.alone[i] = mem + (2 * NCFG + i) * n;
	for (i = 0; i < 4; i++)
		br.own[i] = mem + (2 * NCFG + 4 + i) * n;
	for (round = 0; round < n; round++) {
		rc = bench_round(bo, &m, recalc, floor_fd, ns, alone, &br, round);
		if (rc)
			goto out;
	}
	stats = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats < 0) {
		rc = -errno;
		goto out;
	}
	for (round = 0; round < n && !rc; round++)
		rc = own_round(bo, &m, recalc, ns, own, &br, round);
	close(stats);
	if (rc)
		goto out;
	snprintf(notes, sizeof(notes), "tc test_run repeat %u, %d rounds, configurations in "
		 "rotating order, median of per-round ratios, harness floor %.1f ns subtracted; "
		 "hashes equal to C's for %d/%d vectors%s%s", bo->repeat, n,
		 br.floor_sum / (n * m.n), equal, m.n, *differ ? ", differ by design: " : "", differ);
	row("flow dissection via skb hash recalc, 16 selftest vectors: bpf_flow as attached by "
	    "default (recording off) vs the kernel's C dissector", br.net[CFG_DEFAULT],
	    br.net[CFG_C], n, "ns/pkt", notes);
	row("same, bpf_flow with recording on (--record: one dissection in 64 per CPU) vs C",
	    br.net[CFG_RECORD], br.net[CFG_C], n, "ns/pkt", "a per-CPU counter per packet, "
	    "a hash map update per 64th");
	row("same, bpf_flow recording every dissection (--record=1) vs C", br.net[CFG_RECORD_ALL],
	    br.net[CFG_C], n, "ns/pkt", "a hash map update per packet (what tests and the demo use)");
	row("hook floor: a no-op BPF dissector (returns OK at once) vs C, same path",
	    br.net[CFG_NOOP], br.net[CFG_C], n, "ns/pkt",
	    "the kernel's BPF hook + hashing with no parsing");
	row("zero-parse floor: per vector a program that only stores bpf_flow's keys for it "
	    "(no parsing) vs C", br.net[CFG_KEYS], br.net[CFG_C], n, "ns/pkt",
	    "the hook + the kernel's copy and hashing of the same keys: the least any BPF "
	    "dissector producing them costs on this path");
	row("bpf_flow as attached by default vs the zero-parse floor", br.net[CFG_DEFAULT],
	    br.net[CFG_KEYS], n, "ns/pkt", "what the parsing itself costs on this path");
	row("control: kernel C dissector vs itself, same harness", br.net[CFG_C2], br.net[CFG_C],
	    n, "ns/pkt", "noise check of the method (should be ~1.00x)");
	row("same as the first row, whole hash-recalc harness per packet", br.tot[CFG_DEFAULT],
	    br.tot[CFG_C], n, "ns", "floor included (skb hash invalidate/recalc, test_run)");
	row("bpf_flow alone via flow_dissector test_run (warm loop): recording off vs every "
	    "dissection", br.alone[0], br.alone[1], n, "ns", "ours = recording off, peer = "
	    "--record=1 (one hash update per packet)");
	/* diff: the scratch row after the three alone rows */
	for (round = 0; round < n; round++)
		br.alone[2][n + round] = br.alone[0][round] - br.alone[2][round];
	snprintf(notes, sizeof(notes), "test_run's own loop and the hook in both; bpf_flow's "
		 "parse costs %.1f ns per packet over them (median of per-round differences)",
		 flow_median(br.alone[2] + n, n));
	row("bpf_flow alone vs the no-op alone, flow_dissector test_run (warm loop)",
	    br.alone[0], br.alone[2], n, "ns", notes);
	for (round = 0; round < n; round++)
		br.own[3][round] = br.own[0][round] - br.own[2][round];
	snprintf(notes, sizeof(notes), "BPF_ENABLE_STATS run_time_ns / run_cnt (two clock "
		 "reads in each), separate rounds; the parse costs %.2f ns per packet over storing "
		 "the keys (median of per-round differences)", flow_median(br.own[3], n));
	row("own run time on the skb-hash path: bpf_flow as attached by default vs the "
	    "keys-only program", br.own[0], br.own[2], n, "ns", notes);
	for (round = 0; round < n; round++)
		br.own[3][round] = br.own[1][round] - br.own[0][round];
	snprintf(notes, sizeof(notes), "same method; recording (one in 64) costs %.2f ns per "
		 "packet (median of per-round differences)", flow_median(br.own[3], n));
	row("own run time on the skb-hash path: bpf_flow with --record vs as attached by default",
	    br.own[1], br.own[0], n, "ns", notes);
	rc = fflush(stdout) || ferror(stdout) ? -EIO : 0;
out:
	free(mem);
	close(recalc);
	close(floor_fd);
	close(br.fd[CFG_NOOP]);
	for (i = 0; i < m.n; i++)
		close(br.keys_fd[i]);
	for (i = 0; i < 3; i++)
		flow_close(&objs[i]);
	return rc;
}
