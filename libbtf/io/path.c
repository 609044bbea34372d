// SPDX-License-Identifier: BSD-2-Clause
/* What a path names, from its spelling alone (see io.h) */
#include <string.h>
#include "io.h"

bool lbtfi_path_is_sysfs_module(const char *path)
{
	size_t n = strlen(LBTFI_SYSFS_BTF_DIR);

	return strncmp(path, LBTFI_SYSFS_BTF_DIR, n) == 0 && strcmp(path + n, "vmlinux") != 0;
}
