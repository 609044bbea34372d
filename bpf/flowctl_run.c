// SPDX-License-Identifier: BSD-2-Clause
/* Running the dissector with BPF_PROG_TEST_RUN and judging the result. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <bpf/bpf.h>
#include "flowctl.h"

int flow_test_run(int prog_fd, const void *pkt, size_t len, __u32 flags,
		  __u32 repeat, struct flow_run *out)
{
	/* Only the flags field of the input keys may be non-zero. */
	struct bpf_flow_keys in = { .flags = flags };
	LIBBPF_OPTS(bpf_test_run_opts, o,
		.data_in = pkt,
		.data_size_in = len,
		.data_out = &out->keys,
		.data_size_out = sizeof(out->keys),
		.ctx_in = flags ? &in : NULL,
		.ctx_size_in = flags ? sizeof(in) : 0,
		.repeat = repeat,
	);

	memset(out, 0, sizeof(*out));
	if (bpf_prog_test_run_opts(prog_fd, &o))
		return -errno;
	if (o.data_size_out != sizeof(out->keys))
		return -EPROTO;
	out->retval = o.retval;
	out->duration = o.duration;
	return 0;
}

int flow_run_matches(const struct flow_vector *v, const struct flow_run *r,
		     char *why, size_t whylen)
{
	char got[512], want[512];

	if (r->retval != v->ret) {
		snprintf(why, whylen, "return %u, expected %u", r->retval, v->ret);
		return 0;
	}
	/* CONTINUE hands the packet to the C dissector: the keys do not matter. */
	if (v->ret == BPF_FLOW_DISSECTOR_CONTINUE)
		return 1;
	if (memcmp(&r->keys, &v->keys, sizeof(v->keys))) {
		flow_keys_print(&r->keys, 0, got, sizeof(got));
		flow_keys_print(&v->keys, 0, want, sizeof(want));
		snprintf(why, whylen, "keys differ:\n  got  %s\n  want %s", got, want);
		return 0;
	}
	return 1;
}

void flow_keys_print(const struct bpf_flow_keys *k, int json, char *buf, size_t len)
{
	char src[INET6_ADDRSTRLEN] = "", dst[INET6_ADDRSTRLEN] = "";
	int af = k->addr_proto == 0x86DD ? AF_INET6 : AF_INET;

	inet_ntop(af, af == AF_INET6 ? (const void *)k->ipv6_src : (const void *)&k->ipv4_src,
		  src, sizeof(src));
	inet_ntop(af, af == AF_INET6 ? (const void *)k->ipv6_dst : (const void *)&k->ipv4_dst,
		  dst, sizeof(dst));
	snprintf(buf, len, json ?
		 "{\"nhoff\":%u,\"thoff\":%u,\"addr_proto\":%u,\"is_frag\":%u,"
		 "\"is_first_frag\":%u,\"is_encap\":%u,\"ip_proto\":%u,\"n_proto\":%u,"
		 "\"sport\":%u,\"dport\":%u,\"src\":\"%s\",\"dst\":\"%s\",\"flags\":%u,"
		 "\"flow_label\":%u}" :
		 "nhoff %u thoff %u addr_proto 0x%x frag %u/%u encap %u ip_proto %u "
		 "n_proto 0x%04x ports %u/%u src %s dst %s flags %u flow_label 0x%x",
		 k->nhoff, k->thoff, k->addr_proto, k->is_frag, k->is_first_frag, k->is_encap,
		 k->ip_proto, ntohs(k->n_proto), ntohs(k->sport), ntohs(k->dport), src, dst,
		 k->flags, ntohl(k->flow_label));
}
