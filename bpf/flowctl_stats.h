/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Medians for the benches (flowctl_stats.c).  Series are paired by index
 * (round k of ours with round k of the peer); the functions sort copies, so
 * the pairing of the caller's arrays is never disturbed.
 */
#ifndef FLOWCTL_STATS_H
#define FLOWCTL_STATS_H

/* Median of v[0..n-1]; v is left as it is. */
double flow_median(const double *v, int n);
/* Median over k of ours[k] / peer[k]. */
double flow_median_ratio(const double *ours, const double *peer, int n);

#endif
