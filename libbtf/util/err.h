/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The error sink (errors.c): a failing call sets the thread's message,
 * read back with lbtf_errmsg(), and errno, and returns a negative errno or
 * NULL. On the ground floor so that every module, io and elf included,
 * reports through it without including core.
 */
#ifndef LIBBTF_UTIL_ERR_H
#define LIBBTF_UTIL_ERR_H

#include <errno.h>

/* Set the thread's last error message; returns -err (err is a positive errno). */
int lbtfi_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Sets errno = err and returns NULL, for pointer-returning calls. */
void *lbtfi_err_ptr(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
