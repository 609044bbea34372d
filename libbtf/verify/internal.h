/* SPDX-License-Identifier: BSD-2-Clause */
/* Private state and helpers of the kernel-exact verifier (verify_*.c). */
#ifndef LIBBTF_VERIFY_INTERNAL_H
#define LIBBTF_VERIFY_INTERNAL_H

#include <stddef.h>
#include <string.h>
#include "core/internal.h"
#include "libbtf_verify.h"

#define VMAX_TYPE 0xfffffu          /* largest type id the kernel accepts */
#define VMAX_NAME_OFFSET 0xffffffu
#define VMAX_RESOLVE_DEPTH 32
#define VMAX_MODIFIER_CHAIN 32     /* the type-tag check's limit (verify.c) */
#define VKSYM_NAME_LEN 512
#define VLOG_PIECE 1024            /* each formatted piece keeps 1023 bytes */
#define VLOG_STREAM_CHUNK (64u << 10) /* a streamed log is handed on in chunks this big */
#define VPTR_SIZE 8                /* sizeof(void *) of a 64-bit kernel */

enum vresolve_mode { RESOLVE_TBD, RESOLVE_PTR, RESOLVE_STRUCT_OR_ARRAY };
/* pass 2's mark of each type; PROTO_NAMED only ever marks a FUNC_PROTO,
 * which the DFS never pushes (a sink in every mode): pass 2 found every
 * typed parameter of it named, the check each FUNC of it needs */
enum vvisit { NOT_VISITED, VISITED, RESOLVED, PROTO_NAMED };
enum vphase { PHASE_META, PHASE_RESOLVE };

struct vlog {
	uint32_t level;
	char *buf;          /* the whole log (the kernel's end_pos bytes) */
	size_t len, cap;
	size_t flushed;     /* bytes already handed to fn (streamed log) */
	void (*fn)(const char *text, size_t len, void *ctx);
	void *ctx;
	bool any;           /* a piece was written: true size is flushed + len + 1 */
	bool kernel;        /* BPF_LOG_KERNEL: messages only, as "BPF: " lines */
	bool oom;
};

/* pass 2's state of one type (zeroed: NOT_VISITED, 0, 0) */
struct vres {
	uint32_t id;    /* resolved id */
	union {
		uint32_t size;  /* resolved size */
		/* a modifier's (whose resolved size is 0, never read): the
		 * modifiers in its chain, itself first (resolve_kinds.c) */
		uint32_t chain;
	};
	uint8_t visit;  /* enum vvisit */
};

struct vvertex {
	uint32_t id;
	uint32_t next_member;       /* vlen is 24 bits wide in newer rule sets */
	const struct lbtf_type *t;
};

/* A kernel release's rules (rules.c): which checks apply, with which limits */
struct vrules {
	uint32_t since;       /* KERNEL_VERSION code of the first release with them */
	const char *name;
	uint32_t hdr_len;     /* the kernel's sizeof(struct btf_header) */
	bool layout_sec;      /* btf_parse_layout_sec: the layout is a third section */
	uint32_t info_mask;   /* bits of btf_type.info that may be set */
};
/* The rule set in force in a release (0: the default, Linux 6.15-6.18) */
const struct vrules *lbtfi_vrules(uint32_t kernel_version);

/*
 * What the special-field pass needs, gathered by the passes before it while
 * they hold the records (special.c): pass 1 notes the first struct of each
 * special name and whether a kptr is possible at all (a kflag-0 TYPE_TAG
 * named as a kptr tag), pass 2 the structs with a member of such a struct.
 * The pass then reads those structs only, not every struct and pointer.
 */
#define VSF_NAMES 6
struct vspecial {
	uint32_t first[VSF_NAMES]; /* index of the first struct of each name, 0: none */
	uint64_t any;              /* bit index % 64 of each of first[] */
	bool kptr_tags;            /* a kptr may exist: the pass looks at every struct */
	bool oom;
	uint32_t *cand;            /* structs with a member of one of first[] (dups too) */
	size_t ncand, cap;
};

/* The verifier's environment: the blob, the type table, resolve state, log. */
struct venv {
	unsigned char *mem;          /* aligned copy of the blob */
	const unsigned char *data;
	uint32_t size;
	const struct vrules *rules;
	struct lbtf_header hdr;      /* the kernel's zero-padded header copy */
	const unsigned char *nohdr;  /* data + hdr.hdr_len */
	const char *strs;
	void *arena;                 /* the per-type arrays below (arena.c) */
	size_t arena_len;            /* mapped length, 0: from the heap */
	size_t arena_cap;            /* from the heap: its block's size */
	uint64_t *ident_ok;          /* bit per string offset: a valid identifier */
	const struct lbtf *base;     /* split BTF, or NULL */
	uint32_t start_id;           /* 0 for base BTF (types[0] is void) */
	uint32_t start_str_off;
	const struct lbtf_type **types; /* index id - start_id */
	uint8_t *kinds;              /* kind of each entry of types (dense, cache friendly) */
	uint32_t nr_types;           /* entries in types (with void for base) */
	uint32_t types_cap;
	uint32_t log_id;
	enum vphase phase;
	/* pass 2: one record a type, so a type's state, resolved id and size
	 * are one cache line away (a reference check visits a random type) */
	struct vres *res;
	/* bit per type: a good FUNC_PROTO return or parameter type (resolve.c);
	 * a bitmap, not a field of res: 16 KiB for a vmlinux stays in L1 while
	 * the protos name random types */
	uint64_t *arg_ok;
	enum vresolve_mode mode;
	struct vvertex stack[VMAX_RESOLVE_DEPTH];
	int top;
	struct vlog log;
	struct vspecial sp;
	uint32_t flags;
	bool env_dependent;
	/* pass 2 saw a modifier chain the type-tag check may refuse: longer
	 * than its limit, or a tag after another modifier (verify.c) */
	bool tags_suspect;
	char cause[LBTF_VERIFY_CAUSE_MAX]; /* the special-field pass's refusal, named */
};

/* Per-kind operations, one table indexed by kind (ops.c), the way
 * the kernel's btf_kind_operations drive btf_parse. */
typedef int (*vmember_fn)(struct venv *env, const struct lbtf_type *st,
			  const struct lbtf_member *m, const struct lbtf_type *mt);
struct vkind_ops {
	/* pass 1, after the common checks and the meta_left check */
	int (*check_meta)(struct venv *env, const struct lbtf_type *t, uint32_t meta_left);
	/* one DFS step for the vertex on top of the stack; NULL: never resolved */
	int (*resolve)(struct venv *env, struct vvertex *v);
	vmember_fn check_member;
	vmember_fn check_kflag_member;
	/* details after "[id] KIND name " in a type line */
	void (*log_details)(struct venv *env, const struct lbtf_type *t);
};
extern const struct vkind_ops lbtfi_vops_table[LBTF_NR_KINDS + 13];
/* Callers only pass kinds already checked by pass 1 (or void); the table's
 * rows past LBTF_KIND_MAX are empty like void's. Inline: it is called for
 * every type and member. */
static inline const struct vkind_ops *lbtfi_vops(const struct lbtf_type *t)
{
	return &lbtfi_vops_table[lbtf_kind(t)];
}
void lbtfi_vops_init(void); /* once per process, before any verification */

/* ---- log (verify_log.c) ---- */
static inline bool lbtfi_vlog_on(const struct venv *env) { return env->log.level != 0; }
/* dumps (header, types, members, enumerators) are logged: not kernel mode */
static inline bool lbtfi_vlog_dumps(const struct venv *env) { return env->log.level && !env->log.kernel; }
void lbtfi_vlog(struct venv *env, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void lbtfi_vlog_type(struct venv *env, const struct lbtf_type *t, bool details, const char *fmt,
		     ...) __attribute__((format(printf, 4, 5)));
#define vlog_type(env, t, ...) lbtfi_vlog_type(env, t, true, __VA_ARGS__)
#define vlog_basic(env, t, ...) lbtfi_vlog_type(env, t, false, __VA_ARGS__)
void lbtfi_vlog_member(struct venv *env, const struct lbtf_type *st, const struct lbtf_member *m,
		       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void lbtfi_vlog_vsi(struct venv *env, const struct lbtf_type *dt,
		    const struct lbtf_var_secinfo *vsi, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/*
 * Without a log level every line is dropped: the macros test that before the
 * call, so that level 0 (the default verification) pays no variadic call
 * per type and member. The functions are defined as (name)(...) in log.c.
 */
#define lbtfi_vlog(env, ...) (lbtfi_vlog_on(env) ? (lbtfi_vlog)(env, __VA_ARGS__) : (void)0)
#define lbtfi_vlog_type(env, ...) \
	(lbtfi_vlog_on(env) ? (lbtfi_vlog_type)(env, __VA_ARGS__) : (void)0)
#define lbtfi_vlog_member(env, ...) \
	(lbtfi_vlog_on(env) ? (lbtfi_vlog_member)(env, __VA_ARGS__) : (void)0)
#define lbtfi_vlog_vsi(env, ...) (lbtfi_vlog_on(env) ? (lbtfi_vlog_vsi)(env, __VA_ARGS__) : (void)0)
/*
 * A piece written in place (one kernel bpf_verifier_vlog() call, cut at
 * 1023 bytes): lbtfi_vpb_open(), the vpb_* writers, lbtfi_vpb_close().
 * The log's hot line shapes (type lines, members, enumerators, protos)
 * use these instead of a format: millions of pieces in a vmlinux log.
 */
struct vpb {
	char *p, *start, *end; /* end: the last byte a piece may hold, + 1 */
};
bool lbtfi_vpb_open_slow(struct vlog *log, struct vpb *b);
void lbtfi_vpb_close_kernel(struct vlog *log, struct vpb *b);
/* false: out of memory. Inline for a user log with room (nearly every
 * piece); growing, flushing a stream and kernel mode go out of line. */
static inline bool lbtfi_vpb_open(struct vlog *log, struct vpb *b)
{
	if (log->oom || log->kernel || log->cap - log->len < VLOG_PIECE + 8 ||
	    (log->fn && log->len + VLOG_PIECE + 8 > VLOG_STREAM_CHUNK))
		return lbtfi_vpb_open_slow(log, b);
	b->start = b->p = log->buf + log->len;
	b->end = b->start + VLOG_PIECE - 1;
	return true;
}
static inline void lbtfi_vpb_close(struct vlog *log, struct vpb *b)
{
	if (log->kernel) {
		lbtfi_vpb_close_kernel(log, b);
		return;
	}
	log->len += b->p - b->start;
	log->buf[log->len] = '\0';
	log->any = true;
}
static inline void vpb_str(struct vpb *b, const char *s)
{
	while (*s && b->p < b->end)
		*b->p++ = *s++;
}
/* Fixed text: a few moves when it fits, which it nearly always does */
#define vpb_lit(b, text)                                                      \
	do {                                                                  \
		if ((b)->end - (b)->p >= (ptrdiff_t)sizeof(text) - 1) {        \
			memcpy((b)->p, text, sizeof(text) - 1);               \
			(b)->p += sizeof(text) - 1;                           \
		} else {                                                      \
			vpb_str(b, text);                                     \
		}                                                             \
	} while (0)
/* Unsigned decimal or hex into the end of a buffer; returns the start.
 * Constant bases: each division becomes a multiplication. */
static inline char *lbtfi_vutoa(char *end, unsigned long long v, bool hex)
{
	*--end = '\0';
	if (hex) {
		do {
			*--end = "0123456789abcdef"[v & 15];
			v >>= 4;
		} while (v);
		return end;
	}
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}
static inline void vpb_u(struct vpb *b, unsigned long long v)
{
	char tmp[24];

	vpb_str(b, lbtfi_vutoa(tmp + sizeof(tmp), v, false));
}
static inline void vpb_d(struct vpb *b, long long v)
{
	if (v < 0)
		vpb_lit(b, "-");
	vpb_u(b, v < 0 ? -(unsigned long long)v : (unsigned long long)v);
}
/* Copy the log into the caller's buffer as the kernel does; returns 0,
 * -ENOSPC on a real truncation. */
int lbtfi_vlog_finalize(struct venv *env, const struct lbtf_verify_opts *o,
			struct lbtf_verify_result *res);
/* A streamed log: hand what is buffered to the caller's log_fn */
void lbtfi_vlog_flush(struct vlog *log);
/* The whole log as a NUL-terminated string the caller owns (free() it, or
 * better lbtfi_vlog_free_taken), NULL when out of memory */
char *lbtfi_vlog_take(struct vlog *log);
/* Done with the log's buffer: kept for the thread's next verify */
void lbtfi_vlog_release(struct vlog *log);
/* Done with a log lbtfi_vlog_take gave (or any malloc'ed text): the
 * buffer kept for the thread's next verify when it is the last one given */
void lbtfi_vlog_free_taken(char *text);

/* ---- the per-type work arrays, zeroed, sized from the header (arena.c) ---- */
int lbtfi_varena_init(struct venv *env);
void lbtfi_varena_pass2(struct venv *env); /* once pass 1 has counted the types */
void lbtfi_varena_free(struct venv *env);

/* ---- names and strings (env.c) ---- */
const char *lbtfi_vbase_str(const struct venv *env, uint32_t off);
/* NULL if invalid */
static inline const char *lbtfi_vstr(const struct venv *env, uint32_t off)
{
	if (off < env->start_str_off)
		return lbtfi_vbase_str(env, off);
	off -= env->start_str_off;
	return off < env->hdr.str_len ? env->strs + off : NULL;
}
const char *lbtfi_vname(const struct venv *env, uint32_t off);     /* (anon)/(invalid-name-offset) */
static inline bool lbtfi_vname_off_ok(const struct venv *env, uint32_t off)
{
	if (off > VMAX_NAME_OFFSET)
		return false;
	if (off < env->start_str_off)
		return true; /* inside the base's strings */
	return off - env->start_str_off < env->hdr.str_len;
}
bool lbtfi_vname_ident_slow(const struct venv *env, uint32_t off);
void lbtfi_vidents_scan(struct venv *env); /* all own strings at once, into ident_ok */
/* A valid identifier (the offset must be valid); good own names are
 * remembered in ident_ok, one bit per string offset */
static inline bool lbtfi_vname_ident(const struct venv *env, uint32_t off)
{
	uint32_t own = off - env->start_str_off;

	if (env->ident_ok && off >= env->start_str_off && (env->ident_ok[own / 64] >> (own % 64) & 1))
		return true;
	return lbtfi_vname_ident_slow(env, off);
}
bool lbtfi_vname_section(const struct venv *env, uint32_t off);    /* offset must be valid */

/* ---- stages ---- */
int lbtfi_vparse_hdr(struct venv *env);        /* hdr.c */
int lbtfi_vparse_str_sec(struct venv *env);
int lbtfi_vparse_layout_sec(struct venv *env);
int lbtfi_vcheck_all_metas(struct venv *env);  /* meta.c */
int lbtfi_vcheck_all_types(struct venv *env);  /* resolve.c */
int lbtfi_vcheck_type_tags(struct venv *env);  /* verify.c */
int lbtfi_vcheck_special(struct venv *env);    /* special.c */
/* pass 1, for each STRUCT and TYPE_TAG added at index i (base BTF only) */
void lbtfi_vsf_note_type(struct venv *env, const struct lbtf_type *t, uint32_t i);
/* pass 2, for a struct member whose type may be a special struct (its
 * bit is in sp.any; lbtfi_vsf_member() below tests that inline) */
void lbtfi_vsf_note_member(struct venv *env, uint32_t struct_id, uint32_t member_type);


/* ---- per-kind operations, referenced by the table in ops.c ---- */
#define VKIND_META(name) int lbtfi_vmeta_##name(struct venv *env, const struct lbtf_type *t, uint32_t left)
/* the kinds whose checks are all rows (meta.c's ROWS_FN), then the others */
VKIND_META(modifier); VKIND_META(typedef); VKIND_META(type_tag); VKIND_META(array); VKIND_META(fwd);
VKIND_META(func); VKIND_META(func_proto); VKIND_META(var); VKIND_META(float); VKIND_META(decl_tag);
VKIND_META(int); VKIND_META(struct); VKIND_META(enum); VKIND_META(datasec);
#define VKIND_DETAILS(name) void lbtfi_vdetails_##name(struct venv *env, const struct lbtf_type *t)
VKIND_DETAILS(int); VKIND_DETAILS(ref); VKIND_DETAILS(fwd); VKIND_DETAILS(array); VKIND_DETAILS(sized);
VKIND_DETAILS(func_proto); VKIND_DETAILS(var); VKIND_DETAILS(float); VKIND_DETAILS(decl_tag);
#define VKIND_RESOLVE(name) int lbtfi_vresolve_##name(struct venv *env, struct vvertex *v)
VKIND_RESOLVE(modifier); VKIND_RESOLVE(ptr); VKIND_RESOLVE(var); VKIND_RESOLVE(array);
VKIND_RESOLVE(struct); VKIND_RESOLVE(func); VKIND_RESOLVE(datasec); VKIND_RESOLVE(decl_tag);
#define VKIND_MEMBER(name) int lbtfi_vmember_##name(struct venv *env, const struct lbtf_type *st, \
	const struct lbtf_member *m, const struct lbtf_type *mt)
int lbtfi_vfunc_bad_arg(const struct venv *env, const struct lbtf_type *t); /* resolve_kinds.c */
VKIND_MEMBER(int); VKIND_MEMBER(int_kflag); VKIND_MEMBER(modifier); VKIND_MEMBER(modifier_kflag);
VKIND_MEMBER(ptr); VKIND_MEMBER(array); VKIND_MEMBER(struct); VKIND_MEMBER(enum);
VKIND_MEMBER(enum_kflag); VKIND_MEMBER(float); VKIND_MEMBER(generic_kflag); VKIND_MEMBER(unsupported);
VKIND_MEMBER(unsupported_kflag);


/* ---- type access and resolve helpers (env.c) ----
 * Inline for this BTF's own ids (every type and member asks); a split BTF's
 * base ids go out of line. */
const struct lbtf_type *lbtfi_vbase_type(const struct venv *env, uint32_t id);
uint32_t lbtfi_vbase_resolved_id(const struct venv *env, uint32_t id);
uint32_t lbtfi_vbase_resolved_size(const struct venv *env, uint32_t id);

/* NULL past end */
static inline const struct lbtf_type *lbtfi_vtype(const struct venv *env, uint32_t id)
{
	if (id < env->start_id)
		return lbtfi_vbase_type(env, id);
	id -= env->start_id;
	return id < env->nr_types ? env->types[id] : NULL;
}
static inline uint32_t lbtfi_vresolved_id(const struct venv *env, uint32_t id)
{
	if (id < env->start_id)
		return lbtfi_vbase_resolved_id(env, id);
	return env->res[id - env->start_id].id;
}
static inline uint32_t lbtfi_vresolved_size(const struct venv *env, uint32_t id)
{
	if (id < env->start_id)
		return lbtfi_vbase_resolved_size(env, id);
	return env->res[id - env->start_id].size;
}
static inline bool lbtfi_vis_resolved(const struct venv *env, uint32_t id)
{
	return id < env->start_id || env->res[id - env->start_id].visit == RESOLVED;
}
const struct lbtf_type *lbtfi_vid_size_slow(const struct venv *env, uint32_t *id, uint32_t *size);
bool lbtfi_vint_regular(const struct lbtf_type *t);

/* Kind predicates as bit masks over kinds (void is kind 0; VK_NULL, a
 * missing type, is in no mask). The *_k forms work on a kind alone so hot
 * loops can use the dense kind array instead of loading type records. */
#define VK_NULL 31u
#define KB(k) (1u << LBTF_KIND_##k)
#define M_MODIFIER (KB(TYPEDEF) | KB(VOLATILE) | KB(CONST) | KB(RESTRICT) | KB(TYPE_TAG))
#define M_STRUCT (KB(STRUCT) | KB(UNION))
#define M_NEEDS_RESOLVE (M_MODIFIER | M_STRUCT | KB(PTR) | KB(ARRAY) | KB(VAR) | KB(FUNC) | \
			 KB(DECL_TAG) | KB(DATASEC))
#define M_NOSIZE (KB(UNKN) | KB(FWD) | KB(FUNC) | KB(FUNC_PROTO) | KB(DECL_TAG))
#define M_SOURCE_ONLY (KB(VAR) | KB(DECL_TAG) | KB(DATASEC))
static inline bool vk_in(unsigned int k, uint32_t mask) { return (mask >> k) & 1; }

static inline unsigned int vk(const struct lbtf_type *t) { return lbtf_kind(t); }
static inline bool v_is_modifier(const struct lbtf_type *t) { return vk_in(vk(t), M_MODIFIER); }
static inline bool v_is_struct(const struct lbtf_type *t) { return vk_in(vk(t), M_STRUCT); }
static inline bool v_is_void(const struct lbtf_type *t) { return vk(t) == LBTF_KIND_UNKN; }
static inline bool v_needs_resolve(const struct lbtf_type *t) { return vk_in(vk(t), M_NEEDS_RESOLVE); }
/* Kinds whose size/type word is a size: from the shared kind table */
extern bool lbtfi_vhas_size[LBTF_NR_KINDS + 13];
static inline bool v_has_size(const struct lbtf_type *t) { return lbtfi_vhas_size[vk(t)]; }
extern uint32_t lbtfi_vsize_kinds; /* the same as a mask of kinds */
/* A record's bytes after struct lbtf_type: extra + elem * vlen (a copy of
 * the shared kind table's layout facts, read once per type) */
struct vrec { uint16_t extra, elem; };
extern struct vrec lbtfi_vrec[LBTF_NR_KINDS + 13];
static inline uint32_t v_rec_needed(const struct lbtf_type *t)
{
	return lbtfi_vrec[vk(t)].extra + (uint32_t)lbtfi_vrec[vk(t)].elem * lbtf_vlen(t);
}
static inline bool v_nosize(const struct lbtf_type *t) { return vk_in(vk(t), M_NOSIZE); }
static inline bool v_nosize_or_null(const struct lbtf_type *t) { return !t || v_nosize(t); }
static inline bool v_source_only(const struct lbtf_type *t) { return vk_in(vk(t), M_SOURCE_ONLY); }

static inline void lbtfi_vsf_member(struct venv *env, const struct lbtf_type *st, uint32_t struct_id,
				    uint32_t member_type)
{
	if ((env->sp.any >> (member_type % 64) & 1) && vk(st) == LBTF_KIND_STRUCT)
		lbtfi_vsf_note_member(env, struct_id, member_type);
}

/* Kind of a type id without touching its record; VK_NULL past the end */
static inline unsigned int vkind_id(const struct venv *env, uint32_t id)
{
	if (id < env->start_id) {
		const struct lbtf_type *t = lbtf_type_by_id(env->base, id);
		return t ? vk(t) : VK_NULL;
	}
	id -= env->start_id;
	return id < env->nr_types ? env->kinds[id] : VK_NULL;
}
static inline uint32_t v_int_data(const struct lbtf_type *t) { return *(const uint32_t *)(t + 1); }

/* The kernel's btf_type_id_size() over this BTF's own ids (modifiers and
 * VARs through their resolved id, as pass 2 left it), from the dense
 * arrays only: the index of the type with the size (*id set to its id),
 * VSIZE_NONE when there is none, VSIZE_ASK when a base id is involved
 * (env.c's lbtfi_vid_size_slow answers those). */
enum { VSIZE_NONE = -1, VSIZE_ASK = -2 };
static inline int64_t lbtfi_vid_size_index(const struct venv *env, uint32_t *id)
{
	uint32_t sid = *id, i = sid - env->start_id;
	unsigned int k;

	if (sid < env->start_id || i >= env->nr_types)
		return VSIZE_ASK;
	k = env->kinds[i];
	if (vk_in(k, M_MODIFIER | KB(VAR))) {
		sid = env->res[i].id;
		i = sid - env->start_id;
		if (sid < env->start_id || i >= env->nr_types)
			return VSIZE_ASK;
		k = env->kinds[i];
	}
	/* no size: void, FWD, FUNC, FUNC_PROTO, DECL_TAG, a modifier */
	if (!vk_in(k, lbtfi_vsize_kinds | KB(PTR) | KB(ARRAY)))
		return VSIZE_NONE;
	*id = sid;
	return i;
}

/* btf_type_id_size(): the type with the size, or NULL */
static inline const struct lbtf_type *lbtfi_vid_size(const struct venv *env, uint32_t *id,
						     uint32_t *size)
{
	uint32_t sid = *id;
	int64_t i = lbtfi_vid_size_index(env, &sid);

	if (i == VSIZE_ASK)
		return lbtfi_vid_size_slow(env, id, size);
	if (i == VSIZE_NONE)
		return NULL;
	if (size)
		*size = env->kinds[i] == LBTF_KIND_PTR ? VPTR_SIZE
			: env->kinds[i] == LBTF_KIND_ARRAY ? env->res[i].size : env->types[i]->size;
	*id = sid;
	return env->types[i];
}

/* The same when only whether there is a size matters (and the id it ends
 * at): no type record is loaded */
static inline bool lbtfi_vid_has_size(const struct venv *env, uint32_t *id)
{
	int64_t i = lbtfi_vid_size_index(env, id);

	return i == VSIZE_ASK ? lbtfi_vid_size_slow(env, id, NULL) != NULL : i != VSIZE_NONE;
}

/* ---- the DFS stack of pass 2 (resolve.c), used by the per-kind steps;
 * inline: every reference of every type goes through them ---- */
static inline int lbtfi_vpush(struct venv *env, const struct lbtf_type *t, uint32_t id)
{
	struct vvertex *v;

	if (env->top == VMAX_RESOLVE_DEPTH)
		return -E2BIG;
	if (id < env->start_id || env->res[id - env->start_id].visit != NOT_VISITED)
		return -EEXIST;
	env->res[id - env->start_id].visit = VISITED;
	v = &env->stack[env->top++];
	v->t = t;
	v->id = id;
	v->next_member = 0;
	if (env->mode == RESOLVE_TBD) {
		if (vk(t) == LBTF_KIND_PTR)
			env->mode = RESOLVE_PTR;
		else if (v_is_struct(t) || vk(t) == LBTF_KIND_ARRAY)
			env->mode = RESOLVE_STRUCT_OR_ARRAY;
	}
	return 0;
}

static inline void lbtfi_vpop_resolved(struct venv *env, uint32_t res_id, uint32_t res_size)
{
	uint32_t i = env->stack[--env->top].id - env->start_id;

	env->res[i].visit = RESOLVED;
	env->res[i].id = res_id;
	env->res[i].size = res_size;
}

static inline bool lbtfi_vis_sink_k(const struct venv *env, unsigned int k)
{
	switch (env->mode) {
	case RESOLVE_TBD:
		return !vk_in(k, M_NEEDS_RESOLVE);
	case RESOLVE_PTR:
		return !vk_in(k, M_MODIFIER | KB(PTR));
	default:
		return !vk_in(k, M_MODIFIER | KB(ARRAY) | M_STRUCT);
	}
}

/* not a sink in the current mode and not resolved yet: push it first */
static inline bool lbtfi_vmust_descend_k(const struct venv *env, unsigned int k, uint32_t id)
{
	return !lbtfi_vis_sink_k(env, k) && !lbtfi_vis_resolved(env, id);
}

static inline bool lbtfi_vmust_descend(const struct venv *env, const struct lbtf_type *t,
				       uint32_t id)
{
	return lbtfi_vmust_descend_k(env, vk(t), id);
}

#endif
