/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The BTF a BPF object loader hands the kernel: libbpf 1.1's fixups between
 * bpf_object__open() and BPF_BTF_LOAD, applied to an ELF BPF object's .BTF,
 * and the kernel versions that accept BTF features.
 */
#ifndef LIBBTF_OBJECT_H
#define LIBBTF_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

/* Kernel BTF features, as libbpf probes them before BPF_BTF_LOAD */
enum lbtf_kfeat {
	LBTF_KFEAT_FUNC = 1u << 0,        /* FUNC, FUNC_PROTO */
	LBTF_KFEAT_DATASEC = 1u << 1,     /* VAR, DATASEC */
	LBTF_KFEAT_GLOBAL_FUNC = 1u << 2, /* FUNC linkage global */
	LBTF_KFEAT_FLOAT = 1u << 3,
	LBTF_KFEAT_DECL_TAG = 1u << 4,
	LBTF_KFEAT_TYPE_TAG = 1u << 5,
	LBTF_KFEAT_ENUM64 = 1u << 6,      /* ENUM64, signed ENUM (kind_flag) */
	LBTF_KFEAT_ALL = (1u << 7) - 1,
};

/* Fixups libbpf applies to an object's BTF before loading it */
enum lbtf_fixup {
	LBTF_FIXUP_DATASEC_SIZE = 1u << 0,  /* DATASEC size from its ELF section */
	LBTF_FIXUP_VAR_OFFSET = 1u << 1,    /* VAR offsets from ELF symbols */
	LBTF_FIXUP_HIDDEN_VAR = 1u << 2,    /* hidden global VARs made static */
	LBTF_FIXUP_HIDDEN_FUNC = 1u << 3,   /* hidden global subprog FUNCs made static */
	LBTF_FIXUP_KSYM_VAR = 1u << 4,      /* .ksyms VARs: allocated int, 4 bytes each */
	LBTF_FIXUP_KSYM_FUNC = 1u << 5,     /* .ksyms FUNCs: global, dummy_ksym VAR in DATASEC */
	LBTF_FIXUP_KCONFIG = 1u << 6,       /* .kconfig VARs: allocated, laid out by libbpf */
	LBTF_FIXUP_SORT = 1u << 7,          /* DATASEC entries sorted by offset */
	LBTF_FIXUP_SANITIZE = 1u << 8,      /* kinds the kernel lacks rewritten */
	LBTF_FIXUP_COUNT = 9,
};

/* "func", "datasec", ... for one LBTF_KFEAT_* bit; NULL otherwise */
const char *lbtf_kfeat_name(uint32_t bit);

/* The oldest upstream Linux version (KERNEL_VERSION code: a << 16 | b << 8)
 * whose BPF_BTF_LOAD accepts a feature (one LBTF_KFEAT_* bit); 0 if unknown. */
uint32_t lbtf_kfeat_version(uint32_t bit);
/* The features a kernel of that version (KERNEL_VERSION code) has. */
uint32_t lbtf_kfeat_of_version(uint32_t version);

#define LBTF_KERNEL_NONE UINT32_MAX /* no upstream kernel accepts it */

struct lbtf_min_kernel {
	size_t sz;               /* sizeof(struct lbtf_min_kernel): written up to it */
	/* oldest upstream kernel (KERNEL_VERSION code) whose BPF_BTF_LOAD
	 * accepts the bytes as they are, LBTF_KERNEL_NONE if none does */
	uint32_t version;
	uint32_t why_id;         /* the first type that needs it (0: BTF itself) */
	const char *why;         /* what it uses: "ENUM64", "FUNC linkage global", ... */
	/* the same after libbpf 1.1 sanitizes them for an older kernel */
	uint32_t version_libbpf;
	uint32_t why_libbpf_id;
	const char *why_libbpf;
	uint32_t kfeats;         /* LBTF_KFEAT_* used: libbpf rewrites these below their version */
};

struct lbtf_min_kernel_opts {
	size_t sz;               /* sizeof(struct lbtf_min_kernel_opts) */
	/* the blob's first type id: 0 or 1 for base BTF; for split BTF the
	 * base's lbtf_type_cnt(). Split BTF is module BTF: the kernel loads
	 * it with its module (5.11 on), BPF_BTF_LOAD takes none, and libbpf
	 * never loads it, so nothing of it is sanitized. */
	uint32_t start_id;
	/* split BTF over a module's own distilled base (.BTF.base): the
	 * module loader reads that section and relocates the module's BTF
	 * from 6.11 on (d4e48e3dd450); older kernels read .BTF over vmlinux */
	bool distilled_base;
};

/*
 * Which upstream kernels load this BTF blob (host byte order; split BTF
 * as opts say):
 * from the kinds, flags and linkages its types use, by the release that
 * first accepted each (kernel/bpf/btf.c). Checks no more than needed to walk
 * the types: verify first. opts NULL: base BTF. Returns 0 or -EINVAL (a
 * malformed blob).
 */
int lbtf_min_kernel(const void *data, size_t size, const struct lbtf_min_kernel_opts *opts,
		    struct lbtf_min_kernel *res);

struct lbtf_object_opts {
	size_t sz;               /* sizeof(struct lbtf_object_opts) */
	/* LBTF_KFEAT_* the target kernel lacks (libbpf's sanitization);
	 * 0: a kernel with all of them */
	uint32_t missing_features;
	/* The object checked as if its .BTF held btf (btf_size bytes, the
	 * ELF's byte order) and its .BTF.ext held btf_ext (added when it has
	 * none): what rewriting those sections would give, known before
	 * writing (btfgen --in-place). NULL: the section as it is. */
	const void *btf;
	size_t btf_size;
	const void *btf_ext;
	size_t btf_ext_size;
	/* elf may be written: its .BTF is fixed where it lies (when it is
	 * 4-byte aligned there and no type or string is added), with no copy,
	 * and res->data then points into elf (res->in_elf), valid as long as
	 * elf is. Its .BTF may be changed even when the call fails: check
	 * the object again only from its file. Honoured when res has room
	 * for in_elf. false: elf is not written to. */
	bool in_place;
};

struct lbtf_object_btf {
	size_t sz;               /* sizeof(struct lbtf_object_btf): written up to it */
	void *data;              /* the BTF libbpf would load (malloc'ed); NULL: none */
	size_t size;
	uint32_t fixups;         /* LBTF_FIXUP_* that changed something */
	uint32_t sanitized;      /* LBTF_KFEAT_* whose kinds were rewritten */
	bool in_elf;             /* data is elf's own .BTF, fixed in place (opts->in_place) */
};

/* An ELF BPF relocatable object (ELF64, ET_REL, EM_BPF)? */
bool lbtf_is_bpf_object(const void *data, size_t size);

/*
 * The BTF libbpf 1.1 would submit to BPF_BTF_LOAD for the ELF BPF object
 * image elf (size bytes; path names it in messages): its .BTF after
 * bpf_object__open()'s extern and DATASEC fixups and bpf_object__load()'s
 * hidden-subprog and feature sanitization steps. Returns 0 (res->data
 * filled, free with lbtf_object_btf_free), or the negative errno libbpf's
 * open would fail with (its reason in lbtf_errmsg()): e.g. -ENOENT for a
 * DATASEC whose section is missing, -ESRCH for an extern without its BTF.
 * An object without .BTF that libbpf opens without BTF (no .maps or
 * .struct_ops section, no extern) gives 0 with res->data NULL and size 0:
 * no BTF reaches the kernel, and the object loads without it.
 * elf is not written to, unless opts->in_place.
 */
int lbtf_object_btf(const char *path, void *elf, size_t size,
		    const struct lbtf_object_opts *opts, struct lbtf_object_btf *res);
void lbtf_object_btf_free(struct lbtf_object_btf *res);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif
