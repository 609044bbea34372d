/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libbtf: parse, verify, build, deduplicate, write and print BTF.
 *
 * Conventions:
 *  - Every public symbol starts with lbtf_ / LBTF_ so a program can link
 *    libbtf and libbpf together.
 *  - Functions returning int return >= 0 on success and a negative errno on
 *    failure; functions returning a pointer return NULL and set errno.
 *    In both cases lbtf_errmsg() gives a one-line human description of the
 *    last failure in this thread (never printed by the library).
 *  - Type records are returned as pointers into the (host-endian) type data.
 *  - Options and results are structs whose first field is size_t sz, the size
 *    the caller was built with (libbpf's convention): declare them with
 *    LBTF_OPTS(lbtf_verify_opts, opts, .log_level = 1). sz 0 is an error; a
 *    caller built against an older, shorter struct gets the defaults for the
 *    newer fields, and a result struct is written only up to its sz.
 */
#ifndef LIBBTF_H
#define LIBBTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Everything declared here is exported; the rest of libbtf is built with
 * -fvisibility=hidden (see libbtf.map for the versioned list). */
#pragma GCC visibility push(default)

/* A zeroed options (or result) struct of the given type with sz set. */
#define LBTF_OPTS(TYPE, NAME, ...)                                                     \
	struct TYPE NAME = ({                                                          \
		__builtin_memset(&NAME, 0, sizeof(struct TYPE));                       \
		(struct TYPE){ .sz = sizeof(struct TYPE), __VA_ARGS__ };               \
	})

/* ---- format ----------------------------------------------------------- */

#define LBTF_MAGIC 0xeB9F
#define LBTF_VERSION 1
#define LBTF_MAX_FILE_SIZE (16u * 1024 * 1024) /* kernel's BTF_MAX_SIZE */

enum lbtf_kind {
	LBTF_KIND_UNKN = 0,
	LBTF_KIND_INT = 1,
	LBTF_KIND_PTR = 2,
	LBTF_KIND_ARRAY = 3,
	LBTF_KIND_STRUCT = 4,
	LBTF_KIND_UNION = 5,
	LBTF_KIND_ENUM = 6,
	LBTF_KIND_FWD = 7,
	LBTF_KIND_TYPEDEF = 8,
	LBTF_KIND_VOLATILE = 9,
	LBTF_KIND_CONST = 10,
	LBTF_KIND_RESTRICT = 11,
	LBTF_KIND_FUNC = 12,
	LBTF_KIND_FUNC_PROTO = 13,
	LBTF_KIND_VAR = 14,
	LBTF_KIND_DATASEC = 15,
	LBTF_KIND_FLOAT = 16,
	LBTF_KIND_DECL_TAG = 17,
	LBTF_KIND_TYPE_TAG = 18,
	LBTF_KIND_ENUM64 = 19,
	LBTF_KIND_MAX = LBTF_KIND_ENUM64,
	LBTF_NR_KINDS = LBTF_KIND_MAX + 1,
};

/* INT encoding bits (in the INT's extra word, bits 24-27) */
#define LBTF_INT_SIGNED (1u << 0)
#define LBTF_INT_CHAR (1u << 1)
#define LBTF_INT_BOOL (1u << 2)

enum lbtf_linkage { /* FUNC linkage; VAR uses 0 static, 1 global, 2 extern */
	LBTF_LINKAGE_STATIC = 0,
	LBTF_LINKAGE_GLOBAL = 1,
	LBTF_LINKAGE_EXTERN = 2,
};

/*
 * The header. Encoders of 2026 (libbpf 1.8, pahole with layout) add the
 * layout section's offset and length; a header of LBTF_HDR_LEN_V1 bytes
 * has none (the two fields read 0).
 */
struct lbtf_header {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t type_off;
	uint32_t type_len;
	uint32_t str_off;
	uint32_t str_len;
	uint32_t layout_off; /* offset of the layout section (after the types) */
	uint32_t layout_len; /* its length: one struct lbtf_layout per kind */
};
#define LBTF_HDR_LEN_V1 24u /* the header up to str_len */

/*
 * One entry of the layout section per kind the encoder knew (index: kind):
 * how many bytes follow struct lbtf_type once (info_sz) and per vlen
 * element (elem_sz), so a reader can step over kinds it does not know.
 */
struct lbtf_layout {
	uint8_t info_sz;
	uint8_t elem_sz;
	uint16_t flags; /* none defined yet */
};

struct lbtf_type {
	uint32_t name_off;
	uint32_t info; /* vlen 0-23, kind 24-30, kind_flag 31 */
	union {
		uint32_t size;
		uint32_t type;
	};
};

struct lbtf_array {
	uint32_t type;
	uint32_t index_type;
	uint32_t nelems;
};

struct lbtf_member {
	uint32_t name_off;
	uint32_t type;
	uint32_t offset; /* kflag: bitfield_size << 24 | bit_offset */
};

struct lbtf_enum {
	uint32_t name_off;
	int32_t val;
};

struct lbtf_enum64 {
	uint32_t name_off;
	uint32_t val_lo32;
	uint32_t val_hi32;
};

struct lbtf_param {
	uint32_t name_off;
	uint32_t type;
};

struct lbtf_var {
	uint32_t linkage;
};

struct lbtf_var_secinfo {
	uint32_t type;
	uint32_t offset;
	uint32_t size;
};

struct lbtf_decl_tag {
	int32_t component_idx;
};

/* ---- the kind table ---------------------------------------------------- */

/*
 * One description per kind, shared by every module (parser, verifier,
 * dumpers, builder, dedup). Layout facts only; each module keeps its own
 * per-kind operations indexed by kind.
 */
struct lbtf_kind_desc {
	const char *name;        /* "INT", "STRUCT", ... as bpftool prints */
	uint16_t extra_size;     /* fixed bytes after struct lbtf_type */
	uint16_t vlen_elem_size; /* bytes per vlen element (0: vlen unused) */
	uint8_t size_field;      /* 1 if the size/type union holds a size */
	uint8_t type_field;      /* 1 if the size/type union holds a type id */
	int8_t elem_type_off;    /* byte offset of a type id in each element, -1 none */
	int8_t elem_name_off;    /* byte offset of a name offset in each element, -1 none */
};

/* NULL for kinds > LBTF_KIND_MAX (unknown kinds). */
const struct lbtf_kind_desc *lbtf_kind_desc(unsigned int kind);
/* "UNKNOWN" for kinds outside the table */
const char *lbtf_kind_name(unsigned int kind);

/*
 * The info word as libbpf 1.8 and the kernel's UAPI read it since 2026:
 * vlen 24 bits, kind 7. Older encoders left bits 16-23 and 29-30 zero (and
 * older kernels reject them set: the verifier checks its own rule set), so
 * their BTF reads the same either way.
 */
#define LBTF_MAX_VLEN 0xffffffu
#define LBTF_MAX_KIND 0x7fu
static inline unsigned int lbtf_kind(const struct lbtf_type *t) { return (t->info >> 24) & LBTF_MAX_KIND; }
static inline unsigned int lbtf_vlen(const struct lbtf_type *t) { return t->info & LBTF_MAX_VLEN; }
static inline bool lbtf_kflag(const struct lbtf_type *t) { return t->info >> 31; }
static inline uint32_t lbtf_info(unsigned int kind, unsigned int vlen, bool kflag)
{
	return ((uint32_t)kflag << 31) | ((uint32_t)(kind & LBTF_MAX_KIND) << 24) |
	       (vlen & LBTF_MAX_VLEN);
}

/*
 * Bytes taken by the type record t (header + extra + vlen elements), or 0
 * for an unknown kind. lbtf_type_size() also sizes kinds this library does
 * not know, from the layout section of the BTF they are in.
 */
size_t lbtf_type_rec_size(const struct lbtf_type *t);

static inline bool lbtf_is_composite(const struct lbtf_type *t)
{
	return lbtf_kind(t) == LBTF_KIND_STRUCT || lbtf_kind(t) == LBTF_KIND_UNION;
}
static inline bool lbtf_is_enum(const struct lbtf_type *t)
{
	return lbtf_kind(t) == LBTF_KIND_ENUM || lbtf_kind(t) == LBTF_KIND_ENUM64;
}
static inline bool lbtf_is_mod(const struct lbtf_type *t)
{
	unsigned int k = lbtf_kind(t);
	return k == LBTF_KIND_VOLATILE || k == LBTF_KIND_CONST || k == LBTF_KIND_RESTRICT ||
	       k == LBTF_KIND_TYPE_TAG;
}
static inline uint32_t lbtf_int_encoding(const struct lbtf_type *t)
{
	return (*(const uint32_t *)(t + 1) >> 24) & 0x0f;
}
static inline uint32_t lbtf_int_offset(const struct lbtf_type *t)
{
	return (*(const uint32_t *)(t + 1) >> 16) & 0xff;
}
static inline uint32_t lbtf_int_bits(const struct lbtf_type *t)
{
	return *(const uint32_t *)(t + 1) & 0xff;
}
static inline const struct lbtf_array *lbtf_array(const struct lbtf_type *t)
{
	return (const struct lbtf_array *)(t + 1);
}
static inline const struct lbtf_member *lbtf_members(const struct lbtf_type *t)
{
	return (const struct lbtf_member *)(t + 1);
}
static inline uint32_t lbtf_member_bit_offset(const struct lbtf_type *t, unsigned int i)
{
	uint32_t off = lbtf_members(t)[i].offset;
	return lbtf_kflag(t) ? off & 0xffffff : off;
}
static inline uint32_t lbtf_member_bitfield_size(const struct lbtf_type *t, unsigned int i)
{
	return lbtf_kflag(t) ? lbtf_members(t)[i].offset >> 24 : 0;
}
static inline const struct lbtf_enum *lbtf_enums(const struct lbtf_type *t)
{
	return (const struct lbtf_enum *)(t + 1);
}
static inline const struct lbtf_enum64 *lbtf_enums64(const struct lbtf_type *t)
{
	return (const struct lbtf_enum64 *)(t + 1);
}
static inline uint64_t lbtf_enum64_value(const struct lbtf_enum64 *e)
{
	return ((uint64_t)e->val_hi32 << 32) | e->val_lo32;
}
static inline const struct lbtf_param *lbtf_params(const struct lbtf_type *t)
{
	return (const struct lbtf_param *)(t + 1);
}
static inline const struct lbtf_var *lbtf_var(const struct lbtf_type *t)
{
	return (const struct lbtf_var *)(t + 1);
}
static inline const struct lbtf_var_secinfo *lbtf_secinfos(const struct lbtf_type *t)
{
	return (const struct lbtf_var_secinfo *)(t + 1);
}
static inline const struct lbtf_decl_tag *lbtf_decl_tag(const struct lbtf_type *t)
{
	return (const struct lbtf_decl_tag *)(t + 1);
}

/*
 * Visit every type-id slot / string-offset slot of a type record, driven
 * by the kind table. The callback may rewrite the slot. A non-zero return
 * stops the walk and is returned.
 */
typedef int (*lbtf_slot_fn)(uint32_t *slot, void *ctx);
int lbtf_type_visit_type_ids(struct lbtf_type *t, lbtf_slot_fn fn, void *ctx);
int lbtf_type_visit_str_offs(struct lbtf_type *t, lbtf_slot_fn fn, void *ctx);
/* The same walks over a record that is only read: fn gets each slot's value. */
typedef int (*lbtf_value_fn)(uint32_t value, void *ctx);
int lbtf_type_read_type_ids(const struct lbtf_type *t, lbtf_value_fn fn, void *ctx);
int lbtf_type_read_str_offs(const struct lbtf_type *t, lbtf_value_fn fn, void *ctx);

/* ---- errors ------------------------------------------------------------ */

/* Message describing the last failure of a libbtf call in this thread. */
const char *lbtf_errmsg(void);

/* The library's version, "MAJOR.MINOR.PATCH" (the same as the programs'
 * --version and libbtf.pc). */
const char *lbtf_lib_version(void);

/* ---- opening BTF ------------------------------------------------------- */

struct lbtf;

/*
 * Parse a raw BTF blob. The bytes are copied. base may be NULL, or the base
 * BTF for split BTF (types then start at lbtf_type_cnt(base)).
 * Opposite-endian blobs are accepted and converted; lbtf_is_swapped() says so.
 * This is the fast sanity layer (every offset and length checked), not the
 * kernel-exact verifier (see lbtf_verify()).
 */
struct lbtf *lbtf_new(const void *data, size_t size, const struct lbtf *base);
/* Same, but keeps a pointer to the caller's bytes (which must outlive the
 * object and be host-endian; an opposite-endian blob is copied anyway). */
struct lbtf *lbtf_new_borrowed(const void *data, size_t size, const struct lbtf *base);
/* Raw BTF file (mmapped) */
struct lbtf *lbtf_open_raw(const char *path, const struct lbtf *base);
/*
 * ELF file's .BTF section. A module with a .BTF.base section (a distilled
 * base: pahole's distilled_base, btfgen --distilled-base) is split BTF over
 * it: with base NULL the result is .BTF over .BTF.base (which it owns), as
 * libbpf's btf__parse_elf() gives it; with a base, .BTF relocated onto
 * base by lbtf_relocate(), as btf__parse_elf_split() and the kernel's
 * module loader do.
 */
struct lbtf *lbtf_open_elf(const char *path, const struct lbtf *base);
/*
 * Any file: ELF (by magic) or raw. A path under /sys/kernel/btf/ other
 * than vmlinux gets /sys/kernel/btf/vmlinux as base when base is NULL (the
 * base object is then owned by the returned object).
 */
struct lbtf *lbtf_open(const char *path, const struct lbtf *base);
/* The .BTF section of an ELF image, in place (*btf points into elf, as
 * stored). elf is not written to (libelf's interface takes it writable). */
int lbtf_elf_btf(const char *path, void *elf, size_t size, const void **btf, size_t *btf_size);
/*
 * The .BTF.base section of an ELF image (a module's distilled base), in
 * place as for lbtf_elf_btf(): 0, or -ENODATA when the file has none.
 */
int lbtf_elf_btf_base(const char *path, void *elf, size_t size, const void **base,
		      size_t *base_size);
/* /sys/kernel/btf/vmlinux */
struct lbtf *lbtf_open_vmlinux(void);
/* Kernel BTF object by id (BPF_BTF_GET_FD_BY_ID); base as for lbtf_new. If
 * base is NULL and the object is module BTF, vmlinux is loaded as base. */
struct lbtf *lbtf_open_kernel_id(uint32_t id, const struct lbtf *base);
void lbtf_free(struct lbtf *btf);

/*
 * Relocating split BTF from its distilled base onto a real one, as libbpf's
 * btf__relocate() and the kernel (for a module's .BTF over .BTF.base) do.
 * Each type of the distilled base (named INT, FLOAT, FWD, ENUM, memberless
 * STRUCT/UNION only, else -EINVAL) is matched with base's types of its
 * name: INT by size and encoding, FLOAT and ENUM (an ENUM or ENUM64) by
 * size, a STRUCT/UNION by size only where the split BTF embeds it (not
 * behind a pointer) or where base has several composites of the name, a
 * FWD as libbpf does. No match, or two base types for one, is -EINVAL and
 * a message naming the type; a base string the split types name that is
 * not one of the matched names is -ENOENT.
 */
struct lbtf_relocate_opts {
	size_t sz;        /* sizeof(struct lbtf_relocate_opts) */
	const char *name; /* names split in error messages (e.g. the .ko); NULL: none */
};
/*
 * A new object: split's types over base (ids after base's, distilled base
 * ids replaced by base's, strings after base's), split unchanged. base must
 * be base BTF and outlive the result; split's base must be a distilled base.
 * NULL and errno on failure (lbtf_errmsg() says why).
 */
struct lbtf *lbtf_relocate(const struct lbtf *split, const struct lbtf *base,
			   const struct lbtf_relocate_opts *opts);
/*
 * Whether dist can be a distilled base: only named INT, FLOAT, FWD, ENUM,
 * STRUCT and UNION types (the kernel's rule before it relocates a module).
 * 0, or -EINVAL with a message naming the first type that is not (prefixed
 * with name unless NULL).
 */
int lbtf_distilled_base_check(const struct lbtf *dist, const char *name);

/*
 * Why raw BTF bytes (a file's contents or ELF .BTF, either byte order) fail
 * to parse or verify, in terms of the fix; for the failure paths of tools.
 * Returns one of enum lbtf_diag, and for any but LBTF_DIAG_NONE puts a
 * one-line hint in lbtf_errmsg() (replacing the last message):
 *  - LBTF_DIAG_NEEDS_BASE: no base given, and the strings do not start with
 *    the empty string, as split BTF's do not: "looks like split BTF; pass --base"
 *  - LBTF_DIAG_BASE_MISMATCH: with base, names land inside or past the
 *    strings, or type ids past the types: the base is not the one it was
 *    built over
 *  - LBTF_DIAG_OPPOSITE_ENDIAN: the header is of the other byte order
 */
enum lbtf_diag {
	LBTF_DIAG_NONE = 0,
	LBTF_DIAG_NEEDS_BASE,
	LBTF_DIAG_BASE_MISMATCH,
	LBTF_DIAG_OPPOSITE_ENDIAN,
};
int lbtf_diagnose(const void *data, size_t size, const struct lbtf *base);
/*
 * Raw BTF bytes of the other byte order to this host's, in place: the
 * header and every 32-bit word of the type section (strings are bytes).
 * 1 if swapped, 0 if already in host order, -EINVAL if not BTF.
 */
int lbtf_bytes_to_host(void *data, size_t size);

/* ---- access ------------------------------------------------------------ */

/* Number of type ids including void and the base: valid ids are < type_cnt */
uint32_t lbtf_type_cnt(const struct lbtf *btf);
/* First id owned by this object (1 for base BTF) */
uint32_t lbtf_start_id(const struct lbtf *btf);
const struct lbtf *lbtf_base(const struct lbtf *btf);
/* NULL for an id out of range; id 0 gives a VOID record (kind 0) */
const struct lbtf_type *lbtf_type_by_id(const struct lbtf *btf, uint32_t id);
/* NULL when the offset is outside the string section(s) */
const char *lbtf_name_by_offset(const struct lbtf *btf, uint32_t off);
/* Name of a type, "" for anonymous, NULL for invalid offset */
const char *lbtf_type_name(const struct lbtf *btf, const struct lbtf_type *t);
/*
 * First id with that name (and kind, unless kind < 0), or -ENOENT. In BTF
 * whose types are sorted by name (libbpf 1.8's permutation, as resolve_btfids
 * leaves a kernel's), by binary search over that object's types.
 */
int lbtf_find_by_name(const struct lbtf *btf, const char *name);
int lbtf_find_by_name_kind(const struct lbtf *btf, const char *name, int kind);
/* When btf's own types are in name order (strcmp, never decreasing; libbpf's
 * rule), the first of them with a name, else 0: lookups use the order then */
uint32_t lbtf_sorted_from(const struct lbtf *btf);
/* Skip typedefs and modifiers (const/volatile/restrict/type_tag); id or <0 */
int lbtf_resolve_type(const struct lbtf *btf, uint32_t id);
/* Skip modifiers only (not typedefs) */
int lbtf_skip_mods(const struct lbtf *btf, uint32_t id);
/* Size in bytes of the type (through typedefs, modifiers, arrays) or <0 */
int64_t lbtf_resolve_size(const struct lbtf *btf, uint32_t id);
/* Natural alignment of the type, or <0 */
int lbtf_align_of(const struct lbtf *btf, uint32_t id);

const struct lbtf_header *lbtf_header(const struct lbtf *btf);
/*
 * The layout section (host endian) and its number of entries, or NULL (and
 * *cnt 0) when the BTF has none. Split BTF without one is sized by its
 * base's, as libbpf does: lbtf_layout() returns only this object's.
 */
const struct lbtf_layout *lbtf_layout(const struct lbtf *btf, uint32_t *cnt);
/*
 * Bytes taken by record t of btf: as lbtf_type_rec_size() for kinds this
 * library knows, from the layout (btf's, else its base's) for others; 0
 * when neither knows the kind.
 */
size_t lbtf_type_size(const struct lbtf *btf, const struct lbtf_type *t);
/* Whole blob of this object (host endian) */
const void *lbtf_raw_data(const struct lbtf *btf, size_t *size);
/* Start of the (host endian) string section of this object and its length */
const char *lbtf_strings(const struct lbtf *btf, uint32_t *len);
/* True if the input was in the opposite byte order of this host */
bool lbtf_is_swapped(const struct lbtf *btf);
/* Pointer size guessed from the ELF class or 'long' (8 by default) */
int lbtf_pointer_size(const struct lbtf *btf);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

/* The modules' APIs, one header each */
#include "libbtf_build.h"  /* builder, dedup, writer */
#include "libbtf_dwarf.h"  /* DWARF -> BTF */
#include "libbtf_verify.h" /* kernel-exact verifier */
#include "libbtf_dump.h"   /* raw text and JSON dumps */
#include "libbtf_dump_c.h" /* C header dump */
#include "libbtf_data.h"   /* typed data (map key/value) printer */

#endif /* LIBBTF_H */
