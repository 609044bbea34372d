/* SPDX-License-Identifier: BSD-2-Clause */
/* btfcheck's internal interfaces: inputs and result reporting. */
#ifndef BTFCHECK_H
#define BTFCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "libbtf.h"

/* One input's bytes (lbtf_read_bytes: raw file, ELF .BTF or "-" for stdin) */
struct btfcheck_input {
	unsigned char *data;
	size_t size;
};

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
