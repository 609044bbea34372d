// SPDX-License-Identifier: BSD-2-Clause
/* Placeholder until the C-header dumper lands. */
#include <stdio.h>
#include "commands.h"

int btfdump_format_c(const struct lbtf *btf, int argc, char **argv, const struct btfdump_opts *o)
{
	fprintf(stderr, "btfdump: format c is not implemented yet\n");
	return 2;
}
