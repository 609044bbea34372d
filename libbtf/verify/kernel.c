// SPDX-License-Identifier: BSD-2-Clause
/*
 * BPF_BTF_LOAD on the running kernel, with btf_log_true_size (libbpf 1.1's
 * bpf_btf_load() has no field for it, so the attr is filled here).
 */
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include "internal.h"

/* The BPF_BTF_LOAD part of union bpf_attr as of Linux 6.9+ */
struct btf_load_attr {
	uint64_t btf;
	uint64_t btf_log_buf;
	uint32_t btf_size;
	uint32_t btf_log_size;
	uint32_t btf_log_level;
	uint32_t btf_log_true_size;
	uint32_t btf_flags;
	int32_t btf_token_fd;
};

int lbtf_kernel_btf_load(const void *data, size_t size, struct lbtf_kernel_load_opts *opts)
{
	struct lbtf_kernel_load_opts o;
	struct btf_load_attr attr;
	long fd;
	int err;

	if ((err = LBTFI_OPTS_COPY(&o, opts, lbtf_kernel_load_opts)))
		return err;
	memset(&attr, 0, sizeof(attr));
	attr.btf = (uint64_t)(uintptr_t)data;
	attr.btf_size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
	attr.btf_log_buf = (uint64_t)(uintptr_t)o.log_buf;
	attr.btf_log_size = o.log_size;
	attr.btf_log_level = o.log_level;
	fd = syscall(__NR_bpf, BPF_BTF_LOAD, &attr, sizeof(attr));
	o.log_true_size = attr.btf_log_true_size;
	lbtfi_result_copy(opts, &o, sizeof(o));
	if (fd < 0)
		return -errno;
	close((int)fd);
	return 0;
}
