/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libbtf builder, dedup and writer: build BTF type by type (in the spirit of
 * libbpf's btf__add_*), deduplicate it, serialize it, write it to a raw
 * file or into an ELF's .BTF section.
 *
 * Every lbtf_builder_add_* returns the new type id (> 0) or a negative errno, and
 * validates its arguments. Composite kinds are built "append to the last
 * type": lbtf_builder_add_struct() then lbtf_builder_add_field()...,
 * lbtf_builder_add_enum() then lbtf_builder_add_enum_value()...,
 * lbtf_builder_add_func_proto() then lbtf_builder_add_func_param()...,
 * lbtf_builder_add_datasec() then lbtf_builder_add_datasec_var_info()...
 * Referenced type ids may point forward (to ids added later); they are only
 * range-checked when added and must all exist when serializing.
 */
#ifndef LIBBTF_BUILD_H
#define LIBBTF_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Everything declared here is exported; the rest of libbtf is built with
 * -fvisibility=hidden (see libbtf.map for the versioned list). */
#pragma GCC visibility push(default)

struct lbtf;
struct lbtf_type;
struct lbtf_builder;

/* New empty BTF; with base non-NULL it is split BTF over base (ids start at
 * lbtf_type_cnt(base), string offsets after base's strings). */
struct lbtf_builder *lbtf_builder_new(const struct lbtf *base);
void lbtf_builder_free(struct lbtf_builder *b);

/* Intern a string; returns its offset (0 for "" or NULL) or a negative errno */
int lbtf_builder_add_str(struct lbtf_builder *b, const char *s);
/* String at offset (base strings included) or NULL */
const char *lbtf_builder_str(const struct lbtf_builder *b, uint32_t off);
/* Next id to be assigned (= type count including void and base) */
uint32_t lbtf_builder_type_cnt(const struct lbtf_builder *b);
/* Mutable record of a type added to this builder, NULL otherwise.
 * Invalidated by the next add. */
struct lbtf_type *lbtf_builder_type_by_id(struct lbtf_builder *b, uint32_t id);

int lbtf_builder_add_int(struct lbtf_builder *b, const char *name, uint32_t byte_sz,
			 uint32_t encoding);
int lbtf_builder_add_float(struct lbtf_builder *b, const char *name, uint32_t byte_sz);
int lbtf_builder_add_ptr(struct lbtf_builder *b, uint32_t ref);
int lbtf_builder_add_array(struct lbtf_builder *b, uint32_t index_type, uint32_t elem_type,
			   uint32_t nelems);
int lbtf_builder_add_struct(struct lbtf_builder *b, const char *name, uint32_t byte_sz);
int lbtf_builder_add_union(struct lbtf_builder *b, const char *name, uint32_t byte_sz);
/* Sets the struct's kind_flag as soon as a bitfield (bit_size > 0) is added */
int lbtf_builder_add_field(struct lbtf_builder *b, const char *name, uint32_t type,
		   uint32_t bit_offset, uint32_t bit_size);
int lbtf_builder_add_enum(struct lbtf_builder *b, const char *name, uint32_t byte_sz,
			  bool is_signed);
int lbtf_builder_add_enum_value(struct lbtf_builder *b, const char *name, int64_t value);
int lbtf_builder_add_enum64(struct lbtf_builder *b, const char *name, uint32_t byte_sz,
			    bool is_signed);
int lbtf_builder_add_enum64_value(struct lbtf_builder *b, const char *name, uint64_t value);
enum lbtf_fwd_kind { LBTF_FWD_STRUCT = 0, LBTF_FWD_UNION = 1, LBTF_FWD_ENUM = 2 };
int lbtf_builder_add_fwd(struct lbtf_builder *b, const char *name, enum lbtf_fwd_kind fwd_kind);
int lbtf_builder_add_typedef(struct lbtf_builder *b, const char *name, uint32_t ref);
int lbtf_builder_add_volatile(struct lbtf_builder *b, uint32_t ref);
int lbtf_builder_add_const(struct lbtf_builder *b, uint32_t ref);
int lbtf_builder_add_restrict(struct lbtf_builder *b, uint32_t ref);
int lbtf_builder_add_type_tag(struct lbtf_builder *b, const char *value, uint32_t ref);
int lbtf_builder_add_func(struct lbtf_builder *b, const char *name, int linkage, uint32_t proto);
int lbtf_builder_add_func_proto(struct lbtf_builder *b, uint32_t ret_type);
/* name NULL/"" and type 0 is the varargs marker */
int lbtf_builder_add_func_param(struct lbtf_builder *b, const char *name, uint32_t type);
int lbtf_builder_add_var(struct lbtf_builder *b, const char *name, int linkage, uint32_t type);
int lbtf_builder_add_datasec(struct lbtf_builder *b, const char *name, uint32_t byte_sz);
int lbtf_builder_add_datasec_var_info(struct lbtf_builder *b, uint32_t var, uint32_t offset,
				      uint32_t byte_sz);
int lbtf_builder_add_decl_tag(struct lbtf_builder *b, const char *value, uint32_t ref,
			      int component_idx);
/* Copy one type record (and its strings) from a parsed BTF; referenced ids
 * are kept as they are (the caller remaps them if needed). */
int lbtf_builder_add_type_copy(struct lbtf_builder *b, const struct lbtf *src, uint32_t src_id);
/*
 * Append all types of src (a builder over the same base) to b, renumbering
 * src's own ids to follow b's; returns the id the first appended type got,
 * or a negative errno (b unchanged on failure).
 */
int lbtf_builder_append(struct lbtf_builder *b, const struct lbtf_builder *src);
/*
 * Append all own types of a parsed BTF, as libbpf 1.8's btf__add_btf (with
 * ddb0c14f): src may be base BTF, or split BTF over the very base b is
 * built over (the same struct lbtf, else -EOPNOTSUPP), whose references to
 * that base and its strings stay as they are; src's own ids are renumbered
 * to follow b's. So the BTF of several modules over one vmlinux merges
 * into one split BTF. The id the first appended type got (the next id when
 * src has none), or a negative errno (b unchanged).
 */
int lbtf_builder_add_btf(struct lbtf_builder *b, const struct lbtf *src);
/*
 * A new builder (no base) holding the BTF of a raw blob of size bytes that
 * the caller malloc'ed and hands over: the builder edits the records in
 * place instead of copying them, and when the records name the strings in
 * the order they lie in (what every writer that interns strings makes) it
 * takes the string section as it is. Dedup then works on the blob's own
 * memory: the whole raw -> deduplicated job needs no second copy of the
 * types. The same BTF as lbtf_builder_add_btf into lbtf_builder_new(NULL)
 * (an opposite-endian blob, or one with its strings before its types, is
 * copied that way). data belongs to libbtf from the call on, whatever the
 * outcome: the builder frees it (after realloc'ing it down to the types),
 * and on failure it is already freed. The builder, or NULL with errno and
 * lbtf_errmsg() set (EINVAL: not valid BTF, ENOMEM).
 */
struct lbtf_builder *lbtf_builder_adopt_raw(void *data, size_t size);

/*
 * Split BTF over a distilled base, as libbpf's btf__distill_base() makes it
 * (pahole's distilled_base, for modules built out of tree): *new_base holds
 * only what the kernel needs to relocate *new_split onto its own vmlinux
 * (the base INT/FLOAT/FWD types src reaches, its named structs, unions and
 * enums without members, same sizes); the other base types src reaches are
 * copied into *new_split after src's own. src must be split BTF. Free
 * *new_split before *new_base (it refers to it). 0 or a negative errno.
 */
int lbtf_distill_base(const struct lbtf *src, struct lbtf **new_base, struct lbtf **new_split);

/* ---- dedup ---- */
struct lbtf_dedup_stats {
	size_t sz; /* sizeof(struct lbtf_dedup_stats): written up to it */
	uint32_t types_in, types_out;
	uint32_t strs_in_bytes, strs_out_bytes;
};
struct lbtf_dedup_opts {
	size_t sz; /* sizeof(struct lbtf_dedup_opts) */
	struct lbtf_dedup_stats *stats; /* optional out */
	/*
	 * Optional out, caller-allocated with lbtf_builder_type_cnt(b) -
	 * start id entries (start id: 1, or lbtf_type_cnt(base) for split):
	 * id_map[old - start] = the id type old has after dedup (a base id if
	 * it merged into the base). For callers that keep ids of their own
	 * (e.g. VARs to put in a DATASEC later).
	 */
	uint32_t *id_map;
};
/*
 * Deduplicate in place (libbpf's algorithm family). Deterministic: the same
 * input gives the same output. Types keep their first-occurrence order.
 * Calling it again after appending more types deduplicates the new types
 * against the earlier ones: doing so every few hundred thousand appended
 * types bounds the peak memory of inputs with millions of raw types (a
 * kernel) at no extra CPU; the result is deterministic for a given
 * sequence of appends and dedup calls.
 * Graph walks use heap stacks, so any thread may call it. Not thread-safe
 * on one builder. On failure the builder still holds valid, equivalent BTF.
 */
int lbtf_builder_dedup(struct lbtf_builder *b, const struct lbtf_dedup_opts *opts);
/*
 * Permute b's own types into name order, as the kernel build leaves vmlinux
 * and module BTF (resolve_btfids with libbpf 1.8's btf__permute): strcmp
 * order, equal names (anonymous types first) keeping their old order; the
 * ids that refer to them are renumbered, the base's stay. Lookups by name
 * in the result binary-search (lbtf_sorted_from). 0 or a negative errno
 * (b unchanged). Call it last, after dedup: appending breaks the order.
 */
int lbtf_builder_sort_by_name(struct lbtf_builder *b);

/* ---- output ---- */
/*
 * Serialize to a raw BTF blob (malloc'ed, *data freed by the caller).
 * swap: write in the opposite byte order of this host. Fails with -EINVAL
 * if a type refers to a missing id (forward references not filled in) or
 * a record was edited into an inconsistent one.
 */
int lbtf_builder_serialize(const struct lbtf_builder *b, bool swap, void **data, size_t *size);
/*
 * Whether b's serializations carry a layout section, as libbpf 1.8's
 * btf__new_empty_opts(add_layout) and pahole's --btf_features=layout write
 * it: a 32-byte header, then the types, one struct lbtf_layout per kind
 * this library knows (LBTF_NR_KINDS), the strings. Off by default: the
 * kernels before the section refuse such a header.
 */
void lbtf_builder_set_layout(struct lbtf_builder *b, bool on);
struct lbtf_elf_write_opts {
	size_t sz;           /* sizeof(struct lbtf_elf_write_opts) */
	/* New contents of the .BTF.ext section (e.g. from lbtf_ext_remap()),
	 * in the ELF's byte order; a .rel.BTF.ext is kept when the layout is
	 * the old one's (same size); of another size, it is removed from a
	 * relocatable object (as `bpftool gen object` writes none) and
	 * -EINVAL for a linked file. Added (after the other sections) when
	 * the file has none. NULL: keep .BTF.ext. */
	const void *btf_ext;
	size_t btf_ext_size;
	/* The .BTF.base section (the distilled base of a module's split .BTF,
	 * lbtf_distill_base()), in the ELF's byte order: replaced or added.
	 * NULL: a relocatable object's .BTF.base is removed (it described the
	 * .BTF being replaced). */
	const void *btf_base;
	size_t btf_base_size;
};
/*
 * Add or replace the .BTF section of ELF file in_path with the blob, writing
 * the result to out_path (which may equal in_path) atomically via libelf
 * (out_path gets in_path's mode): through a temporary file next to it,
 * renamed over it when complete. The blob must be in the ELF's byte order
 * (see lbtf_elf_is_swapped()), else -EINVAL. Relocatable objects are laid
 * out afresh; linked files keep every offset, a grown .BTF moving to the
 * end (an allocated .BTF, as in vmlinux, cannot grow: -ENOSPC). A .rel.BTF
 * (relocations of clang's DATASEC offsets; the new blob has final ones) is
 * removed from relocatable objects and emptied in linked files; a .BTF.ext
 * is left as it is (it must match the new ids) unless opts replace it
 * (opts NULL: the defaults).
 */
int lbtf_elf_write_btf(const char *in_path, const char *out_path, const void *data, size_t size,
		       const struct lbtf_elf_write_opts *opts);
/* 1 if the ELF file has a non-empty section of that name, 0 if not, <0 on error */
int lbtf_elf_has_section(const char *path, const char *name);
/* 1 if the ELF file's byte order is opposite to this host's, 0 if same, <0 on error */
int lbtf_elf_is_swapped(const char *path);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
