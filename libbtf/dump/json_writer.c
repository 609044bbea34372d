// SPDX-License-Identifier: BSD-2-Clause
/* bpftool-compatible JSON layout; see json_writer.h. */
#include <inttypes.h>
#include <stdarg.h>
#include "json_writer.h"
#include "core/fastio.h"

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
 * backslash: exactly the installed bpftool 7.1's set, byte for byte,
 * including its quirk of writing a backslash as \n (the data printer has a
 * strict-JSON mode for output that must be valid and lossless). No escape
 * for the single quote (the v7.1.0 tag of the bpftool mirror had one; the
 * installed build has not). tests/dump/check_golden.sh checks both.
 */
static const char escape_letter[256] = {
	['\t'] = 't', ['\n'] = 'n', ['\r'] = 'r', ['\f'] = 'f', ['\b'] = 'b',
	['\\'] = 'n', ['"'] = '"',
};

/*
 * Whether a string may need escapes, 8 bytes at a time: a word holds a
 * byte below 14 (all the control characters we escape are), a '"' or a
 * backslash. Exact about presence (the classic "has zero byte" test), so
 * the common clean name goes out in one copy.
 */
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

static inline bool word_may_need_escape(uint64_t x)
{
	uint64_t q = x ^ (ONES * '"'), b = x ^ (ONES * '\\');

	return (((x - ONES * 14) & ~x) | ((q - ONES) & ~q) | ((b - ONES) & ~b)) & HIGHS;
}

static bool may_need_escape(const char *s, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x;

		memcpy(&x, s + i, 8);
		if (word_may_need_escape(x))
			return true;
	}
	for (; i < n; i++)
		if (escape_letter[(unsigned char)s[i]])
			return true;
	return false;
}

static void quoted(struct lbtfi_json *w, const char *s)
{
	FILE *f = w->out;
	size_t n = strlen(s);

	putc_unlocked('"', f);
	if (!may_need_escape(s, n)) {
		lbtfi_put_mem(f, s, n);
	} else {
		for (; *s; s++) {
			char e = escape_letter[(unsigned char)*s];

			if (e)
				putc_unlocked('\\', f);
			putc_unlocked(e ? e : *s, f);
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

static inline void key(struct lbtfi_json *w, const char *comma_quoted_colon, size_t len)
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

void lbtfi_json_key(struct lbtfi_json *w, const char *comma_quoted_colon, size_t len)
{
	key(w, comma_quoted_colon, len);
}

void lbtfi_json_string(struct lbtfi_json *w, const char *s)
{
	separate(w);
	quoted(w, s);
}

/* Integer formatting without printf: the dumps print millions of these. */
void lbtfi_fput_u64(FILE *f, uint64_t v)
{
	char buf[24];
	unsigned int n;

	if (v < 10) {
		putc_unlocked('0' + (int)v, f);
		return;
	}
#ifdef __GLIBC__
	if (f->_IO_write_end - f->_IO_write_ptr >= 20) { /* in place, see fastio.h */
		f->_IO_write_ptr += lbtfi_dec_u64(f->_IO_write_ptr, v);
		return;
	}
#endif
	n = lbtfi_dec_u64(buf, v);
	lbtfi_put_mem(f, buf, n);
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

void lbtfi_json_key_uint(struct lbtfi_json *w, const char *comma_quoted_colon, size_t len,
			 uint64_t v)
{
	key(w, comma_quoted_colon, len);
	lbtfi_fput_u64(w->out, v);
	w->sep = ',';
}

void lbtfi_json_key_int(struct lbtfi_json *w, const char *comma_quoted_colon, size_t len,
			int64_t v)
{
	key(w, comma_quoted_colon, len);
	lbtfi_fput_i64(w->out, v);
	w->sep = ',';
}

void lbtfi_json_key_string(struct lbtfi_json *w, const char *comma_quoted_colon, size_t len,
			   const char *s)
{
	key(w, comma_quoted_colon, len);
	quoted(w, s);
	w->sep = ',';
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
