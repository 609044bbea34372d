// SPDX-License-Identifier: BSD-2-Clause
/* Maps (no programs) whose BTF the map-dump tests print. */
#include "maps.h"

#define SEC(s) __attribute__((section(s), used))
#define MAP(kind, n, k, v, nr)                                                   \
	struct {                                                                 \
		int (*type)[kind];                                               \
		int (*max_entries)[nr];                                          \
		k *key;                                                          \
		v *value;                                                        \
	} n SEC(".maps")

typedef unsigned int u32;
typedef unsigned long long u64;

MAP(1, md_hash, u32, struct val, 8);          /* BPF_MAP_TYPE_HASH */
MAP(2, md_array, u32, struct val, 2);         /* ARRAY */
MAP(5, md_pc_hash, struct key2, struct small, 4); /* PERCPU_HASH */
MAP(6, md_pc_array, u32, long long, 3);       /* PERCPU_ARRAY */
MAP(9, md_lru, u64, enum color, 4);           /* LRU_HASH */
MAP(10, md_lru_pc, u32, enum color, 4);       /* LRU_PERCPU_HASH */
MAP(1, md_flow, u32, struct bpf_flow_keys, 4);
MAP(1, md_float, u32, struct fval, 2);
MAP(1, md_esc, u32, struct esc, 2);
MAP(2, md_empty, u32, struct small, 1);       /* array slots read as zeros */
MAP(1, md_none, u32, u32, 4);                 /* stays empty */
MAP(1, md_random, u32, struct val, 32);       /* random bytes */
MAP(5, md_random_pc, u32, struct bpf_flow_keys, 16);

/* global data: .data/.bss maps typed by a DATASEC */
int g_counter = 7;
char g_label[6] = "hi";
struct inner g_inner = { -3, 9 };
long long g_zero;
const volatile unsigned short g_ro[3] = { 1, 2, 65535 }; /* .rodata, frozen */

char _license[] SEC("license") = "GPL";
