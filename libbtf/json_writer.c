// SPDX-License-Identifier: BSD-2-Clause
/* bpftool-compatible JSON layout; see json_writer.h. */
#include <inttypes.h>
#include <stdarg.h>
#include "json_writer.h"

void lbtfi_json_init(struct lbtfi_json *w, FILE *out, bool pretty)
{
	w->out = out;
	w->depth = 0;
	w->pretty = pretty;
	w->sep = 0;
}

void lbtfi_json_finish(struct lbtfi_json *w)
{
	putc_unlocked('\n', w->out);
}

/* Newline and indentation, pretty mode only. */
static void newline(struct lbtfi_json *w)
{
	if (!w->pretty)
		return;
	putc_unlocked('\n', w->out);
	for (unsigned int i = 0; i < w->depth; i++)
		fputs_unlocked("    ", w->out);
}

/* Pay the separator owed by the previous value; the next one owes ','. */
static void separate(struct lbtfi_json *w)
{
	if (w->sep)
		putc_unlocked(w->sep, w->out);
	w->sep = ',';
}

static void open_scope(struct lbtfi_json *w, char c)
{
	separate(w);
	putc_unlocked(c, w->out);
	w->depth++;
	w->sep = 0;
}

static void close_scope(struct lbtfi_json *w, char c)
{
	w->depth--;
	/* a non-empty scope closes on its own line */
	if (w->sep)
		newline(w);
	putc_unlocked(c, w->out);
	w->sep = ',';
}

void lbtfi_json_start_object(struct lbtfi_json *w) { open_scope(w, '{'); }
void lbtfi_json_end_object(struct lbtfi_json *w) { close_scope(w, '}'); }
void lbtfi_json_start_array(struct lbtfi_json *w) { open_scope(w, '['); }
void lbtfi_json_end_array(struct lbtfi_json *w) { close_scope(w, ']'); }

static void quoted(struct lbtfi_json *w, const char *s)
{
	FILE *f = w->out;

	putc_unlocked('"', f);
	for (; *s; s++) {
		switch (*s) {
		case '\t': fputs_unlocked("\\t", f); break;
		case '\n': fputs_unlocked("\\n", f); break;
		case '\r': fputs_unlocked("\\r", f); break;
		case '\f': fputs_unlocked("\\f", f); break;
		case '\b': fputs_unlocked("\\b", f); break;
		case '\\': fputs_unlocked("\\\\", f); break;
		case '"': fputs_unlocked("\\\"", f); break;
		case '\'': fputs_unlocked("\\'", f); break; /* bpftool escapes ticks too */
		default: putc_unlocked(*s, f);
		}
	}
	putc_unlocked('"', f);
}

void lbtfi_json_name(struct lbtfi_json *w, const char *name)
{
	separate(w);
	newline(w);
	w->sep = 0;
	quoted(w, name);
	putc_unlocked(':', w->out);
	if (w->pretty)
		putc_unlocked(' ', w->out);
}

void lbtfi_json_string(struct lbtfi_json *w, const char *s)
{
	separate(w);
	quoted(w, s);
}

/* Integer formatting without printf: the dumps print millions of these. */
static void put_u64(FILE *f, uint64_t v)
{
	char buf[24];
	int i = sizeof(buf);

	do {
		buf[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	fwrite_unlocked(buf + i, 1, sizeof(buf) - i, f);
}

void lbtfi_json_uint(struct lbtfi_json *w, uint64_t v)
{
	separate(w);
	put_u64(w->out, v);
}

void lbtfi_json_int(struct lbtfi_json *w, int64_t v)
{
	separate(w);
	if (v < 0) {
		putc_unlocked('-', w->out);
		put_u64(w->out, -(uint64_t)v);
	} else {
		put_u64(w->out, v);
	}
}

void lbtfi_json_bool(struct lbtfi_json *w, bool v)
{
	separate(w);
	fputs_unlocked(v ? "true" : "false", w->out);
}

void lbtfi_json_null(struct lbtfi_json *w)
{
	separate(w);
	fputs_unlocked("null", w->out);
}

void lbtfi_json_printf(struct lbtfi_json *w, const char *fmt, ...)
{
	va_list ap;

	separate(w);
	va_start(ap, fmt);
	vfprintf(w->out, fmt, ap);
	va_end(ap);
}

void lbtfi_json_string_field(struct lbtfi_json *w, const char *name, const char *s)
{
	lbtfi_json_name(w, name);
	lbtfi_json_string(w, s);
}

void lbtfi_json_uint_field(struct lbtfi_json *w, const char *name, uint64_t v)
{
	lbtfi_json_name(w, name);
	lbtfi_json_uint(w, v);
}

void lbtfi_json_int_field(struct lbtfi_json *w, const char *name, int64_t v)
{
	lbtfi_json_name(w, name);
	lbtfi_json_int(w, v);
}

void lbtfi_json_bool_field(struct lbtfi_json *w, const char *name, bool v)
{
	lbtfi_json_name(w, name);
	lbtfi_json_bool(w, v);
}
