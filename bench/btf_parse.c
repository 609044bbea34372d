// SPDX-License-Identifier: BSD-2-Clause
/*
 * bench/bench_layout.sh's "parse" command: lbtf_open() one BTF file and
 * print its type count, nothing else (a fresh process per run).
 */
#include <stdio.h>
#include "libbtf.h"

int main(int argc, char **argv)
{
	struct lbtf *btf;

	if (argc != 2)
		return fprintf(stderr, "usage: %s BTF\n", argv[0]), 2;
	btf = lbtf_open(argv[1], NULL);
	if (!btf)
		return fprintf(stderr, "%s: %s\n", argv[1], lbtf_errmsg()), 4;
	printf("%u\n", lbtf_type_cnt(btf));
	lbtf_free(btf);
	return 0;
}
