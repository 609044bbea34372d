// SPDX-License-Identifier: BSD-2-Clause
/* Placeholder main until btfcheck lands. */
#include <stdio.h>

int main(void)
{
	fprintf(stderr, "btfcheck: not implemented yet\n");
	return 2;
}
