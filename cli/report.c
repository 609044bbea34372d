// SPDX-License-Identifier: BSD-2-Clause
/* The programs' one-line error reporter (report.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "report.h"
#include "libbtf.h"

__attribute__((format(printf, 2, 0)))
static void vreport(const char *prog, const char *fmt, va_list ap)
{
	/* what stdout holds goes out first: where both streams go to one
	 * place (2>&1), a diagnostic follows the output before it */
	fflush(stdout);
	fprintf(stderr, "%s: ", prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int cli_fail(int code, const char *prog, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(prog, fmt, ap);
	va_end(ap);
	return code;
}

void cli_err(const char *prog, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(prog, fmt, ap);
	va_end(ap);
}

int cli_fail_msg(const char *prog, const char *what, const char *msg, int err)
{
	if (!what[0] || !strncmp(msg, what, strlen(what)))
		cli_err(prog, "%s", msg);
	else
		cli_err(prog, "%s: %s", what, msg);
	return cli_exit_for_errno(err);
}

int cli_fail_lib(const char *prog, const char *what)
{
	int err = errno;

	return cli_fail_msg(prog, what, lbtf_errmsg(), err);
}

int cli_bad_option(const char *prog, const char *optstring, const char *word, int opt)
{
	/* getopt sets optopt to the option's character (or a long option's
	 * value) when its argument is missing, to 0 for an unknown long one */
	bool known = opt > 127 || (opt > 0 && strchr(optstring, opt));

	if (known)
		return cli_fail(CLI_EXIT_USAGE, prog, "option '%s' needs an argument (see %s --help)",
				word, prog);
	if (opt > 0 && word[0] == '-' && word[1] != '-' && word[1] != opt)
		/* -xY...: a bundle whose later letter is unknown */
		return cli_fail(CLI_EXIT_USAGE, prog, "unknown option '-%c' (see %s --help)", opt, prog);
	return cli_fail(CLI_EXIT_USAGE, prog, "unknown option '%s' (see %s --help)", word, prog);
}
