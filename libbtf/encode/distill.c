// SPDX-License-Identifier: BSD-2-Clause
/* The output moved over a distilled base (opts.distilled_base) */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/* A malloc'ed copy of a parsed BTF's bytes */
static void *raw_copy(const struct lbtf *btf, size_t *size)
{
	const void *raw = lbtf_raw_data(btf, size);
	void *p = raw ? malloc(*size) : NULL;

	if (p)
		memcpy(p, raw, *size);
	return p;
}

int lbtfi_encode_distill(struct lbtfi_encode_job *j)
{
	struct lbtf *split, *nbase = NULL, *nsplit = NULL;
	void *nd = NULL, *nb = NULL;
	size_t nsize = 0, nbsize = 0;
	int err;

	if (j->swapped)
		return lbtfi_err(EINVAL, "%s: --distilled-base: an ELF of the other byte order is "
				 "not supported", j->input);
	split = lbtf_new(j->data, j->size, j->base);
	if (!split || lbtf_distill_base(split, &nbase, &nsplit)) {
		err = lbtfi_encode_err(errno, "%s: cannot make the distilled base: %s", j->input,
				       lbtf_errmsg());
		goto out;
	}
	nd = raw_copy(nsplit, &nsize);
	nb = raw_copy(nbase, &nbsize);
	if (!nd || !nb) {
		err = lbtfi_err(ENOMEM, "%s: out of memory", j->input);
		goto out;
	}
	/* what the kernel gets before it relocates onto its vmlinux */
	if ((err = lbtfi_encode_verify(j, nd, nsize, false, nbase)))
		goto out;
	free(j->data);
	j->data = nd;
	j->size = nsize;
	j->base_data = nb;
	j->base_size = nbsize;
	nd = nb = NULL;
out:
	free(nd);
	free(nb);
	lbtf_free(nsplit);
	lbtf_free(nbase);
	lbtf_free(split);
	return err;
}
