/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The "kernel" types of the CO-RE tests, one layout per target: cases.bpf.c
 * is built against the default one (LAYOUT_LOCAL); each target_*.c picks a
 * layout where fields moved, vanished, were renamed or retyped, and is made
 * into a target BTF by gcc -g and btfgen.
 */
#ifndef RELO_TYPES_H
#define RELO_TYPES_H

enum color {
	RED,
	GREEN = 5,
#ifndef NO_BLUE
	BLUE,
#endif
#ifdef MORE_COLORS
	CYAN = 40,
#endif
};

struct inner {
#ifdef INNER_SWAPPED
	int w;
	int z;
#else
	int z;
	int w;
#endif
#ifdef INNER_GROWN
	long extra;
#endif
};

struct rec {
#ifdef REC_ONLY_A
	int a;
#else
#ifdef REC_MOVED
	long pad0[3];
	long b;
	struct inner in;
	int a;
	unsigned short pad1;
	unsigned int x : 7, y : 9;
	int sbits : 12;
	unsigned int u16f;
	int s16f;
	char name[8];
	int arr[8];
#else
#ifdef REC_RENAMED
	int renamed;
#else
	int a;
#endif
	long b;
	char name[8];
	struct inner in;
	unsigned int x : 3, y : 5;
	int sbits : 4;
	unsigned short u16f;
	short s16f;
#ifndef REC_SMALL_ARR
	int arr[4];
#else
	int arr[2];
#endif
#endif
	void *ptr;
	enum color col;
#ifndef REC_NO_GONE
	int gone;
#endif
	struct inner *in_ptr;
	int tail[];
#endif
};

#endif
