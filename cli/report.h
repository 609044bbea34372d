/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one error path of the command-line programs (btfgen, btfcheck,
 * btfdump): every message is one line on stderr, "PROG: message", checked
 * by the compiler like printf; the exit status comes from cli.h's table.
 */
#ifndef BTF_TOOLS_CLI_REPORT_H
#define BTF_TOOLS_CLI_REPORT_H

/* "PROG: message"; returns code (the exit status), so a caller can write
 * `return cli_fail(CLI_EXIT_USAGE, prog, ...)`. */
int cli_fail(int code, const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The same line for a program that goes on (notes, warnings, or a failure
 * whose exit status is decided later). */
void cli_err(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * libbtf's last failure (lbtf_errmsg(), errno): "PROG: WHAT: message", the
 * WHAT left out when the message already starts with it (libbtf names the
 * file itself) or WHAT is empty; returns the exit status for the errno
 * (cli_exit_for_errno: 4 bad input, 5 system).
 */
int cli_fail_lib(const char *prog, const char *what);
/* The same for a message saved earlier and its errno. */
int cli_fail_msg(const char *prog, const char *what, const char *msg, int err);

/*
 * A getopt_long failure (opterr = 0, the caller's '?' case): "PROG: unknown
 * option 'WORD'" or "PROG: option 'WORD' needs an argument", with a pointer
 * to --help; returns CLI_EXIT_USAGE. word: argv[optind - 1].
 */
int cli_bad_option(const char *prog, const char *optstring, const char *word, int opt);

#endif
