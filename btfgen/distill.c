// SPDX-License-Identifier: BSD-2-Clause
/* The output moved over a distilled base (btfgen --distilled-base) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "libbtf.h"
#include "libbtf_build.h"
#include "cli.h"
#include "report.h"
#include "distill.h"
#include "verify_out.h"

/* A malloc'ed copy of a parsed BTF's bytes */
static void *raw_copy(const struct lbtf *btf, size_t *size)
{
	const void *raw = lbtf_raw_data(btf, size);
	void *p = raw ? malloc(*size) : NULL;

	if (p)
		memcpy(p, raw, *size);
	return p;
}

int btfgen_distill(const char *prog, const char *input, const struct lbtf *base, void **data,
		   size_t *size, void **base_data, size_t *base_size)
{
	struct lbtf *split = lbtf_new(*data, *size, base), *nbase = NULL, *nsplit = NULL;
	void *nd = NULL, *nb = NULL;
	size_t nsize = 0, nbsize = 0;
	int rc;

	if (!split || lbtf_distill_base(split, &nbase, &nsplit)) {
		rc = cli_exit_for_errno(errno);
		cli_err(prog, "%s: cannot make the distilled base: %s", input, lbtf_errmsg());
		goto out;
	}
	nd = raw_copy(nsplit, &nsize);
	nb = raw_copy(nbase, &nbsize);
	if (!nd || !nb) {
		rc = CLI_EXIT_SYSTEM;
		cli_err(prog, "%s: out of memory", input);
		goto out;
	}
	/* what the kernel gets before it relocates onto its vmlinux */
	if ((rc = btfgen_verify_output(prog, input, nd, nsize, false, nbase)))
		goto out;
	free(*data);
	*data = nd;
	*size = nsize;
	*base_data = nb;
	*base_size = nbsize;
	nd = nb = NULL;
out:
	free(nd);
	free(nb);
	lbtf_free(nsplit);
	lbtf_free(nbase);
	lbtf_free(split);
	return rc;
}
