// SPDX-License-Identifier: BSD-2-Clause
/* Medians of series and of paired ratios, on copies (see flowctl_stats.h). */
#include <stdlib.h>
#include <string.h>
#include "flowctl_stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sorts v in place: only ever called on a private copy. */
static double median_in_place(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double flow_median(const double *v, int n)
{
	double *c = n > 0 ? malloc(n * sizeof(*c)) : NULL;
	double m;

	if (!c)
		return 0;
	memcpy(c, v, n * sizeof(*c));
	m = median_in_place(c, n);
	free(c);
	return m;
}

double flow_median_ratio(const double *ours, const double *peer, int n)
{
	double *r = n > 0 ? malloc(n * sizeof(*r)) : NULL;
	double m;
	int k;

	if (!r)
		return 0;
	for (k = 0; k < n; k++)
		r[k] = ours[k] / peer[k];
	m = median_in_place(r, n);
	free(r);
	return m;
}
