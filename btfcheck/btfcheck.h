/* SPDX-License-Identifier: BSD-2-Clause */
/* btfcheck's internal interfaces: input reading and result reporting. */
#ifndef BTFCHECK_H
#define BTFCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "libbtf.h"

struct btfcheck_input {
	unsigned char *data;
	size_t size;
	const char *why; /* reason when reading failed */
};

/* Raw file, ELF .BTF or "-" (stdin); 0 or -errno with in->why set */
int btfcheck_read_input(const char *path, struct btfcheck_input *in);

/* The kernel's own answer for the same bytes (--kernel) */
struct btfcheck_kernel {
	bool tried, available, agree;
	int err;              /* positive errno, 0 loaded */
	uint32_t true_size;
	char *log;
};

struct btfcheck_report {
	const char *file;
	const struct lbtf_verify_result *res;
	const char *log;       /* what lands in the user's buffer */
	const char *reason;    /* last log line for a rejection */
	const struct btfcheck_kernel *kernel;
};

void btfcheck_print_text(const struct btfcheck_report *r, bool quiet);
void btfcheck_print_json(const struct btfcheck_report *r);

#endif
