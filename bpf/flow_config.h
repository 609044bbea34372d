/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Load-time configuration of bpf_flow.c, shared by the BPF program and its
 * loader.  It is the only variable in the object's .rodata, so the loader
 * writes it at offset 0 before loading; the verifier then sees constants.
 */
#ifndef FLOW_CONFIG_H
#define FLOW_CONFIG_H

#include <linux/types.h>

struct flow_config {
	__be32 continue_saddr;	/* IPv4 source handed back to the C dissector; 0 = never */
	/*
	 * 0: record nothing (the default: no per-packet cost).  N: record one
	 * dissection in N (per CPU) in last_dissection; 1 records every one.
	 */
	__u32 record_every;
};

/* `flowctl attach --record` without =N: one dissection in 64 per CPU. */
#define FLOW_DEFAULT_RECORD_EVERY 64

/* 127.0.0.127, as the kernel selftests use; the same bytes in either order. */
#define FLOW_DEFAULT_CONTINUE_SADDR 0x7f00007fU

#endif
