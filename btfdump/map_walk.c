// SPDX-License-Identifier: BSD-2-Clause
/*
 * Walking a live map. bpftool asks for each key (BPF_MAP_GET_NEXT_KEY) and
 * then its value (BPF_MAP_LOOKUP_ELEM): two syscalls per element. Where the
 * kernel offers batched lookups (hash and array maps) we read hundreds of
 * elements per syscall instead; the kernel returns them in the same order
 * (bucket by bucket, each bucket's list in order; arrays by index), so the
 * output is the same. Any batch failure falls back to the key walk, resumed
 * after the last element printed.
 */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "cli.h"
#include "map_walk.h"

static const char *const prog = "btfdump";

#define BATCH_FIRST 256      /* elements asked per batch at first */
#define BATCH_MAX (1u << 16) /* a hash bucket larger than this: key walk */

size_t btfdump_value_buf_size(const struct lbtf_map_desc *d)
{
	size_t stride = ((size_t)d->value_size + 7) & ~(size_t)7;

	return d->nr_cpus ? stride * d->nr_cpus : d->value_size;
}

static bool batch_capable(__u32 type)
{
	return type == BPF_MAP_TYPE_HASH || type == BPF_MAP_TYPE_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_LRU_HASH || type == BPF_MAP_TYPE_LRU_PERCPU_HASH ||
	       type == BPF_MAP_TYPE_ARRAY || type == BPF_MAP_TYPE_PERCPU_ARRAY;
}

/*
 * Batched part of the walk. Returns 1 when the whole map was printed, 0 to
 * continue with the key walk (after last, if *have_last).
 */
static int batch_walk(int fd, const struct lbtf_map_desc *d, struct lbtf_map_dump *dump,
		      void *last, bool *have_last)
{
	size_t ksz = d->key_size, vsz = btfdump_value_buf_size(d);
	/* the resume token is a bucket index (hash) or a key (array) */
	size_t tsz = ksz > 8 ? ksz : 8;
	unsigned char *tok_in = calloc(1, tsz), *tok_out = calloc(1, tsz);
	unsigned char *keys = NULL, *vals = NULL;
	__u32 chunk = BATCH_FIRST;
	bool first = true;
	int done = 0;

	if (!tok_in || !tok_out || !ksz || !vsz)
		goto out;
	for (;;) {
		__u32 count = chunk;
		int err;

		if (!keys) {
			keys = malloc(chunk * ksz);
			vals = malloc(chunk * vsz);
			if (!keys || !vals)
				goto out;
		}
		err = bpf_map_lookup_batch(fd, first ? NULL : tok_in, tok_out, keys, vals, &count,
					   NULL);
		if (err && errno == ENOSPC && !count && chunk < BATCH_MAX) {
			/* a hash bucket holds more than chunk elements */
			chunk *= 4;
			free(keys);
			free(vals);
			keys = vals = NULL;
			continue;
		}
		if (err && errno != ENOENT)
			count = 0; /* trust nothing of a failed batch */
		for (__u32 i = 0; i < count; i++) {
			lbtf_map_dump_entry(dump, keys + i * ksz, vals + i * vsz, vsz);
			memcpy(last, keys + i * ksz, ksz);
			*have_last = true;
		}
		if (err) {
			done = errno == ENOENT;
			goto out;
		}
		memcpy(tok_in, tok_out, tsz);
		first = false;
	}
out:
	free(tok_in);
	free(tok_out);
	free(keys);
	free(vals);
	return done;
}

int btfdump_map_walk(int fd, const struct lbtf_map_desc *d, struct lbtf_map_dump *dump)
{
	size_t vlen = btfdump_value_buf_size(d);
	void *key = calloc(1, d->key_size ?: 1), *value = calloc(1, vlen ?: 1);
	bool have_last = false;
	int ret = -1;

	if (!key || !value) {
		cli_err(prog, "map: out of memory");
		goto out;
	}
	if (batch_capable(d->type) && batch_walk(fd, d, dump, key, &have_last)) {
		ret = 0;
		goto out;
	}
	/* key by key, as bpftool; lookup failures print as entries */
	while (!bpf_map_get_next_key(fd, have_last ? key : NULL, key)) {
		have_last = true;
		if (bpf_map_lookup_elem(fd, key, value))
			lbtf_map_dump_entry_error(dump, key, errno);
		else
			lbtf_map_dump_entry(dump, key, value, vlen);
	}
	if (errno != ENOENT)
		cli_err(prog, "map id %u: can't walk keys: %s", d->id, cli_bpf_strerror(errno));
	else
		ret = 0;
out:
	free(key);
	free(value);
	return ret;
}
