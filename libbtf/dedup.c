// SPDX-License-Identifier: BSD-2-Clause
#include "build_internal.h"
int lbtf_dedup(struct lbtf_builder *b, const struct lbtf_dedup_opts *opts)
{
	return lbtfi_err(ENOTSUP, "dedup not implemented yet");
}
