// SPDX-License-Identifier: BSD-2-Clause
/*
 * Test driver for btfdump_cmd_map() until btfdump's main dispatches `map`:
 *   map_driver [-j|-p] ARGS...   (ARGS as after `btfdump map`)
 */
#include <string.h>
#include "commands.h"

int main(int argc, char **argv)
{
	struct btfdump_opts o = { .json = BTFDUMP_PLAIN };

	argc--, argv++;
	while (argc && (!strcmp(argv[0], "-j") || !strcmp(argv[0], "-p"))) {
		if (argv[0][1] == 'p')
			o.json = BTFDUMP_PRETTY;
		else if (o.json == BTFDUMP_PLAIN)
			o.json = BTFDUMP_JSON;
		argc--, argv++;
	}
	return btfdump_cmd_map(argc, argv, &o);
}
