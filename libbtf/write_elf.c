// SPDX-License-Identifier: BSD-2-Clause
#include "build_internal.h"
int lbtf_elf_write_btf(const char *in_path, const char *out_path, const void *data, size_t size)
{
	return lbtfi_err(ENOTSUP, "not implemented yet");
}
int lbtf_elf_is_swapped(const char *path)
{
	return lbtfi_err(ENOTSUP, "not implemented yet");
}
