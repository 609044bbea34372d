/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared bits of the tests/flow cmocka tests: root check and loading. */
#ifndef FLOW_TEST_UTIL_H
#define FLOW_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "flowctl.h"

/* These tests need the kernel (BPF_PROG_LOAD etc.): root only. */
static inline void flow_test_need_root(void)
{
	if (geteuid() != 0) {
		printf("SKIP: needs root to load BPF programs\n");
		exit(77);
	}
}

/* Loads the built object with a configuration; aborts the test on failure. */
static inline int flow_test_load(struct flow_obj *fo, __u32 record_every, __u32 saddr)
{
	struct flow_load_opts o;
	char err[512];
	int rc;

	flow_load_opts_default(&o);
	o.cfg.record_every = record_every;
	o.cfg.continue_saddr = saddr;
	rc = flow_load(fo, &o, err, sizeof(err));
	if (rc)
		fprintf(stderr, "load: %s\n", err);
	return rc;
}

#endif
