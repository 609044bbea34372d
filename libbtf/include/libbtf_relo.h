/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libbtf CO-RE: the relocations of a BPF object resolved against a target
 * kernel's BTF as libbpf resolves them when it loads the object with that
 * BTF (btf_custom_path), without loading anything, and the smallest BTF
 * that resolves them the same way (bpftool gen min_core_btf's job).
 *
 * The rules are libbpf 1.8's (libbpf master, 2026), 1.1's on request
 * (lbtf_core_object_set_rules): candidates by essential name ("task_struct___old" looks for
 * "task_struct"), in target id order, of a compatible kind; a candidate
 * matches when every named member of the access path is found (through
 * anonymous members) with a compatible type and every array index is in
 * bounds; all matching candidates must agree (bit offset, value, poison) or
 * the load fails ("ambiguity"); a candidate that does not match one
 * relocation is dropped for the later relocations of the same local type;
 * no candidate: existence kinds give 0, the others poison the instruction
 * (an invalid call the verifier rejects if it is reachable); a load or store
 * whose size would change is poisoned unless both types are pointers or
 * unsigned integers. 1.1 differs in two corners: the load size of an array
 * field or element is its innermost element's in 1.8 (1.1: the whole
 * array's, so that a load from an array whose length changed is poisoned),
 * and "signed" of a field that is neither a signed integer nor a signed
 * enum is 0 in 1.8 (1.1 reads the word after the type's header as an
 * integer encoding: an unsigned enum's first enumerator's name). Access
 * strings are decimal indices separated by ':' (a negative index fails the
 * relocation, as in 1.8). 1.8 (from 1.4 on) also leaves out the relocations of
 * a struct_ops program that only SEC("?.struct_ops") maps (not created by
 * default) use: SKIPPED here too. Not modelled: a program used only for a
 * member the running kernel's struct lacks, which 1.8 does not load either.
 */
#ifndef LIBBTF_RELO_H
#define LIBBTF_RELO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

struct lbtf;

/* ---- targets: a kernel's BTF, indexed by essential name ---------------- */

struct lbtf_core_target;

/* Index btf (borrowed: it must outlive the target) under name (copied) */
struct lbtf_core_target *lbtf_core_target_new(const struct lbtf *btf, const char *name);
/* A raw BTF file, an ELF with .BTF (vmlinux) or /sys/kernel/btf/vmlinux,
 * named by its path; NULL and errno, lbtf_errmsg() naming the file */
struct lbtf_core_target *lbtf_core_target_open(const char *path);
const struct lbtf *lbtf_core_target_btf(const struct lbtf_core_target *t);
const char *lbtf_core_target_name(const struct lbtf_core_target *t);
void lbtf_core_target_free(struct lbtf_core_target *t);

/* ---- objects: .BTF, .BTF.ext and the instructions they relocate -------- */

struct lbtf_core_object;

/* An ELF BPF object (ET_REL, EM_BPF, the host's byte order); NULL and errno
 * (ENODATA: no .BTF or no .BTF.ext), lbtf_errmsg() naming the file */
struct lbtf_core_object *lbtf_core_object_open(const char *path);
/* The same from an image in memory (copied), name naming it in messages */
struct lbtf_core_object *lbtf_core_object_new(const char *name, const void *elf, size_t size);
const struct lbtf *lbtf_core_object_btf(const struct lbtf_core_object *o);

/* Whose rules the object's relocations follow (default: 1.8's) */
enum lbtf_core_rules {
	LBTF_CORE_RULES_LIBBPF_1_8 = 0, /* libbpf 1.6 and later (both corners fixed) */
	LBTF_CORE_RULES_LIBBPF_1_1 = 1, /* libbpf 1.1 and 1.2 (Debian 12's); 1.3 to
					 * 1.5 have 1.8's "signed", 1.1's load size */
};
void lbtf_core_object_set_rules(struct lbtf_core_object *o, enum lbtf_core_rules rules);
/* CO-RE relocation records, over all sections */
uint32_t lbtf_core_object_relo_cnt(const struct lbtf_core_object *o);
void lbtf_core_object_free(struct lbtf_core_object *o);

enum lbtf_core_outcome {
	LBTF_CORE_RELOCATED = 0, /* the instruction gets target_val */
	LBTF_CORE_POISONED = 1,  /* made an invalid call: rejected if reachable */
	LBTF_CORE_FAILED = 2,    /* libbpf's load fails here (err, why) */
	LBTF_CORE_SKIPPED = 3,   /* libbpf does not relocate it (why) */
};

/* "relocated", "poisoned", "failed", "skipped" */
const char *lbtf_core_outcome_name(enum lbtf_core_outcome o);

/* One relocation against one target */
struct lbtf_core_result {
	size_t sz;               /* sizeof(struct lbtf_core_result) of the library */
	const char *sec_name;    /* the program's ELF section */
	uint32_t sec, relo_idx;  /* .BTF.ext section and record (libbpf's "relo #") */
	uint32_t insn_idx;       /* instruction, from the section's start */
	uint32_t kind;           /* enum lbtf_core_relo_kind */
	uint32_t local_id;       /* root type in the object's BTF */
	const char *access;      /* "0:1:2" */
	const char *path;        /* as btfdump ext prints it: "struct task_struct::pid" */
	enum lbtf_core_outcome outcome;
	uint64_t local_val;      /* what the compiler wrote (the local BTF's value) */
	uint64_t target_val;     /* what libbpf writes (RELOCATED) */
	uint32_t local_mem_sz, target_mem_sz; /* a load/store's size, when it changes */
	uint32_t target_id;      /* the matching candidate's root type (0: none) */
	const char *target_spec; /* its access, "0:2:1 struct task_struct.comm @ 2872" ("" none) */
	uint32_t cands, matches; /* candidates looked at, and matching */
	int err;                 /* FAILED: the negative errno libbpf fails with */
	const char *why;         /* POISONED, FAILED, SKIPPED: one line */
};

/* Called for each relocation in .BTF.ext order; non-zero stops the walk and
 * is returned */
typedef int (*lbtf_core_result_fn)(const struct lbtf_core_result *r, void *ctx);

/*
 * Resolve every CO-RE relocation of o against t, as libbpf's load does with
 * t's BTF as btf_custom_path (after a FAILED one libbpf stops; the walk goes
 * on so that every failure is seen). Returns 0, fn's non-zero value, or a
 * negative errno (-ENOMEM; -EINVAL with lbtf_errmsg() for a malformed
 * object libbpf would refuse before any relocation).
 */
int lbtf_core_relocate(struct lbtf_core_object *o, const struct lbtf_core_target *t,
		       lbtf_core_result_fn fn, void *ctx);

struct lbtf_ext_core_relo;

/*
 * A relocation's access string as a member path ("struct task_struct::pid",
 * "struct sk_buff::cb[2]", "struct x::u.(anon).y", "enum e::E_ONE", "struct
 * s" for the type kinds) into buf (len > 0); 0, or a negative errno with
 * buf saying why the string does not resolve against btf.
 */
int lbtf_core_relo_path(const struct lbtf *btf, const struct lbtf_ext_core_relo *r, char *buf,
			size_t len);

/* ---- externs: what a load resolves besides CO-RE ------------------------ */

enum lbtf_core_extern_kind {
	LBTF_CORE_KSYM = 0,          /* typed __ksym variable: a VAR of the kernel's BTF */
	LBTF_CORE_KSYM_TYPELESS = 1, /* void __ksym: an address from kallsyms */
	LBTF_CORE_KFUNC = 2,         /* __ksym function: a FUNC of the kernel's BTF */
	LBTF_CORE_KCONFIG = 3,       /* __kconfig: the kernel's config or release */
};

enum lbtf_core_extern_outcome {
	LBTF_CORE_EXT_FOUND = 0,        /* in the target's BTF, compatible types */
	LBTF_CORE_EXT_MISSING_WEAK = 1, /* not there, __weak: 0 at run time */
	LBTF_CORE_EXT_MISSING = 2,      /* not there: the load fails (-ESRCH) */
	LBTF_CORE_EXT_INCOMPATIBLE = 3, /* there, other types: the load fails (-EINVAL) */
	LBTF_CORE_EXT_AT_LOAD = 4,      /* not in BTF: kallsyms or the config, at load */
};

/* "ksym", "ksym_typeless", "kfunc", "kconfig"; "found", "missing_weak",
 * "missing", "incompatible", "at_load" */
const char *lbtf_core_extern_kind_name(enum lbtf_core_extern_kind k);
const char *lbtf_core_extern_outcome_name(enum lbtf_core_extern_outcome o);

struct lbtf_core_extern {
	size_t sz;               /* sizeof(struct lbtf_core_extern) of the library */
	const char *name;
	enum lbtf_core_extern_kind kind;
	bool weak;
	uint32_t local_id;       /* its VAR or FUNC in the object's BTF */
	enum lbtf_core_extern_outcome outcome;
	uint32_t target_id;      /* the target's VAR or FUNC (0: none) */
	int err;                 /* MISSING, INCOMPATIBLE: libbpf's negative errno */
};

typedef int (*lbtf_core_extern_fn)(const struct lbtf_core_extern *e, void *ctx);

/*
 * The object's __ksym and __kconfig externs (its .ksyms and .kconfig
 * DATASECs, in BTF order) against the target kernel's BTF, as libbpf (1.1
 * to 1.8 alike) resolves them before any CO-RE relocation when it loads the object on
 * that kernel (vmlinux only: module BTF is not searched). Returns 0, fn's
 * non-zero value, or a negative errno.
 */
int lbtf_core_externs(const struct lbtf_core_object *o, const struct lbtf_core_target *t,
		      lbtf_core_extern_fn fn, void *ctx);

/* ---- minimal BTF -------------------------------------------------------- */

struct lbtf_core_min;

/* Collects what the relocations of objects need of t's BTF (t must outlive
 * it); NULL and errno ENOMEM */
struct lbtf_core_min *lbtf_core_min_new(const struct lbtf_core_target *t);
/* Resolve o's relocations against the target and keep what every matching
 * candidate needs: the members on each field access path (others dropped,
 * offsets and sizes kept), whole enums, the types type kinds compare (through
 * pointers, arrays, prototypes), whole types down to pointers for
 * type_matches. 0 or a negative errno. */
int lbtf_core_min_add(struct lbtf_core_min *m, struct lbtf_core_object *o);
/* The minimal BTF (raw, host order, target id order; malloc'ed): libbpf
 * resolves the objects' relocations with it as with the target's whole BTF,
 * type ids aside (target_type_id gives the new ids). 0 or a negative errno. */
int lbtf_core_min_btf(struct lbtf_core_min *m, void **data, size_t *size);
void lbtf_core_min_free(struct lbtf_core_min *m);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
