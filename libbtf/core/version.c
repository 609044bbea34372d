// SPDX-License-Identifier: BSD-2-Clause
/* The library's version, from the Makefile's VERSION (the one source). */
#include "internal.h"
#include "btf_tools_version.h"

const char *lbtf_lib_version(void)
{
	return BTF_TOOLS_VERSION;
}
