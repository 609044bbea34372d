// SPDX-License-Identifier: BSD-2-Clause
/*
 * A base BTF given with --base is checked before split BTF is read or built
 * over it, as the kernel verifies vmlinux before any module: the tools
 * follow the base's type ids (member types, pointer targets) and must not
 * trust them. The check is libbtf's (lbtf_base_check with the verifier);
 * here its message and exit status.
 */
#include "report.h"
#include "cli.h"
#include "libbtf.h"
#include "libbtf_encode.h"

int cli_check_base(const char *prog, const char *path, const struct lbtf *base)
{
	int err = lbtf_base_check(base, path, LBTF_BASE_CHECK_VERIFY);

	if (!err)
		return 0;
	cli_err(prog, "%s", lbtf_errmsg());
	return cli_exit_for_errno(err);
}
