// SPDX-License-Identifier: BSD-2-Clause
/* Placeholder main until btfdump lands. */
#include <stdio.h>
#include "commands.h"

int main(void)
{
	fprintf(stderr, "btfdump: not implemented yet\n");
	return 2;
}
