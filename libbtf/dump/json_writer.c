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
	w->strict = false;
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
 * including its quirk of writing a backslash as \n (strict mode writes
 * \\: output that must be lossless, such as `btfdump ext`'s source lines
 * and the data printer's --valid-json). No escape for the single quote
 * (the v7.1.0 tag of the bpftool mirror had one; the installed build has
 * not). tests/dump/check_golden.sh checks both.
 *
 * Beyond bpftool, so that every string is valid JSON whatever bytes a BTF
 * or .BTF.ext holds (bpftool writes them raw): the other control
 * characters are written \u00XX, and so is each byte that is not part of
 * a valid UTF-8 sequence (its value as the code point of the same number,
 * as Latin-1 would read it: the byte stays visible; valid UTF-8 is copied
 * as it is). Strict mode also writes DEL as \u007f.
 */
static const char escape_letter[256] = {
	['\t'] = 't', ['\n'] = 'n', ['\r'] = 'r', ['\f'] = 'f', ['\b'] = 'b',
	['\\'] = 'n', ['"'] = '"',
};

/*
 * Whether a string may need escapes, 8 bytes at a time: a word holds a
 * byte below 0x20, a '"', a backslash, DEL or a byte with its high bit
 * set. Exact about presence (the classic "has zero byte" test), so the
 * common clean name goes out in one copy.
 */
#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

static inline bool word_may_need_escape(uint64_t x)
{
	uint64_t q = x ^ (ONES * '"'), b = x ^ (ONES * '\\'), d = x ^ (ONES * 0x7f);

	return (x | ((x - ONES * 0x20) & ~x) | ((q - ONES) & ~q) | ((b - ONES) & ~b) |
		((d - ONES) & ~d)) & HIGHS;
}

static inline bool byte_may_need_escape(unsigned char c)
{
	return c < 0x20 || c >= 0x7f || c == '"' || c == '\\';
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
		if (byte_may_need_escape(s[i]))
			return true;
	return false;
}

/* The length of the valid UTF-8 sequence at s (2 to 4 bytes), or 0: no
 * overlong form, no surrogate, nothing past U+10FFFF (RFC 3629). A NUL
 * ends the check (it is no continuation byte). */
static size_t utf8_seq(const unsigned char *s)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;

	if (c >= 0xc2 && c <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c == 0xe0 || c == 0xf0)
		lo = c == 0xe0 ? 0xa0 : 0x90;
	if (c == 0xed || c == 0xf4)
		hi = c == 0xed ? 0x9f : 0x8f;
	if (c >= 0xe0 && c <= 0xef)
		return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 ? 3 : 0;
	if (c >= 0xf0 && c <= 0xf4)
		return s[1] >= lo && s[1] <= hi && (s[2] & 0xc0) == 0x80 &&
		       (s[3] & 0xc0) == 0x80 ? 4 : 0;
	return 0;
}

void lbtfi_json_put_quoted(FILE *f, const char *str, bool strict)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str);

	putc_unlocked('"', f);
	if (!may_need_escape(str, n)) {
		lbtfi_put_mem(f, str, n);
		putc_unlocked('"', f);
		return;
	}
	while (*s) {
		unsigned char c = *s;
		size_t k = 1;

		if (escape_letter[c]) {
			putc_unlocked('\\', f);
			putc_unlocked(strict && c == '\\' ? '\\' : escape_letter[c], f);
		} else if (c >= 0x80 && (k = utf8_seq(s))) {
			lbtfi_put_mem(f, s, k);
		} else if (c < 0x20 || c >= 0x80 || (strict && c == 0x7f)) {
			static const char hex[] = "0123456789abcdef";
			char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

			lbtfi_put_mem(f, u, sizeof(u));
			k = 1;
		} else {
			putc_unlocked(c, f);
		}
		s += k;
	}
	putc_unlocked('"', f);
}

static void quoted(struct lbtfi_json *w, const char *s)
{
	lbtfi_json_put_quoted(w->out, s, w->strict);
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

void lbtfi_json_string_strict(struct lbtfi_json *w, const char *s)
{
	separate(w);
	lbtfi_json_put_quoted(w->out, s, true);
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
