// SPDX-License-Identifier: BSD-2-Clause
/*
 * Test driver for the C dumper, independent of btfdump's command line:
 *   dumpc_driver FILE [--sort] [--types NAME,...] [--no-frame]
 * Prints FILE's BTF (raw, ELF .BTF or /sys/kernel/btf/...) as C on stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "libbtf.h"

int main(int argc, char **argv)
{
	struct lbtf_dump_c_opts o = { .sz = sizeof(o) };
	uint32_t ids[4096];
	size_t n = 0;
	struct lbtf *btf;
	int err;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE [--sort] [--types N,...] [--no-frame]\n", argv[0]);
		return 2;
	}
	btf = lbtf_open(argv[1], NULL);
	if (!btf) {
		fprintf(stderr, "%s: %s\n", argv[1], lbtf_errmsg());
		return 1;
	}
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--sort")) {
			o.sort = true;
		} else if (!strcmp(argv[i], "--kfuncs")) {
			o.kfuncs = true;
		} else if (!strcmp(argv[i], "--no-frame")) {
			o.no_frame = true;
		} else if (!strcmp(argv[i], "--types") && i + 1 < argc) {
			char *list = argv[++i], *name;

			while ((name = strsep(&list, ","))) {
				int k = lbtf_dump_c_find_types(btf, name, ids + n, 4096 - n);

				if (k <= 0 || n + k > 4096) {
					fprintf(stderr, "%s: no type '%s'\n", argv[1], name);
					return 1;
				}
				n += k;
			}
			o.root_ids = ids;
			o.root_cnt = n;
		} else {
			fprintf(stderr, "unknown option %s\n", argv[i]);
			return 2;
		}
	}
	err = lbtf_dump_c(btf, stdout, &o);
	if (err) {
		fprintf(stderr, "%s: %s\n", argv[1], lbtf_errmsg());
		lbtf_free(btf);
		return 1;
	}
	lbtf_free(btf);
	return 0;
}
