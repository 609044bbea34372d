/* SPDX-License-Identifier: BSD-2-Clause */
/* btfgen's command line, parsed and checked (args.c) */
#ifndef BTFGEN_ARGS_H
#define BTFGEN_ARGS_H

#include <stdbool.h>
#include "libbtf_encode.h"

struct btfgen_args {
	struct lbtf_encode_opts o; /* what the library is asked */
	const char *out;           /* -o: a file, or - for standard output */
	const char *input;
	const char *target_btf;    /* --min-core --target-btf */
	char **objs;               /* --min-core's objects */
	int nobjs;
	bool min_core, verbose;
	int progress;              /* --progress, --no-progress; -1: on a terminal */
};

/* argv into a; -1 to go on, else the exit status (--help, --version, or
 * a usage error said on stderr) */
int btfgen_parse_args(const char *prog, int argc, char **argv, struct btfgen_args *a);

#endif
