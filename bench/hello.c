// SPDX-License-Identifier: BSD-2-Clause
/*
 * A program that does nothing. As $(B)/bench/hello it is linked like
 * btfcheck (static, with musl when btfcheck is), as $(B)/bench/hello-glibc
 * statically with glibc: bench_verify.sh's floors for a fresh process of
 * either kind, i.e. what starting one costs before any work.
 */
int main(void)
{
	return 0;
}
