// SPDX-License-Identifier: BSD-2-Clause
/*
 * flowctl bench-e2e: the end-to-end cost of the dissector.  UDP datagrams go
 * from a socket in netns TX over a veth pair to a socket in netns RX, whose
 * veth has RPS on (bench/bench_flow.sh sets the namespaces up), so every
 * received packet is hashed by the flow dissector of RX: the kernel's C code,
 * or bpf_flow (as attached by default, or with --record), or a no-op BPF
 * dissector, in rotating order per round.
 *
 * One thread pinned to one CPU does everything: sendmmsg, and recvmmsg to
 * drain the receiver.  RPS steers to that same CPU, so the receive softirq
 * runs in this thread's context at bh-enable time (and, if it is deferred, in
 * that CPU's ksoftirqd, whose time is added).  CPU time per packet is the
 * thread's CPU time (this kernel has no IRQ time accounting, so softirq time
 * is charged to the thread) plus ksoftirqd's, divided by the packets sent.
 */
#include <errno.h>
#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include "flowctl.h"
#include "flowctl_stats.h"

#define E2E_PORT 9
#define E2E_BATCH 64
#define E2E_PAYLOAD 64

enum e2e_cfg { E_C, E_DEFAULT, E_RECORD, E_NOOP, E_NCFG };
static const char *const e2e_names[E_NCFG] = { "C", "default", "--record", "no-op" };

struct e2e_socks { int rx, tx; struct sockaddr_in dst; };

static int make_rx(void *p)
{
	struct e2e_socks *s = p;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(E2E_PORT) };
	int sz = 4 << 20;

	s->rx = socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s->rx < 0)
		return -errno;
	setsockopt(s->rx, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz));
	return bind(s->rx, (struct sockaddr *)&a, sizeof(a)) ? -errno : 0;
}

/*
 * Not connected: connect() gives a UDP socket a tx hash that the skb carries
 * over the veth, and the receiver would then not dissect at all.
 */
static int make_tx(void *p)
{
	struct e2e_socks *s = p;

	s->tx = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	return s->tx < 0 ? -errno : 0;
}

/* Nanoseconds ksoftirqd/cpu has run (its schedstat); 0 if not found. */
static unsigned long long ksoftirqd_ns(int pid)
{
	unsigned long long ns = 0;
	char path[64];
	FILE *f;

	if (pid <= 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns;
}

static int find_ksoftirqd(int cpu)
{
	char want[32], path[300], comm[64];
	struct dirent *d;
	DIR *dir = opendir("/proc");
	int pid = 0;
	FILE *f;

	if (!dir)
		return 0;
	snprintf(want, sizeof(want), "ksoftirqd/%d\n", cpu);
	while (!pid && (d = readdir(dir))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strcmp(comm, want))
			pid = atoi(d->d_name);
		fclose(f);
	}
	closedir(dir);
	return pid;
}

static unsigned long long thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void drain(int rx, struct mmsghdr *msgs, unsigned long *got)
{
	int n;

	while ((n = recvmmsg(rx, msgs, E2E_BATCH, MSG_DONTWAIT, NULL)) > 0)
		*got += n;
}

/* Sends n datagrams, draining the receiver; CPU ns per packet sent. */
static int blast(struct e2e_socks *s, unsigned long n, int softirqd, double *ns_pkt,
		 unsigned long *received)
{
	static char payload[E2E_BATCH][E2E_PAYLOAD], rxbuf[E2E_BATCH][2048];
	struct mmsghdr out[E2E_BATCH], in[E2E_BATCH];
	struct iovec iov[E2E_BATCH], riov[E2E_BATCH];
	unsigned long long t0, k0;
	unsigned long sent = 0;
	int i, m;

	memset(out, 0, sizeof(out));
	memset(in, 0, sizeof(in));
	for (i = 0; i < E2E_BATCH; i++) {
		iov[i] = (struct iovec){ payload[i], E2E_PAYLOAD };
		riov[i] = (struct iovec){ rxbuf[i], sizeof(rxbuf[i]) };
		out[i].msg_hdr.msg_name = &s->dst;
		out[i].msg_hdr.msg_namelen = sizeof(s->dst);
		out[i].msg_hdr.msg_iov = &iov[i];
		out[i].msg_hdr.msg_iovlen = 1;
		in[i].msg_hdr.msg_iov = &riov[i];
		in[i].msg_hdr.msg_iovlen = 1;
	}
	*received = 0;
	t0 = thread_ns();
	k0 = ksoftirqd_ns(softirqd);
	while (sent < n) {
		m = sendmmsg(s->tx, out, n - sent < E2E_BATCH ? n - sent : E2E_BATCH, 0);
		if (m < 0) {
			if (errno == ENOBUFS || errno == EAGAIN) {
				drain(s->rx, in, received);
				continue;
			}
			return -errno;
		}
		sent += m;
		drain(s->rx, in, received);
	}
	drain(s->rx, in, received);
	*ns_pkt = (double)(thread_ns() - t0 + ksoftirqd_ns(softirqd) - k0) / n;
	return 0;
}

static int pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

/* Before timing: one blast with run-time stats on must run bpf_flow per packet. */
static int verify_e2e(struct e2e_socks *s, int prog_fd, int rx_ns, int softirqd)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);
	unsigned long got, n = 1000;
	double ns;
	int stats, link, rc;

	stats = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats < 0)
		return -errno;
	link = flow_attach_link(prog_fd, rx_ns);
	if (link < 0) {
		close(stats);
		return link;
	}
	rc = blast(s, n, softirqd, &ns, &got);
	close(link);
	memset(&info, 0, sizeof(info));
	if (!rc && bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		rc = -errno;
	close(stats);
	if (rc)
		return rc;
	fprintf(stderr, "verified: %lu datagrams sent, %lu received, bpf_flow ran %llu times\n",
		n, got, (unsigned long long)info.run_cnt);
	if (info.run_cnt < n || got < n / 2) {
		fprintf(stderr, "verify: the receiver's dissector did not see every packet\n");
		return -EPROTO;
	}
	return 0;
}

int flow_bench_e2e(const struct e2e_opts *eo)
{
	struct flow_load_opts lo;
	struct flow_obj objs[2];
	struct e2e_socks s = { -1, -1, { .sin_family = AF_INET, .sin_port = htons(E2E_PORT) } };
	int fd[E_NCFG], rx_ns, tx_ns, softirqd, i, k, c, link, round, rc, n = eo->rounds;
	double *res, ns;
	unsigned long got, lost = 0;
	char err[512], what[256];

	if (inet_pton(AF_INET, eo->to, &s.dst.sin_addr) != 1) {
		fprintf(stderr, "bench-e2e: --to %s is not an IPv4 address\n", eo->to);
		return -EINVAL;
	}
	rx_ns = flow_netns_open(eo->rx_netns);
	tx_ns = flow_netns_open(eo->tx_netns);
	if (rx_ns < 0 || tx_ns < 0)
		return rx_ns < 0 ? rx_ns : tx_ns;
	rc = pin_cpu(eo->cpu);
	if (rc)
		return rc;
	softirqd = find_ksoftirqd(eo->cpu);
	flow_load_opts_default(&lo);
	if (eo->obj)
		lo.path = eo->obj;
	for (i = 0; i < 2; i++) {
		lo.cfg.record_every = i ? FLOW_DEFAULT_RECORD_EVERY : 0;
		if (flow_load(&objs[i], &lo, err, sizeof(err))) {
			fprintf(stderr, "bench-e2e: %s\n", err);
			return -EINVAL;
		}
	}
	fd[E_C] = -1;
	fd[E_DEFAULT] = objs[0].prog_fd;
	fd[E_RECORD] = objs[1].prog_fd;
	fd[E_NOOP] = flow_noop_load();
	if (fd[E_NOOP] < 0)
		return fd[E_NOOP];
	rc = flow_in_netns(rx_ns, make_rx, &s);
	if (!rc)
		rc = flow_in_netns(tx_ns, make_tx, &s);
	if (rc)
		return rc;
	rc = blast(&s, 1000, softirqd, &ns, &got);	/* warm up: neighbours, caches */
	if (!rc)
		rc = verify_e2e(&s, objs[0].prog_fd, rx_ns, softirqd);
	if (rc)
		return rc;
	res = calloc(E_NCFG * n, sizeof(double));
	if (!res)
		return -ENOMEM;
	for (round = 0; round < n && !rc; round++) {
		for (k = 0; k < E_NCFG && !rc; k++) {
			c = (k + round) % E_NCFG;
			link = fd[c] >= 0 ? flow_attach_link(fd[c], rx_ns) : -1;
			if (fd[c] >= 0 && link < 0) {
				rc = link;
				break;
			}
			rc = blast(&s, eo->packets, softirqd, &res[c * n + round], &got);
			if (link >= 0)
				close(link);
			lost += eo->packets - got;
		}
		if (!rc)
			fprintf(stderr, "round %d: CPU ns/packet: C %.0f, default %.0f, --record %.0f, "
				"no-op %.0f\n", round, res[E_C * n + round], res[E_DEFAULT * n + round],
				res[E_RECORD * n + round], res[E_NOOP * n + round]);
	}
	for (c = E_DEFAULT; c < E_NCFG && !rc; c++) {
		snprintf(what, sizeof(what), "end to end: UDP over veth into a netns with RPS, "
			 "CPU time per packet: bpf_flow %s vs the kernel's C dissector",
			 c == E_NOOP ? "replaced by a no-op BPF dissector" : e2e_names[c]);
		printf("| %s | %.0f ns | %.0f ns | %.3fx | %lu datagrams of %d bytes per run, %d "
		       "rounds in rotating order, median of per-round ratios; %lu of all sent "
		       "not received (socket full) |\n", what, flow_median(res + c * n, n),
		       flow_median(res + E_C * n, n), flow_median_ratio(res + c * n, res, n),
		       eo->packets, E2E_PAYLOAD, n, lost);
	}
	if (!rc && (fflush(stdout) || ferror(stdout)))
		rc = -EIO;
	free(res);
	close(s.rx);
	close(s.tx);
	close(fd[E_NOOP]);
	for (i = 0; i < 2; i++)
		flow_close(&objs[i]);
	return rc;
}
