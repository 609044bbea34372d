// SPDX-License-Identifier: BSD-2-Clause
/* The programs' one-line error reporter (report.h). */
#include <stdarg.h>
#include <stdio.h>
#include "report.h"

int cli_fail(int code, const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return code;
}
