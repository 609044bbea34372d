// SPDX-License-Identifier: BSD-2-Clause
/*
 * flowctl: load, attach, drive and inspect the bpf_flow.o dissector.
 *
 *   flowctl attach --netns NAME [--pin DIR] [--prog-attach] [--record[=N]] [--obj O]
 *                  [--continue-from IPV4|none]   (also for test; default 127.0.0.127)
 *                  --record: one dissection in N (default 64) per CPU goes into
 *                  last_dissection; without it nothing is recorded
 *   flowctl detach --netns NAME [--pin DIR]
 *   flowctl show   --netns NAME
 *   flowctl test   [--vector NAME] [--json] [--record[=N]] [--obj O]
 *   flowctl send   --netns NAME [--vector NAME]     (frames through a napi-frags tap)
 *   flowctl dump   --netns NAME | --pin DIR | --id N [--net | --hex]  (last_dissection via
 *                  btfdump; --net: network-order fields in host order, addresses as
 *                  addresses; --hex: raw bytes, no btfdump)
 *   flowctl bench  [--repeat N] [--rounds N]   (BPF vs C dissector, own netns)
 *   flowctl bench-e2e --tx NS --rx NS --to IPV4 --cpu N [--packets N] [--rounds N]
 *                  (UDP over veth into RX with RPS; set up by bench/bench_flow.sh)
 *
 * NAME is a netns under /run/netns or a path to a netns file; the machine's own
 * namespace is used only when named explicitly (e.g. /proc/1/ns/net).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include "btf_tools_version.h"
#include "flowctl.h"

struct args {
	const char *cmd, *netns, *pin, *vector, *obj;
	int json, prog_attach, rounds, net, hex;
	__u32 record_every;
	const char *continue_from, *tx, *rx, *to;
	int cpu;
	unsigned long packets;
	__u32 repeat;
	__u32 id;
	char pin_default[4096];
};

static const char *prog_name = "flowctl";

static int usage_to(FILE *f)
{
	fprintf(f,
		"usage: %s attach --netns NAME [--pin DIR] [--prog-attach] [--record[=N]] [--obj O]\n"
		"              [--continue-from IPV4|none]\n"
		"       %s detach --netns NAME [--pin DIR]\n"
		"       %s show --netns NAME\n"
		"       %s test [--vector NAME] [--json] [--record[=N]] [--obj O]\n"
		"       %s send --netns NAME [--vector NAME]\n"
		"       %s dump --netns NAME | --pin DIR | --id MAP_ID [--net | --hex]\n"
		"       %s bench [--repeat N] [--rounds N] [--obj O]\n"
		"       %s bench-e2e --tx NS --rx NS --to IPV4 --cpu N [--packets N] [--rounds N]\n"
		"       %s --help | --version\n"
		"Options:\n"
		"  --netns NAME        network namespace (/run/netns/NAME or a path to a netns file)\n"
		"  --pin DIR           bpffs directory for the pinned program, link and maps\n"
		"  --obj O             the dissector object (default: the built bpf_flow.o)\n"
		"  --prog-attach       attach with BPF_PROG_ATTACH instead of a netns bpf_link\n"
		"  --record[=N]        record one dissection in N (default 64) per CPU in\n"
		"                      last_dissection (attach, test); without it nothing is recorded\n"
		"  --continue-from IPV4|none  outer IPv4 packets from this source return CONTINUE\n"
		"                      (to the kernel dissector; default 127.0.0.127; none: never)\n"
		"  --vector NAME       only the test vector NAME\n"
		"  --json              test results as JSON\n"
		"  --id MAP_ID         dump the map with this id\n"
		"  --net               dump network-order fields in host order, addresses as addresses\n"
		"  --hex               dump: raw hex, not the typed dump through btfdump\n"
		"  --repeat N          bench: test_run repeat count (default 100000)\n"
		"  --rounds N          bench, bench-e2e: alternating rounds (default 5)\n"
		"  --tx NS, --rx NS    bench-e2e: the sending and the receiving namespace\n"
		"  --to IPV4           bench-e2e: the receiver's address\n"
		"  --cpu N             bench-e2e: the CPU the sender is pinned to\n"
		"  --packets N         bench-e2e: packets per round\n"
		"  -h, --help          this text\n"
		"  -V, --version       print the version\n",
		prog_name, prog_name, prog_name, prog_name, prog_name, prog_name, prog_name, prog_name,
		prog_name);
	return f == stderr ? 2 : (fflush(f) || ferror(f) ? 5 : 0);
}

static int usage(void)
{
	return usage_to(stderr);
}

static int die(const char *what, int err)
{
	fprintf(stderr, "%s: %s: %s\n", prog_name, what, strerror(err < 0 ? -err : err));
	return 1;
}

static int open_netns(const struct args *a)
{
	int fd;

	if (!a->netns) {
		fprintf(stderr, "%s %s: --netns NAME is required\n", prog_name, a->cmd);
		return -EINVAL;
	}
	fd = flow_netns_open(a->netns);
	if (fd < 0)
		fprintf(stderr, "%s: netns %s: %s\n", prog_name, a->netns, strerror(-fd));
	return fd;
}

static int load(const struct args *a, struct flow_obj *fo)
{
	struct flow_load_opts o;
	char err[512];
	int rc;

	flow_load_opts_default(&o);
	if (a->obj)
		o.path = a->obj;
	o.cfg.record_every = a->record_every;
	if (a->continue_from) {
		struct in_addr in;

		if (!strcmp(a->continue_from, "none")) {
			in.s_addr = 0;
		} else if (inet_pton(AF_INET, a->continue_from, &in) != 1 || !in.s_addr) {
			fprintf(stderr, "%s: --continue-from: %s is not an IPv4 address (or none)\n",
				prog_name, a->continue_from);
			return -EINVAL;
		}
		o.cfg.continue_saddr = in.s_addr;
	}
	rc = flow_load(fo, &o, err, sizeof(err));
	if (rc)
		fprintf(stderr, "%s: %s\n", prog_name, err);
	return rc;
}

static const char *pin_dir(struct args *a)
{
	if (a->pin)
		return a->pin;
	snprintf(a->pin_default, sizeof(a->pin_default), "/sys/fs/bpf/flowctl-%s",
		 strchr(a->netns, '/') ? "path" : a->netns);
	return a->pin_default;
}

/* jmp_table: pinned by attach before bpf_flow became one program; removed if found. */
static const char *const pin_names[] = { "link", "prog", "last_dissection", "jmp_table" };

/* Remove what attach pinned; missing entries are fine. */
static void unpin_all(const char *dir)
{
	char path[4200];
	size_t i;

	for (i = 0; i < sizeof(pin_names) / sizeof(pin_names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, pin_names[i]);
		unlink(path);
	}
	rmdir(dir);
}

/* The rest of a line saying what goes into last_dissection. */
static void print_recording(__u32 every)
{
	if (!every)
		printf("recording off (flowctl attach --record to record)\n");
	else if (every == 1)
		printf("recording every dissection in last_dissection\n");
	else
		printf("recording one dissection in %u per CPU in last_dissection\n", every);
}

static int cmd_attach(struct args *a)
{
	struct flow_obj fo;
	char err[512], path[4200];
	const char *dir;
	int ns, link, rc;

	ns = open_netns(a);
	if (ns < 0)
		return 1;
	if (load(a, &fo))
		return 1;
	dir = pin_dir(a);
	/* The maps, and the program for PROG_ATTACH, outlive us by their pins. */
	rc = flow_pin(&fo, dir, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "%s: %s (is %s on a bpffs mount? try --pin DIR)\n",
			prog_name, err, dir);
		unpin_all(dir);
		return 1;
	}
	if (a->prog_attach) {
		rc = flow_attach_prog(fo.prog_fd, ns);
	} else {
		link = flow_attach_link(fo.prog_fd, ns);
		rc = link < 0 ? link : 0;
		snprintf(path, sizeof(path), "%s/link", dir);
		if (!rc && bpf_obj_pin(link, path))
			rc = -errno;
	}
	if (rc) {
		fprintf(stderr, "%s: attach to netns %s: %s\n", prog_name, a->netns, strerror(-rc));
		unpin_all(dir);
		return 1;
	}
	printf("attached to netns %s with %s, pinned in %s, btf id %u, ", a->netns,
	       a->prog_attach ? "BPF_PROG_ATTACH" : "a netns bpf_link", dir, fo.btf_id);
	print_recording(a->record_every);
	flow_close(&fo);
	return 0;
}

static int cmd_detach(struct args *a)
{
	__u32 link_id, prog_id;
	int ns, fd, rc;

	ns = open_netns(a);
	if (ns < 0)
		return 1;
	rc = flow_find_link(ns, &link_id);
	if (rc)
		return die("looking for links", rc);
	if (link_id) {
		fd = bpf_link_get_fd_by_id(link_id);
		if (fd < 0 || bpf_link_detach(fd))
			return die("link detach", errno);
		close(fd);
	} else {
		rc = flow_query(ns, &prog_id);
		if (rc)
			return die("query", rc);
		if (!prog_id) {
			fprintf(stderr, "%s: nothing attached in netns %s\n", prog_name, a->netns);
			unpin_all(pin_dir(a));
			return 1;
		}
		fd = bpf_prog_get_fd_by_id(prog_id);
		if (fd < 0)
			return die("prog by id", errno);
		rc = flow_detach_prog(fd, ns);
		close(fd);
		if (rc)
			return die("prog detach", rc);
	}
	unpin_all(pin_dir(a));
	printf("detached from netns %s\n", a->netns);
	return 0;
}

static int cmd_show(struct args *a)
{
	struct bpf_map_info minfo;
	struct bpf_prog_info info;
	struct flow_config cfg;
	__u32 prog_id, link_id, len = sizeof(info);
	int ns, fd, rc;

	ns = open_netns(a);
	if (ns < 0)
		return 1;
	rc = flow_query(ns, &prog_id);
	if (rc)
		return die("query", rc);
	if (!prog_id) {
		printf("netns %s: no flow dissector attached\n", a->netns);
		return 0;
	}
	memset(&info, 0, sizeof(info));
	fd = bpf_prog_get_fd_by_id(prog_id);
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
		return die("prog info", errno);
	close(fd);
	flow_find_link(ns, &link_id);
	/* The programs carry no BTF without .BTF.ext; the maps carry the object's. */
	if (flow_prog_map(prog_id, NULL, &minfo))
		minfo.btf_id = 0;
	printf("netns %s: prog id %u name %s maps btf id %u", a->netns, prog_id, info.name,
	       minfo.btf_id);
	if (link_id)
		printf(" link id %u, ", link_id);
	else
		printf(" (BPF_PROG_ATTACH, no link), ");
	rc = flow_prog_config(prog_id, &cfg);
	if (rc)
		printf("configuration unknown (%s)\n", strerror(-rc));
	else
		print_recording(cfg.record_every);
	return 0;
}

static int cmd_test(struct args *a)
{
	unsigned char frame[FLOW_FRAME_MAX];
	struct flow_obj fo;
	struct flow_run r;
	char why[1200], keys[512];
	size_t i, len, ran = 0, failed = 0;
	const struct flow_vector *v;
	int rc, ok;

	if (a->vector && !flow_vector_find(a->vector)) {
		fprintf(stderr, "%s: no vector named %s\n", prog_name, a->vector);
		return 2;
	}
	if (load(a, &fo))
		return 1;
	if (a->json)
		printf("[");
	for (i = 0; i < flow_vector_count; i++) {
		v = &flow_vectors[i];
		if (a->vector && strcmp(a->vector, v->name))
			continue;
		len = flow_vector_build(v, frame, sizeof(frame));
		rc = flow_test_run(fo.prog_fd, frame, len, v->flags, 1, &r);
		if (rc) {
			flow_close(&fo);
			return die("BPF_PROG_TEST_RUN", rc);
		}
		ok = flow_run_matches(v, &r, why, sizeof(why));
		failed += !ok;
		flow_keys_print(&r.keys, a->json, keys, sizeof(keys));
		if (a->json)
			printf("%s\n{\"vector\":\"%s\",\"ok\":%s,\"retval\":%u,\"keys\":%s}",
			       ran ? "," : "", v->name, ok ? "true" : "false", r.retval, keys);
		else
			printf("%-4s %-30s ret %-3u %s%s%s\n", ok ? "ok" : "FAIL", v->name,
			       r.retval, keys, ok ? "" : "\n     ", ok ? "" : why);
		ran++;
	}
	if (a->json)
		printf("\n]\n");
	else
		printf("%zu vectors, %zu failed\n", ran, failed);
	flow_close(&fo);
	return failed ? 1 : 0;
}

struct send_ctx { const char *vector; size_t sent; int err; };

static int send_frames(void *p)
{
	struct send_ctx *c = p;
	unsigned char frame[FLOW_FRAME_MAX];
	size_t i, len;
	int tap;

	tap = flow_tap_open("flowtap0");
	if (tap < 0)
		return tap;
	for (i = 0; i < flow_vector_count; i++) {
		if (c->vector && strcmp(c->vector, flow_vectors[i].name))
			continue;
		len = flow_vector_build(&flow_vectors[i], frame, sizeof(frame));
		/* One write of the whole frame: the napi-frags path dissects it once. */
		if (write(tap, frame, len) != (ssize_t)len) {
			c->err = -errno;
			break;
		}
		c->sent++;
	}
	close(tap);
	return c->err;
}

static int cmd_send(struct args *a)
{
	struct send_ctx c = { a->vector, 0, 0 };
	int ns, rc;

	ns = open_netns(a);
	if (ns < 0)
		return 1;
	rc = flow_in_netns(ns, send_frames, &c);
	if (rc)
		return die("tap", rc);
	printf("sent %zu frames through a napi-frags tap in netns %s\n", c.sent, a->netns);
	return 0;
}

static int cmd_dump(struct args *a)
{
	struct bpf_map_info info;
	char path[4200];
	__u32 map_id = a->id, prog_id = 0;
	int ns, rc = 0;

	/* last_dissection: by id, pinned by attach, or the attached program's */
	if (!map_id && a->pin) {
		snprintf(path, sizeof(path), "%s/last_dissection", a->pin);
		rc = flow_pinned_map_id(path, &map_id);
	} else if (!map_id) {
		ns = open_netns(a);
		if (ns < 0)
			return 1;
		rc = flow_query(ns, &prog_id);
		if (!rc && !prog_id)
			rc = -ENOENT;
		if (!rc)
			rc = flow_prog_map(prog_id, "last_dissection", &info);
		if (!rc)
			map_id = info.id;
	}
	if (rc)
		return die("finding last_dissection", rc);
	if (a->net && a->hex) {
		fprintf(stderr, "%s dump: --net and --hex exclude each other\n", prog_name);
		return 2;
	}
	rc = flow_dump_keys(map_id, a->net, a->hex);
	return rc ? die("dump", rc) : 0;
}

static int cmd_bench(struct args *a)
{
	struct bench_opts bo = { a->obj, a->repeat ? a->repeat : 100000, a->rounds ? a->rounds : 5 };
	int rc = flow_bench(&bo);

	return rc ? die("bench", rc) : 0;
}

static int cmd_bench_e2e(struct args *a)
{
	struct e2e_opts eo = { a->obj, a->tx, a->rx, a->to, a->cpu,
			       a->packets ? a->packets : 50000, a->rounds ? a->rounds : 7 };
	int rc;

	if (!a->tx || !a->rx || !a->to || a->cpu < 0) {
		fprintf(stderr, "%s bench-e2e: --tx, --rx, --to and --cpu are required\n", prog_name);
		return 2;
	}
	rc = flow_bench_e2e(&eo);
	return rc ? die("bench-e2e", rc) : 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "netns", required_argument, NULL, 'n' },
		{ "pin", required_argument, NULL, 'p' },
		{ "vector", required_argument, NULL, 'v' },
		{ "obj", required_argument, NULL, 'o' },
		{ "id", required_argument, NULL, 'i' },
		{ "json", no_argument, NULL, 'j' },
		{ "prog-attach", no_argument, NULL, 'P' },
		{ "record", optional_argument, NULL, 'E' },
		{ "hex", no_argument, NULL, 'H' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "net", no_argument, NULL, 'N' },
		{ "continue-from", required_argument, NULL, 'C' },
		{ "rounds", required_argument, NULL, 'R' },
		{ "tx", required_argument, NULL, 'T' },
		{ "rx", required_argument, NULL, 'X' },
		{ "to", required_argument, NULL, 't' },
		{ "cpu", required_argument, NULL, 'c' },
		{ "packets", required_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct args a;
	char *end;
	int c;

	memset(&a, 0, sizeof(a));
	a.cpu = -1;
	if (argc < 2)
		return usage();
	/* options before or after the command word, as GNU getopt permutes */
	while ((c = getopt_long(argc, argv, "hV", opts, NULL)) != -1) {
		switch (c) {
		case 'h': return usage_to(stdout);
		case 'V':
			printf("%s %s\n", prog_name, BTF_TOOLS_VERSION);
			return fflush(stdout) || ferror(stdout) ? 5 : 0;
		case 'n': a.netns = optarg; break;
		case 'p': a.pin = optarg; break;
		case 'v': a.vector = optarg; break;
		case 'o': a.obj = optarg; break;
		case 'i': a.id = strtoul(optarg, NULL, 0); break;
		case 'j': a.json = 1; break;
		case 'P': a.prog_attach = 1; break;
		case 'E':
			a.record_every = optarg ? strtoul(optarg, &end, 10) : FLOW_DEFAULT_RECORD_EVERY;
			if (optarg && (*end || !*optarg || !a.record_every)) {
				fprintf(stderr, "%s: --record=%s: N must be a positive number\n",
					prog_name, optarg);
				return 2;
			}
			break;
		case 'H': a.hex = 1; break;
		case 'N': a.net = 1; break;
		case 'C': a.continue_from = optarg; break;
		case 'r': a.repeat = strtoul(optarg, NULL, 0); break;
		case 'R': a.rounds = atoi(optarg); break;
		case 'T': a.tx = optarg; break;
		case 'X': a.rx = optarg; break;
		case 't': a.to = optarg; break;
		case 'c': a.cpu = atoi(optarg); break;
		case 'k': a.packets = strtoul(optarg, NULL, 0); break;
		default: return usage();
		}
	}
	if (optind != argc - 1)
		return usage();
	a.cmd = argv[optind];
	if (!strcmp(a.cmd, "help"))
		return usage_to(stdout);
	if (!strcmp(a.cmd, "attach"))
		return cmd_attach(&a);
	if (!strcmp(a.cmd, "detach"))
		return cmd_detach(&a);
	if (!strcmp(a.cmd, "show"))
		return cmd_show(&a);
	if (!strcmp(a.cmd, "test"))
		return cmd_test(&a);
	if (!strcmp(a.cmd, "send"))
		return cmd_send(&a);
	if (!strcmp(a.cmd, "dump"))
		return cmd_dump(&a);
	if (!strcmp(a.cmd, "bench"))
		return cmd_bench(&a);
	if (!strcmp(a.cmd, "bench-e2e"))
		return cmd_bench_e2e(&a);
	return usage();
}
