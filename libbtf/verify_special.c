// SPDX-License-Identifier: BSD-2-Clause
/* Special-field pass (placeholder until implemented). */
#include "verify_internal.h"

int lbtfi_vcheck_special(struct venv *env)
{
	return 0;
}
