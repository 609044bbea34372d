// SPDX-License-Identifier: BSD-2-Clause
/*
 * The data printer's "net" option: integers whose typedef says they are in
 * network byte order print in host order, and the address members of
 * struct bpf_flow_keys print as IPv4/IPv6 addresses.
 */
#include <arpa/inet.h>
#include <string.h>
#include "internal.h"

/* Typedef names of big-endian integers and their widths. */
static const struct {
	const char *name;
	unsigned int size;
} be_typedefs[] = {
	{ "__be16", 2 },
	{ "__be32", 4 },
	{ "__be64", 8 },
};

int lbtfi_dp_net_typedef(struct lbtfi_dp *dp, const struct lbtf_type *t, struct lbtfi_bytes b)
{
	const char *name = lbtf_type_name(dp->btf, t);
	uint64_t v = 0;

	if (!name)
		return 0;
	for (size_t i = 0; i < sizeof(be_typedefs) / sizeof(be_typedefs[0]); i++) {
		unsigned int n = be_typedefs[i].size;

		if (strcmp(name, be_typedefs[i].name) || lbtf_resolve_size(dp->btf, t->type) != n)
			continue;
		if (b.len < n)
			return lbtfi_dp_truncated(dp, t->type, n, b.len);
		for (unsigned int j = 0; j < n; j++)
			v = v << 8 | b.p[j];
		lbtfi_json_uint(dp->w, v);
		return 1;
	}
	return 0;
}

/* Members of struct bpf_flow_keys (and its anonymous unions) holding addresses. */
static const struct {
	const char *member;
	int family;
	unsigned int size;
} flow_key_addrs[] = {
	{ "ipv4_src", AF_INET, 4 },
	{ "ipv4_dst", AF_INET, 4 },
	{ "ipv6_src", AF_INET6, 16 },
	{ "ipv6_dst", AF_INET6, 16 },
};

int lbtfi_dp_net_member(struct lbtfi_dp *dp, const char *member, struct lbtfi_bytes b, int *err)
{
	char buf[INET6_ADDRSTRLEN];

	for (size_t i = 0; i < sizeof(flow_key_addrs) / sizeof(flow_key_addrs[0]); i++) {
		if (strcmp(member, flow_key_addrs[i].member))
			continue;
		if (b.len < flow_key_addrs[i].size) {
			*err = lbtfi_dp_truncated(dp, 0, flow_key_addrs[i].size, b.len);
			return 1;
		}
		if (!inet_ntop(flow_key_addrs[i].family, b.p, buf, sizeof(buf)))
			return 0;
		lbtfi_dp_string(dp, buf);
		*err = 0;
		return 1;
	}
	return 0;
}

/* Byte offset of the member called name in composite t, or -1. */
static int member_offset(const struct lbtfi_dp *dp, const struct lbtf_type *t, const char *name)
{
	for (unsigned int i = 0; i < lbtf_vlen(t); i++) {
		const char *n = lbtf_name_by_offset(dp->btf, lbtf_members(t)[i].name_off);

		if (n && !strcmp(n, name) && !lbtf_member_bitfield_size(t, i))
			return lbtf_member_bit_offset(t, i) / 8;
	}
	return -1;
}

void lbtfi_dp_net_flow_keys(struct lbtfi_dp *dp, const struct lbtf_type *t, struct lbtfi_bytes b)
{
	int off = member_offset(dp, t, "addr_proto");
	uint16_t v;

	dp->addr_proto = 0;
	if (off < 0 || (size_t)off + 2 > b.len)
		return;
	memcpy(&v, b.p + off, 2); /* host order, as the dissector stores it */
	dp->addr_proto = v;
}

bool lbtfi_dp_net_skip_member(struct lbtfi_dp *dp, const struct lbtf_type *t, unsigned int i)
{
	int id = lbtf_resolve_type(dp->btf, lbtf_members(t)[i].type);
	const struct lbtf_type *m = id < 0 ? NULL : lbtf_type_by_id(dp->btf, id);
	const char *first;

	if (!m || lbtf_kind(m) != LBTF_KIND_STRUCT || !lbtf_vlen(m))
		return false;
	first = lbtf_name_by_offset(dp->btf, lbtf_members(m)[0].name_off);
	if (!first)
		return false;
	if (dp->addr_proto == 0x0800)
		return !strncmp(first, "ipv6_", 5);
	if (dp->addr_proto == 0x86dd)
		return !strncmp(first, "ipv4_", 5);
	return false;
}
