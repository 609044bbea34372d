/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading every element of a live map for `btfdump map` (map_walk.c). */
#ifndef BTFDUMP_MAP_WALK_H
#define BTFDUMP_MAP_WALK_H
#include "libbtf.h"

/* Bytes of a value buffer: nr_cpus strided copies for per-CPU maps. */
size_t btfdump_value_buf_size(const struct lbtf_map_desc *d);

/*
 * Feeds every element of map fd to dump, in the kernel's key order (the
 * order of bpftool's get-next-key walk). Returns 0, or -1 with a message
 * printed.
 */
int btfdump_map_walk(int fd, const struct lbtf_map_desc *d, struct lbtf_map_dump *dump);

#endif
