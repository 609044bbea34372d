/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel types of the corpus, as an older kernel laid them out: every
 * struct here has its members at offsets the running kernel does NOT use
 * (task_struct's tgid is at byte 8 here, ~2.4 KB into the real one), so a
 * program compiled against this header reads the right fields only if libbpf
 * applies its CO-RE relocations. Written by hand so the corpus builds on any
 * machine; the names, member names and enum values are the kernel's, the
 * layouts are not. check_core_vmlinux.sh builds core_task against a real 6.1
 * vmlinux.h made by btfgen + btfdump where the 6.1 DWARF vmlinux is cached.
 */
#ifndef CORPUS_OLD_KERNEL_H
#define CORPUS_OLD_KERNEL_H

#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)

typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef signed char __s8;
typedef short __s16;
typedef int __s32;
typedef long long __s64;
typedef __u16 __be16;
typedef __u32 __be32;
typedef __u32 __wsum;
typedef int pid_t;
typedef _Bool bool;
enum { false = 0, true = 1 };

struct list_head {
	struct list_head *next, *prev;
};

struct mm_struct;		/* reached only through a pointer */
struct files_struct;

struct task_struct {
	unsigned int __state;
	unsigned int flags;
	pid_t tgid;
	pid_t pid;
	struct task_struct *real_parent;
	struct task_struct *parent;
	struct list_head children;
	struct mm_struct *mm;
	struct files_struct *files;
	char comm[16];
	int prio;
};

enum bpf_map_type {
	BPF_MAP_TYPE_UNSPEC = 0,
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_RINGBUF = 99,	/* a wrong value: the kernel says 27 */
};

/* The map-definition macros of bpf_helpers.h need these */
enum {
	BPF_ANY = 0,
	BPF_F_NO_PREALLOC = 1,
};

#pragma clang attribute pop

#include "core_flavors.h"

#endif
