/* SPDX-License-Identifier: BSD-2-Clause */
/* btfcheck's internal interfaces: configuration, checking, reporting. */
#ifndef BTFCHECK_H
#define BTFCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "libbtf.h"
#include "libbtf_object.h"

struct lbtfi_readbuf; /* libbtf/io/io.h */

struct cfg {
	long log_level;     /* -1: default */
	long long log_size; /* -1: large enough for any log */
	const char *base_path;
	struct lbtf *base;
	bool json, quiet, kernel, strict, raw, min_kernel;
	uint32_t missing_features; /* LBTF_KFEAT_* the running kernel lacks */
	uint32_t target_version;   /* --target-kernel (KERNEL_VERSION code), 0 none */
	bool rules_11;             /* --libbpf 1.1: libbpf 1.1's CO-RE rules */
	struct lbtfi_readbuf *inbuf; /* the inputs before the last are read into it */
};

/*
 * Inputs of this size and more are mapped and their mappings left to exit
 * (at most BTFCHECK_MAPS_LEFT of them, then they are read): a BPF object
 * that large is mostly DWARF, which a read would copy
 * whole into fresh pages of the read buffer (a page fault each) while the
 * check touches only the headers, symbols and .BTF of a mapping. A smaller
 * one is read: its mapping would cost more than the copy. io chooses by
 * the size its one fstat gives (lbtfi_readbuf.map_from, .max_maps).
 */
#define BTFCHECK_MAP_FROM (32u << 10)
/*
 * The last input (the only one of `btfcheck OBJ`) is read below this size,
 * mapped from it: its read faults in fresh pages of the buffer that no
 * later input reuses, one a 4 KiB, while a mapping costs a mapping in a
 * region with no page tables yet, its fault and its teardown. Paired fresh
 * runs against mapping it: 3.6 KB 0.93x, 7-9 KB 0.95-0.97x, 19.5 KB
 * 0.99x, 20.7 KB 1.01x.
 */
#define BTFCHECK_LAST_MAP_FROM (16u << 10)
#define BTFCHECK_MAPS_LEFT 256
/*
 * A mapped input under this size is populated when mapped: the check reads
 * its ELF header, its section headers at the end and its .BTF between,
 * three or four fault-around windows that one call maps at once.
 * Paired fresh runs against faulting them: the gate (four of its 18
 * objects mapped, 56-143 KB) 0.983x, bpf_flow.o (143 KB) alone 0.981x;
 * 400-670 KB objects about even, so not beyond.
 */
#define BTFCHECK_POPULATE_BELOW (256u << 10)

/* The kernel's own answer for the same bytes (--kernel) */
struct btfcheck_kernel {
	bool tried, available, agree;
	int err;              /* positive errno, 0 loaded */
	uint32_t true_size;
	char *log;
};

/* --min-kernel */
struct btfcheck_mink {
	bool done;
	struct lbtf_min_kernel mk;
};

struct btfcheck_report {
	const char *file;
	const char *error;     /* the file could not be checked (no verdict) */
	const struct lbtf_verify_result *res;
	bool object;           /* object mode: the BTF libbpf would load */
	bool open_failed;      /* object mode: libbpf's open would fail (reason, err) */
	int open_err;
	bool no_btf;           /* object mode: no .BTF, and libbpf opens it without */
	uint32_t fixups, sanitized;
	bool distilled;        /* an ELF module's .BTF, verified over its .BTF.base */
	bool relocated;        /* ... and relocated onto --base */
	const char *log;       /* what lands in the user's buffer */
	size_t log_len;
	bool show_log;
	const char *reason;    /* last log line for a rejection */
	const char *hint;      /* one line, or NULL */
	uint32_t log_size;     /* the buffer given (for ENOSPC) */
	bool log_size_set;
	const struct btfcheck_kernel *kernel;
	const struct btfcheck_mink *mink;
};

/* last: path is the process's last input (see its unload) */
int btfcheck_one(const struct cfg *c, const char *path, bool last);
void btfcheck_print_text(const struct btfcheck_report *r, bool quiet);
void btfcheck_print_json(const struct btfcheck_report *r, bool quiet);
/* A JSON string (control characters escaped, non-UTF-8 bytes as Latin-1) */
void btfcheck_json_str(FILE *f, const char *s);

/* "MAJOR.MINOR" at the start of s as a KERNEL_VERSION code, *end after it;
 * 0 or -1 (main.c) */
int btfcheck_version_prefix(const char *s, uint32_t *v, const char **end);

/* --target-btf: each object's CO-RE relocations against each target
 * (target.c); the exit status */
int btfcheck_targets(const struct cfg *c, char *const *targets, int ntargets,
		     char *const *objs, int nobjs);

#endif
