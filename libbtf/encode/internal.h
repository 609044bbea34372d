/* SPDX-License-Identifier: BSD-2-Clause */
/* The encode module's steps (encode.c runs them in order) and what they share. */
#ifndef LIBBTF_ENCODE_INTERNAL_H
#define LIBBTF_ENCODE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include "core/internal.h"
#include "libbtf_build.h"
#include "libbtf_encode.h"
#include "libbtf_ext.h"

/* One lbtf_encode call: its options, what each step made, what is freed */
struct lbtfi_encode_job {
	struct lbtf_encode_opts o;
	const char *input;
	struct lbtf *base;
	struct lbtf_builder *b;
	int swapped;                  /* the ELF is of the other byte order */
	void *data;                   /* the .BTF, in the ELF's byte order */
	size_t size;
	/* the input's .BTF.ext (ext.c) */
	struct lbtf_ext *ext;         /* as it is (NULL: none) */
	struct lbtf *old;             /* the .BTF its records index */
	bool gen;                     /* make func_info/line_info (gcc-bpf objects) */
	void *ext_data;               /* the .BTF.ext rewritten or made */
	size_t ext_size;
	/* the distilled base (distill.c) */
	void *base_data;
	size_t base_size;
	int verify_err;               /* a verdict against: the kernel's errno */
	bool rejected;
};

/* lbtfi_err() whose arguments may include lbtf_errmsg() itself */
int lbtfi_encode_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The last message prefixed with "what: " unless it names what already; -err */
int lbtfi_encode_err_named(int err, const char *what);

/* ext.c: the input's .BTF.ext read (in place), rewritten or made after serializing */
int lbtfi_encode_ext_open(struct lbtfi_encode_job *j);
int lbtfi_encode_ext(struct lbtfi_encode_job *j);
void lbtfi_encode_ext_free(struct lbtfi_encode_job *j);

/* verify.c: the blob verified as the kernel loads it (loaded.c makes the
 * copy the kernel would see); -EINVAL and j->rejected on a refusal */
int lbtfi_encode_verify(struct lbtfi_encode_job *j, const void *data, size_t size, bool swapped,
			const struct lbtf *base);
/* The verdict of lbtf_verify without a log, and on a rejection again with
 * the whole log kept (res->full_log) to say why; lbtf_verify's return */
struct lbtf_verify_opts;
struct lbtf_verify_result;
int lbtfi_encode_verdict(const void *data, size_t size, struct lbtf_verify_opts *o,
			 struct lbtf_verify_result *res);
/* The last line of a verifier log, without leading tabs (log trimmed) */
const char *lbtfi_encode_reason(char *log);
/* loaded.c */
bool lbtfi_encode_has_externs(const void *data, size_t size);
void lbtfi_encode_externs_as_loaded(void *data, size_t size);
void *lbtfi_encode_without_layout(const void *data, size_t *size);

/* distill.c: j->data moved over a distilled base (j->base_data), verified */
int lbtfi_encode_distill(struct lbtfi_encode_job *j);
/* write_raw.c: a blob to a raw file, renamed into place once verified */
int lbtfi_encode_write_raw(struct lbtfi_encode_job *j, const char *out, const void *data,
			   size_t size, const struct lbtf *base);
/* in_place.c: j->data (and .BTF.ext, .BTF.base) into the input ELF,
 * when libbpf would still open it */
int lbtfi_encode_in_place(struct lbtfi_encode_job *j);

#endif
