/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A streaming JSON writer whose layout matches bpftool's output byte for
 * byte: compact mode has no whitespace; pretty mode puts every object key on
 * its own line indented 4 spaces per level, writes "key": value, keeps
 * array scalars on one line and closes arrays/objects on a new line.
 * Internal to libbtf (lbtfi_ prefix), used by the dumpers and data printer.
 */
#ifndef LIBBTF_JSON_WRITER_H
#define LIBBTF_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "io/io.h"

struct lbtfi_json {
	FILE *out;
	unsigned int depth;
	bool pretty;
	char sep; /* separator owed before the next value: ',' or 0 */
	/* strings escaped losslessly (a backslash as \\, not bpftool's \n);
	 * false after lbtfi_json_init() */
	bool strict;
};

void lbtfi_json_init(struct lbtfi_json *w, FILE *out, bool pretty);
/* Ends the document: bpftool terminates its JSON output with a newline. */
void lbtfi_json_finish(struct lbtfi_json *w);

void lbtfi_json_start_object(struct lbtfi_json *w);
void lbtfi_json_end_object(struct lbtfi_json *w);
void lbtfi_json_start_array(struct lbtfi_json *w);
void lbtfi_json_end_array(struct lbtfi_json *w);
void lbtfi_json_name(struct lbtfi_json *w, const char *name);
/*
 * Same as lbtfi_json_name() for a key that is a string literal needing no
 * escapes: the quoting is done at compile time (the dumps write millions
 * of keys). lbtfi_json_key() takes ,"key": (comma included, used only
 * when a separator is owed) and its length.
 */
#define LBTFI_JSON_NAME(w, lit) lbtfi_json_key(w, ",\"" lit "\":", sizeof(lit) + 3)
void lbtfi_json_key(struct lbtfi_json *w, const char *comma_quoted_colon, size_t len);
/* Literal key and its value in one call */
#define LBTFI_JSON_UINT_FIELD(w, lit, v) lbtfi_json_key_uint(w, ",\"" lit "\":", sizeof(lit) + 3, v)
#define LBTFI_JSON_INT_FIELD(w, lit, v) lbtfi_json_key_int(w, ",\"" lit "\":", sizeof(lit) + 3, v)
#define LBTFI_JSON_STRING_FIELD(w, lit, s) \
	lbtfi_json_key_string(w, ",\"" lit "\":", sizeof(lit) + 3, s)
void lbtfi_json_key_uint(struct lbtfi_json *w, const char *comma_quoted_colon, size_t len,
			 uint64_t v);
void lbtfi_json_key_int(struct lbtfi_json *w, const char *comma_quoted_colon, size_t len,
			int64_t v);
void lbtfi_json_key_string(struct lbtfi_json *w, const char *comma_quoted_colon, size_t len,
			   const char *s);

void lbtfi_json_string(struct lbtfi_json *w, const char *s);
/* The same escaped strictly whatever w->strict says (json_writer.c) */
void lbtfi_json_string_strict(struct lbtfi_json *w, const char *s);
/* lbtfi_json_put_quoted(), the quoting of both: io/io.h */
void lbtfi_json_uint(struct lbtfi_json *w, uint64_t v);
void lbtfi_json_int(struct lbtfi_json *w, int64_t v);
void lbtfi_json_bool(struct lbtfi_json *w, bool v);
void lbtfi_json_null(struct lbtfi_json *w);
/* A value given as ready JSON text of length len (e.g. a pre-quoted
 * constant string: LBTFI_JSON_QUOTED_LIT(w, "INT")) */
void lbtfi_json_raw(struct lbtfi_json *w, const char *text, size_t len);
#define LBTFI_JSON_QUOTED_LIT(w, lit) lbtfi_json_raw(w, "\"" lit "\"", sizeof(lit) + 1)
/* A value written verbatim (e.g. bare hex in bpftool's plain map dumps) */
void lbtfi_json_printf(struct lbtfi_json *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Decimal integers straight into a FILE (no printf): shared with the raw
 * dumper, which prints millions of them.
 */
void lbtfi_fput_u64(FILE *f, uint64_t v);
void lbtfi_fput_i64(FILE *f, int64_t v);

/* name + value shorthands */
void lbtfi_json_string_field(struct lbtfi_json *w, const char *name, const char *s);
void lbtfi_json_uint_field(struct lbtfi_json *w, const char *name, uint64_t v);
void lbtfi_json_int_field(struct lbtfi_json *w, const char *name, int64_t v);
void lbtfi_json_bool_field(struct lbtfi_json *w, const char *name, bool v);

#endif
