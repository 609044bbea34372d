/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private interface of the CO-RE relocation module (relo/ files): a
 * relocation's access string parsed into a spec (every step, and the named
 * "turning points" a target must have), matched against target candidates,
 * and the values libbpf would write into the instruction.
 */
#ifndef LIBBTF_RELO_INTERNAL_H
#define LIBBTF_RELO_INTERNAL_H

#include "core/internal.h"
#include "elf/internal.h"
#include "libbtf_ext.h"
#include "libbtf_relo.h"

#define RELO_SPEC_MAX 64 /* libbpf's BPF_CORE_SPEC_MAX_LEN */

/* One named member, array element or enumerator of a spec */
struct racc {
	uint32_t type_id; /* the struct, union, enum or array element type */
	uint32_t idx;
	const char *name; /* NULL for an array element */
};

struct rspec {
	const struct lbtf *btf;
	uint32_t root_id;
	uint32_t kind;
	struct racc acc[RELO_SPEC_MAX]; /* the turning points */
	int len;
	uint32_t raw[RELO_SPEC_MAX];    /* every index, as the access string */
	int raw_len;
	uint32_t bit_off;
};

/* What a spec gives a relocation (libbpf's bpf_core_relo_res) */
struct rres {
	uint64_t orig, new;
	bool poison, validate, memsz_fail;
	uint32_t orig_sz, new_sz, orig_tid, new_tid;
};

static inline bool relo_is_field(uint32_t k) { return k <= LBTF_CORE_FIELD_RSHIFT_U64; }
static inline bool relo_is_enumval(uint32_t k)
{
	return k == LBTF_CORE_ENUMVAL_EXISTS || k == LBTF_CORE_ENUMVAL_VALUE;
}
static inline bool relo_is_type(uint32_t k)
{
	return k == LBTF_CORE_TYPE_ID_LOCAL || k == LBTF_CORE_TYPE_ID_TARGET ||
	       k == LBTF_CORE_TYPE_EXISTS || k == LBTF_CORE_TYPE_SIZE || k == LBTF_CORE_TYPE_MATCHES;
}

/* The type behind typedefs and modifiers, *id updated; NULL if broken */
const struct lbtf_type *relo_skip(const struct lbtf *btf, uint32_t *id);
/* A string, "" when the offset is bad (libbpf's str_is_empty treats both alike) */
const char *relo_str(const struct lbtf *btf, uint32_t off);
bool relo_kind_compat(const struct lbtf_type *a, const struct lbtf_type *b);
/* libbpf's flexible array: 0 elements, the last member of parent's struct */
bool relo_is_flex(const struct lbtf *btf, const struct racc *parent, const struct lbtf_array *a);
/* The length of name without its ___flavor suffix */
size_t relo_essential_len(const char *name);

/* spec.c */
int relo_parse_spec(const struct lbtf *btf, uint32_t root_id, uint32_t kind, const char *access,
		    struct rspec *spec);
/* "0:1:2" and the C-like path ("x.a[3].b") of a spec into buf */
void relo_format_raw(const struct rspec *spec, char *buf, size_t len);

/* match.c: 1 match, 0 not, <0 error (libbpf's conventions) */
int relo_types_compat(const struct lbtf *lb, uint32_t lid, const struct lbtf *tb, uint32_t tid);
int relo_types_match(const struct lbtf *lb, uint32_t lid, const struct lbtf *tb, uint32_t tid);
int relo_spec_match(const struct rspec *local, const struct lbtf *tb, uint32_t tid,
		    struct rspec *targ);

/* calc.c: the values for a local spec and a target one (NULL: no match) */
int relo_calc(uint32_t kind, const struct rspec *local, const struct rspec *targ,
	      enum lbtf_core_rules rules, struct rres *res, char *why, size_t why_len);

/* target.c: the candidates of local root types ids[n] (named ones: else
 * -EINVAL), out[i] for ids[i], in target id order; 0 or -ENOMEM */
struct relo_cands {
	uint32_t *ids;
	uint32_t len, cap;
};
int relo_find_cands(const struct lbtf_core_target *t, const struct lbtf *lb, const uint32_t *ids,
		    uint32_t n, struct relo_cands *out);
const struct lbtf *relo_target_btf(const struct lbtf_core_target *t);

/* object.c: a BPF object as libbpf reads it for CO-RE */
struct relo_prog {
	size_t shndx;
	uint32_t first, cnt; /* its instructions in the section */
	bool autoload;       /* not SEC("?...") */
	bool autoload_18;    /* 1.8: and a struct_ops program's maps (object.c) */
	bool struct_ops;     /* SEC("struct_ops...") */
	bool st_used;        /* a struct_ops map uses it */
};

struct lbtf_core_object {
	char *path;
	void *file;
	size_t file_len;
	bool mapped;
	bool owned;              /* file is a malloc'ed copy (lbtf_core_object_new) */
	struct lbtfi_elf elf;
	struct lbtf *btf;
	struct lbtf_ext *ext;
	struct relo_prog *progs; /* by section, then first instruction */
	size_t nprogs;
	struct lbtfi_shdr symtab;
	enum lbtf_core_rules rules; /* whose arithmetic: libbpf 1.8's unless set */
};

/* The program holding instruction insn of ELF section shndx, or NULL */
const struct relo_prog *relo_find_prog(const struct lbtf_core_object *o, size_t shndx,
				       uint32_t insn);

/* resolve.c: the walk behind lbtf_core_relocate; cand_fn (may be NULL) also
 * gets every matching candidate's spec of every relocation */
typedef int (*relo_cand_fn)(const struct rspec *local, const struct rspec *cand, void *ctx);
int relo_walk(struct lbtf_core_object *o, const struct lbtf_core_target *t,
	      lbtf_core_result_fn fn, relo_cand_fn cand_fn, void *ctx);

#endif
