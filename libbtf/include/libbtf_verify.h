/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Kernel-exact BTF verifier: the checks, verdict, errno and log text of
 * Linux 6.15-6.18's BPF_BTF_LOAD (btf_parse), or of a newer kernel's rules
 * (lbtf_verify_opts.kernel_version), computed without privileges.
 */
#ifndef LIBBTF_VERIFY_H
#define LIBBTF_VERIFY_H

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

/* Log level bits, as the kernel's BPF_LOG_*: any non-zero subset of 1|2|4|8 */
#define LBTF_LOG_LEVEL 1u
#define LBTF_LOG_STATS 4u
#define LBTF_LOG_FIXED 8u  /* keep the first bytes instead of the last */
#define LBTF_LOG_MASK 15u
#define LBTF_LOG_MAX_SIZE (UINT32_MAX >> 2)

/* Kernel errno that glibc has no name for */
#define LBTF_ENOTSUPP 524

enum lbtf_verify_flags {
	/* Skip the special-field pass (bpf_spin_lock & co., kptrs) */
	LBTF_VERIFY_NO_SPECIAL = 1u << 0,
	/* Split BTF (opts.base set): also run pass 2 (resolve) over the split
	 * types. No kernel path does this: stricter than module loading. */
	LBTF_VERIFY_STRICT = 1u << 1,
	/* Keep the whole log (result.full_log, free() it) whatever log_size */
	LBTF_VERIFY_KEEP_LOG = 1u << 2,
	/* Do not read /sys/kernel/btf/vmlinux for kptr targets */
	LBTF_VERIFY_NO_KERNEL_BTF = 1u << 3,
	/* Log as the kernel logs vmlinux and module BTF (BPF_LOG_KERNEL, to
	 * dmesg): no dumps, each message piece a "BPF: " line; the text is in
	 * result.full_log (with KEEP_LOG), log_true_size is 0. Needs a non-zero
	 * log_level to log at all. */
	LBTF_VERIFY_KERNEL_LOG = 1u << 4,
};

struct lbtf_verify_opts {
	size_t sz;            /* sizeof(struct lbtf_verify_opts) */
	uint32_t log_level;   /* 0 or a subset of LBTF_LOG_MASK */
	uint32_t log_size;    /* size of log_buf (0 with log_buf NULL: no buffer) */
	char *log_buf;        /* filled as the kernel fills the user's buffer */
	uint32_t flags;       /* enum lbtf_verify_flags */
	const struct lbtf *base; /* split BTF: verified as module BTF is */
	/* The whole log streamed instead of kept: log_fn gets its text in
	 * order, in pieces of up to 64 KiB, while the BTF is verified (a
	 * vmlinux log is ~10 MB, which then never sits in memory). Needs a
	 * log_level and no log_buf; result.full_log stays NULL, the true size
	 * and the verdict are as without it. */
	void (*log_fn)(const char *text, size_t len, void *ctx);
	void *log_ctx;
	/* The rules of this kernel release (KERNEL_VERSION code, as
	 * lbtf_kfeat_of_version takes): 0, or any release before 7.1, is the
	 * default, Linux 6.15-6.18's; 7.1 adds the 32-byte header and its
	 * layout section, 7.2 the 24-bit vlen and 7-bit kind. */
	uint32_t kernel_version;
};

#define LBTF_VERIFY_CAUSE_MAX 256

struct lbtf_verify_result {
	size_t sz;                /* sizeof(struct lbtf_verify_result): written up to it */
	int err;                  /* 0 valid, else the kernel's positive errno */
	uint32_t log_true_size;   /* the kernel's btf_log_true_size */
	bool true_size_written;   /* false when the kernel would not write it */
	uint32_t log_len;         /* bytes of text placed in log_buf */
	char *full_log;           /* whole log with LBTF_VERIFY_KEEP_LOG (malloc'ed) */
	size_t full_log_len;
	uint32_t nr_types;        /* types accepted by pass 1 (without void) */
	/* The special-field verdict needed kernel BTF (kptr targets) that
	 * could not be read: the kernel may answer differently. */
	bool env_dependent;
	/* Why the special-field pass (bpf_spin_lock, kptrs, graph roots in a
	 * struct) refused it, which the kernel's log never says: "struct 'val'
	 * [12] member 'lock2': a second struct bpf_spin_lock ...". Empty for
	 * every other verdict. */
	char cause[LBTF_VERIFY_CAUSE_MAX];
};

/*
 * Verify a BTF blob as the running kernel's BPF_BTF_LOAD would. Returns 0
 * when the kernel would load it, else the negative errno the kernel would
 * return (also in res->err, positive). If the call itself fails (out of
 * memory) it returns -ENOMEM with res->err left 0 and lbtf_errmsg() set.
 * opts may be NULL (log level 0), res may be NULL. The log goes into
 * opts->log_buf exactly as the kernel fills a user buffer (rotating or
 * fixed, NUL-terminated, ENOSPC on truncation). Byte order is never
 * converted: an opposite-endian blob is "Invalid magic", as in the kernel.
 */
int lbtf_verify(const void *data, size_t size, const struct lbtf_verify_opts *opts,
		struct lbtf_verify_result *res);

/* Free res->full_log. */
void lbtf_verify_result_free(struct lbtf_verify_result *res);

/* Name of an errno: "EINVAL", "ENODATA", the kernel's "ENOTSUPP" (524),
 * libbpf's "LIBBPF_ERRNO__FORMAT" (4001), ...; "E<n>" only for a number
 * nobody names. Thread-local storage for the last, valid until the next call. */
const char *lbtf_errno_name(int err);

struct lbtf_kernel_load_opts {
	size_t sz;              /* sizeof(struct lbtf_kernel_load_opts) */
	uint32_t log_level;
	char *log_buf;          /* NULL: no log */
	uint32_t log_size;
	uint32_t log_true_size; /* out: btf_log_true_size (0 if the kernel did not write it) */
};
/*
 * Submit the blob to the running kernel (BPF_BTF_LOAD). Returns 0 when it
 * loaded (the fd is closed), else the negative errno. opts may be NULL (no
 * log). Needs CAP_BPF.
 */
int lbtf_kernel_btf_load(const void *data, size_t size, struct lbtf_kernel_load_opts *opts);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif
