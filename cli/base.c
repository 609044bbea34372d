// SPDX-License-Identifier: BSD-2-Clause
/*
 * A base BTF given with --base is checked before split BTF is read or built
 * over it, as the kernel verifies vmlinux before any module: the tools
 * follow the base's type ids (member types, pointer targets) and must not
 * trust them. libbtf's kernel-exact verifier must accept it (bases up to
 * the kernel's 16 MiB limit for loaded BTF; a vmlinux has no such limit,
 * larger bases get the second check only), and every type id the base names
 * must be one of its types (cheap, any size; for a base the verifier
 * refused, it says why in plainer words).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "cli.h"
#include "libbtf.h"
#include "libbtf_encode.h"
#include "libbtf_verify.h"

/* The last non-empty line of a verifier log, without leading tabs */
static void last_line(const char *log, char *out, size_t size)
{
	size_t n = log ? strlen(log) : 0;
	const char *e, *s;

	while (n && log[n - 1] == '\n')
		n--;
	if (!n) {
		snprintf(out, size, "(no log)");
		return;
	}
	e = log + n;
	for (s = e; s > log && s[-1] != '\n'; s--)
		;
	while (s < e && (*s == '\t' || *s == ' '))
		s++;
	snprintf(out, size, "%.*s", (int)(e - s), s);
}

/* Every type id the base names is one of its types (libbtf's check): 0 or
 * the exit code */
static int check_ids(const char *prog, const char *path, const struct lbtf *base)
{
	int err = lbtf_base_check(base, path, 0);

	if (!err)
		return 0;
	cli_err(prog, "%s", lbtf_errmsg());
	return cli_exit_for_errno(err);
}

int cli_check_base(const char *prog, const char *path, const struct lbtf *base)
{
	const struct lbtf *bb = lbtf_base(base);
	const void *data;
	size_t size;
	int rc;

	data = lbtf_raw_data(base, &size);
	/* larger than the verifier takes, or with a layout section (a newer
	 * kernel's format, which the running kernel's rules refuse as an
	 * unknown header): the id check alone */
	if (!data || size > LBTF_MAX_FILE_SIZE || lbtf_header(base)->layout_len)
		return check_ids(prog, path, base);
	{
		/* the verdict without a log first (a vmlinux base is verified
		 * by every module's run: the log's formatting was a third of
		 * a small module's time); the log only to say why */
		LBTF_OPTS(lbtf_verify_opts, o, .base = bb,
			  .flags = LBTF_VERIFY_NO_SPECIAL | LBTF_VERIFY_NO_KERNEL_BTF);
		struct lbtf_verify_result res = { .sz = sizeof(res) };
		char why[256];
		int err = lbtf_verify(data, size, &o, &res);

		if (res.err) {
			/* an id past the last type, which the verifier also
			 * refuses, said as such */
			if ((rc = check_ids(prog, path, base))) {
				lbtf_verify_result_free(&res);
				return rc;
			}
			lbtf_verify_result_free(&res);
			res = (struct lbtf_verify_result){ .sz = sizeof(res) };
			o.log_level = 1;
			o.flags |= LBTF_VERIFY_KEEP_LOG;
			err = lbtf_verify(data, size, &o, &res);
		}
		if (err && !res.err) {
			cli_err(prog, "%s: cannot verify the base BTF: %s",  path,
				lbtf_errmsg());
			return cli_exit_for_errno(err);
		}
		if (res.err) {
			last_line(res.full_log, why, sizeof(why));
			cli_err(prog, "%s: bad base BTF, the kernel would reject it: %s (%s)",
				 path, why, lbtf_errno_name(res.err));
			lbtf_verify_result_free(&res);
			return CLI_EXIT_INPUT;
		}
		lbtf_verify_result_free(&res);
	}
	return 0;
}
