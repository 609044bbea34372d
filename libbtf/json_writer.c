// SPDX-License-Identifier: BSD-2-Clause
/* bpftool-compatible JSON layout; see json_writer.h. */
#include <inttypes.h>
#include <stdarg.h>
#include "json_writer.h"
#include "fastio.h"

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
	static const char spaces[] = "                                "; /* 8 levels */
	unsigned int n;

	if (!w->pretty)
		return;
	putc_unlocked('\n', w->out);
	for (n = w->depth * 4; n > sizeof(spaces) - 1; n -= sizeof(spaces) - 1)
		lbtfi_put_mem(w->out, spaces, sizeof(spaces) - 1);
	lbtfi_put_mem(w->out, spaces, n);
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

/*
 * Characters that need an escape, with the letter that follows the
 * backslash: the set of the installed bpftool 7.1 (no escape for the single
 * quote; the v7.1.0 tag of the bpftool mirror had one), except that a
 * backslash is written \\ where that bpftool writes \n, losing it (fixed
 * upstream later); tests/dump/check_golden.sh checks both.
 */
static const char escape_letter[256] = {
	['\t'] = 't', ['\n'] = 'n', ['\r'] = 'r', ['\f'] = 'f', ['\b'] = 'b',
	['\\'] = '\\', ['"'] = '"',
};

/* Escapes s from where it is on; returns the rest that did not fit. */
static const char *escape_in_place(FILE *f, const char *s)
{
#ifdef __GLIBC__
	/* Straight into the stream's buffer while there is room for the
	 * longest step (an escape pair); see fastio.h. */
	char *p = f->_IO_write_ptr;
	char *end = f->_IO_write_end;

	while (*s && end - p >= 2) {
		char e = escape_letter[(unsigned char)*s];

		if (e) {
			*p++ = '\\';
			*p++ = e;
		} else {
			*p++ = *s;
		}
		s++;
	}
	if (p != f->_IO_write_ptr)
		f->_IO_write_ptr = p;
#endif
	return s;
}

static void quoted(struct lbtfi_json *w, const char *s)
{
	FILE *f = w->out;

	putc_unlocked('"', f);
	s = escape_in_place(f, s);
	for (; *s; s++) { /* buffer full (or not glibc): one character at a time */
		char e = escape_letter[(unsigned char)*s];

		if (e) {
			putc_unlocked('\\', f);
			putc_unlocked(e, f);
		} else {
			putc_unlocked(*s, f);
		}
		if (f->_IO_write_end - f->_IO_write_ptr >= 64)
			s = escape_in_place(f, s + 1) - 1;
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

void lbtfi_json_key(struct lbtfi_json *w, const char *comma_quoted_colon, size_t len)
{
	if (w->pretty) {
		separate(w);
		newline(w);
		lbtfi_put_mem(w->out, comma_quoted_colon + 1, len - 1);
		putc_unlocked(' ', w->out);
	} else if (w->sep) { /* the owed comma comes with the key */
		lbtfi_put_mem(w->out, comma_quoted_colon, len);
	} else {
		lbtfi_put_mem(w->out, comma_quoted_colon + 1, len - 1);
	}
	w->sep = 0;
}

void lbtfi_json_string(struct lbtfi_json *w, const char *s)
{
	separate(w);
	quoted(w, s);
}

/* Integer formatting without printf: the dumps print millions of these. */
void lbtfi_fput_u64(FILE *f, uint64_t v)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char buf[24];
	int i = sizeof(buf);

	if (v < 10) {
		putc_unlocked('0' + (int)v, f);
		return;
	}
	/* two digits per division */
	while (v >= 100) {
		unsigned int r = v % 100;

		v /= 100;
		i -= 2;
		memcpy(buf + i, pairs + 2 * r, 2);
	}
	if (v >= 10) {
		i -= 2;
		memcpy(buf + i, pairs + 2 * v, 2);
	} else {
		buf[--i] = '0' + v;
	}
	lbtfi_put_mem(f, buf + i, sizeof(buf) - i);
}

void lbtfi_fput_i64(FILE *f, int64_t v)
{
	if (v < 0) {
		putc_unlocked('-', f);
		lbtfi_fput_u64(f, -(uint64_t)v);
	} else {
		lbtfi_fput_u64(f, v);
	}
}

void lbtfi_json_uint(struct lbtfi_json *w, uint64_t v)
{
	separate(w);
	lbtfi_fput_u64(w->out, v);
}

void lbtfi_json_int(struct lbtfi_json *w, int64_t v)
{
	separate(w);
	lbtfi_fput_i64(w->out, v);
}

void lbtfi_json_bool(struct lbtfi_json *w, bool v)
{
	separate(w);
	lbtfi_put_str(w->out, v ? "true" : "false");
}

void lbtfi_json_null(struct lbtfi_json *w)
{
	separate(w);
	LBTFI_PUT_LIT(w->out, "null");
}

void lbtfi_json_raw(struct lbtfi_json *w, const char *text, size_t len)
{
	separate(w);
	lbtfi_put_mem(w->out, text, len);
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
