// SPDX-License-Identifier: BSD-2-Clause
/*
 * BTF from the kernel by id (BPF_BTF_GET_FD_BY_ID, then its info). A file of
 * its own: it is the one caller of libbpf in core/, and a program that
 * never opens BTF by id (btfcheck) then links no libbpf, libelf or zlib.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "internal.h"

struct lbtf *lbtf_open_kernel_id(uint32_t id, const struct lbtf *base)
{
	struct bpf_btf_info info;
	uint32_t info_len = sizeof(info);
	char name[64] = "";
	struct lbtf *btf = NULL, *vmlinux = NULL;
	void *buf = NULL;
	int fd, err;

	fd = bpf_btf_get_fd_by_id(id);
	if (fd < 0)
		return lbtfi_err_ptr(-fd == 0 ? EINVAL : (errno ? errno : -fd),
				     "BTF id %u: cannot get it from the kernel: %s", id, strerror(errno));
	memset(&info, 0, sizeof(info));
	info.name = (uintptr_t)name;
	info.name_len = sizeof(name);
	err = bpf_obj_get_info_by_fd(fd, &info, &info_len);
	if (err) {
		lbtfi_err(errno, "BTF id %u: cannot get info: %s", id, strerror(errno));
		goto out;
	}
	buf = malloc(info.btf_size ? info.btf_size : 1);
	if (!buf) {
		lbtfi_err(ENOMEM, "BTF id %u: out of memory", id);
		goto out;
	}
	{
		uint32_t size = info.btf_size;
		memset(&info, 0, sizeof(info));
		info.btf = (uintptr_t)buf;
		info.btf_size = size;
		info.name = (uintptr_t)name;
		info.name_len = sizeof(name);
		info_len = sizeof(info);
		if (bpf_obj_get_info_by_fd(fd, &info, &info_len)) {
			lbtfi_err(errno, "BTF id %u: cannot read its data: %s", id, strerror(errno));
			goto out;
		}
	}
	if (!base && info.kernel_btf && strcmp(name, "vmlinux") != 0) {
		vmlinux = lbtf_open_vmlinux();
		if (!vmlinux)
			goto out;
		base = vmlinux;
	}
	btf = lbtf_new(buf, info.btf_size, base);
	if (!btf) {
		lbtfi_err(errno, "BTF id %u: %s", id, lbtf_errmsg());
		lbtf_free(vmlinux);
		goto out;
	}
	btf->owned_base = vmlinux;
out:
	free(buf);
	close(fd);
	return btf;
}
