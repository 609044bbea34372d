// SPDX-License-Identifier: BSD-2-Clause
/* The encoder's messages: each names the file, built on what the step
 * under it said (lbtf_errmsg(), copied first: it is the buffer written). */
#include <stdio.h>
#include <string.h>
#include "internal.h"

int lbtfi_encode_err(int err, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return lbtfi_err(err, "%s", msg);
}

int lbtfi_encode_err_named(int err, const char *what)
{
	const char *msg = lbtf_errmsg();

	if (!what[0] || !strncmp(msg, what, strlen(what)))
		return lbtfi_encode_err(err, "%s", msg);
	return lbtfi_encode_err(err, "%s: %s", what, msg);
}
