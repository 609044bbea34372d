/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * C header dump: prints BTF as compilable C declarations, the way
 * `bpftool btf dump file F format c` (bpftool 7.1 / libbpf 1.1) prints a
 * vmlinux.h, byte for byte. Output streams to a FILE*.
 */
#ifndef LIBBTF_DUMP_C_H
#define LIBBTF_DUMP_C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Everything declared here is exported; the rest of libbtf is built with
 * -fvisibility=hidden (see libbtf.map for the versioned list). */
#pragma GCC visibility push(default)

struct lbtf;

struct lbtf_dump_c_opts {
	size_t sz;                 /* sizeof(struct lbtf_dump_c_opts) */
	/*
	 * Dump types in a stable, name-based order (rank: enums, base-type
	 * typedefs, named structs/unions, function protos; then underlying
	 * name, own name, a structural hash, id) instead of id order, so
	 * headers of two kernels diff cleanly. Dependencies still come first.
	 */
	bool sort;
	/* Without the include guard / pragma frame (just the declarations). */
	bool no_frame;
	/* If root_cnt > 0: dump only these types and what they need. */
	const uint32_t *root_ids;
	size_t root_cnt;
	/*
	 * Full dumps only: append `extern ... __weak __ksym;` prototypes of
	 * the FUNCs tagged "bpf_kfunc" (sorted by name, as bpftool v7.5+
	 * does; bpftool 7.1 has none), with fallback __ksym/__weak/
	 * __bpf_fastcall definitions in the frame.
	 */
	bool kfuncs;
	/*
	 * The fallback __ksym/__weak/__bpf_fastcall definitions in every
	 * frame, also without kfuncs (with roots, or kfuncs off), as the
	 * newest bpftool prints them.
	 */
	bool macros;
	/*
	 * TYPE_TAGs with kind_flag set (attribute tags, e.g. the kernel's
	 * address_space(1)) written as __attribute__((NAME)), as libbpf >= 1.6
	 * does; off: __attribute__((btf_type_tag("NAME"))) for every tag, as
	 * bpftool 7.1 (libbpf 1.1) does.
	 */
	bool attr_type_tags;
};

/*
 * Writes the C header to out. Returns 0 or a negative errno (with
 * lbtf_errmsg() set): -EINVAL for malformed BTF (bad type ids or names,
 * root ids out of range), -ELOOP for a type cycle C cannot express, -E2BIG
 * or -EFBIG when hostile BTF would take an exponential walk or output,
 * -ENOMEM, -EIO if writing failed. Malformed BTF and cycles are found
 * before anything is written.
 */
int lbtf_dump_c(const struct lbtf *btf, FILE *out, const struct lbtf_dump_c_opts *opts);

/*
 * Type ids matching a C type name for root selection: "task_struct",
 * "struct task_struct", "union U", "enum E", a typedef name, or a base type
 * name. Only kinds the C dumper prints are matched (not FUNC/VAR/...).
 * Fills up to cap ids in ids and returns how many matched in total
 * (possibly > cap), or a negative errno.
 */
int lbtf_dump_c_find_types(const struct lbtf *btf, const char *cname, uint32_t *ids, size_t cap);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif
