// SPDX-License-Identifier: BSD-2-Clause
/*
 * The printing stack (see internal.h): jobs are popped one at a time, each
 * as a copy its step may push back before the nested part it reached, so
 * nesting costs heap, not machine stack. After an error the jobs left are
 * dropped.
 */
#include <stdlib.h>
#include "internal.h"

int lbtfi_dc_push_job(struct lbtfi_dc *d, const struct lbtfi_dc_job *j)
{
	if (LBTFI_GROW_FROM(d->jobs.v, d->jobs.cap, d->jobs.cnt + 1, 64))
		return lbtfi_dc_fail(d, -ENOMEM, "out of memory printing nested declarations", 0);
	d->jobs.v[d->jobs.cnt++] = *j;
	return 0;
}

static void step(struct lbtfi_dc *d, struct lbtfi_dc_job *j)
{
	switch (j->kind) {
	case DC_JOB_CHAIN:
		lbtfi_dc_step_chain(d, &j->chain);
		break;
	case DC_JOB_BODY:
		lbtfi_dc_step_body(d, j);
		break;
	case DC_JOB_PARAMS:
		lbtfi_dc_step_params(d, j);
		break;
	case DC_JOB_ARRAY:
		lbtfi_dc_step_array(d, j);
		break;
	case DC_JOB_CHAR:
		lbtfi_dc_putc(&d->out, j->c);
		break;
	case DC_JOB_FREE:
		d->stack.cnt = j->free_to;
		break;
	}
}

void lbtfi_dc_run_jobs(struct lbtfi_dc *d, size_t base)
{
	while (d->jobs.cnt > base) {
		struct lbtfi_dc_job j = d->jobs.v[--d->jobs.cnt];

		/* after an error, only the declarators' frames are given back */
		if (!d->err && !d->out.err)
			step(d, &j);
		else if (j.kind == DC_JOB_FREE)
			d->stack.cnt = j.free_to;
	}
}
