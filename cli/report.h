/* SPDX-License-Identifier: BSD-2-Clause */
/* What the command-line programs (btfgen, btfcheck, btfdump) share. */
#ifndef BTF_TOOLS_CLI_REPORT_H
#define BTF_TOOLS_CLI_REPORT_H

/*
 * One error line on stderr, "PROG: message\n", printf-checked; returns code
 * (the exit status), so a caller can write `return cli_fail(2, prog, ...)`.
 */
int cli_fail(int code, const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
