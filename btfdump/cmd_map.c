// SPDX-License-Identifier: BSD-2-Clause
/* Placeholder until the map dumper lands. */
#include <stdio.h>
#include "commands.h"

int btfdump_cmd_map(int argc, char **argv, const struct btfdump_opts *o)
{
	fprintf(stderr, "btfdump: map is not implemented yet\n");
	return 2;
}
