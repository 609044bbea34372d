/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel types of the corpus, as an older kernel laid them out: every
 * struct here has its members at offsets the running kernel does NOT use
 * (task_struct's tgid is at byte 8 here, ~2.4 KB into the real one), so a
 * program compiled against this header reads the right fields only if libbpf
 * applies its CO-RE relocations. Written by hand for the corpus (no cached
 * DWARF vmlinux to make a 6.1 vmlinux.h from on every machine); the names,
 * member names and enum values are the kernel's, the layouts are not.
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

#endif
