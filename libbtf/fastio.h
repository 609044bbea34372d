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

#endif
