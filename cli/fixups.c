// SPDX-License-Identifier: BSD-2-Clause
/* The words the programs print for libbtf's LBTF_FIXUP_* bits (cli.h) */
#include <stdint.h>
#include "cli.h"
#include "libbtf_object.h"

static const char *const fixup_names[LBTF_FIXUP_COUNT] = {
	"datasec_size", "var_offset", "hidden_var_static", "hidden_func_static",
	"ksym_var", "ksym_func", "kconfig", "datasec_sort", "sanitize",
};

const char *cli_fixup_name(uint32_t bit)
{
	for (unsigned int i = 0; i < LBTF_FIXUP_COUNT; i++)
		if (bit == 1u << i)
			return fixup_names[i];
	return NULL;
}
