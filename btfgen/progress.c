// SPDX-License-Identifier: BSD-2-Clause
/* btfgen's progress line and notes, the callbacks of its lbtf_encode call */
#include <stdio.h>
#include <unistd.h>
#include "progress.h"
#include "report.h"

static double secs_since(const struct timespec *a)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - a->tv_sec) + (now.tv_nsec - a->tv_nsec) / 1e9;
}

void btfgen_report_init(struct btfgen_report *r, const char *prog, const char *input, int on,
			bool verbose)
{
	r->prog = prog;
	r->input = input;
	r->verbose = verbose;
	r->tty = isatty(STDERR_FILENO);
	r->on = on < 0 ? r->tty : on;
	r->shown = false;
	clock_gettime(CLOCK_MONOTONIC, &r->t0);
}

/* Progress line (by default on a terminal, not in pahole's mode), only
 * once the run has taken over a second */
void btfgen_on_progress(void *ctx, uint32_t done, uint32_t total)
{
	struct btfgen_report *r = ctx;

	if (!r->on || secs_since(&r->t0) < 1.0)
		return;
	if (r->shown && done != total && secs_since(&r->last) < 0.1)
		return;
	clock_gettime(CLOCK_MONOTONIC, &r->last);
	fprintf(stderr, "\r%s: %u/%u compile units (%u%%)", r->prog, done, total,
		total ? (unsigned)(100ull * done / total) : 100);
	r->shown = true;
}

/* The line goes once the work is done: erased on a terminal, ended
 * elsewhere (--progress into a log) */
void btfgen_report_end(struct btfgen_report *r)
{
	if (r->shown)
		fputs(r->tty ? "\r\033[K" : "\n", stderr);
	r->shown = false;
}

void btfgen_on_warn(void *ctx, const char *msg)
{
	struct btfgen_report *r = ctx;

	btfgen_report_end(r);
	if (r->verbose)
		cli_err(r->prog, "%s: note: %s", r->input, msg);
}
