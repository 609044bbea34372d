// SPDX-License-Identifier: BSD-2-Clause
/*
 * Which kernels load a BTF blob: the upstream release whose BPF_BTF_LOAD
 * (kernel/bpf/btf.c) first accepted each kind, flag and layout, and which
 * of them libbpf rewrites for an older kernel (bpf_object__sanitize_btf).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

#define KV(a, b) ((uint32_t)(a) << 16 | (uint32_t)(b) << 8)

static const struct {
	uint32_t bit;
	const char *name;
	uint32_t version;
} kfeats[] = {
	{ LBTF_KFEAT_FUNC, "func", KV(5, 0) },
	{ LBTF_KFEAT_DATASEC, "datasec", KV(5, 2) },
	{ LBTF_KFEAT_GLOBAL_FUNC, "global_func", KV(5, 6) },
	{ LBTF_KFEAT_FLOAT, "float", KV(5, 13) },
	{ LBTF_KFEAT_DECL_TAG, "decl_tag", KV(5, 16) },
	{ LBTF_KFEAT_TYPE_TAG, "type_tag", KV(5, 17) },
	{ LBTF_KFEAT_ENUM64, "enum64", KV(6, 0) },
};

const char *lbtf_kfeat_name(uint32_t bit)
{
	for (size_t i = 0; i < sizeof(kfeats) / sizeof(kfeats[0]); i++)
		if (kfeats[i].bit == bit)
			return kfeats[i].name;
	return NULL;
}

uint32_t lbtf_kfeat_version(uint32_t bit)
{
	for (size_t i = 0; i < sizeof(kfeats) / sizeof(kfeats[0]); i++)
		if (kfeats[i].bit == bit)
			return kfeats[i].version;
	return 0;
}

uint32_t lbtf_kfeat_of_version(uint32_t version)
{
	uint32_t have = 0;

	for (size_t i = 0; i < sizeof(kfeats) / sizeof(kfeats[0]); i++)
		if (version >= kfeats[i].version)
			have |= kfeats[i].bit;
	return have;
}

struct need {
	uint32_t version;
	const char *what;
	uint32_t kfeat;          /* libbpf sanitizes it (0: it does not) */
};

/* What one type needs; version 0: nothing beyond BTF itself */
static struct need type_need(const struct lbtf_type *t)
{
	unsigned int k = lbtf_kind(t);
	bool kf = lbtf_kflag(t);

	switch (k) {
	case LBTF_KIND_STRUCT:
	case LBTF_KIND_UNION:
		return kf ? (struct need){ KV(5, 0), "STRUCT/UNION kind_flag (bitfield member offsets)", 0 }
			  : (struct need){ 0 };
	case LBTF_KIND_FWD:
		return kf ? (struct need){ KV(5, 0), "FWD kind_flag (union)", 0 } : (struct need){ 0 };
	case LBTF_KIND_FUNC_PROTO:
		return (struct need){ KV(5, 0), "FUNC_PROTO", LBTF_KFEAT_FUNC };
	case LBTF_KIND_FUNC:
		if (lbtf_vlen(t) > LBTF_LINKAGE_GLOBAL)
			return (struct need){ LBTF_KERNEL_NONE, "FUNC linkage extern", 0 };
		if (lbtf_vlen(t) == LBTF_LINKAGE_GLOBAL)
			return (struct need){ KV(5, 6), "FUNC linkage global", LBTF_KFEAT_GLOBAL_FUNC };
		return (struct need){ KV(5, 0), "FUNC", LBTF_KFEAT_FUNC };
	case LBTF_KIND_VAR:
		if (lbtf_var(t)->linkage > LBTF_LINKAGE_GLOBAL)
			return (struct need){ LBTF_KERNEL_NONE, "VAR linkage extern", 0 };
		return (struct need){ KV(5, 2), "VAR", LBTF_KFEAT_DATASEC };
	case LBTF_KIND_DATASEC:
		/* "bpf: permit size-0 datasec" (an empty .rodata from clang) */
		if (!lbtf_vlen(t))
			return (struct need){ KV(5, 12), "DATASEC without entries (vlen 0)", 0 };
		return (struct need){ KV(5, 2), "DATASEC", LBTF_KFEAT_DATASEC };
	case LBTF_KIND_FLOAT:
		return (struct need){ KV(5, 13), "FLOAT", LBTF_KFEAT_FLOAT };
	case LBTF_KIND_DECL_TAG:
		if (kf)
			return (struct need){ KV(6, 15), "DECL_TAG kind_flag (attribute)", 0 };
		return (struct need){ KV(5, 16), "DECL_TAG", LBTF_KFEAT_DECL_TAG };
	case LBTF_KIND_TYPE_TAG:
		if (kf)
			return (struct need){ KV(6, 15), "TYPE_TAG kind_flag (attribute)", 0 };
		return (struct need){ KV(5, 17), "TYPE_TAG", LBTF_KFEAT_TYPE_TAG };
	case LBTF_KIND_ENUM:
		if (kf)
			return (struct need){ KV(6, 0), "ENUM kind_flag (signed)", LBTF_KFEAT_ENUM64 };
		/* "bpf: fix BTF verification of enums": 4 bytes only before */
		return t->size != 4 ? (struct need){ KV(5, 4), "ENUM of size 1, 2 or 8", 0 }
				    : (struct need){ 0 };
	case LBTF_KIND_ENUM64:
		return (struct need){ KV(6, 0), "ENUM64", LBTF_KFEAT_ENUM64 };
	default:
		return (struct need){ 0 };
	}
}

static void consider(struct lbtf_min_kernel *r, struct need n, uint32_t id)
{
	r->kfeats |= n.kfeat;
	if (n.version > r->version) {
		r->version = n.version;
		r->why = n.what;
		r->why_id = id;
	}
	if (!n.kfeat && n.version > r->version_libbpf) {
		r->version_libbpf = n.version;
		r->why_libbpf = n.what;
		r->why_libbpf_id = id;
	}
}

/* "bpf: fix BTF limits" raised both from 0xffff (vmlinux BTF outgrew them) */
#define OLD_MAX_TYPE 0xffffu
#define OLD_MAX_STR_LEN 0x10000u

/* "bpf: Load and verify kernel module BTFs" (36e68442d1af): split BTF is
 * loaded only as a module's, never by BPF_BTF_LOAD */
static const struct need split_need = { KV(5, 11), "split BTF: module BTF", 0 };
static const struct need distilled_need = {
	KV(6, 11), "module BTF over a distilled base (.BTF.base)", 0
};

int lbtf_min_kernel(const void *data, size_t size, const struct lbtf_min_kernel_opts *opts,
		    struct lbtf_min_kernel *res)
{
	struct lbtf_min_kernel_opts o;
	struct lbtf_min_kernel r = {
		.sz = sizeof(r), .version = KV(4, 18), .version_libbpf = KV(4, 18),
		.why = "BTF", .why_libbpf = "BTF",
	};
	struct lbtf_header hdr;
	const struct lbtf_header *h = &hdr;
	const unsigned char *types;
	void *copy = NULL;
	size_t off = 0;
	uint32_t id;
	bool split;
	int err;

	if ((err = LBTFI_OPTS_COPY(&o, opts, lbtf_min_kernel_opts)) ||
	    (err = lbtfi_result_check(res, "lbtf_min_kernel")))
		return err;
	split = o.start_id > 1;
	id = split ? o.start_id : 1;
	memset(&hdr, 0, sizeof(hdr));
	if (size >= LBTF_HDR_LEN_V1)
		memcpy(&hdr, data, LBTF_HDR_LEN_V1);
	if (size < LBTF_HDR_LEN_V1 || h->magic != LBTF_MAGIC || h->hdr_len < LBTF_HDR_LEN_V1 ||
	    h->hdr_len % 4 || h->type_off % 4 || h->hdr_len > size ||
	    (uint64_t)h->type_off + h->type_len > size - h->hdr_len)
		return lbtfi_err(EINVAL, "not a BTF blob of this byte order");
	if (split)
		consider(&r, o.distilled_base ? distilled_need : split_need, 0);
	if (h->str_len > OLD_MAX_STR_LEN)
		consider(&r, (struct need){ KV(5, 4), "string section over 64 KiB", 0 }, 0);
	types = (const unsigned char *)data + h->hdr_len + h->type_off;
	if ((uintptr_t)types % 4) {
		/* read the records aligned */
		copy = malloc(h->type_len ? h->type_len : 1);
		if (!copy)
			return lbtfi_err(ENOMEM, "out of memory");
		memcpy(copy, types, h->type_len);
		types = copy;
	}
	while (off + sizeof(struct lbtf_type) <= h->type_len) {
		const struct lbtf_type *t = (const struct lbtf_type *)(types + off);
		size_t rec = lbtf_type_rec_size(t);
		struct need n;

		if (!rec || rec > h->type_len - off) {
			free(copy);
			return lbtfi_err(EINVAL, "type [%u] is malformed", id);
		}
		n = type_need(t);
		consider(&r, n, id);
		if (id == OLD_MAX_TYPE + 1 && !split)
			consider(&r, (struct need){ KV(5, 4), "more than 65535 types", 0 }, id);
		off += rec;
		id++;
	}
	free(copy);
	if (split) {
		/* libbpf loads no split BTF: it rewrites none of it */
		r.kfeats = 0;
		r.version_libbpf = r.version;
		r.why_libbpf = r.why;
		r.why_libbpf_id = r.why_id;
	}
	lbtfi_result_copy(res, &r, sizeof(r));
	return 0;
}
