/* SPDX-License-Identifier: BSD-2-Clause */
/* What btfgen says while it works: a progress line, -v's notes (progress.c) */
#ifndef BTFGEN_PROGRESS_H
#define BTFGEN_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct btfgen_report {
	const char *prog, *input;
	bool verbose;
	bool on, tty, shown;       /* the progress line */
	struct timespec t0, last;
};

/* The line on (on > 0), off (0) or on a terminal (< 0), from now */
void btfgen_report_init(struct btfgen_report *r, const char *prog, const char *input, int on,
			bool verbose);
/* The callbacks of lbtf_encode_opts (ctx: the report) */
void btfgen_on_progress(void *ctx, uint32_t done, uint32_t total);
void btfgen_on_warn(void *ctx, const char *msg);
/* The line goes once the work is done */
void btfgen_report_end(struct btfgen_report *r);

#endif
