/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Raw text and JSON dumps of BTF, in the formats of `bpftool btf dump`
 * (bpftool 7.1): raw as `bpftool btf dump file F`, JSON as `bpftool -j`
 * (compact) or `bpftool -p` (pretty). For split BTF only the split part
 * (ids from lbtf_start_id()) is printed, as bpftool does.
 *
 * The dumps stream to out and return 0, or -EIO when out reports a write
 * error (the caller still flushes and checks out itself).
 */
#ifndef LIBBTF_DUMP_H
#define LIBBTF_DUMP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Everything declared here is exported; the rest of libbtf is built with
 * -fvisibility=hidden (see libbtf.map for the versioned list). */
#pragma GCC visibility push(default)

struct lbtf;

/* Every type of this object, one "[ID] KIND 'NAME' ..." record each. */
int lbtf_dump_raw(const struct lbtf *btf, FILE *out);
/* One type (any valid id, base ids included); -EINVAL for a bad id. */
int lbtf_dump_raw_type(const struct lbtf *btf, uint32_t id, FILE *out);
/* {"types":[...]} followed by a newline; pretty selects bpftool -p layout. */
int lbtf_dump_json(const struct lbtf *btf, FILE *out, bool pretty);

struct lbtf_ext;
/*
 * A .BTF.ext (libbtf_ext.h) named through btf, the .BTF it was made with:
 * func_info with each FUNC's name, line_info with file:line:col and the
 * source line, CO-RE relocations with their kind, root type and access
 * string resolved to a member path ("struct task_struct::real_parent"; an
 * access string that does not resolve is printed with the reason).
 * Raw: one "func_info: N sections" header per kind, then "section 'NAME':
 * N records" and one tab-indented line per record. JSON:
 * {"func_info":[{"section":..,"records":[..]}],"line_info":[..],"core_relo":[..]}.
 */
int lbtf_dump_ext_raw(const struct lbtf *btf, const struct lbtf_ext *ext, FILE *out);
int lbtf_dump_ext_json(const struct lbtf *btf, const struct lbtf_ext *ext, FILE *out, bool pretty);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
