// SPDX-License-Identifier: BSD-2-Clause
/* The verify-before-write invariant of btfgen (see verify_out.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "libbtf.h"
#include "libbtf_verify.h"
#include "verify_out.h"

/* The verifier's reason: the last line of its log, without leading tabs */
static const char *reason(char *log)
{
	size_t n = log ? strlen(log) : 0;
	char *s;

	while (n && log[n - 1] == '\n')
		log[--n] = 0;
	if (!n)
		return "(no log)";
	for (s = log + n; s > log && s[-1] != '\n'; s--)
		;
	while (*s == '\t' || *s == ' ')
		s++;
	return s;
}

int btfgen_verify_output(const char *prog, const char *input, const void *data, size_t size,
			 bool swapped, const struct lbtf *base)
{
	LBTF_OPTS(lbtf_verify_opts, o, .log_level = 1, .base = base,
		  .flags = LBTF_VERIFY_KEEP_LOG | LBTF_VERIFY_NO_KERNEL_BTF);
	struct lbtf_verify_result res = { .sz = sizeof(res) };
	void *host = NULL;
	int err, rc = 0;

	/* BPF_BTF_LOAD's 16 MiB bound does not apply to a kernel image's own
	 * BTF, which the kernel reads without it: larger outputs are not
	 * checked here (the Debian vmlinux's is 5 MiB) */
	if (size > LBTF_MAX_FILE_SIZE)
		return 0;
	if (swapped) {
		/* the verifier reads host order, as the kernel does */
		host = malloc(size);
		if (!host) {
			fprintf(stderr, "%s: %s: out of memory\n", prog, input);
			return CLI_EXIT_SYSTEM;
		}
		memcpy(host, data, size);
		if (lbtf_bytes_to_host(host, size) < 0) {
			fprintf(stderr, "%s: %s: internal error: the BTF made is not BTF\n", prog, input);
			free(host);
			return CLI_EXIT_INPUT;
		}
		data = host;
	}
	err = lbtf_verify(data, size, &o, &res);
	if (err && !res.err) {
		fprintf(stderr, "%s: %s: cannot verify the BTF made: %s\n", prog, input, lbtf_errmsg());
		rc = cli_exit_for_errno(err);
	} else if (res.err) {
		fprintf(stderr, "%s: %s: the BTF made from it would be rejected by the kernel, not written: %s (%s)\n",
			prog, input, reason(res.full_log), lbtf_errno_name(res.err));
		rc = CLI_EXIT_INPUT;
	}
	lbtf_verify_result_free(&res);
	free(host);
	return rc;
}
