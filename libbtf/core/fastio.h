/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Small writes into a FILE without a library call per write. On glibc the
 * stream's buffer pointers are public (its own putc_unlocked macro uses
 * them): when the bytes fit, copy them in place; otherwise, and on other C
 * libraries, fall back to fwrite_unlocked. Unbuffered and line-buffered
 * glibc streams report no room, so they keep their usual behaviour.
 * Callers hold the stream's lock (flockfile) or own the stream.
 */
#ifndef LIBBTF_FASTIO_H
#define LIBBTF_FASTIO_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static inline void lbtfi_put_mem(FILE *f, const void *p, size_t n)
{
#ifdef __GLIBC__
	if ((size_t)(f->_IO_write_end - f->_IO_write_ptr) >= n) {
		memcpy(f->_IO_write_ptr, p, n);
		f->_IO_write_ptr += n;
		return;
	}
#endif
	fwrite_unlocked(p, 1, n, f);
}

static inline void lbtfi_put_str(FILE *f, const char *s)
{
	lbtfi_put_mem(f, s, strlen(s));
}

/* A string literal: its length is known at compile time */
#define LBTFI_PUT_LIT(f, lit) lbtfi_put_mem(f, lit, sizeof(lit) - 1)

/* Decimal digits of v, two per division, ending just before end */
static inline void lbtfi_digits_before(char *end, uint64_t v)
{
	static const char pairs[201] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";

	while (v >= 100) {
		unsigned int r = v % 100;

		v /= 100;
		end -= 2;
		memcpy(end, pairs + 2 * r, 2);
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, pairs + 2 * v, 2);
	} else {
		*--end = '0' + v;
	}
}

static inline unsigned int lbtfi_count_digits(uint64_t v)
{
	unsigned int n = 1;

	for (; v >= 10000; v /= 10000)
		n += 4;
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* Writes v in decimal at buf (room for 20 digits, no NUL); returns the
 * number of digits. The one integer formatter of the dumpers: they print
 * millions of numbers, so no printf. */
static inline unsigned int lbtfi_dec_u64(char *buf, uint64_t v)
{
	unsigned int n = lbtfi_count_digits(v);

	lbtfi_digits_before(buf + n, v);
	return n;
}

#endif
