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
 * dissection cost is the difference.  Separately: test_run of bpf_flow alone,
 * with and without the last_dissection export.
 *
 * Runs in a private netns (unshare) that disappears with the process.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "flowctl.h"

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
static int load_noop_dissector(void)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = BPF_OK },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = BPF_FLOW_DISSECTOR);
	int fd = bpf_prog_load(BPF_PROG_TYPE_FLOW_DISSECTOR, "flow_noop", "GPL", insns, 2, &o);

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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
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
 * C dissector's hash depends on the packet (so it really dissected).
 */
static int verify(const struct bench_opts *bo, struct mix *m, int recalc, int floor_fd,
		  int prog_fd, int ns, int *hash_equal)
{
	__u32 ns_c = 0, ns_b = 0, h_c[MIX_MAX], h_b[MIX_MAX], hf = 0;
	__u64 before, after;
	int stats, link, i, distinct = 0, rc;

	stats = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats < 0)
		return -errno;
	*hash_equal = 0;
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
		if (h_c[i] != h_b[i])
			fprintf(stderr, "note: %s: skb hash differs, C %#x vs BPF %#x\n",
				m->v[i]->name, h_c[i], h_b[i]);
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

int flow_bench(const struct bench_opts *bo)
{
	struct flow_load_opts lo;
	struct flow_obj plain, exported;
	struct mix m;
	double *bpf_net, *c_net, *bpf_tot, *c_tot, *alone, *alone_exp, *noop, *c2_net;
	double floor_sum = 0;
	char err[512];
	__u32 t = 0, r = 0;
	int recalc, floor_fd, noop_fd, ns, link, round, i, rc, equal = 0;

	if (unshare(CLONE_NEWNET))
		return -errno;
	ns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (ns < 0)
		return -errno;
	flow_load_opts_default(&lo);
	if (bo->obj)
		lo.path = bo->obj;
	lo.cfg.export_keys = 0;
	if (flow_load(&plain, &lo, err, sizeof(err))) {
		fprintf(stderr, "bench: %s\n", err);
		return -EINVAL;
	}
	lo.cfg.export_keys = 1;
	if (flow_load(&exported, &lo, err, sizeof(err))) {
		fprintf(stderr, "bench: %s\n", err);
		return -EINVAL;
	}
	recalc = flow_hash_prog_load(1);
	floor_fd = flow_hash_prog_load(0);
	noop_fd = load_noop_dissector();
	if (recalc < 0 || floor_fd < 0 || noop_fd < 0)
		return recalc < 0 ? recalc : floor_fd < 0 ? floor_fd : noop_fd;
	build_mix(&m);
	rc = verify(bo, &m, recalc, floor_fd, plain.prog_fd, ns, &equal);
	if (rc)
		return rc;
	fprintf(stderr, "verified: every repetition ran bpf_flow (run_cnt); C hashes follow the "
		"packets; BPF and C hashes equal for %d/%d vectors\n", equal, m.n);

	bpf_net = calloc(8 * bo->rounds, sizeof(double));
	if (!bpf_net)
		return -ENOMEM;
	c_net = bpf_net + bo->rounds;
	bpf_tot = c_net + bo->rounds;
	c_tot = bpf_tot + bo->rounds;
	alone = c_tot + bo->rounds;
	alone_exp = alone + bo->rounds;
	noop = alone_exp + bo->rounds;
	c2_net = noop + bo->rounds;
	for (round = 0; round < bo->rounds; round++) {
		for (i = 0; i < m.n; i++) {
			double fl, c = 0, b = 0;
			int order;

			/* Alternate which side goes first. */
			for (order = 0; order < 2; order++) {
				if ((order ^ round ^ i) & 1) {
					link = flow_attach_link(plain.prog_fd, ns);
					if (link < 0)
						return link;
					rc = flow_tc_run(recalc, m.frame[i], m.len[i], bo->repeat, &t, &r);
					close(link);
					b = t;
				} else {
					rc = flow_tc_run(recalc, m.frame[i], m.len[i], bo->repeat, &t, &r);
					c = t;
				}
				if (rc)
					return rc;
			}
			rc = flow_tc_run(floor_fd, m.frame[i], m.len[i], bo->repeat, &t, &r);
			if (rc)
				return rc;
			fl = t;
			link = flow_attach_link(noop_fd, ns);
			if (link < 0)
				return link;
			rc = flow_tc_run(recalc, m.frame[i], m.len[i], bo->repeat, &t, &r);
			close(link);
			if (rc)
				return rc;
			noop[round] += (t - fl) / m.n;
			/* Control: the C side once more, after everything else. */
			rc = flow_tc_run(recalc, m.frame[i], m.len[i], bo->repeat, &t, &r);
			if (rc)
				return rc;
			c2_net[round] += (t - fl) / m.n;
			floor_sum += fl;
			bpf_tot[round] += b / m.n;
			c_tot[round] += c / m.n;
			bpf_net[round] += (b - fl) / m.n;
			c_net[round] += (c - fl) / m.n;

			/* Our program alone, without and with the export map. */
			{
				struct flow_run fr;

				rc = flow_test_run(plain.prog_fd, m.frame[i], m.len[i],
						   m.v[i]->flags, bo->repeat, &fr);
				if (rc)
					return rc;
				alone[round] += (double)fr.duration / m.n;
				t = fr.duration;
				rc = flow_test_run(exported.prog_fd, m.frame[i], m.len[i],
						   m.v[i]->flags, bo->repeat, &fr);
				if (rc)
					return rc;
				alone_exp[round] += (double)fr.duration / m.n;
				if (getenv("FLOWCTL_BENCH_DETAIL"))
					fprintf(stderr, "  %-30s BPF %.0f C %.0f floor %.0f alone %u "
						"(export %u)\n", m.v[i]->name, b, c, fl, t, fr.duration);
			}
		}
		fprintf(stderr, "round %d: per packet: BPF %.1f ns, C %.1f ns, no-op BPF %.1f ns "
			"(harness incl.: %.1f / %.1f); bpf_flow alone %.1f ns, with export %.1f ns\n",
			round, bpf_net[round], c_net[round], noop[round], bpf_tot[round], c_tot[round],
			alone[round], alone_exp[round]);
	}
	{
		double bn = median(bpf_net, bo->rounds), cn = median(c_net, bo->rounds);
		double bt = median(bpf_tot, bo->rounds), ct = median(c_tot, bo->rounds);
		double a = median(alone, bo->rounds), ae = median(alone_exp, bo->rounds);
		double nn = median(noop, bo->rounds);
		double rn[64], rt[64], ro[64], ra[64], rc2[64];
		int k, nr = bo->rounds < 64 ? bo->rounds : 64;

		/* Ratios are medians of the per-round ratios (each round is paired). */
		for (k = 0; k < nr; k++) {
			rn[k] = bpf_net[k] / c_net[k];
			rt[k] = bpf_tot[k] / c_tot[k];
			ro[k] = noop[k] / c_net[k];
			ra[k] = alone[k] / alone_exp[k];
			rc2[k] = c2_net[k] / c_net[k];
		}

		printf("| flow dissection via skb hash recalc, 16 selftest vectors (BPF vs kernel C dissector) "
		       "| %.1f ns/pkt | %.1f ns/pkt | %.2fx | tc test_run repeat %u, median of %d "
		       "alternating rounds, harness floor %.1f ns subtracted |\n",
		       bn, cn, median(rn, nr), bo->repeat, bo->rounds,
		       floor_sum / (bo->rounds * m.n));
		printf("| same, whole hash-recalc harness per packet | %.1f ns | %.1f ns | %.2fx | "
		       "includes skb hash invalidate/recalc |\n", bt, ct, median(rt, nr));
		printf("| hook floor: a no-op BPF dissector (returns OK at once) vs C, same path "
		       "| %.1f ns/pkt | %.1f ns/pkt | %.2fx | cost of the kernel's BPF hook + hashing "
		       "with no parsing |\n", nn, cn, median(ro, nr));
		printf("| control: kernel C dissector vs itself, same harness | %.1f ns/pkt | %.1f ns/pkt "
		       "| %.2fx | noise check of the A/B method (should be ~1.00x) |\n",
		       median(c2_net, bo->rounds), cn, median(rc2, nr));
		printf("| bpf_flow alone via flow_dissector test_run: export off vs on | %.1f ns | %.1f ns "
		       "| %.2fx | ours = last_dissection off, peer = on (one hash update per packet) |\n",
		       a, ae, median(ra, nr));
	}
	free(bpf_net);
	close(recalc);
	close(floor_fd);
	close(noop_fd);
	flow_close(&plain);
	flow_close(&exported);
	return 0;
}
