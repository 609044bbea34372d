/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * core_task's local types that no kernel header has, whichever header gives
 * it the kernel's types (old_kernel.h, or a vmlinux.h of another kernel made
 * by btfgen + btfdump: tests/corpus/check_core_vmlinux.sh).
 */
#ifndef CORPUS_CORE_FLAVORS_H
#define CORPUS_CORE_FLAVORS_H

#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)

/* A field that went away: only in this header's world */
struct task_struct___gone {
	int no_such_field_anymore;
};

/* A flavor: the same kernel struct under another local name */
struct task_struct___flav {
	pid_t pid;
	char comm[16];
};

/* A type no kernel has */
struct corpus_never_in_kernel {
	int x;
};

#pragma clang attribute pop

#endif
