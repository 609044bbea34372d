// SPDX-License-Identifier: BSD-2-Clause
/* The thread's last error message: the library never prints. */
#include <stdarg.h>
#include <stdio.h>
#include "libbtf.h"
#include "util/err.h"
#include "util/tls.h"

static LBTFI_TLS char last_err[512];

const char *lbtf_errmsg(void)
{
	return last_err[0] ? last_err : "no error";
}

__attribute__((format(printf, 1, 0)))
static void set_msg(const char *fmt, va_list ap)
{
	vsnprintf(last_err, sizeof(last_err), fmt, ap);
}

int lbtfi_err(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_msg(fmt, ap);
	va_end(ap);
	errno = err;
	return -err;
}

void *lbtfi_err_ptr(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set_msg(fmt, ap);
	va_end(ap);
	errno = err;
	return NULL;
}
