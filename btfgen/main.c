// SPDX-License-Identifier: BSD-2-Clause
/* Placeholder main until btfgen lands. */
#include <stdio.h>

int main(void)
{
	fprintf(stderr, "btfgen: not implemented yet\n");
	return 2;
}
