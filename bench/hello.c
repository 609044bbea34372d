// SPDX-License-Identifier: BSD-2-Clause
/*
 * A program that does nothing, linked like btfcheck (static unless
 * STATIC=0): bench_verify.sh's floor for a fresh process of that kind,
 * i.e. what starting one costs before any work.
 */
int main(void)
{
	return 0;
}
