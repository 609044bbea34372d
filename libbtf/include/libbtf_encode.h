/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libbtf encode: the product job in one call. "Give this ELF its BTF,
 * verified": DWARF to BTF, serialized, the .BTF.ext rewritten (or made for
 * gcc-bpf objects), verified as the kernel verifies it, distilled, and
 * written atomically, into the ELF (in place) or to a raw file. Nothing the
 * kernel would reject is ever written: a rejected blob leaves every file as
 * it was. btfgen and its pahole command line are argument parsers over it.
 */
#ifndef LIBBTF_ENCODE_H
#define LIBBTF_ENCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Everything declared here is exported; the rest of libbtf is built with
 * -fvisibility=hidden (see libbtf.map for the versioned list). */
#pragma GCC visibility push(default)

struct lbtf;
struct lbtf_dwarf_stats;

struct lbtf_encode_opts {
	size_t sz;               /* sizeof(struct lbtf_encode_opts) */
	/* Where the BTF goes: a raw BTF file (written to a temporary file
	 * while it is verified, renamed onto output once accepted), or with
	 * in_place the input's own .BTF section (and .BTF.ext, .BTF.base).
	 * Neither: the verified blob is returned in the result. */
	const char *output;
	bool in_place;
	/* Split BTF over this base (raw BTF or an ELF with .BTF), checked
	 * first as the kernel checks vmlinux before a module (lbtf_base_check) */
	const char *base_path;
	/* With in_place and base_path: split BTF over a distilled base,
	 * written as .BTF.base (out-of-tree kernel modules) */
	bool distilled_base;
	/* With a base-less output: a layout section (libbpf 1.8) */
	bool layout;
	/* Types in name order (lbtf_builder_sort_by_name), as the kernel
	 * build leaves them; refused (EINVAL) for an object with a .BTF.ext,
	 * whose records' type ids would have to move with them */
	bool sort_types;
	int jobs;                /* worker threads; <= 0: online CPUs; 1: one (see lbtf_dwarf_opts) */
	uint32_t features;       /* LBTF_DWARF_FEAT_*: see lbtf_dwarf_opts */
	int style;               /* enum lbtf_dwarf_style */
	/* Called as units complete, and with non-fatal notes: see lbtf_dwarf_opts */
	void (*progress)(void *ctx, uint32_t done, uint32_t total);
	void (*warn)(void *ctx, const char *msg);
	void *ctx;
	struct lbtf_dwarf_stats *stats; /* optional out: the conversion's figures */
	size_t :0;
};
#define lbtf_encode_opts__last_field stats

enum lbtf_encode_verdict {
	LBTF_ENCODE_FAILED = 0,   /* the job could not be done (see the errno) */
	LBTF_ENCODE_DONE = 1,     /* written (or returned) */
	/* The kernel (or libbpf, for a BPF object in place) would refuse
	 * the BTF made: nothing written; lbtf_errmsg() says why */
	LBTF_ENCODE_REJECTED = 2,
};

struct lbtf_encode_result {
	size_t sz;                /* sizeof(struct lbtf_encode_result): written up to it */
	int verdict;              /* enum lbtf_encode_verdict */
	int verify_err;           /* REJECTED by the verifier: the kernel's errno */
	/* Neither output nor in_place: the verified blob (malloc'ed, the
	 * caller frees it); else NULL */
	void *data;
	size_t size;              /* bytes of the .BTF written or returned */
};

/*
 * Encode the DWARF of the ELF file input as BTF and write it where opts
 * say. Returns 0 (verdict DONE), or a negative errno with lbtf_errmsg()
 * naming the file: EINVAL, ENOEXEC, ENODATA, ENOTSUP and the like for bad
 * input (also a REJECTED verdict: EINVAL), ENOENT, EACCES, EIO, ENOMEM,
 * ENOSPC and the like for the system, EEXIST when output is the input or
 * the base under another name. On failure no file is changed.
 */
int lbtf_encode(const char *input, const struct lbtf_encode_opts *opts,
		struct lbtf_encode_result *res);
/*
 * The second half of lbtf_encode for a blob made elsewhere (minimal BTF,
 * a builder's serialization): verified (over opts->base_path's BTF if
 * set) and written to opts->output as lbtf_encode writes it, or only
 * verified when output is NULL. name is what messages call the blob. The
 * other options must be unset (-EINVAL). Returns as lbtf_encode.
 */
int lbtf_encode_blob(const char *name, const void *data, size_t size,
		     const struct lbtf_encode_opts *opts, struct lbtf_encode_result *res);

/* lbtf_base_check's flags */
enum lbtf_base_check_flags {
	/* Beside the type ids: not split BTF itself, every string offset
	 * inside its strings, no chain of references looping (the kernel's
	 * "Loop detected"): what code building over a base relies on */
	LBTF_BASE_CHECK_FULL = 1u << 0,
	/* Instead: the kernel-exact verifier accepts it (lbtf_verify, as a
	 * module's base; a base over 16 MiB or with a layout section gets
	 * the type id check only). Costs a verifier run. */
	LBTF_BASE_CHECK_VERIFY = 1u << 1,
};
/*
 * Whether base can be read and built over without trusting it: every type
 * id it names is one of its types (and more with LBTF_BASE_CHECK_FULL).
 * 0, -EINVAL with lbtf_errmsg() "NAME: bad base BTF..." naming the first
 * fault, or -ENOMEM. Cheap at any size, but for LBTF_BASE_CHECK_VERIFY.
 */
int lbtf_base_check(const struct lbtf *base, const char *name, unsigned int flags);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
