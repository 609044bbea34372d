// SPDX-License-Identifier: BSD-2-Clause
/*
 * A process that only exits: no libc, no start files, its entry point is
 * the exit system call (x86-64). bench_verify.sh's lowest floor: what the
 * kernel's exec, the first page faults and exit cost, which no program of
 * any libc goes below. Built -nostdlib -static.
 */
void _start(void);

void _start(void)
{
	__asm__ volatile("mov $60, %%eax\n\txor %%edi, %%edi\n\tsyscall" ::: "memory");
	__builtin_unreachable();
}
